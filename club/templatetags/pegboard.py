"""Template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50); `person` names
a login as people know them (club.names); `table_mode` reads a table mode ("singles") as its
label."""

from django import template

from club.models import TableMode
from club.names import login_name, person_name
from core.cents import format_cents

register = template.Library()


@register.filter
def cents(value) -> str:
    if value is None or value == "":
        return ""
    return format_cents(int(value))


@register.filter
def person(user, club=None) -> str:
    """`{{ checkin.paid_by|person:club }}`: the player's name of that login in the club, else its
    full name, else its username."""
    return person_name(user, club or None)


@register.filter
def or_login(player_name: str | None, user) -> str:
    """`{{ checkin.paid_by_name|or_login:checkin.paid_by }}`: a person's name annotated on a list's
    rows (club.names.player_name_of), else the login's own name; "" for nobody."""
    if player_name:
        return player_name
    return login_name(user) if user is not None else ""


@register.filter
def table_mode(value) -> str:
    """`{{ rules.table_mode|table_mode }}`: "Singles (2-player tables, ...)", not "singles"."""
    try:
        return TableMode(value).label
    except ValueError:
        return value
