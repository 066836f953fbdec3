"""factory_boy factories shared by the whole suite.

Terms: `UserFactory(role="organisers")` makes a login in that role group (see club/roles.py);
`UserFactory(role="organisers", club=club)` also links it to a new player of `club`, without which
it has no permissions anywhere (roles are per club: club/backends.py).
"""

import datetime as dt

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from club.models import CheckIn, Club, Player, Session, SessionState
from games.models import Game, Result, ResultLine, ResultState, Round, Seat, TableKind
from web.role_groups import sync_roles

PASSWORD = "test-password-123"


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: f"First{n}")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def role(self, create, extracted, **kwargs):
        """`role="organisers"` puts the user in that role group."""
        if create and extracted:
            if not Group.objects.filter(name=extracted).exists():
                # A transactional test's flush removed what the data migration made.
                sync_roles()
            self.groups.add(Group.objects.get(name=extracted))

    @factory.post_generation
    def club(self, create, extracted, **kwargs):
        """`club=some_club` links the login to a new player of that club: roles are per club, so
        a login acts (has its role's permissions) only through a player record
        (club/backends.py)."""
        if create and extracted is not None:
            PlayerFactory(club=extracted, user=self, display_name=f"Member {self.username}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    display_name = factory.Sequence(lambda n: f"Player {n}")


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    club = factory.SubFactory(ClubFactory)
    date = factory.Sequence(lambda n: dt.date(2026, 1, 1) + dt.timedelta(days=7 * n))
    rules = factory.LazyAttribute(lambda session: session.club.house_rules.snapshot())

    class Params:
        settled = factory.Trait(state=SessionState.SETTLED)


class CheckInFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CheckIn

    session = factory.SubFactory(SessionFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..session.club"))
    fee_cents = factory.LazyAttribute(lambda checkin: checkin.session.fee_cents)

    class Params:
        paid = factory.Trait(
            paid_at=factory.LazyFunction(timezone.now), paid_by=factory.SubFactory(UserFactory)
        )


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    session = factory.SubFactory(SessionFactory)
    number = factory.Sequence(lambda n: n + 1)
    seed = factory.Sequence(lambda n: 1000 + n)
    mode = "singles"


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    session = factory.SelfAttribute("round.session")
    table = factory.Sequence(lambda n: n + 1)
    kind = TableKind.TWO


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    round = factory.SelfAttribute("game.round")
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..game.session.club"))
    position = factory.Sequence(lambda n: n % 2)
    side = factory.SelfAttribute("position")


class ResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Result

    game = factory.SubFactory(GameFactory)
    version = 1
    state = ResultState.DRAFT
    entered_by = factory.SubFactory(UserFactory)

    class Params:
        confirmed = factory.Trait(
            state=ResultState.CONFIRMED,
            confirmed_by=factory.SubFactory(UserFactory),
            confirmed_at=factory.LazyFunction(timezone.now),
        )


class ResultLineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ResultLine

    result = factory.SubFactory(ResultFactory)
    player = factory.SubFactory(
        PlayerFactory, club=factory.SelfAttribute("..result.game.session.club")
    )
    side = 0
    score = 121
    won = True
    skunked = False
    double_skunked = False
    skunks_given = 0
    game_points = 2
    spread = 10
