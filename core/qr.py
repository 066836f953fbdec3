"""QR codes drawn on the server as inline SVG (segno), and the absolute addresses they hold.

Terms:
- base URL: the address phones at the venue reach the site by. The seating chart's table links
  and an organiser's login links are printed or shown for another device to open, so they must
  not say "127.0.0.1" when the organiser's laptop browses itself: `PEGBOARD_BASE_URL` (for
  example http://192.168.1.20:8000) says it; without it the address the request came in on is
  used, and `is_local_only` tells the page to warn that a phone cannot open it.
- inline SVG: the code as an <svg> element in the page, drawn with presentation attributes only
  (the Content-Security-Policy forbids style attributes); no image request, no network.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def base_url_problem(raw: str, *, source: str = "PEGBOARD_BASE_URL") -> str | None:
    """What is wrong with `raw` as a base URL (`http(s)://host[:port]` and nothing after it), in
    a sentence that says what to write instead; None when it is one."""
    base = (raw or "").strip().rstrip("/")
    example = "e.g. http://192.168.1.20:8000"
    try:
        parts = urlsplit(base)
        port = parts.port  # a port that is not a number is a ValueError here
    except ValueError:
        return f"{source} {raw!r} is not an address: give http(s)://host[:port], {example}."
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.password is not None
        or parts.path
        or parts.query
        or parts.fragment
        or "\\" in base
        or any(character.isspace() for character in base)
        or (port is not None and not 0 < port < 65536)
    ):
        return (
            f"{source} {raw!r} is not a base URL: give http(s)://host[:port] and nothing "
            f"after it, {example}."
        )
    return None


def absolute_url(request: HttpRequest | None, path: str) -> str:
    """`path` as a full address another device can open (see the module's terms)."""
    base = (getattr(settings, "PEGBOARD_BASE_URL", "") or "").rstrip("/")
    if base:
        return base + path
    if request is None:
        return "http://127.0.0.1:8000" + path
    return request.build_absolute_uri(path)


def is_local_only(url: str) -> bool:
    """Whether `url` names a loopback host only (localhost, 127.x, ::1): a phone cannot open it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(data: str, *, title: str = "") -> SafeString:
    """`data` as a QR code: an inline <svg> that scales to its box (a viewBox, no size), with a
    title for screen readers. Error correction M survives a crease in a printed chart."""
    code = segno.make(data, error="m", micro=False)
    svg = code.svg_inline(
        scale=1,
        border=4,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
        title=escape(title) if title else None,
    )
    return mark_safe(svg)
