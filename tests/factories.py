"""factory_boy factories shared by the whole suite.

Terms: `UserFactory(role="organisers")` makes a user in that role group (see club/roles.py).
"""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from club.models import Club, Player

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
            self.groups.add(Group.objects.get(name=extracted))


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    display_name = factory.Sequence(lambda n: f"Player {n}")
