"""`manage.py export_club <slug> [--output FILE]`: write one club's whole history to one signed
JSON document (ops.backup), to stdout when no file (or `-`) is given.

The document is signed with the site's backup key (PEGBOARD_BACKUP_KEY, or a key derived from
SECRET_KEY: ops.backup_signature), so `import_club` on this site, or on a site given that key,
can tell the file is the one written here. It holds the club's logins with their password
hashes: keep it private. The logins carry their role groups only: another group or a
permission of a login's own is left out, and the command says whose on stderr. An unknown slug
or a file that cannot be written: a message on stderr, exit 2, nothing written.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from ops.backup import club_export


class Command(BaseCommand):
    help = (
        "Write a club's whole history (its logins' password hashes included: keep the file "
        "private) to one JSON file, signed with the site's backup key, that import_club "
        "restores."
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
        export = club_export(club)
        if export.left_out:
            self.stderr.write(
                "Left out what a backup does not carry (a login gets its role groups only): "
                f"{'; '.join(export.left_out)}."
            )
        if output == "-":
            self.stdout.write(export.text, ending="")
            return
        path = Path(output)
        # Written beside the target and renamed: a failed write never leaves half a backup.
        # Bytes, not text: the signature covers the file's exact bytes, line endings included.
        partial = path.with_name(f".{path.name}.partial")
        try:
            partial.write_bytes(export.text.encode("utf-8"))
            partial.replace(path)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(
                f"Cannot write {output}: {error.strerror or error}.", returncode=2
            ) from None
        self.stdout.write(
            self.style.SUCCESS(f"Wrote the club {club.name} ({club.slug}) to {output}, signed.")
        )
