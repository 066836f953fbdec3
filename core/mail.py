"""E-mail, when the site is configured to send it.

Terms:
- configured: `EMAIL_HOST` is set in the environment (config/settings.py reads it and the other
  EMAIL_* variables). Without it nothing is ever sent and nothing fails: what a mail would carry
  is always shown on a page as well.
- sent or not: `mail_send` says whether the mail left; a mail server that refuses or does not
  answer is logged, never raised, so the page that asked for the mail still answers.
"""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import send_mail

log = logging.getLogger(__name__)


def email_configured() -> bool:
    """Whether the site sends e-mail (see the module's terms)."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def mail_send(*, subject: str, body: str, address: str, about: str) -> bool:
    """E-mail `body` to `address`; whether it was sent (see the module's terms). `about` names
    what the mail carried, for the log."""
    if not email_configured() or not address:
        return False
    try:
        send_mail(subject, body, None, [address])
    except (OSError, smtplib.SMTPException, ValueError) as error:  # ValueError: a bad header
        log.warning("%s was not e-mailed: %s", about, error)
        return False
    return True
