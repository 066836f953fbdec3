"""Settings for the test suite: development defaults, a fast password hasher.

The environment still wins (CI sets DATABASE_URL for the PostgreSQL run). Tests that need
production settings start a subprocess with their own environment.
"""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    # Still able to check the demo fixture's passwords.
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
