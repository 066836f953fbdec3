"""Template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50)."""

from django import template

from club.money import format_cents

register = template.Library()


@register.filter
def cents(value) -> str:
    if value is None or value == "":
        return ""
    return format_cents(int(value))
