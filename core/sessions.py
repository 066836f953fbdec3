"""The session engine (SESSION_ENGINE): Django's database sessions, the session of each request
read by a plain statement (core.plain_reads); saving, expiry and clearing are Django's own."""

from __future__ import annotations

from functools import cache

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone

from core.plain_reads import first_read, quoted


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self):
        model = self.model
        connection = connections[router.db_for_read(model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())  # as the ORM would send it
        found = first_read(model, _session_sql(model), [self.session_key, now])
        if found is None:  # gone or expired: a new session, as Django's store starts one
            self._session_key = None
        return found


@cache
def _session_sql(model) -> str:
    return (  # names quoted, the values parameters
        f"SELECT * FROM {quoted(model)} "
        f"WHERE {quoted(model, 'session_key')} = %s AND {quoted(model, 'expire_date')} > %s"
    )
