from django.apps import AppConfig

from club.roles import JUDGES, PLAYERS


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"
    # What each role may do with claims and disputes (web.role_groups builds the groups); object
    # rules stay in the services: players file and dispute only at their own table.
    role_permissions = {
        PLAYERS: (
            "scoring.view_claim",
            "scoring.add_claim",
            "scoring.view_dispute",
            "scoring.add_dispute",
        ),
        JUDGES: ("scoring.rule_dispute", "scoring.view_ruling"),
    }

    def ready(self) -> None:
        from games.hooks import register_game_panel, register_round_guard, register_table_panel
        from scoring import audit  # noqa: F401 - registers the scoring app's audit verbs
        from scoring.guards import claims_hold_round
        from scoring.table_views import table_claims_panel
        from scoring.views import game_claims_panel

        register_game_panel(
            name="claims",
            template_name="scoring/includes/game_claims.html",
            context=game_claims_panel,
        )
        register_table_panel(
            name="claims",
            template_name="scoring/includes/table_claims.html",
            context=table_claims_panel,
        )
        register_round_guard(name="claims", guard=claims_hold_round)
