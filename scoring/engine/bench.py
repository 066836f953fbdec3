"""Benchmarks of the scoring engine (``make bench``; also ``python -m scoring.engine.bench``).

Terms:
- *cold*: with the cached distributions cleared first, so the figure is the real computation.
- *hand total*: ``hand_total`` only (table lookup and suit check); *score_hand*: the result object
  with its total; *with items*: also every itemised combination, as the hand counter shows it.
- *play phase*: one deal's whole play, from a simulated random legal deal
  (``simulate.random_deal``).

Plain ``time.perf_counter`` on one core; the inputs are generated (seeded) before timing starts.
"""

from __future__ import annotations

import json
import random
from time import perf_counter

from . import ENGINE_VERSION
from .cards import DECK
from .distribution import clear_cache, hand_distribution
from .hand import _build_rank_table, hand_total, score_hand
from .play import score_play
from .simulate import random_deal


def _rate(count: int, seconds: float) -> int:
    return round(count / seconds) if seconds > 0 else 0


def run_benchmarks(
    *, hands: int = 100_000, play_phases: int = 2_000, seed: int = 2024
) -> dict[str, float | int | str]:
    """Measure the engine; returns figures keyed by name (seconds, or things per second)."""
    rng = random.Random(seed)
    figures: dict[str, float | int | str] = {"engine_version": ENGINE_VERSION}

    start = perf_counter()
    _build_rank_table()
    figures["rank_table_seconds"] = round(perf_counter() - start, 4)

    clear_cache()
    start = perf_counter()
    hand_distribution()
    hand_distribution(crib=True)
    figures["distribution_seconds"] = round(perf_counter() - start, 4)

    deals = []
    for _ in range(hands):
        five = rng.sample(DECK, 5)
        deals.append((tuple(five[:4]), five[4]))
    figures["hands"] = hands

    start = perf_counter()
    for hand, starter in deals:
        hand_total(hand, starter)
    figures["hand_total_per_second"] = _rate(hands, perf_counter() - start)

    start = perf_counter()
    for hand, starter in deals:
        score_hand(hand, starter)
    figures["score_hand_per_second"] = _rate(hands, perf_counter() - start)

    start = perf_counter()
    for hand, starter in deals:
        score_hand(hand, starter).items  # noqa: B018 - computing the items is the point
    figures["score_hand_items_per_second"] = _rate(hands, perf_counter() - start)

    all_seconds = 0.0
    for players in (2, 3, 4, 6):
        records = [random_deal(rng, players).plays for _ in range(play_phases)]
        start = perf_counter()
        for plays in records:
            score_play(plays, players=players)
        seconds = perf_counter() - start
        all_seconds += seconds
        figures[f"play_phases_per_second_{players}p"] = _rate(play_phases, seconds)
    figures["play_phases"] = 4 * play_phases
    figures["play_phases_per_second"] = _rate(4 * play_phases, all_seconds)
    return figures


if __name__ == "__main__":
    print(json.dumps(run_benchmarks(), indent=2))
