"""The authentication backend is named for what it is: club.auth.ClubBackend is now
club.backends.ClubBackend. A logged-in session keeps the path of the backend that logged it in,
and Django treats a session whose backend is not in AUTHENTICATION_BACKENDS as logged out: the
stored sessions (the database session engine's, or an engine's kept in its table, as the
site's is) are rewritten to the new path, and back on the way back, so nobody is logged out by
the rename."""

from importlib import import_module

from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

OLD = "club.auth.ClubBackend"
NEW = "club.backends.ClubBackend"
BACKEND_KEY = "_auth_user_backend"  # django.contrib.auth.BACKEND_SESSION_KEY


def _rename(apps, schema_editor, *, old, new):
    if not issubclass(import_module(settings.SESSION_ENGINE).SessionStore, SessionStore):
        return  # sessions kept elsewhere are out of a migration's reach
    store = SessionStore()
    sessions = apps.get_model("sessions", "Session").objects.using(
        schema_editor.connection.alias
    )
    for row in sessions.filter(expire_date__gt=timezone.now()).iterator():
        data = store.decode(row.session_data)
        if data.get(BACKEND_KEY) == old:
            data[BACKEND_KEY] = new
            row.session_data = store.encode(data)
            row.save(update_fields=["session_data"])


def forwards(apps, schema_editor):
    _rename(apps, schema_editor, old=OLD, new=NEW)


def backwards(apps, schema_editor):
    _rename(apps, schema_editor, old=NEW, new=OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0022_pages_version"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
