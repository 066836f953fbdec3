"""The tournaments app's audit verbs (`core.verbs`)."""

from django.db import models

from core.verbs import register_verbs


@register_verbs
class TournamentVerb(models.TextChoices):
    CREATED = "tournament.created", "Tournament created"
    QUALIFYING_DRAWN = "tournament.qualifying_drawn", "Qualifying round drawn"
    QUALIFYING_CLOSED = "tournament.qualifying_closed", "Qualifying closed, the bracket made"
    MATCH_GAME_SEATED = "tournament.match_game_seated", "Playoff game seated"
    MATCH_DECIDED = "tournament.match_decided", "Playoff match decided"
    GAME_FORFEITED = "tournament.game_forfeited", "Playoff game forfeited (ACC rule 13.1)"
    PRIZE_SHARES_SET = "tournament.prize_shares_set", "Prize shares set"
