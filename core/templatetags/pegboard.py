"""The site's template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50).
The club's filters (people's names, table modes) are its own library: `{% load club %}`."""

from django import template

from core.cents import format_cents

register = template.Library()


@register.filter
def cents(value) -> str:
    if value is None or value == "":
        return ""
    return format_cents(int(value))
