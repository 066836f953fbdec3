"""The round's scorecards screen (docs/spec.md "A Thursday, step by step", step 4): an organiser
types in every table's final scores on one screen, all or nothing, each bad table's error on its own
row; "The players signed these scorecards" confirms the results at once when the club's rule "signed
scorecards confirm" is on, and leaves drafts when it is off.

Terms: *round* is round 1 of a session of `club` with nine checked-in players in singles (three
2-player tables and one cut-throat table); *card* is valid final scores for each table as the
form posts them (`table_<n>_side_<i>`); *page* is the screen rendered for the organiser, whose
one-time token the posts carry.
"""

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from club import services as club_services
from club.models import Club, Player, Session, SessionState
from core.models import AuditEntry
from core.submissions import ALREADY_SAVED, TOKEN_FIELD
from games import services, views
from games.audit import GameVerb
from games.models import Game, Result, ResultLine, ResultSource, ResultState, SessionTotal
from games.selectors import round_tables
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 11, 26)


def make_round(club, organiser, *, players=9, seated=()):
    """Round 1 of a new session of `club`, opened under the club's rules as they are now."""
    session = club_services.session_open(club=club, actor=organiser, date=THURSDAY)
    roster = [Player.objects.get(user=user) for user in seated]
    roster += [PlayerFactory(club=club) for _ in range(players - len(roster))]
    club_services.checkins_create(session=session, actor=organiser, players=roster, paid=True)
    return services.round_draw(session=session, actor=organiser, seed=4)


@pytest.fixture
def round_(club, organiser):
    return make_round(club, organiser)


def games_of(round_):
    return list(Game.objects.filter(round=round_).order_by("table"))


def scores_of(game) -> list[int]:
    return [80, 121, 100] if game.side_count == 3 else [121, 70 + game.table]


def card(round_, tables=None) -> dict[str, str]:
    data = {}
    for game in games_of(round_):
        if tables is None or game.table in tables:
            for side, score in enumerate(scores_of(game)):
                data[f"table_{game.table}_side_{side}"] = str(score)
    return data


def url(round_) -> str:
    return reverse("games:round_scorecards", args=[round_.pk])


def page(client, round_):
    response = client.get(url(round_))
    assert response.status_code == 200
    return response


def post(client, round_, data, *, token=None):
    """Post the screen as rendered now (its token) with `data`."""
    token = token or page(client, round_).context["form"][TOKEN_FIELD].value()
    return client.post(url(round_), {TOKEN_FIELD: token, **data})


def messages_of(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request)]


def snapshot():
    return (
        sorted(Result.objects.values_list("pk", "game_id", "version", "state")),
        ResultLine.objects.count(),
        AuditEntry.objects.count(),
        sorted(SessionTotal.objects.values_list("player_id", "points")),
    )


def current(game) -> Result | None:
    return Result.objects.exclude(state=ResultState.SUPERSEDED).filter(game=game).first()


def row_errors(response) -> dict[int, list[str]]:
    return {
        row["table"].game.table: row["errors"]
        for row in response.context["form"].rows()
        if row["errors"]
    }


# --- Who may --------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "judge"])
def test_players_and_judges_are_refused_and_write_nothing(client, member, round_, role):
    client.force_login(member(role))
    before = snapshot()
    assert client.get(url(round_)).status_code == 403
    assert client.post(url(round_), card(round_)).status_code == 403
    assert snapshot() == before


def test_a_visitor_is_sent_to_log_in(client, round_):
    response = client.get(url(round_))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert client.post(url(round_), card(round_)).status_code == 302
    assert not Result.objects.exists()


def test_another_clubs_organiser_gets_a_404(client, round_, stranger):
    client.force_login(stranger("organiser"))
    before = snapshot()
    assert client.get(url(round_)).status_code == 404
    assert client.post(url(round_), card(round_)).status_code == 404
    assert snapshot() == before


def test_the_round_and_session_pages_link_to_it_for_organisers_only(client, member, round_):
    round_page = reverse("games:round", args=[round_.pk])
    session_page = reverse("web:session", args=[round_.session_id])
    client.force_login(member("organiser"))
    assert url(round_) in client.get(round_page).content.decode()
    assert url(round_) in client.get(session_page).content.decode()
    client.force_login(member("player"))
    assert url(round_) not in client.get(round_page).content.decode()
    assert url(round_) not in client.get(session_page).content.decode()


# --- The screen -----------------------------------------------------------------------------------


def test_a_row_per_table_in_table_order_with_numeric_fields_in_keyboard_order(
    client, organiser, round_
):
    client.force_login(organiser)
    html = page(client, round_).content.decode()
    fields = re.findall(r'<input type="number" name="(table_\d+_side_\d+)"[^>]*>', html)
    expected = [
        f"table_{game.table}_side_{side}"
        for game in games_of(round_)
        for side in range(game.side_count)
    ]
    assert fields == expected  # the document's order is the Tab order: table by table
    inputs = re.findall(r'<input type="number"[^>]*>', html)
    assert all('inputmode="numeric"' in tag for tag in inputs)
    assert ["autofocus" in tag for tag in inputs] == [True] + [False] * (len(inputs) - 1)
    for game in games_of(round_):
        for seat in game.seats.select_related("player"):
            assert seat.player.display_name in html
    assert "The players signed these scorecards" in html
    assert "are then confirmed at once" in html  # the rule is on by default


def test_the_signed_box_says_what_it_does_when_the_rule_is_off(client, club, organiser):
    Club.objects.filter(pk=club.pk).update(signed_scorecards_confirm=False)
    club.refresh_from_db()
    round_ = make_round(club, organiser)
    client.force_login(organiser)
    help_text = page(client, round_).content.decode()
    assert "do not let signed scorecards confirm" in help_text
    assert "ticked or not, the results are drafts" in help_text


def test_a_confirmed_table_is_shown_with_its_scores_and_skipped(client, organiser, member, round_):
    first, *rest = games_of(round_)
    draft = services.result_enter(game=first, actor=organiser, scores=scores_of(first))
    services.result_confirm(result=draft, actor=member("organiser"))
    client.force_login(organiser)
    response = page(client, round_)
    html = response.content.decode()
    assert f'name="table_{first.table}_side_0"' not in html
    row = html.split(f'data-testid="scorecard-{first.table}"')[1].split('data-testid="scorecard-')[
        0
    ]
    assert "Confirmed" in row and f"<strong>{scores_of(first)[1]}</strong>" in row
    first_field = re.search(r'<input type="number"[^>]*>', html).group(0)
    assert f'name="table_{rest[0].table}_side_0"' in first_field and "autofocus" in first_field

    # Its scores posted anyway (an old page) are not read.
    data = {**card(round_), f"table_{first.table}_side_0": "5", f"table_{first.table}_side_1": "9"}
    response = post(client, round_, {**data, "signed": "on"})
    assert response.status_code == 302
    assert Result.objects.filter(game=first).count() == 1
    assert current(first).pk == draft.pk
    for game in rest:
        assert current(game).state == ResultState.CONFIRMED


def test_a_draft_is_prefilled_and_kept_unless_changed_or_signed(client, member, organiser, round_):
    player = member("player")
    first, second, *_ = games_of(round_)
    theirs = services.result_enter(game=first, actor=organiser, scores=scores_of(first))
    Result.objects.filter(pk=theirs.pk).update(entered_by=player)
    client.force_login(organiser)
    html = page(client, round_).content.decode()
    for side, score in enumerate(scores_of(first)):
        assert re.search(rf'name="table_{first.table}_side_{side}" value="{score}"', html)
    assert "Draft entered by" in html
    focused = re.findall(r'<input type="number" name="(table_\d+_side_\d+)"[^>]*autofocus', html)
    assert focused == [f"table_{second.table}_side_0"]  # the first empty field

    # Posted as it was, unsigned: the draft stays the player's, the other table is entered.
    response = post(client, round_, card(round_, tables={first.table, second.table}))
    assert response.status_code == 302
    assert current(first).pk == theirs.pk
    assert current(second).state == ResultState.DRAFT
    assert messages_of(response) == [
        "1 draft entered: the other side or another organiser confirms it."
    ]

    # Signed: the signatures confirm the player's own draft, kept with who entered it.
    response = post(client, round_, {**card(round_, tables={first.table}), "signed": "on"})
    assert response.status_code == 302
    now = current(first)
    assert (now.pk, now.state, now.entered_by) == (theirs.pk, ResultState.CONFIRMED, player)
    assert now.confirmed_by == organiser


def test_a_draft_of_another_side_with_other_scores_is_refused_on_its_row(
    client, member, organiser, round_
):
    """The scorecard says one thing, the player entered another: the screen says so on that
    table, saves nothing, and the player's entry stays."""
    player = member("player")
    first, second, *_ = games_of(round_)
    theirs = services.result_enter(game=first, actor=organiser, scores=[70 + first.table, 121])
    Result.objects.filter(pk=theirs.pk).update(entered_by=player)
    client.force_login(organiser)
    assert "kept as their entry, and confirmed if you tick" in page(client, round_).content.decode()
    before = snapshot()

    response = post(client, round_, {**card(round_, tables={first.table, second.table})})

    assert response.status_code == 400
    assert snapshot() == before
    [message] = row_errors(response)[first.table]
    assert f"entered {70 + first.table}–121" in message
    assert f"not what this scorecard says (121–{70 + first.table})" in message
    assert message in response.content.decode()


# --- Saving ---------------------------------------------------------------------------------------


def test_signed_with_the_rule_on_confirms_every_table_at_once(client, organiser, round_):
    client.force_login(organiser)
    response = post(client, round_, {**card(round_), "signed": "on"})

    assert response.status_code == 302
    assert response.url == reverse("games:round", args=[round_.pk])
    assert messages_of(response) == ["4 results confirmed from signed scorecards."]
    for game in games_of(round_):
        result = current(game)
        assert (result.state, result.source) == (ResultState.CONFIRMED, ResultSource.SCORECARD)
        assert (result.entered_by, result.confirmed_by) == (organiser, organiser)
        assert result.scores == scores_of(game)
    entries = AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED)
    assert entries.count() == 4
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()
    assert all(entry.data["source"] == "scorecard" for entry in entries)
    assert SessionTotal.objects.filter(session=round_.session).count() == 9


def test_unsigned_the_scorecards_are_drafts(client, organiser, round_):
    client.force_login(organiser)
    response = post(client, round_, card(round_))

    assert response.status_code == 302
    assert messages_of(response) == [
        "4 drafts entered: the other side or another organiser confirms them."
    ]
    assert {current(game).state for game in games_of(round_)} == {ResultState.DRAFT}
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 4
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED).exists()
    assert not SessionTotal.objects.exists()


def test_signed_with_the_rule_off_the_scorecards_are_drafts(client, club, organiser):
    Club.objects.filter(pk=club.pk).update(signed_scorecards_confirm=False)
    club.refresh_from_db()
    round_ = make_round(club, organiser)
    client.force_login(organiser)
    response = post(client, round_, {**card(round_), "signed": "on"})

    assert response.status_code == 302
    assert messages_of(response) == [
        "4 drafts entered: the other side or another organiser confirms them."
    ]
    assert {current(game).state for game in games_of(round_)} == {ResultState.DRAFT}
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 4
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_SIGNED).exists()


def test_signed_confirms_the_organisers_own_table_too(client, club):
    """The other side signed the scorecard: that is their confirmation
    (docs/decisions/results.md)."""
    playing = UserFactory(role="organisers")
    PlayerFactory(club=club, user=playing)
    round_ = make_round(club, playing, seated=[playing])
    own = Game.objects.get(round=round_, seats__player__user=playing)
    client.force_login(playing)
    response = post(client, round_, {**card(round_), "signed": "on"})
    assert response.status_code == 302
    assert current(own).state == ResultState.CONFIRMED
    assert Player.objects.get(user=playing).pk in own.seats.values_list("player_id", flat=True)


def test_tables_left_empty_are_not_entered(client, organiser, round_):
    first, second, third, fourth = games_of(round_)
    client.force_login(organiser)
    response = post(client, round_, {**card(round_, tables={second.table}), "signed": "on"})
    assert response.status_code == 302
    assert messages_of(response) == ["1 result confirmed from signed scorecards."]
    assert [current(game) is not None for game in (first, second, third, fourth)] == [
        False,
        True,
        False,
        False,
    ]


def test_nothing_typed_is_an_error_and_saves_nothing(client, organiser, round_):
    client.force_login(organiser)
    before = snapshot()
    response = post(client, round_, {"signed": "on"})
    assert response.status_code == 400
    assert "Nothing to save: type at least one table" in response.content.decode()
    assert snapshot() == before


# --- Errors, table by table -----------------------------------------------------------------------


def test_each_bad_table_shows_its_error_on_its_row_and_nothing_is_saved(client, organiser, round_):
    first, second, third, fourth = games_of(round_)
    three = next(game for game in (first, second, third, fourth) if game.side_count == 3)
    twos = [game for game in (first, second, third, fourth) if game is not three]
    data = card(round_)
    data[f"table_{twos[0].table}_side_1"] = ""  # only some scores
    data[f"table_{twos[1].table}_side_0"] = "120"  # nobody reached 121
    data[f"table_{three.table}_side_2"] = "-4"  # a negative score
    client.force_login(organiser)
    before = snapshot()

    response = post(client, round_, {**data, "signed": "on"})

    assert response.status_code == 400
    assert snapshot() == before
    errors = row_errors(response)
    assert sorted(errors) == sorted([twos[0].table, twos[1].table, three.table])
    assert "write every side's final score, or leave the table empty" in errors[twos[0].table][0]
    assert "Nobody reached 121" in errors[twos[1].table][0]
    assert "A score cannot be negative." in errors[three.table][0]
    html = response.content.decode()
    assert "Nothing was saved: fix the tables marked below" in html
    # What was typed is kept, the good table too, and the signed box stays ticked.
    assert re.search(rf'name="table_{twos[2].table}_side_1" value="{scores_of(twos[2])[1]}"', html)
    assert re.search(rf'name="table_{twos[1].table}_side_0" value="120"', html)
    assert re.search(r'name="signed"[^>]*checked', html)
    # The keyboard starts at the first table in error, on the score its error is about.
    about = {twos[0].table: 1, twos[1].table: 0, three.table: 2}
    focused = re.findall(r'<input type="number" name="(table_\d+_side_\d+)"[^>]*autofocus', html)
    assert focused == [f"table_{min(errors)}_side_{about[min(errors)]}"]
    assert f'id="table-{min(errors)}-errors"' in html

    fixed = {**data, f"table_{twos[0].table}_side_1": "90"}
    fixed[f"table_{twos[1].table}_side_0"] = "121"
    fixed[f"table_{three.table}_side_2"] = "40"
    token = response.context["form"][TOKEN_FIELD].value()  # the same page, corrected
    again = client.post(url(round_), {TOKEN_FIELD: token, **fixed, "signed": "on"})
    assert again.status_code == 302
    assert {current(game).state for game in games_of(round_)} == {ResultState.CONFIRMED}


def test_a_tables_error_from_the_service_is_shown_on_its_row(client, member, organiser, round_):
    """A table confirmed by someone else while the page was open: the service refuses it, keyed
    `table_<n>`, and nothing of the other tables is saved."""
    first, *_ = games_of(round_)
    client.force_login(organiser)
    token = page(client, round_).context["form"][TOKEN_FIELD].value()
    stale = round_tables(round_)  # as the organiser's page saw the round
    draft = services.result_enter(game=first, actor=organiser, scores=scores_of(first))
    services.result_confirm(result=draft, actor=member("organiser"))
    before = snapshot()

    original = views.round_tables
    views.round_tables = lambda round_: stale
    try:
        response = client.post(url(round_), {TOKEN_FIELD: token, **card(round_), "signed": "on"})
    finally:
        views.round_tables = original

    assert response.status_code == 400
    assert snapshot() == before
    errors = row_errors(response)
    assert list(errors) == [first.table]
    assert f"Table {first.table}'s result is confirmed" in errors[first.table][0]


# --- Twice, and when nothing can change -----------------------------------------------------------


def test_a_double_post_saves_once(client, organiser, round_):
    client.force_login(organiser)
    token = page(client, round_).context["form"][TOKEN_FIELD].value()
    first = client.post(url(round_), {TOKEN_FIELD: token, **card(round_), "signed": "on"})
    assert first.status_code == 302
    saved = snapshot()

    second = client.post(url(round_), {TOKEN_FIELD: token, **card(round_), "signed": "on"})

    assert second.status_code == 302
    assert second.url == reverse("games:round", args=[round_.pk])
    assert messages_of(second)[-1] == ALREADY_SAVED
    assert snapshot() == saved


def test_a_double_post_of_drafts_saves_once(client, organiser, round_):
    client.force_login(organiser)
    token = page(client, round_).context["form"][TOKEN_FIELD].value()
    client.post(url(round_), {TOKEN_FIELD: token, **card(round_)})
    saved = snapshot()
    second = client.post(url(round_), {TOKEN_FIELD: token, **card(round_)})
    assert messages_of(second)[-1] == ALREADY_SAVED
    assert snapshot() == saved


def test_a_settled_session_says_so_and_has_no_form(client, organiser, round_):
    Session.objects.filter(pk=round_.session_id).update(state=SessionState.SETTLED)
    client.force_login(organiser)
    response = client.get(url(round_))
    assert response.status_code == 200
    assert response.context["form"] is None
    assert "This session is settled" in response.content.decode()
    assert 'name="table_' not in response.content.decode()
    before = snapshot()
    posted = client.post(url(round_), {**card(round_), "signed": "on"})
    assert posted.status_code == 400
    assert "This session is settled" in posted.content.decode()
    assert snapshot() == before


def test_a_round_with_every_table_confirmed_says_so(client, organiser, round_):
    client.force_login(organiser)
    post(client, round_, {**card(round_), "signed": "on"})
    response = client.get(url(round_))
    assert response.context["form"] is None
    assert "nothing is left to type" in response.content.decode()
    assert url(round_) not in client.get(reverse("games:round", args=[round_.pk])).content.decode()


def test_the_screen_costs_the_same_queries_for_any_number_of_tables(
    client, organiser, club, django_assert_max_num_queries
):
    small = make_round(club, organiser, players=4)
    client.force_login(organiser)
    client.get(url(small))  # warm the per-user caches
    with django_assert_max_num_queries(100) as few:
        client.get(url(small))
        count = len(few)  # read now: the next request resets Django's query log
    other = ClubFactory()
    big_organiser = UserFactory(role="organisers")
    PlayerFactory(club=other, user=big_organiser)
    big = make_round(other, big_organiser, players=21)
    client.force_login(big_organiser)
    client.get(url(big))
    with django_assert_max_num_queries(count):
        client.get(url(big))
