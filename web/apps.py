from django.apps import AppConfig
from django.db.models.signals import post_migrate


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web"

    def ready(self) -> None:
        from web import audit  # noqa: F401 - registers the web app's audit verbs
        from web.role_groups import sync_roles_after_migrate

        # After every migrate (and test-database flush): the groups follow the declarations.
        post_migrate.connect(
            sync_roles_after_migrate, sender=self, dispatch_uid="pegboard.web.sync_roles"
        )
