"""System checks of the site's own settings (Django's checks framework: `manage.py check`,
`runserver` and `migrate` run them and refuse to go on past an error).

Terms: the base URL (`PEGBOARD_BASE_URL`) is printed on the seating chart as QR codes and in
one-time login links; a wrong one would send every phone to an address that does not open.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register

from core.qr import base_url_problem


@register()
def check_base_url(app_configs=None, **kwargs) -> list[Error]:
    raw = getattr(settings, "PEGBOARD_BASE_URL", "")
    problem = base_url_problem(raw) if raw else None
    return [Error(problem, id="pegboard.E001")] if problem else []
