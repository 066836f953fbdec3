"""The engine is pure Python: no Django, documented modules, frozen results, a working benchmark."""

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import scoring.engine as engine
from scoring.engine.bench import run_benchmarks

ENGINE_DIR = Path(engine.__file__).parent
ROOT = ENGINE_DIR.parent.parent
MODULES = sorted(ENGINE_DIR.glob("*.py"))


def test_the_engine_has_its_modules() -> None:
    assert {path.name for path in MODULES} >= {"__init__.py", "cards.py", "hand.py", "play.py"}


def test_no_module_imports_django() -> None:
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] == "django" for name in names), path.name


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, scoring.engine, scoring.engine.bench; "
        "assert scoring.engine.score_hand('5S 5H 5D JC', '5C').total == 29; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_every_module_opens_with_a_docstring() -> None:
    for path in MODULES:
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert docstring and len(docstring) > 40, path.name


def test_public_api() -> None:
    names = {
        "parse_card", "parse_cards", "Card", "CardError", "ScoringError", "PlayError",
        "score_hand", "HandScore", "hand_total", "score_play", "PlayScore", "heels",
        "IMPOSSIBLE_HAND_TOTALS", "is_possible_hand_total", "hand_distribution", "rarity",
        "ENGINE_VERSION",
    }  # fmt: skip
    assert names <= set(engine.__all__)
    assert all(hasattr(engine, name) for name in engine.__all__)
    assert isinstance(engine.ENGINE_VERSION, str) and engine.ENGINE_VERSION.count(".") == 2


def test_results_are_frozen_dataclasses() -> None:
    for cls in (
        engine.Card, engine.HandScore, engine.ScoreItem, engine.Combination, engine.PlayScore,
        engine.PlayedCard, engine.PlayItem, engine.Rarity,
    ):  # fmt: skip
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls


def test_run_benchmarks_reports_figures() -> None:
    figures = run_benchmarks(hands=2000, play_phases=20)
    for key in (
        "distribution_seconds",
        "hand_total_per_second",
        "score_hand_per_second",
        "score_hand_items_per_second",
        "play_phases_per_second",
    ):
        assert figures[key] > 0, key
    assert figures["engine_version"] == engine.ENGINE_VERSION
