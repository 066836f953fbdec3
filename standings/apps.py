from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings"
    # The tables are read with club.view_session (or by anyone, when the club publishes them):
    # the app has no permissions of its own.
