"""`manage.py import_club FILE [--with-staff]`: restore a club from a document written by
`export_club` into an empty database (migrated, no club rows, no logins the file has), in one
transaction.

Every row is checked against the rules the site keeps before anything is written
(ops.backup_checks): an edited file is refused, naming its first broken row. A missing or
unreadable file, a file that is not a club backup of this version, a row that breaks a rule, or
a database that is not empty: a message on stderr, exit 2, and nothing imported.

The file's logins come without their staff and superuser flags unless `--with-staff` is given
(for a file you trust, such as your own export); the output names the logins concerned.
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ops.backup import BackupError, read_document, restore_club


class Command(BaseCommand):
    help = "Restore a club from a file written by export_club into an empty database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file; '-' reads stdin")
        parser.add_argument(
            "--with-staff",
            action="store_true",
            help="keep the staff and superuser flags of the file's logins (only for a file you "
            "trust: without it, no login of the file can reach the admin)",
        )

    def handle(self, *args, file: str, with_staff: bool, **options):
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
            restored = restore_club(read_document(text), with_staff=with_staff)
        except BackupError as error:
            source = "stdin" if file == "-" else file
            raise CommandError(f"{source}: {error} Nothing was imported.", returncode=2) from None
        club, counts = restored.club, restored.counts
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the club {club.name} ({club.slug}): "
                f"{counts['club.session']} sessions, {counts['games.game']} games, "
                f"{counts['auth.user']} logins, {sum(counts.values())} rows in all."
            )
        )
        if restored.created_groups:
            self.stdout.write(
                f"Created the groups {', '.join(restored.created_groups)}, which this database "
                "lacked, without permissions: give them their permissions in the admin."
            )
        if restored.demoted:
            self.stdout.write(
                f"Left out the staff and superuser flags of {', '.join(restored.demoted)}: a "
                "backup makes no site administrator. Import with --with-staff to keep them "
                "(a file you trust), or make one with manage.py createsuperuser."
            )
