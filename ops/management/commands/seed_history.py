"""`manage.py seed_history --years 10 --players 40 --seed 1`: build a long club history.

A club of its own (slug `history` unless `--slug` says otherwise) with `--years` years of weekly
sessions played through the services (see ops.history). Prints what it built and how long it
took; `--json` prints that as JSON (the benchmark reads it). A slug already taken or a bad number:
a message on stderr and exit code 2.
"""

import datetime as dt
import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ops.history import build_history


class Command(BaseCommand):
    help = "Build a club history of weekly sessions through the services (for the benchmarks)."

    def add_arguments(self, parser):
        parser.add_argument("--years", type=int, default=10, help="years of history (10)")
        parser.add_argument("--players", type=int, default=40, help="players (40)")
        parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
        parser.add_argument("--slug", default="history", help="the new club's slug (history)")
        parser.add_argument(
            "--today",
            type=dt.date.fromisoformat,
            default=None,
            help="the last meeting day is on or before this date (YYYY-MM-DD; default today)",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")

    def handle(self, *args, years, players, seed, slug, today, **options):
        if not 1 <= years <= 50:
            raise CommandError("--years: give 1 to 50 years.", returncode=2)
        if not 4 <= players <= 200:
            raise CommandError("--players: give 4 to 200 players.", returncode=2)
        progress = None if options["json"] else self.stderr.write
        try:
            report = build_history(
                years=years, players=players, seed=seed, slug=slug, today=today, progress=progress
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=2) from None
        summary = {
            "club": report.club.slug,
            "years": years,
            "players": players,
            "seed": seed,
            "sessions": report.sessions,
            "settled": report.settled,
            "games": report.games,
            "claims": report.claims,
            "disputes": report.disputes,
            "seconds": round(report.seconds, 1),
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Built {summary['sessions']} sessions ({summary['settled']} settled), "
                f"{summary['games']:,} games, {summary['claims']:,} claims and "
                f"{summary['disputes']} disputes for the club {slug!r} in "
                f"{summary['seconds']} s."
            )
        )
