"""The site's template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50);
`signed` a spread (+12, -7, 0).
The club's filters (people's names, table modes) are its own library: `{% load club %}`."""

from django import template

from core.cents import format_cents

register = template.Library()


@register.filter
def cents(value) -> str:
    if value is None or value == "":
        return ""
    return format_cents(int(value))


@register.filter
def signed(value) -> str:
    """A spread as the tables show it: +12, -7, 0."""
    return f"{value:+d}" if value else "0"
