"""`manage.py import_club FILE [--trust-unsigned] [--check]`: restore a club from a file written
by `export_club` into an empty database (migrated, no club rows, no logins the file has), in one
transaction; or, with `--check`, only check the file, in any database, writing nothing.

The file's signature is checked first, on the bytes as read (ops.backup_signature): a file
without one, or whose signature does not match this site's backup key (PEGBOARD_BACKUP_KEY, or
the key derived from SECRET_KEY), is refused unless `--trust-unsigned` says the operator
vouches for it; such an import is logged as a warning and recorded in the club's audit trail,
with the file's SHA-256. Then every row is checked against the rules the site keeps
(ops.backup_checks: claims recounted, money, logins' role groups...), signed file or not: an
edited file is refused, naming its first broken row. A missing or unreadable file, a file that
is not a club backup of this version, a bad signature, a row that breaks a rule, or a database
that is not empty: a message on stderr, exit 2, and nothing imported.

The file's logins never come in as staff or superuser: the output names those whose flags were
left out. Make a site administrator with `manage.py createsuperuser`.
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ops.backup import BackupError
from ops.backup_restore import Restored, Verified, open_backup, restore_club, verify_backup


class Command(BaseCommand):
    help = (
        "Restore a club from a file written by export_club into an empty database, once its "
        "signature and every row check out; --check checks the file without importing it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file; '-' reads stdin")
        parser.add_argument(
            "--trust-unsigned",
            action="store_true",
            help="import a file without a valid signature (an older export, or one signed "
            "with a key this site does not have) because you know where it came from; the "
            "import is logged and audited with the file's SHA-256. Every row is still checked.",
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="check the signature and every row, import nothing (exit 0: the file would "
            "restore; 2: it would be refused). Runs against any database.",
        )

    def handle(self, *args, file: str, trust_unsigned: bool, check: bool, **options):
        data = self.read(file)
        source = "stdin" if file == "-" else file
        try:
            backup = open_backup(data, trust_unsigned=trust_unsigned)
            if check:
                self.report_check(source, verify_backup(backup))
                return
            restored = restore_club(backup)
        except BackupError as error:
            outcome = "It would not be imported." if check else "Nothing was imported."
            raise CommandError(f"{source}: {error} {outcome}", returncode=2) from None
        self.report_restore(restored)

    def read(self, file: str) -> bytes:
        """The file's bytes as they are: the signature covers them exactly."""
        try:
            if file == "-":
                stdin = getattr(sys.stdin, "buffer", None)
                return stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
            return Path(file).read_bytes()
        except FileNotFoundError:
            raise CommandError(f"There is no file {file}.", returncode=2) from None
        except OSError as error:
            raise CommandError(
                f"Cannot read {file}: {error.strerror or error}.", returncode=2
            ) from None

    def signature_lines(self, result: Restored | Verified) -> list[str]:
        signature = result.signature
        if signature.valid:
            return [f"The signature holds (the file's SHA-256: {signature.fingerprint})."]
        return [
            f"No valid signature, trusted with --trust-unsigned: {signature.problem} The file's "
            f"SHA-256: {signature.fingerprint}."
        ]

    def report_check(self, source: str, verified: Verified) -> None:
        club, counts = verified.club, verified.counts
        self.stdout.write(
            self.style.SUCCESS(
                f"{source}: every row passes the checks: the club {club.name} ({club.slug}), "
                f"{counts['club.session']} sessions, {counts['games.game']} games, "
                f"{counts['auth.user']} logins, {sum(counts.values())} rows in all. It can be "
                "restored into an empty database."
            )
        )
        for line in self.signature_lines(verified):
            self.stdout.write(line)
        if verified.demoted:
            self.stdout.write(
                f"An import leaves out the staff and superuser flags of "
                f"{', '.join(verified.demoted)}: a backup makes no site administrator."
            )

    def report_restore(self, restored: Restored) -> None:
        club, counts = restored.club, restored.counts
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the club {club.name} ({club.slug}): "
                f"{counts['club.session']} sessions, {counts['games.game']} games, "
                f"{counts['auth.user']} logins, {sum(counts.values())} rows in all."
            )
        )
        for line in self.signature_lines(restored):
            self.stdout.write(line)
        if not restored.signature.valid:
            self.stdout.write(
                "The club's audit trail records that it was restored from a file without a "
                "valid signature, with that SHA-256."
            )
        if restored.created_groups:
            self.stdout.write(
                f"Made the role groups {', '.join(restored.created_groups)}, which this "
                "database lacked, with their permissions."
            )
        if restored.demoted:
            self.stdout.write(
                f"Left out the staff and superuser flags of {', '.join(restored.demoted)}: a "
                "backup makes no site administrator. Make one with manage.py createsuperuser."
            )
