"""The ledger filter's selects are written in one pass over their options with exactly the
markup of Django's select widget templates: the same HTML for a choice picked or not, an empty
label, an error's attributes and names that need escaping. The session and player choices,
read as values, make the options Django's model select makes from instances, and a value sent
is still looked up in the club's own rows."""

import pytest
from django import forms
from django.core.exceptions import ValidationError

from club.models import Player, Session
from money.filters import OnePassSelect, PlayerChoiceField, SessionChoiceField
from tests.factories import PlayerFactory, SessionFactory

CHOICES = [
    ("", "All sessions"),
    (3, "Thu 26 Nov 2026"),
    (2, 'Tom & "Jerry" <b>'),
    (1, "Thu 12 Nov 2026"),
]


@pytest.mark.parametrize("value", [None, "", "2", 2, "99"])
@pytest.mark.parametrize(
    "attrs",
    [
        {"id": "id_session"},
        {"id": "id_session", "aria-invalid": "true", "aria-describedby": "id_session_error"},
        {"id": "id_x", "required": True, "disabled": False, "data-x": "a<b"},
    ],
)
def test_the_same_html_as_djangos_select(value, attrs):
    expected = forms.Select(choices=CHOICES).render("session", value, attrs=attrs)
    assert OnePassSelect(choices=CHOICES).render("session", value, attrs=attrs) == expected


def test_option_groups_as_django_writes_them():
    choices = [("", "All"), ("Pots", [("main", "Session pot"), ("bank", "Skunk <bank>")])]
    expected = forms.Select(choices=choices).render("pot", "bank", attrs={"id": "id_pot"})
    assert OnePassSelect(choices=choices).render("pot", "bank", attrs={"id": "id_pot"}) == expected


def test_a_select_that_takes_several_as_django_writes_it():
    class Several(OnePassSelect):
        allow_multiple_selected = True

    expected = forms.SelectMultiple(choices=CHOICES).render("s", ["2", "1"], attrs={"id": "s"})
    assert Several(choices=CHOICES).render("s", ["2", "1"], attrs={"id": "s"}) == expected


class SessionByInstance(forms.ModelChoiceField):
    """The session choice as Django's model select writes it: an instance per option."""

    def label_from_instance(self, obj):
        return f"{obj.date:%a %-d %b %Y}"


class PlayerByInstance(forms.ModelChoiceField):
    pass


@pytest.mark.django_db
@pytest.mark.parametrize("picked", [None, "", "first", "last", "theirs"])
def test_the_session_and_player_options_read_as_values_are_djangos(club, other_club, picked):
    ours = SessionFactory.create_batch(3, club=club)
    theirs = SessionFactory(club=other_club)
    PlayerFactory(club=club, display_name="Zoë <Zed> & Co")
    PlayerFactory(club=club, display_name="Ann Able")
    value = {"first": ours[0].pk, "last": ours[-1].pk, "theirs": theirs.pk}.get(picked, picked)
    sessions = Session.objects.filter(club=club).only("pk", "date").order_by("-date")
    players = Player.objects.filter(club=club).only("pk", "display_name").order_by("display_name")
    for mine, django_s, queryset, empty in (
        (SessionChoiceField, SessionByInstance, sessions, "All sessions"),
        (PlayerChoiceField, PlayerByInstance, players, "Everyone"),
    ):
        field = mine(queryset=queryset, empty_label=empty, required=False)
        expected = django_s(queryset=queryset, empty_label=empty, required=False).widget.render(
            "x", value, attrs={"id": "id_x"}
        )
        assert field.widget.render("x", value, attrs={"id": "id_x"}) == expected
    selected = SessionChoiceField(queryset=sessions, required=False).widget.render("s", value)
    assert selected.count(" selected>") == (0 if picked == "theirs" else 1)


@pytest.mark.django_db
def test_a_session_chosen_is_looked_up_in_the_clubs_sessions_only(club, other_club):
    ours = SessionFactory(club=club)
    theirs = SessionFactory(club=other_club)
    field = SessionChoiceField(queryset=Session.objects.filter(club=club), required=False)
    assert field.clean(str(ours.pk)) == ours
    assert field.clean("") is None
    for refused in (str(theirs.pk), "abc", "-1"):
        with pytest.raises(ValidationError, match="Select a valid choice"):
            field.clean(refused)
