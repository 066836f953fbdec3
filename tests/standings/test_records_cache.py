"""The all-time records are kept in the cache under the club's pages version: counted once,
counted again after a change moves the version on (standings.selectors.club_records_cached)."""

from club.models import Club
from core.templatetags.pegboard import signed
from standings import selectors


def test_the_records_are_recounted_only_when_the_pages_version_moves(club, monkeypatch):
    counted = []
    count = selectors.club_records

    def counting(club, standings=None):
        counted.append(club.pages_version)
        return count(club, standings=standings)

    monkeypatch.setattr(selectors, "club_records", counting)
    first = selectors.club_records_cached(club)
    assert selectors.club_records_cached(club) == first
    assert len(counted) == 1  # the second read came from the cache

    Club.pages_changed(club.pk)  # as every service that changes results does
    club.refresh_from_db()
    selectors.club_records_cached(club)
    assert len(counted) == 2 and counted[1] == counted[0] + 1


def test_a_spread_is_shown_signed():
    assert [signed(value) for value in (12, -7, 0)] == ["+12", "-7", "0"]
