"""The games app's audit verbs: draws, seat swaps, withdrawn rounds, results, table cards
(`core.verbs`), and how the audit log names the games its entries refer to (`core.audit_log`)."""

from django.db import models

from core.audit_log import ONE, register_reference
from core.verbs import register_verbs
from games.models import Game


@register_verbs
class GameVerb(models.TextChoices):
    ROUND_DRAWN = "round.drawn", "Round drawn"
    SEATS_SWAPPED = "round.seats_swapped", "Seats swapped"
    ROUND_WITHDRAWN = "round.withdrawn", "Round withdrawn"
    RESULT_ENTERED = "result.entered", "Result entered"
    RESULT_CONFIRMED = "result.confirmed", "Result confirmed"
    RESULT_SIGNED = "result.signed_scorecard", "Result confirmed from a signed scorecard"
    RESULT_CORRECTED = "result.corrected", "Result corrected"
    CORRECTION_PROPOSED = "result.correction_proposed", "Correction proposed by a player"
    CORRECTION_WITHDRAWN = "result.correction_withdrawn", "Proposed correction withdrawn"
    GAME_NOT_PLAYED = "game.not_played", "Game marked not played"
    GAME_FORFEIT = "game.forfeit", "Game marked a forfeit"
    GAME_BACK_TO_PLAYING = "game.back_to_playing", "Game put back to playing"
    TABLE_CARD_MADE = "table_card.made", "Table card made"
    TABLE_CARD_RENEWED = "table_card.renewed", "Table card made new (the old one stopped)"


def game_names(club, ids: set[int]) -> dict[int, str]:
    """ "Round 1, table 3, Thu 26 Nov 2026" for each game id, in one query."""
    games = Game.objects.filter(session__club=club, pk__in=ids).values_list(
        "pk", "round__number", "table", "session__date"
    )
    return {
        pk: f"Round {number}, table {table}, {date:%a %-d %b %Y}"
        for pk, number, table, date in games
    }


register_reference("game", keys={"game": ONE}, lookup=game_names)
