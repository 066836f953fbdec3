"""Fixtures of the scoring app's tests.

Terms: `club_table` is a `table` (tests/conftest.py: one 2-player game of round 1, its players and
users with logins, listed by side) drawn in `club` itself rather than in a club of its own, so the
logins `member` and `client_for` make are of the table's club.
"""

import pytest

from tests.builders import make_table


@pytest.fixture
def club_table(club):
    return make_table(club=club)
