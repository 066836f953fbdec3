"""`manage.py ratings [--club SLUG] [--json] [--rebuild] [--catch-up]`: the club's ratings
table, as the pages show it (standings.rating_selectors.current_ratings): player, games, mu,
sigma, ordinal (the displayed rating, mu − 3·sigma) and whether the rating is still provisional.

Without `--club`, the club visitors see (PEGBOARD_DEFAULT_CLUB, else the first club).
`--rebuild` first recomputes every rating from the confirmed results
(standings.services.ratings_rebuild, written to the audit log). `--catch-up` first finishes a
replay still pending (a correction's, left behind by a process that stopped half way:
standings.catch_up), in the foreground; the table says when one is pending. `--json` prints
the figures unrounded, with the model's parameters, for anyone who recomputes them. An unknown
club: a message on stderr, exit code 2.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from club.selectors import default_club
from standings.models import PROVISIONAL_GAMES
from standings.rating_selectors import current_ratings, ratings_pending_from
from standings.ratings import MODEL
from standings.services import ratings_catch_up, ratings_rebuild


def model_parameters() -> dict:
    """The Plackett-Luce model's parameters (the library's defaults), as the JSON shows them."""
    return {
        "library": "openskill",
        "model": "PlackettLuce",
        "mu": MODEL.mu,
        "sigma": MODEL.sigma,
        "beta": MODEL.beta,
        "kappa": MODEL.kappa,
        "tau": MODEL.tau,
    }


class Command(BaseCommand):
    help = "Print a club's ratings table (openskill Plackett-Luce); --rebuild recomputes it."

    def add_arguments(self, parser):
        parser.add_argument(
            "--club", metavar="SLUG", help="the club's slug (default: the club visitors see)"
        )
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="recompute every rating from the confirmed results first",
        )
        parser.add_argument(
            "--catch-up",
            action="store_true",
            help="finish a pending replay of the ratings first (one left behind half way)",
        )

    def handle(self, *args, club: str | None, rebuild: bool, catch_up: bool, **options):
        chosen = default_club() if club is None else Club.objects.filter(slug=club).first()
        if chosen is None:
            slugs = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
            what = "There is no club yet" if club is None else f"There is no club {club!r}"
            raise CommandError(f"{what} (clubs here: {slugs or 'none'}).", returncode=2)
        if rebuild:
            replayed = ratings_rebuild(club=chosen, actor=None)
            self.stderr.write(
                f"Rebuilt the ratings of {chosen.name} from {replayed.games:,} rated games."
            )
        if catch_up:
            replayed = ratings_catch_up(club_id=chosen.pk)
            self.stderr.write(
                f"The ratings of {chosen.name} are up to date ({replayed.games:,} rated games "
                "replayed)."
            )
        rows = current_ratings(chosen)
        pending = ratings_pending_from(chosen)
        if options["json"]:
            data = {
                "club": chosen.slug,
                "model": model_parameters(),
                "provisional_below_games": PROVISIONAL_GAMES,
                "pending_from": pending.isoformat() if pending else None,
                "ratings": [
                    {
                        "player_id": row.player_id,
                        "player": row.player,
                        "games": row.games,
                        "mu": row.mu,
                        "sigma": row.sigma,
                        "ordinal": row.ordinal,
                        "provisional": row.provisional,
                    }
                    for row in rows
                ],
            }
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        self.stdout.write(
            f"Ratings of {chosen.name}: ordinal = mu − 3·sigma (openskill Plackett-Luce), "
            f"provisional under {PROVISIONAL_GAMES} games"
        )
        if pending:
            self.stdout.write(
                f"Being brought up to date: every rated game from {pending:%-d %B %Y} on is "
                "being replayed (--catch-up finishes it here)."
            )
        if not rows:
            self.stdout.write("No rated game yet: a rating starts with a confirmed result.")
            return
        width = max(len("player"), *(len(row.player) for row in rows))
        self.stdout.write(
            f"{'#':>3}  {'player':<{width}}  {'games':>5}  {'mu':>7}  {'sigma':>6}  "
            f"{'ordinal':>7}  provisional"
        )
        for position, row in enumerate(rows, start=1):
            self.stdout.write(
                f"{position:>3}  {row.player:<{width}}  {row.games:>5}  {row.mu:>7.3f}  "
                f"{row.sigma:>6.3f}  {row.ordinal:>7.3f}  {'yes' if row.provisional else ''}"
            )
