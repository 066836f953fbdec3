from django.apps import AppConfig

from club.roles import ORGANISERS, PLAYERS


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    # What each role may do with rounds, games and results (web.role_groups builds the groups);
    # object rules stay in the services: only at one's own table, only the other side's entry.
    role_permissions = {
        PLAYERS: (
            "games.view_round",
            "games.view_game",
            "games.view_result",
            "games.add_result",
            "games.confirm_result",
        ),
        ORGANISERS: (
            "games.add_round",
            "games.change_round",
            "games.delete_round",  # withdraw a round drawn by mistake
            "games.correct_result",
            "games.view_tablecard",  # the table cards: keys to the tables, like the chart's codes
            "games.add_tablecard",
            "games.change_tablecard",
        ),
    }

    def ready(self) -> None:
        from games import audit  # noqa: F401 - registers the games app's audit verbs
