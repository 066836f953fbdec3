from django.apps import AppConfig

from club.roles import PERMISSIONS


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"
    role_permissions = PERMISSIONS

    def ready(self) -> None:
        from club import audit  # noqa: F401 - registers the club's audit verbs and references
