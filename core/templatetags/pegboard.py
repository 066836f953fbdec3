"""The site's template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50);
`signed` a spread (+12, -7, 0); `clock` a time of day (9:05 AM); `nav_links` the site's
navigation.
The club's filters (people's names, table modes) are its own library: `{% load club %}`."""

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

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


@register.filter(expects_localtime=True)
def clock(value) -> str:
    """A time of day as the pages write it, "9:05 AM", in the current time zone: what
    `|time:"g:i A"` gives, without Django's format looking up "AM" or "PM" in the translations
    each time (a long table writes one a row)."""
    if value is None or value == "":
        return ""
    return f"{value.hour % 12 or 12}:{value.minute:02d} {'PM' if value.hour > 11 else 'AM'}"


@register.simple_tag
def nav_links(items, path: str) -> SafeString:
    """The navigation's links, one list item each, from (label, URL name) pairs; the one for the
    page at `path` marked current. Written here rather than by a template loop with {% url %},
    which every page paid for once a link."""
    links = []
    for label, name in items:
        url = reverse(name)
        current = ' aria-current="page"' if url == path else ""
        links.append(f'<li><a href="{escape(url)}"{current}>{escape(label)}</a></li>')
    return mark_safe("\n".join(links))  # every value escaped above
