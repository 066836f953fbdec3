"""Showing a one-time player link to whoever made it (club.services.player_links): its full
address and QR code, on the page where it was made (a dispute's claim page, a game page), as
the seating chart shows a table's.

Terms:
- handover: the raw token is known only to the browser that made it: the view keeps it in that
  browser's session (`remember_player_link`) and the page shows it while the link is live, so an
  organiser who reloads or comes back can still show it; nobody else's page can. Once used,
  replaced, expired or its session settled, it is not shown (and is dropped).
"""

from __future__ import annotations

from django.urls import reverse

from club.services import player_link_find, player_link_refusal
from core.qr import absolute_url, is_local_only, qr_svg

KEY = "pegboard_player_links"


def remember_player_link(request, purpose: str, target: int, token: str) -> None:
    links = dict(request.session.get(KEY) or {})
    links[f"{purpose}:{target}"] = token
    request.session[KEY] = links


def player_link_handover(request, purpose: str, target: int, url_name: str, title: str):
    """The live link this browser made for (purpose, target): {url, qr, link, local_only}, or
    None."""
    links = dict(request.session.get(KEY) or {})
    token = links.get(f"{purpose}:{target}")
    if not token:
        return None
    link = player_link_find(token, purpose)
    if link is None or link.target != target or player_link_refusal(link):
        links.pop(f"{purpose}:{target}", None)
        request.session[KEY] = links
        return None
    url = absolute_url(request, reverse(url_name, args=[token]))
    return {
        "url": url,
        "qr": qr_svg(url, title=title),
        "link": link,
        "local_only": is_local_only(url),
    }
