"""The tournament objects that fill the tournament pages' addresses in the page table
(tests/web/test_pages.py `url_for`): a tournament (`tournament`) and a playoff match (`match`)."""

import datetime as dt

from django.utils import timezone

from club.models import Club
from tests.factories import CheckInFactory
from tournaments.models import Match, Tournament
from tournaments.services import tournament_create


def tournament_objects(club: Club) -> dict:
    """A tournament of `club` with two entrants, and a playoff match between them (on a day
    that is not a Thursday, so no session of the factories has its date)."""
    day = timezone.localdate() + dt.timedelta(days=300 + Tournament.objects.count())
    day += dt.timedelta(days=int(day.weekday() == 3))
    tournament = tournament_create(
        club=club, actor=None, name="Open", starts_on=day, entry_fee_cents=0, qualifying_games=1
    )
    top, bottom = (CheckInFactory(session=tournament.session).player for _ in range(2))
    match = Match.objects.create(
        tournament=tournament, round_number=1, position=0, top=top, bottom=bottom
    )
    return {"tournament": tournament, "match": match}
