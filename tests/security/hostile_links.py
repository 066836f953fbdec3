"""How to post to the views of a table's link and of logins, read into `hostile_world.TARGETS`: a
table's link (posted anonymously, as a phone at the table does), and logins, passwords and PINs (an
organiser's, one's own, a one-time link's). Terms as in `tests/security/hostile_world.py`.
"""

from __future__ import annotations

from django.contrib.auth.forms import SetPasswordForm
from django.urls import reverse
from hypothesis import strategies as st

from club.forms import LoginGiveForm, LoginLinkForm, LoginRoleForm, OwnPasswordForm
from club.services import login_give
from games import services as game_services
from games.forms import TableAcceptForm, TableResultForm
from scoring.forms import (
    TableClaimForm,
    TableConfirmCardsForm,
    TableDisputeForm,
    TableMugginsForm,
)
from tests.factories import PASSWORD
from tests.security.hostile_values import CARD, HAND, HOSTILE
from tests.security.hostile_world_base import (
    Fields,
    Target,
    World,
    file_claim,
    form_fields,
    side_names,
)

# --- A table's link: posted anonymously, as a phone at the table does ----------------------------


def table_result(w: World) -> Target:
    first, second = w.seat_players()
    seated = [(p.pk, p.display_name) for p in (first, second)]
    form = TableResultForm(game=w.game, sides=side_names(w), seated=seated)
    valid = [
        {"player": str(first.pk), "side_0": "121", "side_1": "100"},
        {"player": str(second.pk), "side_0": "45", "side_1": "121"},
    ]
    url = reverse("table:result", args=[w.game.table_token])
    return Target(url, None, form_fields(form, w), valid)


def table_accept(w: World) -> Target:
    """Side 0 entered the scores at the table; side 1 accepts them (table PINs off)."""
    first, second = w.seat_players()
    draft = game_services.table_result_enter(game=w.game, player=first, scores=[121, 100])
    url = reverse("table:accept", args=[w.game.table_token, draft.pk])
    fields = form_fields(TableAcceptForm(pin=False), w)
    return Target(url, None, fields, [{"player": str(second.pk)}])


def table_claim_new(w: World) -> Target:
    seated = [(p.pk, p.display_name) for p in w.seat_players()]
    first, second = (str(pk) for pk, _ in seated)
    form = TableClaimForm(seated=seated)
    fields = form_fields(form, w, hand=HAND, starter=CARD)
    valid = [
        {
            "claimant": first,
            "kind": "hand",
            "claimed_points": "12",
            "hand": "5H 5C 5S JD",
            "starter": "5D",
        },
        {"claimant": second, "kind": "heels", "claimed_points": "2", "starter": "JH"},
    ]
    url = reverse("table_claims:claim_new", args=[w.game.table_token])
    return Target(url, None, fields, valid)


def table_dispute_open(w: World) -> Target:
    claim = file_claim(w)
    parties = [(p.pk, p.display_name) for p in w.seat_players()]
    fields = form_fields(TableDisputeForm(players=parties), w)
    valid = [{"player": str(parties[1][0]), "statement": "The jack is his nobs: 29."}]
    url = reverse("table_claims:dispute_open", args=[w.game.table_token, claim.pk])
    return Target(url, None, fields, valid)


def table_muggins(w: World) -> Target:
    """Side 1 calls muggins on side 0's 28 for a 29 (table PINs off)."""
    claim = file_claim(w)
    opponent = w.seat_players()[1]
    opponents = [(opponent.pk, opponent.display_name)]
    fields = form_fields(TableMugginsForm(players=opponents), w)
    valid = [{"caller": str(opponent.pk), "points": "1"}]
    url = reverse("table_claims:muggins", args=[w.game.table_token, claim.pk])
    return Target(url, None, fields, valid)


def table_cards_confirm(w: World) -> Target:
    """Side 1 confirms the cards of side 0's 29 (table PINs off)."""
    claim = file_claim(w)
    opponent = w.seat_players()[1]
    others = [(opponent.pk, opponent.display_name)]
    fields = form_fields(TableConfirmCardsForm(players=others), w)
    valid = [{"player": str(opponent.pk), "seen": "on"}]
    url = reverse("table_claims:cards_confirm", args=[w.game.table_token, claim.pk])
    return Target(url, None, fields, valid)


# --- Logins, passwords and PINs -----------------------------------------------------------------

NEW_PASSWORD = "a-new-pass-phrase-7"


def player_login_give(w: World) -> Target:
    """The spare player (no login) is given one."""
    fields = form_fields(LoginGiveForm(), w)
    fields["role"] = st.one_of(st.sampled_from(("player", "judge", "organiser", "boss")), HOSTILE)
    fields.text.add("role")
    valid = [
        {"username": "spare.player", "role": "player"},
        {"username": "Spare@Club", "role": "organiser", "email": "spare@example.org"},
    ]
    url = reverse("club:player_login_give", args=[w.spare.pk])
    return Target(url, w.organiser, fields, valid)


def player_login_role(w: World) -> Target:
    fields = form_fields(LoginRoleForm(), w)
    fields["role"] = st.one_of(st.sampled_from(("player", "judge", "organiser", "boss")), HOSTILE)
    fields.text.add("role")
    url = reverse("club:player_login_role", args=[w.players[0].pk])
    return Target(url, w.organiser, fields, [{"role": "judge"}, {"role": "player"}])


def player_login_link(w: World) -> Target:
    """A new one-time link for a seated player's login (a forgotten password)."""
    url = reverse("club:player_login_link", args=[w.players[0].pk])
    return Target(url, w.organiser, form_fields(LoginLinkForm(), w), [{}])


PIN_FIELDS = {"pin": st.one_of(st.sampled_from(("4071", "0000", "123", "12345", "")), HOSTILE)}


def player_pin(w: World) -> Target:
    fields = Fields(PIN_FIELDS, text=["pin"])
    url = reverse("club:player_pin", args=[w.players[0].pk])
    return Target(url, w.organiser, fields, [{"pin": "4071"}, {"clear": "on"}])


def account_password(w: World) -> Target:
    fields = form_fields(OwnPasswordForm(), w)
    valid = [
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    ]
    return Target(reverse("club:account_password"), w.seat_users()[0], fields, valid)


def account_pin(w: World) -> Target:
    fields = Fields(PIN_FIELDS, text=["pin"])
    valid = [{"pin": "4071"}, {"clear": "on"}]
    return Target(reverse("club:account_pin"), w.seat_users()[0], fields, valid)


def welcome(w: World) -> Target:
    """The spare player's welcome link, opened by nobody logged in."""
    token = login_give(player=w.spare, actor=w.organiser, username="spare", role="player")
    fields = form_fields(SetPasswordForm(user=None), w)
    valid = [{"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}]
    return Target(reverse("welcome", kwargs={"link": token}), None, fields, valid)


TARGETS = {
    "welcome": welcome,
    "club:player_login_give": player_login_give,
    "club:player_login_role": player_login_role,
    "club:player_login_link": player_login_link,
    "club:player_pin": player_pin,
    "club:account_password": account_password,
    "club:account_pin": account_pin,
    "table:result": table_result,
    "table:accept": table_accept,
    "table_claims:claim_new": table_claim_new,
    "table_claims:dispute_open": table_dispute_open,
    "table_claims:muggins": table_muggins,
    "table_claims:cards_confirm": table_cards_confirm,
}
