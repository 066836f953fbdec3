from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.hooks import register_results_changed
        from tournaments import audit  # noqa: F401 - registers the tournaments app's audit verbs
        from tournaments.services import playoffs_advance

        # The playoffs move on with every confirmed result, in its service's transaction.
        register_results_changed(
            name="tournament", handler=lambda session: playoffs_advance(session=session)
        )
