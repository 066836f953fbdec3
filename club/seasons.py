"""The club's seasons: the one place where a season becomes a filter and a name.

Terms:
- season: named by the year it starts in; it runs from the club's season start (month and day,
  1 January by default) to the day before the next one (`Club.season_of`, `Club.season_dates`).
- in season: `in_season(club, season, field)` is the filter every reader of a season uses: the
  draw's season history, the session list's season filter and the standings. None of them
  reads a date's calendar year, which would split a season that does not start on 1 January.
- label: how a season is named on the pages: "2026" when seasons are calendar years, "2025–26"
  when they start on another day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Q

from club.models import Club


def in_season(club: Club, season: int, field: str = "date") -> Q:
    """Rows whose `field` (a date, or a lookup to one such as "session__date") falls in the
    club's `season`: from its first day to the next season's first day (half-open)."""
    first, until = club.season_dates(season)
    return Q(**{f"{field}__gte": first, f"{field}__lt": until})


def season_label(club: Club, season: int) -> str:
    """The season's name on the pages: its year, or its two years when it does not start on
    1 January ("2025–26")."""
    if (club.season_start_month, club.season_start_day) == (1, 1):
        return str(season)
    return f"{season}–{(season + 1) % 100:02d}"


def seasons_of(club: Club, dates: Iterable[dt.date]) -> list[int]:
    """The seasons `dates` fall in, newest first."""
    return sorted({club.season_of(day) for day in dates}, reverse=True)
