"""Template context for every page: the current club, the user's role and the navigation.

Terms: a nav item is (label, url name); which items a user sees follows their permissions.
"""

from django.http import HttpRequest

from club.roles import user_role
from club.selectors import current_club


def navigation(user) -> list[tuple[str, str]]:
    items = [("Home", "home"), ("Hand counter", "scoring:counter"), ("House rules", "club:rules")]
    if user.has_perm("club.view_session"):
        items.append(("Sessions", "club:sessions"))
    if user.has_perm("club.view_player"):
        items.append(("Players", "club:players"))
    if user.has_perm("scoring.rule_dispute"):
        items.append(("Disputes", "scoring:queue"))
    if user.has_perm("club.view_ledgerentry"):
        items.append(("Ledger", "club:ledger"))
    if user.has_perm("club.view_auditentry"):
        items.append(("Audit log", "club:audit"))
    return items


def pegboard(request: HttpRequest) -> dict:
    user = request.user
    return {
        "club": current_club(request),
        "role": user_role(user),
        "nav_items": navigation(user),
    }
