"""How the audit log reads an entry's data to people: names, not the ids the entry stores.

Terms:
- reference: a key of an entry's `data` whose value is the id of a row ("player": 11, "tables":
  [[16, 12], [13, 11]], "payouts": {"4": 150}), read as that row's name. Each kind of row (a
  player, a login, a session, a game, a claim) has one lookup that names many ids in one query;
  each app declares its own kinds in its `audit.py` with `register_reference`, as it declares
  its verbs (core.verbs): this module knows none of them. The actors of the entries are named
  by the "login" kind (the club app declares it: a login is named by its player's name).
- shape: how a key holds its ids: `ONE` id, a list of `MANY`, or a dict `KEYED` by them. A value
  of another shape is not a reference and is shown as it is (the "players" of a club created is a
  count; the "player" of a login given is a name already).
- club: the club whose log is read (an instance of the PEGBOARD_CLUB_MODEL setting's model),
  handed to every lookup, so that one club's log never names another club's rows.
- page names (`AuditNames`): the names of every reference on one page of the log, and of its
  actors, looked up once per kind of row (a handful of queries however many rows).

An id whose row is gone (a session deleted since) is shown as "#id".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from django.db import models
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from core.cents import format_cents
from core.models import AuditEntry

ONE, MANY, KEYED = "one", "many", "keyed"

Lookup = Callable[[models.Model, set[int]], dict[int, str]]

_LOOKUPS: dict[str, Lookup] = {}
_KEYS: dict[str, tuple[str, str]] = {}  # data key -> (kind, shape)

# Keys the log leaves out: the same person or row is named by another key of the entry.
HIDDEN = {"by_player_id", "label"}
# Keys that hold a value of a fixed set ("singles"), read as its label (`register_labels`).
LABELS: dict[str, dict[str, str]] = {}
# Keys whose dict is keyed by side index ("0", "1"): what each side scores for a claim.
BY_SIDE = {"points"}


def register_reference(kind: str, *, keys: dict[str, str], lookup: Lookup) -> None:
    """Declare a kind of row the log names (`lookup(club, ids) -> {id: name}`, one query) and
    the data keys that refer to it, each with its shape. A key means one kind only."""
    for key, shape in keys.items():
        known = _KEYS.get(key)
        if known is not None and known != (kind, shape):
            raise ValueError(f"Audit data key {key!r} already refers to {known[0]!r}.")
    _LOOKUPS[kind] = lookup
    _KEYS.update((key, (kind, shape)) for key, shape in keys.items())


def register_labels(key: str, choices) -> None:
    """Read the values of `key` as the labels of `choices` (a TextChoices class); two sets of
    choices may share a key ("kind") while no value of theirs means two things."""
    labels = LABELS.setdefault(key, {})
    for value, label in choices.choices:
        if labels.get(value, str(label)) != str(label):
            raise ValueError(f"Audit data value {key}={value!r} already reads {labels[value]!r}.")
        labels[value] = str(label)


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _key_id(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _ids(key: str, value) -> Iterable[tuple[str, int]]:
    """Every (kind, id) a value of the data holds, nested values too."""
    kind, shape = _KEYS.get(key, (None, None))
    if isinstance(value, dict):
        if shape == KEYED:
            yield from ((kind, pk) for pk in map(_key_id, value) if pk is not None)
        for inner_key, inner in value.items():
            # {"before": 3, "after": 4} belongs to the key above it.
            yield from _ids(key if inner_key in ("before", "after") else inner_key, inner)
    elif isinstance(value, list):
        for item in value:
            if shape == MANY and _is_id(item):
                yield kind, item
            elif isinstance(item, list | dict):
                yield from _ids(key, item)
    elif shape == ONE and _is_id(value):
        yield kind, value


class AuditNames:
    """The names of every reference and actor on a page of the log (see the module's terms)."""

    def __init__(self, club: models.Model, entries: Iterable[AuditEntry]):
        wanted: dict[str, set[int]] = defaultdict(set)
        for entry in entries:
            if entry.actor_id is not None:
                wanted["login"].add(entry.actor_id)
            data = entry.data if isinstance(entry.data, dict) else {}
            for key, value in data.items():
                for kind, pk in _ids(key, value):
                    wanted[kind].add(pk)
        self.names = {
            kind: _LOOKUPS[kind](club, ids)
            for kind, ids in wanted.items()
            if ids and kind in _LOOKUPS
        }

    def name(self, kind: str, pk: int) -> str:
        return self.names.get(kind, {}).get(pk, f"#{pk}")

    def actor(self, entry: AuditEntry) -> str:
        return self.name("login", entry.actor_id)

    # --- Reading the data --------------------------------------------------------------------

    def lines(self, data) -> list[str]:
        """The entry's data as lines: "player: Ann Able", "fee: 25¢", "table mode: a → b"."""
        if not isinstance(data, dict):
            return [str(data)]
        lines = []
        for key, item in data.items():
            if key in HIDDEN:
                continue
            if key == "tables" and isinstance(item, list) and item:
                lines.extend(self._tables(item))  # "Table 1: Ann Able v Bob Baker", a line each
            else:
                lines.append(f"{_label(key)}: {self.value(key, item)}")
        return lines

    def html(self, data) -> SafeString:
        return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in self.lines(data)))

    def value(self, key: str, value) -> str:
        kind, shape = _KEYS.get(key, (None, None))
        if isinstance(value, dict) and set(value) == {"before", "after"}:
            return f"{self.value(key, value['before'])} → {self.value(key, value['after'])}"
        if key == "tables" and isinstance(value, list):
            return "; ".join(self._tables(value)) or "none"
        if isinstance(value, dict):
            if shape == KEYED:
                return ", ".join(self._keyed(kind, key, k, v) for k, v in value.items())
            if key in BY_SIDE:  # {"0": 10}: side indexes, as people count them
                return ", ".join(f"side {int(k) + 1}: {v}" for k, v in value.items())
            # {"29": 10} under "jackpots_cents" is money too.
            cents = key.endswith("_cents")
            parts = (
                f"{_label(k)}: {self.value(key if cents else k, v)}"
                for k, v in value.items()
                if k not in HIDDEN
            )
            return ", ".join(parts) or "none"
        if isinstance(value, list):
            if shape == MANY:
                return ", ".join(
                    self.name(kind, v) if _is_id(v) else self.value("", v) for v in value
                )
            glue = "; " if any(isinstance(item, dict) for item in value) else ", "
            return glue.join(self.value(key, item) for item in value) or "none"
        if shape == ONE and _is_id(value):
            return self.name(kind, value)
        if key.endswith("_cents") and _is_id(value):
            return format_cents(value)
        if key in LABELS and isinstance(value, str):
            return LABELS[key].get(value, value)
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def _keyed(self, kind: str, key: str, pk_text: str, value) -> str:
        pk = _key_id(pk_text)
        who = self.name(kind, pk) if pk is not None else pk_text
        if key == "parties" and _is_id(value):
            return f"{who} (side {value + 1})"
        if key == "payouts" and _is_id(value):
            return f"{who} {format_cents(value)}"
        return f"{who} {self.value('', value)}"

    def _tables(self, tables: list) -> list[str]:
        """[[16, 12], [13, 11, 9, 8]] as ["Table 1: Ann Able v Bob Baker", "Table 2: Cy Diaz &
        Eve Ng v ..."] (four seats are partners, opposite seats together)."""
        read = []
        for number, seats in enumerate(tables, start=1):
            if not isinstance(seats, list):
                read.append(f"Table {number}: {self.value('', seats)}")
                continue
            names = [self.name("player", pk) if _is_id(pk) else str(pk) for pk in seats]
            if len(names) == 4:
                sides = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
            else:
                sides = names
            read.append(f"Table {number}: {' v '.join(sides)}")
        return read


def _label(key: str) -> str:
    """A data key as a label: "fee_cents" -> "fee", "late_arrivals" -> "late arrivals"."""
    if key.endswith("_cents"):
        key = key[: -len("_cents")]
    return key.replace("_", " ")
