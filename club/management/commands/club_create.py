"""`manage.py club_create`: start a club with its first organiser, and print the welcome link.

    manage.py club_create --name "Riverside Cribbage" --slug riverside --organiser olive \
        --organiser-name "Olive Ashdown" --base-url http://192.168.1.20:8000

Makes the club with the default house rules, a login with no usable password in the organisers'
role linked to a new player of the club (`club.services.club_start`), and prints, as its last
line, the one-time welcome link `<base-url>/welcome/<token>/` where the organiser sets a
password (valid LOGIN_LINK_DAYS days, once).

Terms:
- base URL: where the site is opened, `http(s)://host[:port]` and nothing more; default
  PEGBOARD_BASE_URL when it is set, else http://127.0.0.1:8000 (as core.qr.absolute_url).
- refusal: a taken slug, name or username, a bad slug or username, a bad base URL or a database
  that is not migrated is one line on standard error and exit code 2; nothing is created.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from club.models import LOGIN_LINK_DAYS, LoginLink
from club.services import club_start
from core.qr import base_url_problem

REFUSED = 2  # the exit code of every refusal
DEFAULT_BASE = "http://127.0.0.1:8000"


def refuse(message: str) -> CommandError:
    return CommandError(message, returncode=REFUSED)


def check_base_url(raw: str, *, source: str) -> str:
    """`raw` as a base URL (no trailing slash), or a refusal saying what a base URL looks like."""
    problem = base_url_problem(raw, source=source)
    if problem:
        raise refuse(problem)
    return (raw or "").strip().rstrip("/")


def unmigrated() -> bool:
    """Whether the database is missing migrations (or tables altogether)."""
    executor = MigrationExecutor(connection)
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def one_line(error: ValidationError) -> str:
    """A service's ValidationError as one line, each message after the option it is about."""
    options = {"slug": "--slug", "name": "--name", "username": "--organiser"}
    if hasattr(error, "error_dict"):
        parts = []
        for field, errors in error.error_dict.items():
            option = options.get(field, "--organiser-name" if field == "display_name" else field)
            messages = " ".join(message for item in errors for message in item.messages)
            parts.append(f"{option}: {messages}" if field != "__all__" else messages)
        return " ".join(parts)
    return " ".join(error.messages)


class Command(BaseCommand):
    help = (
        "Start a club with the default house rules and its first organiser; prints a one-time "
        "welcome link where the organiser sets a password."
    )

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help='The club\'s name, e.g. "Riverside".')
        parser.add_argument(
            "--slug", required=True, help="Its short name: letters, digits, - and _ only."
        )
        parser.add_argument(
            "--organiser", required=True, help="The first organiser's username (to log in with)."
        )
        parser.add_argument(
            "--organiser-name",
            default="",
            help="The organiser's name as the club knows them (default: the username).",
        )
        parser.add_argument(
            "--base-url",
            default="",
            help=(
                "Where the site is opened, http(s)://host[:port] (default: PEGBOARD_BASE_URL, "
                f"else {DEFAULT_BASE})."
            ),
        )

    def handle(self, *args, **options):
        if options["base_url"]:
            base = check_base_url(options["base_url"], source="--base-url")
        elif settings.PEGBOARD_BASE_URL:
            base = check_base_url(settings.PEGBOARD_BASE_URL, source="PEGBOARD_BASE_URL")
        else:
            base = DEFAULT_BASE
        try:
            if unmigrated():
                raise refuse(
                    "The database is not migrated: run `.venv/bin/python manage.py migrate` "
                    "first, then this command again."
                )
            club, player, token = club_start(
                name=options["name"],
                slug=options["slug"],
                organiser_username=options["organiser"],
                organiser_name=options["organiser_name"],
            )
        except ValidationError as error:
            raise refuse(f"Nothing was created. {one_line(error)}") from None
        except IntegrityError:
            # Another command took the slug, name or username between our check and our insert.
            raise refuse(
                "Nothing was created: the slug, name or username was taken just now; run the "
                "command again to see which."
            ) from None
        except DatabaseError as error:
            said = " ".join(str(error).split())
            raise refuse(f"Nothing was created: the database refused ({said}).") from None
        link = LoginLink.objects.filter(user=player.user).order_by("-created_at").first()
        expires = timezone.localtime(link.expires_at) if link else None
        path = reverse("welcome", kwargs={"link": token})
        url = base + path
        self.stdout.write(f"Club {club.name!r} (slug {club.slug}) created with the default rules.")
        self.stdout.write(
            f"Organiser: {player.display_name}, login {player.user.get_username()!r} "
            "(role organiser, no password yet)."
        )
        when = f" (until {expires:%d %B %Y %H:%M})" if expires else ""
        self.stdout.write(
            f"Open this link to set the organiser's password. It works once, for "
            f"{LOGIN_LINK_DAYS} days{when}:"
        )
        self.stdout.write(url)
