"""How pages name the people who did something ("Paid to ...", "Entered by ...", "Ruled by ...",
the audit log's "Who"): by their name, never by their login's username.

Terms:
- person's name: for a login, the display name of the player it is linked to in the club the page
  is about; else the login's full name; else its username (a site administrator with neither).
  A login is linked to one player at most (club.backends), so a login has one such name.

A page that names many people prefetches each login's players (`<field>__players`), so naming
them costs no query per row; `people_names` names many logins at once in one query.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Subquery

from club.models import Club, Player


def _club_id(club: Club | int | None) -> int | None:
    return club.pk if isinstance(club, Club) else club


def login_name(user) -> str:
    """A login's own name for a person's name when no player of the club names it: its full
    name, else its username."""
    return user.get_full_name() or user.get_username()


def person_name(user, club: Club | int | None = None) -> str:
    """The person's name of a login (see the module's terms); "" for nobody. With `club`, only a
    player of that club names them; without, the login's player, wherever it plays."""
    if user is None or not getattr(user, "pk", None):
        return ""
    club_id = _club_id(club)
    for player in user.players.all():  # prefetched on the pages that name many people
        if club_id is None or player.club_id == club_id:
            return player.display_name
    return login_name(user)


def player_name_of(field: str, club: Club | int) -> Subquery:
    """An annotation for a list: the display name of the club's player linked to the login in
    `field` (None when it has none there). It costs no query of its own, whatever the rows hold,
    unlike a prefetch, which runs only when some row has a login (a page's query count would then
    depend on its data)."""
    # One player at most (see the terms): no order to put it in (Player's own would join the
    # club to sort by its name).
    player = Player.objects.filter(user=OuterRef(field), club_id=_club_id(club)).order_by()
    return Subquery(player.values("display_name")[:1])


def people_names(user_ids: Iterable[int], club: Club | int) -> dict[int, str]:
    """The person's name of each login, by its id, in one query (ids of no login are left out)."""
    ids = {pk for pk in user_ids if isinstance(pk, int)}
    if not ids:
        return {}
    player = Player.objects.filter(user=OuterRef("pk"), club_id=_club_id(club)).order_by()
    users = (
        get_user_model()
        .objects.filter(pk__in=ids)
        .annotate(player_name=Subquery(player.values("display_name")[:1]))
    )
    return {user.pk: user.player_name or login_name(user) for user in users}
