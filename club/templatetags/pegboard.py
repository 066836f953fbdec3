"""Template filters: `cents` formats integer cents as money (25¢, $3.25, -$0.50)."""

from django import template

register = template.Library()


@register.filter
def cents(value) -> str:
    if value is None or value == "":
        return ""
    amount = int(value)
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if amount < 100:
        return f"{sign}{amount}¢"
    dollars, rest = divmod(amount, 100)
    return f"{sign}${dollars:,}.{rest:02d}"
