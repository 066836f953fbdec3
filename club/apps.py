from django.apps import AppConfig

from club.roles import PERMISSIONS


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"
    role_permissions = PERMISSIONS

    def ready(self) -> None:
        from club import audit, checks  # noqa: F401 - registers the audit verbs and the checks
