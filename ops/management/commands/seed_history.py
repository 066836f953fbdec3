"""`manage.py seed_history --years 10 --players 40 --seed 1`: build a long club history.

A club of its own (slug `history` unless `--slug` says otherwise) with `--years` years of weekly
sessions played through the services (see ops.history), each settled session of six rounds
(`--rounds` fewer: a cheaper history of the same length; this morning's session always has
three). Prints what it built and how long it took; `--json` prints that as JSON (the benchmark
reads it). A slug already taken or a bad number: a message on stderr and exit code 2.

`--clubs 100 --years 2 --long-club-years 10`: many clubs in one database (ops.clubs_seed): the
clubs `club-001` to `club-100` (`--prefix`), the first `--played-clubs` (1) played through the
services and the others copied from them in bulk, and the long club `club-long`: `--years`
played, stacked back to `--long-club-years`. `--check` compares each played club with its first
copy and the long club's stacked sessions with the played ones (the figures the pages show),
and fails with exit code 1 if any differ.
"""

import datetime as dt
import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from club.models import Session
from games.models import Game
from ops.clubs_seed import PREFIX, build_clubs
from ops.history import ROUNDS, build_history


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
        parser.add_argument(
            "--rounds",
            type=int,
            help=f"rounds of each settled session (1 to {ROUNDS}: fewer build faster; {ROUNDS})",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        many = parser.add_argument_group("many clubs")
        many.add_argument("--clubs", type=int, help="build this many clubs (1 to 1000)")
        many.add_argument(
            "--played-clubs",
            type=int,
            default=1,
            help="of them, played through the services; the rest are copies (1)",
        )
        many.add_argument(
            "--long-club-years",
            type=int,
            default=0,
            help="also the long club, of this many years (at least --years; 0: none)",
        )
        many.add_argument("--prefix", default=PREFIX, help=f"the clubs' slugs' prefix ({PREFIX})")
        many.add_argument(
            "--check", action="store_true", help="check the copies against the played clubs"
        )

    def handle(self, *args, years, players, seed, slug, today, **options):
        if not 1 <= years <= 50:
            raise CommandError("--years: give 1 to 50 years.", returncode=2)
        if not 4 <= players <= 200:
            raise CommandError("--players: give 4 to 200 players.", returncode=2)
        rounds = ROUNDS if options["rounds"] is None else options["rounds"]
        if not 1 <= rounds <= ROUNDS:
            raise CommandError(f"--rounds: give 1 to {ROUNDS} rounds.", returncode=2)
        if options["clubs"] is not None or options["long_club_years"]:
            if options["rounds"] is not None:
                raise CommandError(
                    f"--rounds: one club's history only (the clubs are played with {ROUNDS}).",
                    returncode=2,
                )
            return self.many(years=years, players=players, seed=seed, today=today, **options)
        progress = None if options["json"] else self.stderr.write
        try:
            report = build_history(
                years=years,
                players=players,
                seed=seed,
                slug=slug,
                today=today,
                progress=progress,
                rounds=rounds,
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

    def many(self, *, years, players, seed, today, clubs, played_clubs, long_club_years, **options):
        if clubs is None:
            raise CommandError("--long-club-years: give --clubs too.", returncode=2)
        if not 1 <= clubs <= 1000:
            raise CommandError("--clubs: give 1 to 1000 clubs.", returncode=2)
        if not 1 <= played_clubs <= clubs:
            raise CommandError("--played-clubs: give 1 to --clubs clubs.", returncode=2)
        if long_club_years and not years <= long_club_years <= 50:
            raise CommandError(
                "--long-club-years: give --years to 50 years (or 0: no long club).", returncode=2
            )
        progress = None if options["json"] else self.stderr.write
        try:
            report = build_clubs(
                clubs=clubs,
                years=years,
                long_years=long_club_years,
                templates=played_clubs,
                players=players,
                seed=seed,
                prefix=options["prefix"],
                today=today,
                check=options["check"],
                progress=progress,
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=2) from None
        summary = {
            "clubs": len(report.clubs),
            "years": years,
            "players": players,
            "seed": seed,
            "played": report.played,
            "long_club": report.long_club,
            "long_club_years": long_club_years,
            "stacked_sessions": report.stacked_sessions,
            "sessions": Session.objects.count(),
            "games": Game.objects.count(),
            "seconds": report.seconds | {"total": round(sum(report.seconds.values()), 1)},
        }
        differing = [
            f"{name}: {figure}"
            for name, figures in report.check.items()
            for figure, verdict in _verdicts(figures)
            if not verdict
        ]
        if options["check"]:
            summary["check"] = {"compared": list(report.check), "differing": differing}
        if options["json"]:
            self.stdout.write(json.dumps(summary))
        else:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Built {summary['clubs']} clubs"
                    + (f" and {report.long_club!r}" if report.long_club else "")
                    + f": {summary['sessions']:,} sessions, {summary['games']:,} games in "
                    f"{summary['seconds']['total']} s ({', '.join(report.played)} played)."
                )
            )
        if differing:
            raise CommandError("The copies differ: " + "; ".join(differing), returncode=1)
        if options["check"] and not options["json"]:
            self.stdout.write(f"Checked: {', '.join(report.check)} show what their sources show.")


def _verdicts(figures: dict):
    """(figure, same) pairs of a check, the stacked copies' nested one level deeper."""
    for name, value in figures.items():
        if "same" in value:
            yield name, value["same"]
        else:
            yield from ((f"{name} {inner}", same) for inner, same in _verdicts(value))
