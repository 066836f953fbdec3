"""Template context the pages of every app read.

Terms:
- a copy request: a GET the table page's offline worker (static/js/table-worker.js) sends on its
  own, in the background, to keep a fresh copy of a page for a reload without a network. It says
  so in the `X-Pegboard-Copy` header. Nobody reads its answer now, so it must not take the
  messages a form's post left for the page the browser shows next: with the messages read
  there, "Accepted by ..." would vanish whenever the worker's copy got to the server between a
  post and the page its redirect leads to.
"""

from __future__ import annotations

from django.contrib.messages.api import get_messages

COPY_HEADER = "X-Pegboard-Copy"


def is_copy_request(request) -> bool:
    return bool(request.headers.get(COPY_HEADER))


def messages(request) -> dict:
    """The page's messages, none for a copy request (which leaves them unread). It follows
    Django's own processor in the settings (the admin asks for that one) and takes the place of
    its `messages`, which is read only when a template goes through it."""
    return {"messages": () if is_copy_request(request) else get_messages(request)}
