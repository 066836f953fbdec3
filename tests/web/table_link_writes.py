"""What a valid anonymous post through a table's link may write (tests/web/test_pages.py,
`test_anonymous_users_never_write`): its own table's rows only, each audited at the table with no
actor.

Terms: `rows_beside(game)` counts the rows of every table the site keeps, without `game`'s own
(its results, claims, disputes) and without the audit entries made at the table.
"""

from __future__ import annotations

from django.urls import reverse

from club.models import CheckIn, Club, Player, Session
from core.models import AuditEntry
from games.models import Game, Result, Round
from money.models import LedgerEntry, Settlement
from scoring import services
from scoring.models import Claim, Dispute
from tests.factories import SeatFactory
from tests.scoring.jackpot_tables import HAND_29


def rows_beside(game: Game) -> tuple[int, ...]:
    """row_counts() without the rows of `game`'s own table (its results, claims, disputes) and
    without the audit entries made at the table."""
    return (
        Club.objects.count(),
        Player.objects.count(),
        AuditEntry.objects.exclude(data__via="at the table").count(),
        Session.objects.count(),
        CheckIn.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
        Result.objects.exclude(game=game).count(),
        Claim.objects.exclude(game=game).count(),
        Dispute.objects.exclude(claim__game=game).count(),
        Settlement.objects.count(),
        LedgerEntry.objects.count(),
        CheckIn.objects.filter(paid_at__isnull=False).count(),
    )


def assert_only_its_table_written(name: str, url: str, client, post_data: dict) -> None:
    """A valid anonymous post through a table's link writes its own table's rows only, each
    audited at the table with no actor."""
    game = Game.objects.get(table_token=url.split("/")[2])
    player = game.seats.select_related("player").first().player
    if name == "table_claims:dispute_open":  # url_for's claim is disputed already: a new one
        claim = services.table_claim_file(
            game=game, kind="heels", claimant=player, claimed_points=2, starter="JH"
        )
        url = reverse(name, args=[game.table_token, claim.pk])
    if name in ("table_claims:muggins", "table_claims:cards_confirm"):
        # A hand of 29 claimed as 28 by the seated player: an opponent calls muggins on it, or
        # confirms its cards.
        seat = game.seats.get(player=player)
        opponent = SeatFactory(game=game, position=1 - seat.position, side=1 - seat.side).player
        claim = services.table_claim_file(
            game=game, kind="hand", claimant=player, claimed_points=28, **HAND_29
        )
        url = reverse(name, args=[game.table_token, claim.pk])
        player = opponent
    data = {**post_data, "player": player.pk, "claimant": player.pk, "caller": player.pk}
    before, audit = rows_beside(game), AuditEntry.objects.count()
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:500]
    assert response.url.startswith(f"/t/{game.table_token}/")
    assert rows_beside(game) == before
    made = AuditEntry.objects.order_by("pk")[audit:]
    assert made, "the post wrote nothing"
    assert all(entry.actor_id is None and entry.data["via"] == "at the table" for entry in made)
