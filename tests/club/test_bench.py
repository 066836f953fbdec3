"""`manage.py bench --quick` runs every benchmark and prints one JSON document."""

import io
import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_bench_prints_the_figures_as_json():
    out = io.StringIO()
    call_command("bench", "--quick", stdout=out)
    report = json.loads(out.getvalue())
    engine = report["engine"]
    assert engine["hands"] == 5_000
    for key in ("hand_total_per_second", "score_hand_per_second", "play_phases_per_second"):
        assert engine[key] > 0
    assert 0 < engine["distribution_seconds"] < 60
    counter = report["hand_counter"]
    assert counter["requests"] == 20
    assert 0 < counter["median_ms"] <= counter["p95_ms"]
