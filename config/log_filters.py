"""Logging filters the settings' LOGGING names.

Terms: a refused Host header (`DisallowedHost`) is something a scanner sends all day, not a fault
of the site: Django logs it on `django.security.DisallowedHost` as an error with the traceback.
`DropTraceback`, set on that logger, keeps the one line that says which host was refused, as a
warning, and drops the traceback.
"""

from __future__ import annotations

import logging


class DropTraceback(logging.Filter):
    """Keep the record's message, as a warning at most; drop its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        if record.levelno > logging.WARNING:
            record.levelno = logging.WARNING
            record.levelname = logging.getLevelName(logging.WARNING)
        return True
