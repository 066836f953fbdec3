"""The live server the browser tests talk to (pytest-django's `live_server`), started after the
test database is made, and answering one request at a time when it shares the tests' in-memory
SQLite database.

Terms: on SQLite the test database lives in memory, shared between the connections of one
process (SQLite's shared cache). Two connections to it do not wait for each other as two
connections to a file do: a statement that needs a table another connection is using fails at
once with "database table is locked". pytest-django hands the live server the tests' own
connection (`connections_override`) when the database is in memory at the moment the server
starts; a server started before the test database was made got no connection to share, and each
of its request threads opened its own, so a request saving its session while another read the
session table got a 500 (a 503 from the site's database-unavailable page). tests/conftest.py
therefore starts the server after the database. With one connection shared, the requests must
also take turns on it: two at once would run their statements inside each other's transactions.

A real site on SQLite gives each request a connection of its own to a file and lets one writer in
at a time (config/settings.py); on PostgreSQL each request has its own connection already, and
the server answers requests side by side as before.

A test ends while the server may still be answering its browser: a page closed with a request
under way (a post's retry, a reload) leaves that request running in the server. The test's own
teardown then empties every table (a transactional test's flush) on the same shared connection,
and on SQLite it failed with "database table is locked", leaving the rows for the next test. So
the server counts the browser connections it is answering, and `wait_until_idle` waits until it
has answered them all (tests/browser/conftest.py calls it once a test's pages are closed).
"""

from __future__ import annotations

import threading

from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread


class TakingTurnsServer(ThreadedWSGIServer):
    """Django's threaded test server whose application runs for one request at a time when it
    shares the test's connection (`connections_override`: in-memory SQLite only). The turn is
    taken per request, not per browser connection: a browser keeps idle connections open.
    `answering` counts the browser connections whose thread has not ended."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.answering = 0
        self._answered = threading.Condition()

    def process_request(self, request, client_address):
        with self._answered:
            self.answering += 1
        try:
            super().process_request(request, client_address)  # starts the connection's thread
        except BaseException:
            self._one_answered()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._one_answered()

    def _one_answered(self) -> None:
        with self._answered:
            self.answering -= 1
            self._answered.notify_all()

    def wait_until_idle(self, timeout: float = 10.0) -> None:
        """Wait until every browser connection is answered and closed (the browser's pages are
        closed first, so no new one comes); AssertionError if one is still open at `timeout`."""
        with self._answered:
            if not self._answered.wait_for(lambda: self.answering == 0, timeout):
                raise AssertionError(
                    f"the live server still answers {self.answering} connection(s) "
                    f"{timeout} s after the test's pages closed"
                )

    def set_app(self, application):
        if not self.connections_override:
            return super().set_app(application)
        turn = threading.Lock()

        def one_at_a_time(environ, start_response):
            with turn:
                return application(environ, start_response)

        return super().set_app(one_at_a_time)


def take_turns_on_a_shared_connection() -> None:
    """Every live server of this process is a `TakingTurnsServer` (tests/conftest.py)."""
    LiveServerThread.server_class = TakingTurnsServer
