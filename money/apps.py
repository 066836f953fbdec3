from django.apps import AppConfig

from club.roles import ORGANISERS, PLAYERS


class MoneyConfig(AppConfig):
    name = "money"
    verbose_name = "Money"
    # What each role may do with the sessions' money (web.role_groups builds the groups); a player
    # sees their own money page only (the view checks whose it is).
    role_permissions = {
        PLAYERS: ("money.view_settlement",),
        ORGANISERS: ("money.settle_session", "money.view_ledgerentry"),
    }

    def ready(self) -> None:
        from money import audit  # noqa: F401 - registers the money app's audit verbs
