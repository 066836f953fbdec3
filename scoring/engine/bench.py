"""Benchmarks of the scoring engine (``make bench``; also ``python -m scoring.engine.bench``).

Terms:
- *cold*: with the cached distributions cleared first, so the figure is the real computation.
- *hand total*: ``hand_total`` only (table lookup and suit check); *score_hand*: the result object
  with its total; *with items*: also every itemised combination, as the hand counter shows it.
- *play phase*: one deal's whole play, from a simulated random legal deal
  (``simulate.random_deal``).
- *discard*: ``discard_values`` for one random dealt hand (six cards at two players, five at three),
  dealer or pone at random; median and worst milliseconds over the hands of each size, against the
  targets (``DISCARD_TARGET_MS``: 100 ms for six cards, 500 ms for five).

Plain ``time.perf_counter`` on one core; the inputs are generated (seeded) before timing starts.
"""

from __future__ import annotations

import json
import random
import statistics
from time import perf_counter

from . import ENGINE_VERSION
from .cards import DECK
from .discard import discard_values
from .distribution import clear_cache, hand_distribution
from .hand import _build_rank_table, hand_total, score_hand
from .play import score_play
from .simulate import random_deal


def _rate(count: int, seconds: float) -> int:
    return round(count / seconds) if seconds > 0 else 0


#: dealt cards -> (players, the most milliseconds one ``discard_values`` call may take).
DISCARD_TARGET_MS: dict[int, tuple[int, int]] = {6: (2, 100), 5: (3, 500)}


def discard_benchmarks(*, hands: int = 200, seed: int = 17) -> dict[str, dict]:
    """``discard_values`` on ``hands`` random dealt hands of each size: median and worst ms."""
    rng = random.Random(seed)
    figures = {}
    for size, (players, target) in DISCARD_TARGET_MS.items():
        deals = [(rng.sample(DECK, size), rng.random() < 0.5) for _ in range(hands)]
        samples = []
        for cards, dealer in deals:
            start = perf_counter()
            discard_values(cards, dealer=dealer, players=players)
            samples.append((perf_counter() - start) * 1000)
        figures[f"{size}_cards"] = {
            "players": players,
            "hands": hands,
            "median_ms": round(statistics.median(samples), 2),
            "worst_ms": round(max(samples), 2),
            "target_ms": target,
            "meets_target": max(samples) <= target,
        }
    return figures


def run_benchmarks(
    *,
    hands: int = 100_000,
    play_phases: int = 2_000,
    discard_hands: int = 200,
    seed: int = 2024,
) -> dict[str, float | int | str | dict]:
    """Measure the engine; returns figures keyed by name (seconds, or things per second)."""
    rng = random.Random(seed)
    figures: dict[str, float | int | str | dict] = {"engine_version": ENGINE_VERSION}

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
    figures["discard"] = discard_benchmarks(hands=discard_hands)
    return figures


if __name__ == "__main__":
    print(json.dumps(run_benchmarks(), indent=2))
