"""`manage.py load_demo`: load the demo club ("Thursday Peggers") from fixtures/ once.

Idempotent: when the demo club is already there it says so and changes nothing, so a second
`make run` on a used checkout keeps whatever was done on the demo site. With the club comes its
past season (ops.demo.build_demo_season), played through the services; `--no-season` leaves it
out (for a test that wants the bare club).
"""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from club.audit import ClubVerb
from club.models import Club
from core.audit import audit_record
from ops.demo import build_demo_season
from web.role_groups import sync_roles

DEMO_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo_club.json"
DEMO_SLUG = "thursday-peggers"


class Command(BaseCommand):
    help = "Load the demo club from fixtures/demo_club.json unless it is already loaded."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-season",
            dest="season",
            action="store_false",
            help="Load the club and its players only, without the past season.",
        )

    def handle(self, *args, **options):
        if Club.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("The demo club is already loaded; nothing changed.")
            return
        with transaction.atomic():
            # The demo accounts sit in the role groups; make sure they exist (a flushed test
            # database, say, has lost what the data migration made).
            sync_roles()
            call_command("loaddata", str(DEMO_FIXTURE), verbosity=0)
            club = Club.objects.get(slug=DEMO_SLUG)
            audit_record(
                actor=None,
                action=ClubVerb.CLUB_CREATED,
                obj=club,
                club=club,
                data={"source": "demo fixture", "players": club.players.count()},
            )
            sessions = build_demo_season(club=club) if options.get("season", True) else 0
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the demo club {club.name} with {club.players.count()} players. "
                "Demo logins (demo only): organiser, organiser2, judge, judge2, player; "
                "password pegboard-demo."
            )
        )
        self.stdout.write(f"Built {sessions} past sessions of the season, all settled.")
