"""The registry of audit verbs: what an audit entry may record, filled by the apps.

Terms:
- verb: the text an audit entry stores in `action` ("result.confirmed"), with the label the audit
  log shows ("Result confirmed"). Each app owns its verbs: a `TextChoices` class in its own
  `audit.py`, decorated with `register_verbs`, which its AppConfig's `ready()` imports. The
  audit trail (`core.models.AuditEntry`) stores any registered verb and refuses others, so a new
  verb is one line in its app and needs no migration of `core`.
"""

from __future__ import annotations

_VERBS: dict[str, str] = {}


def register_verbs(choices):
    """Register every verb of a `TextChoices` class (usable as a class decorator).

    A verb registered twice must keep its label: two apps cannot mean different things by it.
    """
    for value, label in choices.choices:
        known = _VERBS.get(value)
        if known is not None and known != str(label):
            raise ValueError(f"Audit verb {value!r} is already registered as {known!r}.")
    _VERBS.update((value, str(label)) for value, label in choices.choices)
    return choices


def is_verb(value: str) -> bool:
    return value in _VERBS


def verb_label(value: str) -> str:
    """The label of a verb for people; an unregistered one is shown as it is stored."""
    return _VERBS.get(value, value)


def verb_choices() -> list[tuple[str, str]]:
    """Every registered verb as (value, label), by label: the audit log's filter."""
    return sorted(_VERBS.items(), key=lambda item: item[1].lower())
