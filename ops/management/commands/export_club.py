"""`manage.py export_club <slug> [--output FILE]`: write one club's whole history to one JSON
document (ops.backup), to stdout when no file (or `-`) is given.

The document holds the club's logins with their password hashes: keep it private. An unknown
slug or a file that cannot be written: a message on stderr, exit 2, nothing written.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from ops.backup import club_export_text


class Command(BaseCommand):
    help = (
        "Write a club's whole history (its logins' password hashes included: keep the file "
        "private) to one JSON file that import_club restores."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug, e.g. thursday-peggers")
        parser.add_argument(
            "--output", "-o", default="-", help="the file to write; '-' (the default) is stdout"
        )

    def handle(self, *args, slug: str, output: str, **options):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            slugs = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(
                f"There is no club with the slug {slug!r} (clubs here: {slugs or 'none'}).",
                returncode=2,
            )
        text = club_export_text(club)
        if output == "-":
            self.stdout.write(text, ending="")
            return
        path = Path(output)
        # Written beside the target and renamed: a failed write never leaves half a backup.
        partial = path.with_name(f".{path.name}.partial")
        try:
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(
                f"Cannot write {output}: {error.strerror or error}.", returncode=2
            ) from None
        self.stdout.write(
            self.style.SUCCESS(f"Wrote the club {club.name} ({club.slug}) to {output}.")
        )
