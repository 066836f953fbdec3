from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings"
    # The tables are read with club.view_session (or by anyone, when the club publishes them):
    # the app has no permissions of its own.

    def ready(self) -> None:
        from games.hooks import register_results_changed
        from standings import audit  # noqa: F401 - registers the standings app's audit verbs
        from standings.services import ratings_update

        # The ratings follow every confirmed or corrected result, in its service's transaction.
        register_results_changed(
            name="ratings", handler=lambda session: ratings_update(session=session)
        )
