"""Template context for every page: the current club, the user's role and the navigation.

Terms: a nav item is (label, url name); which items a user sees follows their permissions.
"""

from django.http import HttpRequest

from club.selectors import current_club
from web.roles import user_role


def navigation(request) -> list[tuple[str, str]]:
    user = request.user
    items = [("Home", "home")]
    club = current_club(request)
    public = bool(club and club.standings_public)
    if public or user.has_perm("club.view_session"):
        items += [("Standings", "standings:season"), ("Sessions", "club:sessions")]
    items += [("Hand counter", "scoring:counter"), ("House rules", "club:rules")]
    if user.has_perm("club.view_player"):
        items.append(("Players", "club:players"))
    if user.has_perm("scoring.rule_dispute"):
        items.append(("Disputes", "scoring:queue"))
    if user.has_perm("money.view_ledgerentry"):
        items.append(("Ledger", "money:ledger"))
    if user.has_perm("club.view_auditentry"):
        items.append(("Audit log", "club:audit"))
    return items


def pegboard(request: HttpRequest) -> dict:
    user = request.user
    return {
        "club": current_club(request),
        "role": user_role(user),
        "nav_items": navigation(request),
    }
