"""Django's PostgreSQL backend for the throwaway test database, emptied with DELETE.

Terms: *flushing* is what pytest-django does after every transactional test (`transaction=True`,
the live server's browser tests): empty every table, then run the post_migrate handlers again.
Django's own flush on PostgreSQL is one `TRUNCATE` of every table, which gives each table and index
a new file and forces a synchronous commit: about 0.1 s on an idle machine, a second and more when
another process keeps the disk busy. A `DELETE FROM` each table leaves the same empty tables (the
foreign keys are deferred, so the order does not matter, and neither empties a sequence) in a few
milliseconds. A flush that restarts the sequences or cascades to tables outside the list is still
Django's `TRUNCATE`, which is what it means.

Django's TestCase checks the deferred foreign keys at the end of every test (`SET CONSTRAINTS ALL
IMMEDIATE`), standing in for the COMMIT the test never makes: one statement over every row the test
wrote. After a test that built a season or a ten-year history on a loaded machine it outlasted the
site's statement timeout (DB_STATEMENT_TIMEOUT_MS), which is there for the site's own statements.
This backend runs that check without the timeout and then puts back the one that was in force.

The test database is made at a run's start and dropped at its end, on a connection to the
server's own database. Each worker's has a fixed name (test_<name>_gw0, ...), so a database left
by an earlier run, one that was stopped or whose drop failed, is in the way of the next run; and
a drop forces a checkpoint, which on a loaded machine outlasted the site's statement timeout.
This backend runs both without the timeout, and drops with FORCE (closing any connection still
open to the throwaway database, whoever left it), so the next run finds the name free; a run
that keeps its database (`--reuse-db`) is left as it is.

Only config.test_settings names this backend; the site itself runs Django's.
"""

from django.db.backends.postgresql import base, creation, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        ]


class DatabaseCreation(creation.DatabaseCreation):
    def _execute_create_test_db(self, cursor, parameters, keepdb=False):
        cursor.execute("SET statement_timeout = 0")  # this connection makes the database only
        if not keepdb:
            cursor.execute(f"DROP DATABASE IF EXISTS {parameters['dbname']} WITH (FORCE)")
        super()._execute_create_test_db(cursor, parameters, keepdb)

    def _destroy_test_db(self, test_database_name, verbosity):
        with self._nodb_cursor() as cursor:
            cursor.execute("SET statement_timeout = 0")
            name = self.connection.ops.quote_name(test_database_name)
            cursor.execute(f"DROP DATABASE {name} WITH (FORCE)")


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    ops_class = DatabaseOperations

    def check_constraints(self, table_names=None):
        with self.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            (in_force,) = cursor.fetchone()
            cursor.execute("SET LOCAL statement_timeout = 0")
            super().check_constraints(table_names)
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [in_force])
