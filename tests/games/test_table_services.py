"""What the players do through a table's link, without a login (games.services.table; docs/spec.md
"A Thursday, step by step", step 4): enter the final scores, accept another side's entry (with a PIN
when the session asks), and every refusal.

Terms: a *link table* (`link_table`, tests.builders.LinkTable) is round 1's game of a session
opened, checked in and drawn through the real services, its players without logins
(`players[side]`); *partners* a 4-player table whose sides are seats 0 & 2 and 1 & 3. Rule texts
cited: docs/spec.md "A Thursday, step by step", step 4 ("the page then offers an 'Accept' button
for each player of another side, by name, on the same phone ... after three wrong ones, each makes
the next try of that player's PIN wait longer ... The link works only while its round is open ...
and only for its own game") and "People and what they do" ("Everything done through a table's link
is in the audit trail 'at the table'").
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from club import services as club_services
from club.audit import AT_THE_TABLE, ClubVerb
from club.models import Club, Session, WrongPin
from club.services import pins
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services
from games.audit import GameVerb
from games.models import Game, Result, ResultSource, ResultState, SessionTotal
from money.services import session_settle
from tests.builders import LinkTable
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def error_text(error: ValidationError) -> str:
    return " ".join(error.value.messages)


# --- Entering -------------------------------------------------------------------------------------


def test_a_player_enters_a_draft_at_the_table(link_table):
    pat = link_table.players[0]
    result = link_table.enter(pat)
    assert (result.state, result.source) == (ResultState.DRAFT, ResultSource.TABLE)
    assert (result.entered_by, result.entered_by_player, result.entered_side) == (None, pat, 0)
    assert result.scores == [121, 98]
    assert result.entered_by_name == f"{pat} at the table"


def test_entering_is_audited_at_the_table_with_no_actor(link_table):
    pat = link_table.players[1]
    result = link_table.enter(pat, scores=(80, 121))
    entry = AuditEntry.objects.get(action=GameVerb.RESULT_ENTERED)
    assert entry.actor is None
    assert entry.data["via"] == AT_THE_TABLE
    assert (entry.data["by_player"], entry.data["by_player_id"]) == (pat.display_name, pat.pk)
    assert entry.data["scores"] == [80, 121]
    assert entry.object_id == str(result.pk)


def test_a_new_entry_replaces_the_draft(link_table):
    first = link_table.enter(link_table.players[0], scores=(121, 98))
    second = link_table.enter(link_table.players[1], scores=(121, 99))
    first.refresh_from_db()
    assert first.state == ResultState.SUPERSEDED
    assert (second.version, second.state, second.entered_side) == (2, ResultState.DRAFT, 1)
    assert second.scores == [121, 99]


def test_a_player_of_another_table_cannot_enter(link_table):
    stranger = PlayerFactory(club=link_table.club)
    with pytest.raises(ValidationError) as error:
        link_table.enter(stranger)
    assert "does not play at this table" in error_text(error)
    assert not Result.objects.exists()


def test_bad_scores_are_refused_on_the_side_and_nothing_is_saved(link_table):
    with pytest.raises(ValidationError) as error:
        link_table.enter(link_table.players[0], scores=(100, 98))
    assert "Nobody reached 121" in error_text(error)
    assert not Result.objects.exists()
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()


def test_a_confirmed_result_is_not_entered_again(link_table):
    link_table.accept(link_table.enter(link_table.players[0]), link_table.players[1])
    with pytest.raises(ValidationError) as error:
        link_table.enter(link_table.players[1], scores=(90, 121))
    assert "confirmed" in error_text(error)
    assert Result.objects.count() == 1


def test_the_same_form_posted_twice_enters_once(link_table):
    token = new_token()
    link_table.enter(link_table.players[0], token=token)
    with pytest.raises(AlreadySaved) as error:
        link_table.enter(link_table.players[0], token=token)
    assert error.value.message == "This was already saved."
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 1


# --- Accepting ------------------------------------------------------------------------------------


def test_a_player_of_the_other_side_accepts_and_the_result_is_confirmed(link_table):
    pat, sam = link_table.players
    result = link_table.accept(link_table.enter(pat), sam)
    result.refresh_from_db()
    assert result.state == ResultState.CONFIRMED
    assert (result.confirmed_by, result.confirmed_by_player) == (None, sam)
    assert result.confirmed_by_name == f"{sam} at the table"
    entry = AuditEntry.objects.get(action=GameVerb.RESULT_CONFIRMED)
    assert entry.actor is None
    assert (entry.data["via"], entry.data["by_player_id"]) == (AT_THE_TABLE, sam.pk)


def test_accepting_refreshes_the_session_totals(link_table):
    pat, sam = link_table.players
    assert not SessionTotal.objects.filter(session=link_table.session).exists()
    link_table.accept(link_table.enter(pat, scores=(121, 98)), sam)
    totals = {t.player_id: t for t in SessionTotal.objects.filter(session=link_table.session)}
    assert (totals[pat.pk].won, totals[sam.pk].won) == (1, 0)
    assert totals[pat.pk].spread == 23


def test_the_same_side_cannot_accept_its_own_entry():
    link_table = LinkTable(players=4)
    first, partner = link_table.side(0)
    draft = link_table.enter(first)
    with pytest.raises(ValidationError) as error:
        link_table.accept(draft, partner)
    assert "side entered this result: a player of another side accepts it" in error_text(error)
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).exists()
    link_table.accept(draft, link_table.side(1)[1])  # either player of the other side may
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_an_organisers_draft_is_accepted_by_any_player_at_the_table(link_table):
    draft = services.result_enter(
        game=link_table.game, actor=link_table.organiser, scores=[121, 98]
    )
    assert draft.entered_side is None
    assert [seat.player for seat in services.table_acceptors(link_table.game, draft)] == [
        seat.player for seat in link_table.seats
    ]
    link_table.accept(draft, link_table.players[0])
    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by_player) == (
        ResultState.CONFIRMED,
        link_table.players[0],
    )


def test_acceptors_are_the_other_sides_players(link_table):
    draft = link_table.enter(link_table.players[0])
    assert [seat.player for seat in services.table_acceptors(link_table.game, draft)] == [
        link_table.players[1]
    ]
    assert services.table_acceptors(link_table.game, None) == []


def test_a_confirmed_result_is_not_accepted_again(link_table):
    pat, sam = link_table.players
    draft = link_table.enter(pat)
    link_table.accept(draft, sam)
    with pytest.raises(ValidationError) as error:
        link_table.accept(draft, sam)
    assert "confirmed already" in error_text(error)
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).count() == 1


def test_a_replaced_draft_is_not_accepted(link_table):
    pat, sam = link_table.players
    old = link_table.enter(pat)
    link_table.enter(sam, scores=(121, 97))
    with pytest.raises(ValidationError) as error:
        link_table.accept(old, sam)
    assert "replaced by a newer entry" in error_text(error)


def test_a_player_of_another_table_cannot_accept(link_table):
    with pytest.raises(ValidationError) as error:
        link_table.accept(
            link_table.enter(link_table.players[0]), PlayerFactory(club=link_table.club)
        )
    assert "does not play at this table" in error_text(error)


# --- When the link works --------------------------------------------------------------------------


def test_the_link_is_open_while_the_round_is_the_latest(link_table):
    assert services.table_refusal(link_table.game) is None
    assert services.table_game(link_table.game.table_token.upper()) == link_table.game
    assert services.table_game("nosuchtoken1") is None
    assert services.table_game("") is None
    assert services.table_game("x" * 200) is None


def test_a_later_round_closes_the_link():
    link_table = LinkTable(players=4, table_mode="singles")
    services.round_draw(session=link_table.session, actor=link_table.organiser, seed=8)
    refusal = services.table_refusal(link_table.game)
    assert "Round 1 is over (round 2 is drawn)" in refusal
    with pytest.raises(ValidationError) as error:
        link_table.enter(link_table.players[0])
    assert error_text(error) == refusal
    assert not Result.objects.filter(game=link_table.game).exists()


def test_a_later_round_closes_accepting_a_draft_too():
    link_table = LinkTable(players=4, table_mode="singles")
    draft = link_table.enter(link_table.players[0])
    services.round_draw(session=link_table.session, actor=link_table.organiser, seed=8)
    with pytest.raises(ValidationError) as error:
        link_table.accept(draft, link_table.players[1])
    assert "Round 1 is over" in error_text(error)
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


def test_a_settled_session_closes_the_link(link_table):
    pat, sam = link_table.players
    for checkin in link_table.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=link_table.organiser)
    link_table.accept(link_table.enter(pat), sam)
    session_settle(session=link_table.session, actor=link_table.organiser, seed=1)
    game = Game.objects.select_related("session__club", "round").get(pk=link_table.game.pk)
    assert "is settled: this table's link no longer works" in services.table_refusal(game)
    with pytest.raises(ValidationError):
        services.table_result_enter(game=game, player=pat, scores=[121, 90])
    assert Result.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("where", ["club", "session"])
def test_table_links_off_close_the_link(where):
    """The session's snapshot of the rule, and the club's rule now: either off closes it."""
    link_table = LinkTable(table_links=where == "club")
    if where == "club":
        Club.objects.filter(pk=link_table.club.pk).update(table_links=False)
    game = Game.objects.select_related("session__club", "round").get(pk=link_table.game.pk)
    assert game.session.house_rules.table_links is (where == "club")
    assert "does not use table links" in services.table_refusal(game)
    with pytest.raises(ValidationError) as error:
        services.table_result_enter(game=game, player=link_table.players[0], scores=[121, 90])
    assert "does not use table links" in error_text(error)
    assert not Result.objects.exists()


# --- PINs -----------------------------------------------------------------------------------------


@pytest.fixture
def pinned():
    """A table whose session asks for table PINs; both players have one (1111 and 2222)."""
    link_table = LinkTable(table_pins=True)
    assert link_table.session.house_rules.table_pins
    for player, pin in zip(link_table.players, ("1111", "2222"), strict=True):
        pins.pin_set(player=player, actor=link_table.organiser, pin=pin)
        player.refresh_from_db()
    return link_table


def test_entering_needs_no_pin(pinned):
    assert pinned.enter(pinned.players[0]).state == ResultState.DRAFT


def test_the_right_pin_accepts(pinned):
    pat, sam = pinned.players
    draft = pinned.enter(pat)
    pinned.accept(draft, sam, pin="2222")
    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by_player) == (ResultState.CONFIRMED, sam)
    assert not WrongPin.objects.exists()


def test_a_wrong_pin_is_refused_and_counted(pinned):
    pat, sam = pinned.players
    draft = pinned.enter(pat)
    with pytest.raises(ValidationError) as error:
        pinned.accept(draft, sam, pin="1111")  # Pat's PIN, not Sam's
    assert error.value.message_dict["pin"] == [f"Wrong PIN for {sam}: try again."]
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    typed = WrongPin.objects.get()
    assert (typed.session, typed.player) == (pinned.session, sam)
    entry = AuditEntry.objects.get(action=ClubVerb.PIN_REFUSED)
    assert (entry.actor, entry.data["via"], entry.data["wrong_pins"]) == (None, AT_THE_TABLE, 1)
    assert "2222" not in str(entry.data) and "1111" not in str(entry.data)


@pytest.mark.parametrize("pin", ["", "12", "abcd", "22222", " 2222x"])
def test_a_missing_or_malformed_pin_is_a_wrong_try(pinned, pin):
    draft = pinned.enter(pinned.players[0])
    with pytest.raises(ValidationError) as error:
        pinned.accept(draft, pinned.players[1], pin=pin)
    assert "Wrong PIN" in error.value.message_dict["pin"][0]


def test_wrong_pins_make_the_next_try_wait_and_the_right_pin_accepts_after_it(pinned, clock):
    pat, sam = pinned.players
    draft = pinned.enter(pat)
    messages = []
    for _ in range(5):
        with pytest.raises(ValidationError) as error:
            pinned.accept(draft, sam, pin="0000")
        messages.append(error.value.message_dict["pin"][0])
        clock.advance(5)
    assert messages[:3] == [f"Wrong PIN for {sam}: try again."] * 3
    assert messages[3].startswith(f"Wrong PIN for {sam}: the next try in 5 seconds.")
    assert messages[4].startswith(f"Wrong PIN for {sam}: the next try in 10 seconds.")
    # During the wait even the right PIN is refused, and nothing more is counted.
    with pytest.raises(ValidationError) as error:
        pinned.accept(draft, sam, pin="2222")
    assert error.value.message_dict["pin"][0].startswith(
        f"Too many wrong PINs for {sam}: the next try in 5 seconds."
    )
    assert WrongPin.objects.filter(player=sam).count() == 5
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    # Once it is over the right PIN accepts: nobody has to lift anything.
    clock.advance(5)
    pinned.accept(draft, sam, pin="2222")
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_a_player_without_a_pin_cannot_accept_while_pins_are_on(pinned):
    pat, sam = pinned.players
    pins.pin_set(player=sam, actor=pinned.organiser, pin="")
    sam.refresh_from_db()
    draft = pinned.enter(pat)
    with pytest.raises(ValidationError) as error:
        pinned.accept(draft, sam, pin="2222")
    assert "has no PIN yet" in error.value.message_dict["pin"][0]
    assert not WrongPin.objects.exists()
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


def test_a_wrong_pin_of_the_side_that_entered_costs_no_try():
    """Refused for its side before the PIN is read: the same side never uses up a PIN's tries
    (a foundation bug: the PIN was checked first)."""
    link_table = LinkTable(players=4, table_pins=True)
    first, partner = link_table.side(0)
    pins.pin_set(player=partner, actor=link_table.organiser, pin="4444")
    draft = link_table.enter(first)
    with pytest.raises(ValidationError) as error:
        link_table.accept(draft, partner, pin="0000")
    assert "side entered this result" in error_text(error)
    assert not WrongPin.objects.exists()
    assert not AuditEntry.objects.filter(action=ClubVerb.PIN_REFUSED).exists()


def test_a_wrong_pin_on_a_confirmed_result_costs_no_try(pinned):
    pat, sam = pinned.players
    draft = pinned.enter(pat)
    pinned.accept(draft, sam, pin="2222")
    with pytest.raises(ValidationError) as error:
        pinned.accept(draft, sam, pin="9999")
    assert "confirmed already" in error_text(error)
    assert not WrongPin.objects.exists()


def test_pins_off_accept_without_a_pin(link_table):
    draft = link_table.enter(link_table.players[0])
    link_table.accept(draft, link_table.players[1], pin="")
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_the_pin_rule_is_the_sessions(link_table):
    """A session keeps the rules it opened with: PINs turned on later ask nothing of it."""
    Club.objects.filter(pk=link_table.club.pk).update(table_pins=True)
    assert not Session.objects.get(pk=link_table.session.pk).house_rules.table_pins
    draft = link_table.enter(link_table.players[0])
    link_table.accept(draft, link_table.players[1])
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED
