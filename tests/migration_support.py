"""Moving a test's database between migrations: back to before a change, to fill it with rows
as the models of then wrote them, and forward again.

Terms: `migrate_to` runs the migrations alone, without the signals `manage.py migrate` sends
after them, so content types, permissions and groups stay as the migrations leave them (as in a
database that was made before the change).
"""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]):
    """Migrate the test database to `targets` ([(app, migration)]); the models of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
