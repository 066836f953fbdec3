"""The 503 page: a database that does not answer is said so, not shown as a server error.

Terms: a *database failure* is django.db.OperationalError or InterfaceError escaping a view: the
server refused or dropped the connection, a connect or statement timeout ran out
(config/settings.py), SQLite waited its busy timeout for the write lock in vain. The visitor gets
templates/503.html with status 503 and `Retry-After: 60`. The page is rendered without the request,
so no context processor runs (web.context_processors.pegboard reads the club and the user from the
database, which is what failed); should even that fail, a plain page says the same. The error is
still logged with its traceback (logger `django.request`, as Django logs a 500), for the
administrator.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger("django.request")

RETRY_AFTER_SECONDS = 60
MESSAGE = "The database is not answering. Please try again in a minute."
FALLBACK = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    "<title>Try again in a minute · Pegboard</title></head><body>"
    f"<h1>Try again in a minute</h1><p>{MESSAGE}</p></body></html>"
)


def unavailable_page() -> str:
    try:
        return render_to_string("503.html", {"message": MESSAGE})
    except Exception:  # the page must never turn into a 500 of its own
        logger.exception("templates/503.html did not render; sent the plain page")
        return FALLBACK


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error(
            "Database unavailable: %s %s",
            request.method,
            request.path,
            exc_info=exception,
            extra={"status_code": 503, "request": request},
        )
        response = HttpResponse(unavailable_page(), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
