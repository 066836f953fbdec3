"""Claims filed at a game that is later marked not played or a forfeit: what they count for.

docs/spec.md "Claims, muggins and disputes": a 29, 28 or 24 accepted as claimed with its cards
confirmed wins its jackpot, and one definition of an accepted big hand serves the jackpots and the
highlights. docs/spec.md "A Thursday, step by step", step 7: a game not played counts nowhere.
docs/decisions/results.md ("Claims at a game not played or a forfeit"): a not-played game's claims
count nowhere; a forfeit's hands were dealt, shown and counted, so they count.

Terms: a *jackpot morning*: a club running the 29, 28 and 24 jackpots, four players with logins
checked in with their fees paid, round 1 drawn as two singles tables. *The 29*: 5H 5C 5S JD with
the 5D turned (hoyle.txt "Showing"), filed by an organiser for the first table's side-1 player and
its cards confirmed by the side-0 player.
"""

import datetime as dt

import pytest

from club import services as club_services
from games import services as game_services
from money.models import LedgerEntry, LedgerKind
from money.selectors import accepted_hands
from money.services import session_settle
from scoring import services
from scoring.models import ClaimKind
from standings.highlights import big_hands, session_highlights
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.jackpot_tables import HAND_29

pytestmark = pytest.mark.django_db


def jackpot_morning():
    club = ClubFactory(jackpot_29_cents=25, jackpot_28_cents=10, jackpot_24_cents=5)
    organiser = UserFactory(role="organisers", club=club)
    other = UserFactory(role="organisers", club=club)
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 3, 5))
    for _ in range(4):
        player = PlayerFactory(club=club, user=UserFactory(role="players"))
        checkin = club_services.checkin_create(session=session, actor=organiser, player=player)
        club_services.fee_mark_paid(checkin=checkin, actor=organiser)
    round_ = game_services.round_draw(session=session, actor=organiser, seed=7)
    first, second = round_.games.order_by("table")
    return session, organiser, other, first, second


def file_confirmed_29(game, organiser):
    side_0, side_1 = [seat.player for seat in game.seats.select_related("player").order_by("side")]
    claim = services.claim_file(
        game=game,
        actor=organiser,
        kind=ClaimKind.HAND,
        claimant=side_1,
        claimed_points=29,
        **HAND_29,
    )
    services.claim_confirm_cards(claim=claim, actor=side_0.user)
    assert accepted_hands(game.session, 29) == [side_1.pk]
    return claim, side_0, side_1


def settle(session, organiser, other, game):
    draft = game_services.result_enter(game=game, actor=organiser, scores=[121, 100])
    game_services.result_confirm(result=draft, actor=other)
    session_settle(session=session, actor=organiser)
    return list(
        LedgerEntry.objects.filter(kind=LedgerKind.JACKPOT_WIN).values_list("player_id", flat=True)
    )


def test_a_29_at_a_game_not_played_wins_no_jackpot_and_is_no_highlight():
    session, organiser, other, first, second = jackpot_morning()
    file_confirmed_29(first, organiser)
    game_services.game_not_played(game=first, actor=organiser, reason="Taken ill")

    assert accepted_hands(session, 29) == []
    assert session_highlights(session).big_hands == []
    assert big_hands(session.club) == []  # the all-time records' big hands
    assert settle(session, organiser, other, second) == []


def test_a_29_at_a_forfeit_still_counts():
    session, organiser, other, first, second = jackpot_morning()
    claim, leaver, holder = file_confirmed_29(first, organiser)
    game_services.game_forfeit(game=first, actor=organiser, leaving=leaver)

    assert accepted_hands(session, 29) == [holder.pk]
    assert session_highlights(session).big_hands == [claim]
    assert big_hands(session.club) == [claim]
    assert settle(session, organiser, other, second) == [holder.pk]


def test_back_to_playing_makes_the_claims_count_again():
    session, organiser, _, first, _ = jackpot_morning()
    claim, _, holder = file_confirmed_29(first, organiser)
    game_services.game_not_played(game=first, actor=organiser)
    game_services.game_back_to_playing(game=first, actor=organiser)

    assert accepted_hands(session, 29) == [holder.pk]
    assert session_highlights(session).big_hands == [claim]
