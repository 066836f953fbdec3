"""`manage.py count 5H 5C 5S JD 5D [--crib] [--json]`: count a hand, the last card is the starter.

Prints every scoring combination, the total, the count as players say it and how rare it is. Four
cards (three and a starter) count a five-card-cribbage hand. Bad cards: a message on stderr, exit 2.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import ScoringError, parse_cards
from scoring.selectors import count_hand


class Command(BaseCommand):
    help = (
        "Count a cribbage hand: give the hand's cards, then the starter last (e.g. 5H 5C 5S JD 5D)."
    )

    def add_arguments(self, parser):
        parser.add_argument("cards", nargs="+", help="card texts such as 5H 10D TD JS AC 5♥")
        parser.add_argument("--crib", action="store_true", help="count it as a crib")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, cards, crib, **options):
        try:
            parsed = parse_cards(" ".join(cards))
            if len(parsed) not in (4, 5):
                raise ScoringError(
                    f"{len(parsed)} card{'s' if len(parsed) != 1 else ''} given: give the hand "
                    "(4 cards, or 3 for five-card cribbage) and then the starter, "
                    "e.g. 5H 5C 5S JD 5D"
                )
            counted = count_hand(parsed[:-1], parsed[-1], crib=crib)
        except ScoringError as error:
            raise CommandError(str(error), returncode=2) from None
        if options["json"]:
            self.stdout.write(json.dumps(counted.as_dict(), ensure_ascii=False, indent=2))
            return
        score = counted.score
        what = "Crib" if crib else "Hand"
        hand = " ".join(card.symbol for card in score.hand)
        self.stdout.write(f"{what}: {hand}   Starter: {score.starter.symbol}")
        for group in score.groups:
            cards_text = " ".join(card.symbol for card in group.cards)
            self.stdout.write(f"  {group.name:<20} {cards_text:<20} {group.points:>3}")
        self.stdout.write(f"  {'total':<41} {score.total:>3}")
        self.stdout.write(score.spoken())
        self.stdout.write(counted.rarity.describe())
