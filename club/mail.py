"""The one-time login links by e-mail, when the site sends e-mail (core.mail).

Terms:
- not configured: nothing is sent and nothing fails: the organiser hands the link or its QR code
  over in person, which always works.
- sent after the commit: the link is e-mailed once the transaction that made it has committed
  (`transaction.on_commit`), so a mail never carries a link that was rolled back.
"""

from __future__ import annotations

from django.utils import timezone

from club.models import LOGIN_LINK_DAYS, LoginLink, LoginLinkPurpose
from core.mail import mail_send


def login_link_message(link: LoginLink, url: str, name: str) -> tuple[str, str]:
    """The subject and text of the e-mail that carries a one-time link."""
    club = link.club.name
    username = link.user.get_username()
    expires = timezone.localtime(link.expires_at)
    if link.purpose == LoginLinkPurpose.WELCOME:
        subject = f"Your login for {club}"
        opening = f"an organiser of {club} gave you a login on the club's site."
    else:
        subject = f"A new password link for {club}"
        opening = f"an organiser of {club} made you a link to set a new password."
    body = (
        f"Hello {name},\n\n{opening}\n\n"
        f"Your username: {username}\n\n"
        f"Open this link to set your password. It works once, for {LOGIN_LINK_DAYS} days "
        f"(until {expires:%d %B %Y %H:%M}):\n\n{url}\n\n"
        "If you did not expect this e-mail, ignore it: nothing happens until the link is "
        "opened.\n"
    )
    return " ".join(subject.split()), body  # a header is one line, whatever the club's name


def login_link_send(link: LoginLink, url: str, name: str) -> bool:
    """E-mail `url` (the link's full address) to its login's address; whether it was sent. A
    mail server that refuses or does not answer is logged, never raised: the link still works
    and the page shows it."""
    subject, body = login_link_message(link, url, name)
    return mail_send(
        subject=subject,
        body=body,
        address=link.user.email,
        about=f"The one-time link for {link.user}",
    )
