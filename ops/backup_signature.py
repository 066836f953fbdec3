"""The signature of a club backup (ops.backup): `export_club` signs the file it writes, and
`import_club` checks the signature on the bytes it read before it trusts a row of them.

Terms:
- backup key: the secret both sides share: the PEGBOARD_BACKUP_KEY setting (from the environment
  variable of that name) when it is set; otherwise a key derived from SECRET_KEY with a fixed
  salt (django.utils.crypto.salted_hmac), so a site that never set one still signs and checks
  its own backups. A file from another site needs that site's key; rotating SECRET_KEY without a
  PEGBOARD_BACKUP_KEY makes the older files' signatures fail.
- signature line: the file's second line, `"signature": "hmac-sha256:<64 hex digits>",` (a
  header of the JSON document like the others, so the file stays one JSON document).
- signed bytes: the file's bytes with the signature line removed; the signature is their
  HMAC-SHA256 under the backup key. The check reads the very bytes of the file (it never
  serialises the document again), so any change to any byte, a line ending included, fails it.
- fingerprint: the SHA-256 of the file's bytes as read, which the logs and the audit trail
  keep for a file imported without a valid signature (and for a signed one).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import salted_hmac

ALGORITHM = "hmac-sha256"
KEY_SALT = "pegboard.ops.backup_signature"
SIGNATURE_LINE = re.compile(rb'\A\{\n"signature": "hmac-sha256:([0-9a-f]{64})",\n')
SIGNATURE_START = b'{\n"signature": '
OPENING = "{\n"

NO_SIGNATURE = (
    "The file has no signature: export_club writes one on its second line, so the file was "
    "made another way, by an older Pegboard, or that line was removed or moved (a program that "
    "rewrites the JSON drops it)."
)
MISMATCH = (
    "The signature does not match: the file was changed after export, or was signed with "
    "another site's key (set PEGBOARD_BACKUP_KEY to it)."
)
CRLF = " Its lines end in CR LF: a copy in text mode changed every line ending."


@dataclass(frozen=True)
class SignatureCheck:
    """What the signature check found in a file's bytes."""

    fingerprint: str  # SHA-256 of the bytes, hex
    problem: str  # "" when the signature holds; else why not, for people
    reason: str  # "valid", "none" or "mismatch": for the audit trail and the logs

    @property
    def valid(self) -> bool:
        return not self.problem


def backup_key() -> bytes:
    """The backup key (see the module's terms)."""
    key = settings.PEGBOARD_BACKUP_KEY
    if key:
        return key.encode("utf-8")
    return salted_hmac(KEY_SALT, "backup key", algorithm="sha256").digest()


def _digest(data: bytes) -> str:
    return hmac.new(backup_key(), data, hashlib.sha256).hexdigest()


def sign_text(text: str) -> str:
    """`text` (a document as `ops.backup.document_text` writes it, without a signature) with
    its signature line added as the second line."""
    if not text.startswith(OPENING) or SIGNATURE_LINE.match(text.encode("utf-8")):
        raise ValueError("Only an unsigned document's text is signed.")
    digest = _digest(text.encode("utf-8"))
    return f'{OPENING}"signature": "{ALGORITHM}:{digest}",\n{text[len(OPENING) :]}'


def check_signature(data: bytes) -> SignatureCheck:
    """Check the signature of a file's bytes, exactly as read (see the module's terms)."""
    fingerprint = hashlib.sha256(data).hexdigest()
    found = SIGNATURE_LINE.match(data)
    if found is None:
        if b"\r\n" in data and SIGNATURE_LINE.match(data.replace(b"\r\n", b"\n")):
            return SignatureCheck(fingerprint, MISMATCH + CRLF, "mismatch")
        if data.startswith(SIGNATURE_START):  # a signature line, changed out of its form
            return SignatureCheck(fingerprint, MISMATCH, "mismatch")
        return SignatureCheck(fingerprint, NO_SIGNATURE, "none")
    signed = OPENING.encode("ascii") + data[found.end() :]
    if not hmac.compare_digest(_digest(signed), found.group(1).decode("ascii")):
        return SignatureCheck(fingerprint, MISMATCH, "mismatch")
    return SignatureCheck(fingerprint, "", "valid")
