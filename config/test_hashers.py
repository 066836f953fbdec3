"""The suite's password hashers (config.test_settings only).

The demo club's logins (fixtures/demo_club.json) carry PBKDF2 hashes of a million rounds, as a
real site's do, and the suite logs in as them through the login page again and again: a third
of a second of hashing each time, the same hash each time. `RememberingPBKDF2PasswordHasher`
works out each (password, salt, rounds) once per process and remembers the result: the same
hashes, checked the same way.
"""

import functools

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class RememberingPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2 with SHA-256 (its hashes start "pbkdf2_sha256$"), each hash worked out once."""

    def encode(self, password, salt, iterations=None):
        return _encoded(password, salt, iterations or self.iterations)


@functools.lru_cache(maxsize=1024)
def _encoded(password, salt, iterations) -> str:
    return PBKDF2PasswordHasher().encode(password, salt, iterations)
