from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app uses and no app owns (the audit trail, locking, one-time form tokens, the
    visitors' page cache, view mixins, tables and CSV export, cents, QR codes, mail): the lowest
    layer, which imports no other app of the project. It declares no role permissions: the club,
    which owns the roles, says who reads the audit trail (club.roles)."""

    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        from core import checks  # noqa: F401 - registers the checks of the site's settings
