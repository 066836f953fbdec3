"""The scorecards screen never overrules what a side entered itself (`round_results_enter`): a
draft another side entered is not replaced by other scores, an organiser who plays never confirms
his own table over what the other side last entered, and a scorecard that agrees keeps the other
side's entry (confirming it when signed).

Terms as in tests/games/test_round_results.py; *side_scores* writes a two-player table's scores
in side order from the organiser's point of view.
"""

import pytest
from django.core.exceptions import ValidationError

from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import Game, Result, ResultSource, ResultState
from tests.factories import UserFactory
from tests.games.test_round_results import current, drawn_round, organiser_user, snapshot

pytestmark = pytest.mark.django_db


def own_table(playing):
    """Round 1 of four players with `playing` (an organiser) seated: their game, their side and
    the player across the table."""
    round_ = drawn_round(players=4, seated_users=[playing])
    game = Game.objects.get(round=round_, seats__player__user=playing)
    seats = list(game.seats.select_related("player").order_by("side"))
    mine = next(seat for seat in seats if seat.player.user_id == playing.pk)
    theirs = next(seat for seat in seats if seat.side != mine.side)
    return round_, game, mine.side, theirs.player


def side_scores(side: int, mine: int, theirs: int) -> list[int]:
    return [mine, theirs] if side == 0 else [theirs, mine]


def test_a_signed_scorecard_never_overrules_what_the_other_side_entered_at_the_table():
    """The organiser plays; his opponent enters 60-121 (a win) at the table's link; the
    organiser types his table as 121-60 with "signed" ticked: refused, saying why, on its
    table, and the opponent's entry stays the draft it was."""
    playing = UserFactory(role="organisers")
    round_, game, side, opponent = own_table(playing)
    theirs = services.table_result_enter(
        game=game, player=opponent, scores=side_scores(side, 60, 121)
    )
    before = snapshot()

    with pytest.raises(ValidationError) as refused:
        services.round_results_enter(
            round_=round_,
            actor=playing,
            scores={game.table: side_scores(side, 121, 60)},
            source=ResultSource.SCORECARD,
            signed=True,
        )

    [message] = refused.value.message_dict[f"table_{game.table}"]
    assert message.startswith(f"Table {game.table}: {opponent.display_name} entered ")
    assert "not what this scorecard says" in message
    assert snapshot() == before
    assert current(game).pk == theirs.pk


def test_nor_when_the_organiser_replaced_their_entry_on_the_game_page_first():
    """The opponent's 60-121 was replaced by the organiser's own 121-60 draft (the game page lets
    a side that disagrees enter its own): his signed scorecard still cannot confirm it."""
    playing = UserFactory(role="organisers")
    round_, game, side, opponent = own_table(playing)
    services.table_result_enter(game=game, player=opponent, scores=side_scores(side, 60, 121))
    mine = services.result_enter(game=game, actor=playing, scores=side_scores(side, 121, 60))
    before = snapshot()

    with pytest.raises(ValidationError, match="you play at this table"):
        services.round_results_enter(
            round_=round_,
            actor=playing,
            scores={game.table: side_scores(side, 121, 60)},
            signed=True,
        )

    assert snapshot() == before
    assert current(game).pk == mine.pk


def test_an_organiser_who_does_not_play_never_replaces_a_players_different_entry():
    round_ = drawn_round(players=4, seated_users=[UserFactory(role="players")])
    game = Game.objects.get(round=round_, seats__player__user__isnull=False)
    player_user = game.seats.get(player__user__isnull=False).player.user
    theirs = services.result_enter(game=game, actor=player_user, scores=[121, 100])
    before = snapshot()

    for signed in (False, True):
        with pytest.raises(ValidationError) as refused:
            services.round_results_enter(
                round_=round_,
                actor=organiser_user(),
                scores={game.table: [100, 121]},
                signed=signed,
            )
        [message] = refused.value.message_dict[f"table_{game.table}"]
        assert "entered 121–100" in message and "100–121" in message

    assert snapshot() == before
    assert current(game).pk == theirs.pk


def test_a_signed_scorecard_that_agrees_confirms_the_other_sides_own_entry():
    """Their entry is kept, with who entered it; the organiser's signed scorecard confirms it,
    and the audit says so."""
    playing = UserFactory(role="organisers")
    round_, game, side, opponent = own_table(playing)
    theirs = services.table_result_enter(
        game=game, player=opponent, scores=side_scores(side, 60, 121)
    )

    [result] = services.round_results_enter(
        round_=round_,
        actor=playing,
        scores={game.table: side_scores(side, 60, 121)},
        source=ResultSource.SCORECARD,
        signed=True,
    )

    result.refresh_from_db()
    assert result.pk == theirs.pk
    assert (result.version, result.state, result.entered_by_player) == (
        1,
        ResultState.CONFIRMED,
        opponent,
    )
    assert result.confirmed_by == playing
    assert Result.objects.filter(game=game).count() == 1
    signed = AuditEntry.objects.get(action=GameVerb.RESULT_SIGNED)
    assert (signed.object_id, signed.actor) == (str(theirs.pk), playing)
    assert signed.data["scores"] == side_scores(side, 60, 121)


def test_an_unsigned_scorecard_that_agrees_leaves_the_other_sides_entry_as_it_is():
    round_ = drawn_round(players=4, seated_users=[UserFactory(role="players")])
    game = Game.objects.get(round=round_, seats__player__user__isnull=False)
    player_user = game.seats.get(player__user__isnull=False).player.user
    theirs = services.result_enter(game=game, actor=player_user, scores=[121, 100])
    before = snapshot()

    assert (
        services.round_results_enter(
            round_=round_, actor=organiser_user(), scores={game.table: [121, 100]}
        )
        == []
    )

    assert snapshot() == before
    assert current(game).pk == theirs.pk
