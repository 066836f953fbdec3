"""`manage.py import_club FILE`: restore a club from a document written by `export_club` into an
empty database (migrated, no club rows, no logins the file has), in one transaction.

A missing or unreadable file, a file that is not a club backup of this version, or a database
that is not empty: a message on stderr, exit 2, and nothing imported.
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ops.backup import BackupError, read_document, restore_club


class Command(BaseCommand):
    help = "Restore a club from a file written by export_club into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file; '-' reads stdin")

    def handle(self, *args, file: str, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CommandError(f"There is no file {file}.", returncode=2) from None
        except UnicodeDecodeError:
            raise CommandError(f"{file} is not a text (UTF-8) file.", returncode=2) from None
        except OSError as error:
            raise CommandError(
                f"Cannot read {file}: {error.strerror or error}.", returncode=2
            ) from None
        try:
            club, counts, created_groups = restore_club(read_document(text))
        except BackupError as error:
            source = "stdin" if file == "-" else file
            raise CommandError(f"{source}: {error} Nothing was imported.", returncode=2) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the club {club.name} ({club.slug}): "
                f"{counts['club.session']} sessions, {counts['games.game']} games, "
                f"{counts['auth.user']} logins, {sum(counts.values())} rows in all."
            )
        )
        if created_groups:
            self.stdout.write(
                f"Created the groups {', '.join(created_groups)}, which this database lacked, "
                "without permissions: give them their permissions in the admin."
            )
