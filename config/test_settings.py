"""Settings for the test suite: development defaults, a fast password hasher, and on PostgreSQL
a test database tuned for throwaway data.

The environment still wins (CI sets DATABASE_URL for the PostgreSQL run). Tests that need
production settings start a subprocess with their own environment.

Terms: on PostgreSQL the test database is made, used and dropped within one run, so losing its
last commits in a crash costs nothing: each connection turns off `synchronous_commit` (a commit
returns without waiting for its WAL to reach the disk; the server still writes it a moment later,
and nothing a test can see changes). The site's own connect and statement timeouts stay.
`config.test_postgresql` empties the tables after a transactional test with DELETE instead of
TRUNCATE (see its docstring).

Static files: each test process has a STATIC_ROOT of its own, empty. pytest-django runs the
tests with DEBUG off, so WhiteNoise walked the checkout's collected `staticfiles/` at every new
test client, while the benchmark tests (in the other suite, which CI runs at the same time)
collect into it: a file gone between the walk and its stat would be a 500. The tests' live server
serves static files from the sources (its StaticFilesHandler, through the finders), and the
tests that need collected files collect them where they say.

Cache: always each process's own memory, whatever CACHE_URL says. Every test empties the cache
(tests/conftest.py), and emptying a Redis cache empties its whole database; the tests that run
the site on Redis start it in subprocesses with a database and key prefix of their own.
"""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("DEBUG", "1")

from config.caches import LOCAL_BACKEND  # noqa: E402
from config.settings import *  # noqa: E402,F403
from config.settings import DATABASES  # noqa: E402

STATIC_ROOT = Path(tempfile.mkdtemp(prefix="pegboard-test-static-"))

CACHES = {"default": {"BACKEND": LOCAL_BACKEND}}

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    # Still able to check the demo fixture's passwords (config/test_hashers.py).
    "config.test_hashers.RememberingPBKDF2PasswordHasher",
]

_database = DATABASES["default"]
if _database["ENGINE"] == "django.db.backends.postgresql":
    _database["ENGINE"] = "config.test_postgresql"
    _database["OPTIONS"]["options"] += " -c synchronous_commit=off"
