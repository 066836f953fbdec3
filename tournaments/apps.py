from django.apps import AppConfig

from club.roles import ORGANISERS


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    # The director's pages (create, draw, close qualifying, forfeits) are the organisers';
    # members read a tournament with the session permission they already hold.
    role_permissions = {ORGANISERS: ("tournaments.run_tournament",)}

    def ready(self) -> None:
        from games.hooks import register_results_changed
        from money.hooks import register_pot_plan, register_settle_blockers
        from tournaments import audit  # noqa: F401 - registers the tournaments app's audit verbs
        from tournaments.prize_fund import prize_fund_blockers, prize_fund_plan
        from tournaments.services import playoffs_advance

        # The playoffs move on with every confirmed result, in its service's transaction.
        register_results_changed(
            name="tournament", handler=lambda session: playoffs_advance(session=session)
        )
        # A tournament's session is settled on money's pages: its pot is the prize fund.
        register_pot_plan(name="tournament", planner=prize_fund_plan)
        register_settle_blockers(name="tournament", blockers=prize_fund_blockers)
