"""Template context for every page: the current club, the user's role and the navigation.

Terms:
- a nav item is (label, url name); which items a user sees follows their permissions.
- a refused request: one turned away before the authentication middleware ran (a Host header the
  site does not serve is refused by the common middleware), so it has no `request.user`. Its
  error page gets a bare header: no club, no role, only "Home" (reading `request.user` there
  would turn every such 400 into a 500).
"""

from django.http import HttpRequest

from club.selectors import current_club
from web.role_groups import user_role


def navigation(request) -> list[tuple[str, str]]:
    user = request.user
    items = [("Home", "home")]
    club = current_club(request)
    public = bool(club and club.standings_public)
    if public or user.has_perm("club.view_session"):
        items += [
            ("Standings", "standings:season"),
            ("Sessions", "club:sessions"),
            ("Tournaments", "tournaments:list"),
        ]
    items += [
        ("Hand counter", "scoring:counter"),
        ("Discard advisor", "scoring:discard"),
        ("House rules", "club:rules"),
    ]
    if user.has_perm("club.view_player"):
        items.append(("Players", "club:players"))
    if user.has_perm("scoring.rule_dispute"):
        items.append(("Disputes", "scoring:queue"))
    if user.has_perm("money.view_ledgerentry"):
        items.append(("Ledger", "money:ledger"))
    if user.has_perm("core.view_auditentry"):
        items.append(("Audit log", "club:audit"))
    if user.has_perm("club.change_player"):
        items.append(("Lock-outs", "web:lockouts"))
    return items


def pegboard(request: HttpRequest) -> dict:
    if not hasattr(request, "user"):  # a refused request (see the module's terms)
        return {"club": None, "role": "", "nav_items": [("Home", "home")]}
    return {
        "club": current_club(request),
        "role": user_role(request.user),
        "nav_items": navigation(request),
    }
