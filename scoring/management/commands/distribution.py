"""`manage.py distribution [--crib] [--json]`: how many of the 12,994,800 (hand, starter) pairs
make each score, with the share and the "1 in N" for that score or better."""

import json

from django.core.management.base import BaseCommand

from scoring.engine import TOTAL_HANDS, hand_distribution, rarity


class Command(BaseCommand):
    help = "Print the exact distribution of hand (or crib) scores over all 12,994,800 deals."

    def add_arguments(self, parser):
        parser.add_argument("--crib", action="store_true", help="crib rules (flush needs all 5)")
        parser.add_argument("--json", action="store_true", help="print JSON {score: count}")

    def handle(self, *args, crib, **options):
        counts = hand_distribution(crib=crib)
        if options["json"]:
            data = {
                "crib": crib,
                "total": TOTAL_HANDS,
                "counts": {str(k): v for k, v in counts.items()},
            }
            self.stdout.write(json.dumps(data, indent=2))
            return
        self.stdout.write(
            f"{'crib' if crib else 'hand'} scores over {TOTAL_HANDS:,} (hand, starter) pairs"
        )
        self.stdout.write(f"{'score':>5} {'pairs':>12} {'share':>9} {'this or better':>18}")
        for total in range(0, max(counts) + 1):
            n = counts.get(total, 0)
            better = rarity(total, crib=crib)
            one_in = f"1 in {better.one_in:,}" if better.one_in else "never"
            self.stdout.write(f"{total:>5} {n:>12,} {n / TOTAL_HANDS:>8.4%} {one_in:>18}")
