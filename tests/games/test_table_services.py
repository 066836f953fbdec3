"""What the players do through a table's link, without a login (games.services.table; DESIGN.md
"A Thursday, step by step", item 4; issue 15, point 3): enter the final scores, accept another
side's entry (with a PIN when the session asks), and every refusal.

Terms: a *table* is round 1's game of a session opened, checked in and drawn through the real
services, its players without logins (`players[side]`); *partners* a 4-player table whose sides
are seats 0 & 2 and 1 & 3. Rule texts cited: issue 15 point 3 ("a player of another side accepts
... 5 wrong tries lock that player's PIN for the session ... The link works only while the round
is open and only for its game; everything through it is audited as 'at the table'").
"""

from __future__ import annotations

import datetime as dt

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
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


class Table:
    def __init__(self, players=2, **rules):
        rules.setdefault("table_mode", "partners" if players == 4 else "singles")
        self.club = ClubFactory(**rules)
        self.organiser = UserFactory(role="organisers", club=self.club)
        self.session = club_services.session_open(
            club=self.club, actor=self.organiser, date=dt.date(2026, 3, 5)
        )
        for _ in range(players):
            club_services.checkin_create(
                session=self.session, actor=self.organiser, player=PlayerFactory(club=self.club)
            )
        round_ = services.round_draw(session=self.session, actor=self.organiser, seed=7)
        self.game = round_.games.order_by("table").first()
        self.seats = list(self.game.seats.select_related("player").order_by("position"))
        self.players = [seat.player for seat in sorted(self.seats, key=lambda s: s.side)]

    def side(self, index):
        return [seat.player for seat in self.seats if seat.side == index]

    def enter(self, player, scores=(121, 98), **kwargs):
        return services.table_result_enter(game=self.game, player=player, scores=scores, **kwargs)

    def accept(self, result, player, pin=""):
        return services.table_result_accept(result=result, player=player, pin=pin)


@pytest.fixture
def table():
    return Table()


def error_text(error: ValidationError) -> str:
    return " ".join(error.value.messages)


# --- Entering -------------------------------------------------------------------------------------


def test_a_player_enters_a_draft_at_the_table(table):
    pat = table.players[0]
    result = table.enter(pat)
    assert (result.state, result.source) == (ResultState.DRAFT, ResultSource.TABLE)
    assert (result.entered_by, result.entered_by_player, result.entered_side) == (None, pat, 0)
    assert result.scores == [121, 98]
    assert result.entered_by_name == f"{pat} at the table"


def test_entering_is_audited_at_the_table_with_no_actor(table):
    pat = table.players[1]
    result = table.enter(pat, scores=(80, 121))
    entry = AuditEntry.objects.get(action=GameVerb.RESULT_ENTERED)
    assert entry.actor is None
    assert entry.data["via"] == AT_THE_TABLE
    assert (entry.data["by_player"], entry.data["by_player_id"]) == (pat.display_name, pat.pk)
    assert entry.data["scores"] == [80, 121]
    assert entry.object_id == str(result.pk)


def test_a_new_entry_replaces_the_draft(table):
    first = table.enter(table.players[0], scores=(121, 98))
    second = table.enter(table.players[1], scores=(121, 99))
    first.refresh_from_db()
    assert first.state == ResultState.SUPERSEDED
    assert (second.version, second.state, second.entered_side) == (2, ResultState.DRAFT, 1)
    assert second.scores == [121, 99]


def test_a_player_of_another_table_cannot_enter(table):
    stranger = PlayerFactory(club=table.club)
    with pytest.raises(ValidationError) as error:
        table.enter(stranger)
    assert "does not play at this table" in error_text(error)
    assert not Result.objects.exists()


def test_bad_scores_are_refused_on_the_side_and_nothing_is_saved(table):
    with pytest.raises(ValidationError) as error:
        table.enter(table.players[0], scores=(100, 98))
    assert "Nobody reached 121" in error_text(error)
    assert not Result.objects.exists()
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).exists()


def test_a_confirmed_result_is_not_entered_again(table):
    table.accept(table.enter(table.players[0]), table.players[1])
    with pytest.raises(ValidationError) as error:
        table.enter(table.players[1], scores=(90, 121))
    assert "confirmed" in error_text(error)
    assert Result.objects.count() == 1


def test_the_same_form_posted_twice_enters_once(table):
    token = new_token()
    table.enter(table.players[0], token=token)
    with pytest.raises(AlreadySaved) as error:
        table.enter(table.players[0], token=token)
    assert error.value.message == "This was already saved."
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 1


# --- Accepting ------------------------------------------------------------------------------------


def test_a_player_of_the_other_side_accepts_and_the_result_is_confirmed(table):
    pat, sam = table.players
    result = table.accept(table.enter(pat), sam)
    result.refresh_from_db()
    assert result.state == ResultState.CONFIRMED
    assert (result.confirmed_by, result.confirmed_by_player) == (None, sam)
    assert result.confirmed_by_name == f"{sam} at the table"
    entry = AuditEntry.objects.get(action=GameVerb.RESULT_CONFIRMED)
    assert entry.actor is None
    assert (entry.data["via"], entry.data["by_player_id"]) == (AT_THE_TABLE, sam.pk)


def test_accepting_refreshes_the_session_totals(table):
    pat, sam = table.players
    assert not SessionTotal.objects.filter(session=table.session).exists()
    table.accept(table.enter(pat, scores=(121, 98)), sam)
    totals = {t.player_id: t for t in SessionTotal.objects.filter(session=table.session)}
    assert (totals[pat.pk].won, totals[sam.pk].won) == (1, 0)
    assert totals[pat.pk].spread == 23


def test_the_same_side_cannot_accept_its_own_entry():
    table = Table(players=4)
    first, partner = table.side(0)
    draft = table.enter(first)
    with pytest.raises(ValidationError) as error:
        table.accept(draft, partner)
    assert "side entered this result: a player of another side accepts it" in error_text(error)
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    assert not AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).exists()
    table.accept(draft, table.side(1)[1])  # either player of the other side may
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_an_organisers_draft_is_accepted_by_any_player_at_the_table(table):
    draft = services.result_enter(game=table.game, actor=table.organiser, scores=[121, 98])
    assert draft.entered_side is None
    assert [seat.player for seat in services.table_acceptors(table.game, draft)] == [
        seat.player for seat in table.seats
    ]
    table.accept(draft, table.players[0])
    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by_player) == (ResultState.CONFIRMED, table.players[0])


def test_acceptors_are_the_other_sides_players(table):
    draft = table.enter(table.players[0])
    assert [seat.player for seat in services.table_acceptors(table.game, draft)] == [
        table.players[1]
    ]
    assert services.table_acceptors(table.game, None) == []


def test_a_confirmed_result_is_not_accepted_again(table):
    pat, sam = table.players
    draft = table.enter(pat)
    table.accept(draft, sam)
    with pytest.raises(ValidationError) as error:
        table.accept(draft, sam)
    assert "confirmed already" in error_text(error)
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).count() == 1


def test_a_replaced_draft_is_not_accepted(table):
    pat, sam = table.players
    old = table.enter(pat)
    table.enter(sam, scores=(121, 97))
    with pytest.raises(ValidationError) as error:
        table.accept(old, sam)
    assert "replaced by a newer entry" in error_text(error)


def test_a_player_of_another_table_cannot_accept(table):
    with pytest.raises(ValidationError) as error:
        table.accept(table.enter(table.players[0]), PlayerFactory(club=table.club))
    assert "does not play at this table" in error_text(error)


# --- When the link works --------------------------------------------------------------------------


def test_the_link_is_open_while_the_round_is_the_latest(table):
    assert services.table_refusal(table.game) is None
    assert services.table_game(table.game.table_token.upper()) == table.game
    assert services.table_game("nosuchtoken1") is None
    assert services.table_game("") is None
    assert services.table_game("x" * 200) is None


def test_a_later_round_closes_the_link():
    table = Table(players=4, table_mode="singles")
    services.round_draw(session=table.session, actor=table.organiser, seed=8)
    refusal = services.table_refusal(table.game)
    assert "Round 1 is over (round 2 is drawn)" in refusal
    with pytest.raises(ValidationError) as error:
        table.enter(table.players[0])
    assert error_text(error) == refusal
    assert not Result.objects.filter(game=table.game).exists()


def test_a_later_round_closes_accepting_a_draft_too():
    table = Table(players=4, table_mode="singles")
    draft = table.enter(table.players[0])
    services.round_draw(session=table.session, actor=table.organiser, seed=8)
    with pytest.raises(ValidationError) as error:
        table.accept(draft, table.players[1])
    assert "Round 1 is over" in error_text(error)
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


def test_a_settled_session_closes_the_link(table):
    pat, sam = table.players
    for checkin in table.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=table.organiser)
    table.accept(table.enter(pat), sam)
    session_settle(session=table.session, actor=table.organiser, seed=1)
    game = Game.objects.select_related("session__club", "round").get(pk=table.game.pk)
    assert "is settled: this table's link no longer works" in services.table_refusal(game)
    with pytest.raises(ValidationError):
        services.table_result_enter(game=game, player=pat, scores=[121, 90])
    assert Result.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("where", ["club", "session"])
def test_table_links_off_close_the_link(where):
    """The session's snapshot of the rule, and the club's rule now: either off closes it."""
    table = Table(table_links=where == "club")
    if where == "club":
        Club.objects.filter(pk=table.club.pk).update(table_links=False)
    game = Game.objects.select_related("session__club", "round").get(pk=table.game.pk)
    assert game.session.house_rules.table_links is (where == "club")
    assert "does not use table links" in services.table_refusal(game)
    with pytest.raises(ValidationError) as error:
        services.table_result_enter(game=game, player=table.players[0], scores=[121, 90])
    assert "does not use table links" in error_text(error)
    assert not Result.objects.exists()


# --- PINs -----------------------------------------------------------------------------------------


@pytest.fixture
def pinned():
    """A table whose session asks for table PINs; both players have one (1111 and 2222)."""
    table = Table(table_pins=True)
    assert table.session.house_rules.table_pins
    for player, pin in zip(table.players, ("1111", "2222"), strict=True):
        pins.pin_set(player=player, actor=table.organiser, pin=pin)
        player.refresh_from_db()
    return table


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
    table = Table(players=4, table_pins=True)
    first, partner = table.side(0)
    pins.pin_set(player=partner, actor=table.organiser, pin="4444")
    draft = table.enter(first)
    with pytest.raises(ValidationError) as error:
        table.accept(draft, partner, pin="0000")
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


def test_pins_off_accept_without_a_pin(table):
    draft = table.enter(table.players[0])
    table.accept(draft, table.players[1], pin="")
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_the_pin_rule_is_the_sessions(table):
    """A session keeps the rules it opened with: PINs turned on later ask nothing of it."""
    Club.objects.filter(pk=table.club.pk).update(table_pins=True)
    assert not Session.objects.get(pk=table.session.pk).house_rules.table_pins
    draft = table.enter(table.players[0])
    table.accept(draft, table.players[1])
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED
