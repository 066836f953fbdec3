"""The draw's benchmark behind `manage.py bench` (its `draw` section; `--draw` runs it alone).

Terms:
- *session*: ``ROUNDS`` rounds of ``PLAYERS`` players drawn one after another with
  ``games.draw.draw_round``, each against the rounds before it, ``rounds_remaining`` counting
  down as the service passes it.
- *season*: ``SEASON_SESSIONS`` earlier sessions of random tables of the same players (made
  here by shuffling, not by the draw, so the benchmark starts at once), so that most pairs
  have met this season and the draw has season repeats to weigh, as late in a club's year.
- the figures: milliseconds per round (median, max) for each mode, with and without the
  season; wall-clock time, so noisy: compare figures from one run.
The target (docs/draw.md): every round of 100 players under ``TARGET_MS``.
"""

from __future__ import annotations

import random
import statistics
import time

from games.draw import DrawHistory, draw_round, table_sizes

PLAYERS = 100
ROUNDS = 6
SEASON_SESSIONS = 30
TARGET_MS = 300


def _random_round(players: list[int], mode: str, rng: random.Random) -> list[tuple[int, ...]]:
    order = list(players)
    rng.shuffle(order)
    tables = []
    for size in table_sizes(len(order), mode):
        tables.append(tuple(order[:size]))
        order = order[size:]
    return tables


def time_session(mode: str, *, season: bool, players: int, rounds: int, seed: int) -> list[float]:
    """Milliseconds of each round of one session."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    earlier = [
        _random_round(ids, mode, rng) for _ in range(SEASON_SESSIONS * ROUNDS if season else 0)
    ]
    history = DrawHistory.from_rounds(season_rounds=earlier)
    samples = []
    for number in range(rounds):
        start = time.perf_counter()
        draw = draw_round(
            entrants=ids,
            mode=mode,
            seed=seed * 1000 + number,
            history=history,
            rounds_remaining=rounds - number,
        )
        samples.append((time.perf_counter() - start) * 1000)
        history = history.with_round(draw)
    return samples


def draw_benchmarks(*, players: int = PLAYERS, rounds: int = ROUNDS, seed: int = 1) -> dict:
    """Per mode and season: each round's milliseconds, their median and max; and the target."""
    report: dict = {"players": players, "rounds": rounds, "target_ms": TARGET_MS}
    worst = 0.0
    for mode in ("singles", "partners"):
        for season in (False, True):
            samples = time_session(mode, season=season, players=players, rounds=rounds, seed=seed)
            worst = max(worst, *samples)
            report[f"{mode}_{'season' if season else 'no_season'}"] = {
                "rounds_ms": [round(ms, 1) for ms in samples],
                "median_ms": round(statistics.median(samples), 1),
                "max_ms": round(max(samples), 1),
            }
    report["max_ms"] = round(worst, 1)
    report["under_target"] = worst < TARGET_MS
    return report
