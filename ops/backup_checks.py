"""What `import_club` checks in a backup's rows before it writes one
(ops.backup_restore.restore_club, and `import_club --check`): every rule the site keeps for the
rows it writes, so an edited file is refused, naming its first broken row, instead of importing
silently.

Terms:
- row: one object of the document, named as the file names it: "<model label> #<pk>".
- the file's rows: the club's rows and its logins. Every reference (foreign key) of a row must
  point at a row of the file (a login at a login of the file), never at a row the database may
  hold already, nor at a missing one. A content type is named by its natural key and must be one
  this site knows (the rows cannot be read otherwise).
- row rules: what the models validate (`clean_fields()`: choices, lengths, validators such as
  the money limits, at most `core.cents.MONEY_LIMIT_CENTS`; each model's `clean()`: the house
  rules, a player's name, a session's date from 1900 to a year ahead, a registered audit verb)
  and their check constraints, on a copy of each row; uniqueness inside the file (unique fields
  and unique constraints); references that must agree (a game's session is its round's
  session, ...).
- money rules: what the money's rows say of each other as money.services writes them
  (ops.backup_money): sums, the ledger, the settlements' states, what a current settlement
  booked from its session's check-ins and skunk coins.
- claims: recounted with the engine; their outcomes worked out again (ops.backup_claims).
- logins: only the role groups (club.roles: organisers, judges, players) and no permissions of
  their own (`check_logins`, on the file's rows, whose groups and permissions are names).
- house rules snapshot (`Session.rules`): a JSON object with every rule a snapshot has held since
  sessions existed (SNAPSHOT_KEYS; rules added since may be missing and read their defaults), no
  unknown rule, each value of its rule's type, and valid as the club's rules are (the `Club`
  fields' validators and `Club.clean`, the money limits included).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.db.models.functions import Lower

from club.models import Club
from club.roles import ROLES
from club.rules import HouseRules
from ops.backup_claims import recount_problem
from ops.backup_money import BrokenRow, MoneyChecks

# The rules every session's snapshot has held since sessions were first saved; the skunk bank and
# the jackpots came later, and older snapshots read them as their defaults (club.rules).
SNAPSHOT_KEYS = (
    "game_target",
    "entry_fee_cents",
    "payout_coin_cents",
    "players_per_paid_place",
    "place_weights",
    "skunk_line",
    "double_skunk_line",
    "points_win",
    "points_skunk_win",
    "points_double_skunk_win",
    "muggins",
    "rounds_per_session",
    "table_mode",
    "standings_public",
)

# References that must lead to the same row (or value): model -> (path, other path).
AGREEMENTS: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "games.game": [(("session",), ("round", "session"))],
    "games.seat": [(("round",), ("game", "round"))],
    "games.sessiontotal": [(("club",), ("session", "club")), (("date",), ("session", "date"))],
    "scoring.ruling": [(("result", "game"), ("dispute", "claim", "game"))],
    "money.ledgerentry": [(("session",), ("settlement", "session"))],
    "money.skunkcoin": [(("session",), ("game", "session"))],
}


def _first_message(error: ValidationError) -> str:
    if not hasattr(error, "error_dict"):
        return error.messages[0]
    field, messages = next(iter(error.message_dict.items()))
    return messages[0] if field == NON_FIELD_ERRORS else f"{field}: {messages[0]}"


def snapshot_problem(rules: object) -> str | None:
    """What is wrong with a session's house rules snapshot, or None (see the module's terms)."""
    if not isinstance(rules, dict):
        return "its house rules are not a JSON object."
    missing = [name for name in SNAPSHOT_KEYS if name not in rules]
    if missing:
        return f"its house rules lack {', '.join(missing)}."
    unknown = sorted(set(rules) - set(HouseRules.names()))
    if unknown:
        return f"its house rules hold rules this Pegboard does not know: {', '.join(unknown)}."
    defaults = HouseRules()
    kinds = {bool: "true or false", int: "a whole number", str: "text"}
    for name, value in rules.items():
        kind = type(getattr(defaults, name))
        if type(value) is not kind:
            return f"its house rules' {name} is {value!r}, not {kinds[kind]}."
    club = Club(**rules)
    try:
        club.clean_fields(exclude=[f.name for f in Club._meta.fields if f.name not in rules])
        club.clean()
    except ValidationError as error:
        return f"its house rules are not valid: {_first_message(error)}"
    return None


# --- Conditions of constraints, read in Python ---------------------------------------------------


def _field_value(instance: models.Model, name: str):
    field = instance._meta.get_field(name)
    if not field.concrete:
        raise FieldDoesNotExist(name)
    return getattr(instance, field.attname)


def _expression_value(instance: models.Model, expression):
    """The value of a constraint's expression on `instance`; None when it cannot be told here."""
    if isinstance(expression, str):
        expression = models.F(expression)
    if isinstance(expression, models.F) and LOOKUP_SEP not in expression.name:
        return _field_value(instance, expression.name)
    if isinstance(expression, Lower) and len(expression.source_expressions) == 1:
        value = _expression_value(instance, expression.source_expressions[0])
        return value.lower() if isinstance(value, str) else None
    return None


_COMPARE = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
    "in": lambda a, b: a in b,
    "exact": lambda a, b: a == b,
}


def _lookup_holds(instance: models.Model, key: str, value) -> bool | None:
    name, _, lookup = key.partition(LOOKUP_SEP)
    lookup = lookup or "exact"
    try:
        current = _field_value(instance, name)
        if isinstance(value, models.F):
            value = _field_value(instance, value.name)
    except FieldDoesNotExist:
        return None
    if isinstance(value, models.Model):
        value = value.pk
    if hasattr(value, "resolve_expression"):
        return None
    if lookup == "isnull":
        return (current is None) == bool(value)
    if lookup == "exact" and value is None:
        return current is None
    if current is None or value is None or lookup not in _COMPARE:
        return None
    return _COMPARE[lookup](current, value)


def condition_holds(condition: models.Q, instance: models.Model) -> bool | None:
    """Whether a constraint's condition holds for `instance`, read in Python; None when it
    cannot be told here (a join, a function, a NULL): then the database decides."""
    results = []
    for child in condition.children:
        if isinstance(child, models.Q):
            result = condition_holds(child, instance)
        else:
            result = _lookup_holds(instance, *child)
        if result is None:
            return None
        results.append(result)
    if condition.connector == models.Q.AND:
        holds = all(results)
    elif condition.connector == models.Q.OR:
        holds = any(results)
    else:  # XOR
        holds = sum(results) % 2 == 1
    return not holds if condition.negated else holds


# --- The checker ---------------------------------------------------------------------------------


def _expression_name(expression) -> str:
    while not isinstance(expression, models.F) and getattr(expression, "source_expressions", None):
        expression = expression.source_expressions[0]
    return getattr(expression, "name", str(expression))


def _name(label: str, pk) -> str:
    return f"{label} #{pk}"


def _shown(field: models.Field, value) -> str:
    return f"#{value}" if field.is_relation else str(value)


class _Checker(MoneyChecks):
    def __init__(self, rows: dict[str, list[models.Model]], users: list[models.Model], club_paths):
        self.rows = rows
        self.club_paths = {
            label: tuple(path.split(LOOKUP_SEP))
            for label, path in club_paths.items()
            if path != "pk"
        }
        self.by_pk: dict[str, dict[int, models.Model]] = {
            label: {instance.pk: instance for instance in instances}
            for label, instances in rows.items()
        }
        self.by_pk["auth.user"] = {user.pk: user for user in users}

    def fail(self, instance: models.Model, message: str):
        raise BrokenRow(f"{_name(instance._meta.label_lower, instance.pk)}: {message}")

    # Rules of one row.

    def row(self, instance: models.Model) -> None:
        model = type(instance)
        relations = [f for f in model._meta.concrete_fields if f.is_relation]
        # On a copy: clean() may tidy values (a player's name), and the file is written as is.
        probe = model.__new__(model)
        probe.__dict__.update(instance.__dict__)
        probe._state = copy.copy(instance._state)
        try:
            probe.clean_fields(exclude=[f.name for f in relations])
            probe.clean()
        except ValidationError as error:
            self.fail(instance, _first_message(error))
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.CheckConstraint):
                holds = condition_holds(constraint.condition, instance)
                if holds is None:
                    try:
                        constraint.validate(model, instance)
                    except ValidationError as error:
                        self.fail(instance, _first_message(error))
                elif not holds:
                    self.fail(instance, constraint.get_violation_error_message())
        for field in relations:
            self.reference(instance, field)

    def reference(self, instance: models.Model, field: models.Field) -> None:
        value = getattr(instance, field.attname)
        target = field.related_model
        if value is None:
            if not field.null:
                self.fail(instance, f"its {field.name} is missing.")
            return
        label = target._meta.label_lower
        if label not in self.by_pk:  # content types: by natural key, checked when read
            return
        if value not in self.by_pk[label]:
            what = "a login" if target is get_user_model() else f"a {target._meta.verbose_name}"
            self.fail(instance, f"its {field.name} (#{value}) is not {what} in the file.")

    def follow(self, instance: models.Model, path: tuple[str, ...]):
        """The field at the end of `path` and its value, through the file's rows; None when a
        step is missing (its own reference check names it)."""
        for name in path[:-1]:
            field = instance._meta.get_field(name)
            instance = self.by_pk[field.related_model._meta.label_lower].get(
                getattr(instance, field.attname)
            )
            if instance is None:
                return None
        field = instance._meta.get_field(path[-1])
        return field, getattr(instance, field.attname)

    def belongs(self, instance: models.Model) -> None:
        """The row leads to the file's club (an audit entry without one is site-wide: not
        the club's, and never in its backup)."""
        path = self.club_paths.get(instance._meta.label_lower)
        found = self.follow(instance, path) if path else None
        if found and found[1] != self.rows["club.club"][0].pk:
            value = "missing" if found[1] is None else f"#{found[1]}"
            where = "'s ".join(path)
            self.fail(instance, f"it is not the club's: its {where} is {value}.")

    def agreements(self, instance: models.Model) -> None:
        for path, other in AGREEMENTS.get(instance._meta.label_lower, []):
            mine, theirs = self.follow(instance, path), self.follow(instance, other)
            if mine and theirs and mine[1] != theirs[1]:
                one, two = ("'s ".join(names) for names in (path, other))
                self.fail(
                    instance,
                    f"its {one} ({_shown(*mine)}) is not its {two} ({_shown(*theirs)}).",
                )

    def rules(self, instance: models.Model) -> None:
        if instance._meta.label_lower == "club.session":
            problem = snapshot_problem(instance.rules)
            if problem:
                self.fail(instance, problem)

    def unique(self, model: type[models.Model], instances: list[models.Model]) -> None:
        """Ids, unique fields and unique constraints, inside the file (the database is empty)."""
        ids: set = set()
        for instance in instances:
            if instance.pk in ids:
                self.fail(instance, "the file holds two rows with this id.")
            ids.add(instance.pk)
        keys: list[tuple[list, models.Q | None, list[str], str]] = [
            ([field.name], None, [field.name], "")
            for field in model._meta.concrete_fields
            if field.unique and not field.primary_key
        ]
        keys += [(list(names), None, list(names), "") for names in model._meta.unique_together]
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.UniqueConstraint):
                parts = list(constraint.fields) or list(constraint.expressions)
                names = [
                    part if isinstance(part, str) else _expression_name(part) for part in parts
                ]
                keys.append((parts, constraint.condition, names, f" ({constraint.name})"))
        label = model._meta.label_lower
        for parts, condition, names, rule in keys:
            what = " and ".join(names).replace("_", " ")
            verb = "are those" if len(names) > 1 else "is that"
            seen: dict[tuple, models.Model] = {}
            for instance in instances:
                if condition is not None and condition_holds(condition, instance) is not True:
                    continue
                key = tuple(_expression_value(instance, part) for part in parts)
                if None in key:
                    continue
                if key in seen:
                    self.fail(instance, f"its {what} {verb} of {_name(label, seen[key].pk)}{rule}.")
                seen[key] = instance

    # Claims, recounted (ops.backup_claims).

    def claims(self) -> None:
        outcomes: dict[int, list] = defaultdict(list)
        for outcome in self.rows.get("scoring.outcome", []):
            outcomes[outcome.claim_id].append(outcome)
        seat_sides: dict[int, dict[str, int]] = defaultdict(dict)
        for seat in self.rows.get("games.seat", []):
            seat_sides[seat.game_id][str(seat.player_id)] = seat.side
        games, sessions = self.by_pk.get("games.game", {}), self.by_pk.get("club.session", {})
        for claim in self.rows.get("scoring.claim", []):
            session = sessions[games[claim.game_id].session_id]
            problem = recount_problem(
                claim,
                outcomes[claim.pk],
                muggins=HouseRules.from_snapshot(session.rules).muggins,
                seat_sides=seat_sides[claim.game_id],
            )
            if problem:
                self.fail(*problem)


def check_logins(users: list[dict]) -> None:
    """The file's logins (rows, groups and permissions by natural key) hold only the role groups
    and no permissions of their own; raise BrokenRow naming the first login that does not."""
    roles = ", ".join(reversed(ROLES))
    for row in users:
        name = f"auth.user #{row['pk']} ({row['fields'].get('username')})"
        groups = row["fields"].get("groups") or []
        if not isinstance(groups, list) or not all(
            isinstance(key, list) and len(key) == 1 and isinstance(key[0], str) for key in groups
        ):
            raise BrokenRow(f"{name}: its groups are not a list of group names ([[name], ...]).")
        for [group] in groups:
            if group not in ROLES:
                raise BrokenRow(
                    f"{name}: its group {group!r} is not one of the role groups ({roles}): a "
                    "backup gives a login its role in the club and nothing more."
                )
        perms = row["fields"].get("user_permissions") or []
        if perms:
            shown = ", ".join(
                f"{key[1]}.{key[0]}" if isinstance(key, list) and len(key) == 3 else repr(key)
                for key in (perms if isinstance(perms, list) else [perms])
            )
            raise BrokenRow(
                f"{name}: it has permissions of its own ({shown}): a backup gives a login only "
                "the permissions of its role groups."
            )


def check_backup(
    rows: Mapping[str, list[models.Model]],
    users: Iterable[models.Model],
    *,
    club_paths: Mapping[str, str],
) -> None:
    """Check the unsaved rows of a backup (model label -> instances, in restore order, each in
    pk order) and its logins (unsaved, without their groups and permissions); raise BrokenRow
    naming the first row that breaks a rule (see the module's terms). `club_paths`: each model's
    lookup to its club (ops.backup.CLUB_ROWS); every row must lead to the file's club."""
    users = list(users)
    checker = _Checker(dict(rows), users, club_paths)
    for user in users:
        checker.row(user)
    checker.unique(get_user_model(), users)
    for instances in rows.values():
        for instance in instances:
            checker.row(instance)
            checker.belongs(instance)
            checker.agreements(instance)
            checker.rules(instance)
        if instances:
            checker.unique(type(instances[0]), instances)
    checker.money()
    checker.claims()
