"""Asking a service's own check, without acting, whether it would refuse.

Terms:
- refusal: a service refuses with PermissionDenied (not this person) or ValidationError (not
  now, not this value); its checks are plain functions that raise one or the other.
- passes: whether such a check raises nothing for these arguments. Pages use it to decide
  which buttons to show; the service still decides when it runs.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied, ValidationError


def passes(check: Callable[..., object], *args: object) -> bool:
    """Whether `check(*args)` passes: it raises neither PermissionDenied nor ValidationError."""
    try:
        check(*args)
    except (PermissionDenied, ValidationError):
        return False
    return True
