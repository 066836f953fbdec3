"""`manage.py bench` (`make bench`): run the project's benchmarks and print one JSON document.

Sections so far: `engine` (the scoring engine's own figures, `scoring.engine.bench`) and
`hand_counter` (the counter page rendered through Django's test client, in-process, warm:
median and 95th-percentile milliseconds per request). Timings are wall-clock on this machine and
noisy: compare figures from one run with each other, not across runs.
"""

import json
import statistics
import time

from django.core.management.base import BaseCommand
from django.test import Client

from scoring.engine.bench import run_benchmarks

COUNTER_HANDS = [
    ("5H 5C 5S JD", "5D"),
    ("9S 6H 5D 4C", "4H"),
    ("2H 4H 6H 8H", "KS"),
    ("7C 8D 8H 9S", "6C"),
    ("AS 2D 3C KH", "QD"),
]


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def time_counter(requests: int) -> dict:
    client = Client()
    client.get("/scoring/counter/", {"hand": "5H 5C 5S JD", "starter": "5D"})  # warm caches
    samples = []
    for i in range(requests):
        hand, starter = COUNTER_HANDS[i % len(COUNTER_HANDS)]
        start = time.perf_counter()
        response = client.get("/scoring/counter/", {"hand": hand, "starter": starter})
        samples.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"hand counter answered {response.status_code}")
    return {
        "requests": requests,
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(percentile(samples, 0.95), 2),
    }


class Command(BaseCommand):
    help = "Run Pegboard's benchmarks and print the figures as one JSON document."

    def add_arguments(self, parser):
        parser.add_argument("--quick", action="store_true", help="smaller samples (a smoke run)")

    def handle(self, *args, quick: bool, **options):
        hands, phases, requests = (5_000, 100, 20) if quick else (100_000, 2_000, 200)
        report = {
            "engine": run_benchmarks(hands=hands, play_phases=phases),
            "hand_counter": time_counter(requests),
        }
        self.stdout.write(json.dumps(report, indent=2))
