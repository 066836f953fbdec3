"""Wrong table PINs typed at once on several phones (club.services.pins.pin_verify): each try of
one player's PIN reads the count the tries before it left, so a guesser with many phones gets no
more free tries than one with one phone. Races as in tests/concurrency/test_races.py.
"""

from functools import partial

from django.core.exceptions import ValidationError

from club import pin_waits
from club.audit import ClubVerb
from club.models import WrongPin
from club.services import pins
from tests.concurrency.test_races import ITERATIONS, RACE_MARKS, audits, race
from tests.factories import ClubFactory, PlayerFactory, SessionFactory, UserFactory

pytestmark = RACE_MARKS

PHONES = 8


def test_eight_phones_typing_wrong_pins_at_once_get_the_free_tries_of_one():
    """Eight wrong PINs for one player at the same moment: the free ones and the one that starts
    the wait are counted, in turn; the rest are refused by that wait, uncounted."""
    counted = pin_waits.FREE_WRONG_PINS + 1
    for iteration in range(ITERATIONS):
        club = ClubFactory(slug=f"pins-{iteration}")
        organiser = UserFactory(role="organisers", club=club)
        session = SessionFactory(club=club)
        player = PlayerFactory(club=club)
        pins.pin_set(player=player, actor=organiser, pin="4071")

        outcomes = race(
            *[partial(pins.pin_verify, session=session, player=player, pin="0000")] * PHONES
        )

        errors = [error for _, error in outcomes]
        assert all(isinstance(error, ValidationError) for error in errors), errors
        messages = sorted(error.message_dict["pin"][0] for error in errors)
        assert sum(m.startswith("Wrong PIN for") for m in messages) == counted, messages
        assert sum(m.startswith("Too many wrong PINs") for m in messages) == PHONES - counted
        assert WrongPin.objects.filter(player=player).count() == counted
        refusals = audits(ClubVerb.PIN_REFUSED, club)
        assert [entry.data["wrong_pins"] for entry in refusals] == list(range(1, counted + 1))
