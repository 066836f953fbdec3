"""`manage.py discard 5H 5C JD 6S 4C KH [--pone] [--players 3] [--json]`: what each lay-away of a
dealt hand is worth (scoring.engine.discard_values), best first.

Six cards at two players, five at three or four. The crib is yours (you deal) unless `--pone` says
it is an opponent's; at four players a partner's deal counts as yours. Each row: the cards kept and
laid away, the expected hand, the expected crib and the net (hand + crib in your own crib, hand −
crib in another's), and the kept hand's worst and best count over the starters. `--json` gives the
exact values as fractions ("367/23") beside their decimals. Bad cards: a message, exit code 2.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import ScoringError, discard_values, parse_cards


def _exact(value) -> dict:
    return {"exact": str(value), "value": round(float(value), 4)}


class Command(BaseCommand):
    help = (
        "What each way of laying away is worth: give the dealt hand (six cards at two players, "
        "five at three or four), e.g. 5H 5C JD 6S 4C KH."
    )

    def add_arguments(self, parser):
        parser.add_argument("cards", nargs="+", help="card texts such as 5H 10D TD JS AC 5♥")
        parser.add_argument(
            "--pone", action="store_true", help="the crib is an opponent's (you do not deal)"
        )
        parser.add_argument(
            "--players", type=int, choices=(2, 3, 4), default=2, help="players at the table"
        )
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, cards, pone, players, **options):
        try:
            dealt = parse_cards(" ".join(cards))
            rows = discard_values(dealt, dealer=not pone, players=players)
        except ScoringError as error:
            raise CommandError(str(error), returncode=2) from None
        if options["json"]:
            data = {
                "players": players,
                "crib": "opponent's" if pone else "yours",
                "discards": [
                    {
                        "keep": [str(card) for card in row.keep],
                        "discard": [str(card) for card in row.discard],
                        "hand": _exact(row.hand),
                        "crib": _exact(row.crib),
                        "net": _exact(row.net),
                        "hand_worst": row.hand_worst,
                        "hand_best": row.hand_best,
                        "hand_distribution": {
                            str(points): count
                            for points, count in sorted(row.hand_distribution.items())
                        },
                        "starters": row.starters,
                    }
                    for row in rows
                ],
            }
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        whose = "an opponent's crib" if pone else "your own crib"
        self.stdout.write(f"{' '.join(c.symbol for c in dealt)}   {players} players, {whose}")
        self.stdout.write(
            f"  {'keep':<16}{'lay away':<10}{'hand':>7}{'crib':>7}{'net':>8}  hand range"
        )
        for row in rows:
            keep = " ".join(card.symbol for card in row.keep)
            laid = " ".join(card.symbol for card in row.discard)
            self.stdout.write(
                f"  {keep:<16}{laid:<10}{float(row.hand):>7.2f}{float(row.crib):>7.2f}"
                f"{float(row.net):>+8.2f}  {row.hand_worst} to {row.hand_best}"
            )
