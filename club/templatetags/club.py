"""The club's template filters (`{% load club %}`): `person` names a login as people know them
(club.names); `or_login` falls back from a name annotated on a list's rows to the login's own;
`table_mode` reads a table mode ("singles") as its label."""

from django import template

from club.models import TableMode
from club.names import login_name, person_name

register = template.Library()


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
