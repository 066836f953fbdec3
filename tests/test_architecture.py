"""The house's structure (docs/architecture.md), checked on the source: the apps' layers, module
sizes, the pure modules, house rules read only through `HouseRules`, row locks only through
`core.locking`.

Terms:
- layer: the apps in order, lowest first: core < club < games < scoring < money < standings <
  tournaments < web < ops. core is what every app uses and no app owns; it imports no other app.
  A module may import its own app and the apps below it, never one above (tests and migrations
  aside: they may reach anywhere). `config/` wires the apps together and sits above them all.
- import: every `import` and `from ... import` in a module, at any depth (a function's imports
  count too); relative imports are resolved against the module's package.
- pure module: standard library only (and other pure modules); no Django.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = (
    "core",
    "club",
    "games",
    "scoring",
    "money",
    "standings",
    "tournaments",
    "web",
    "ops",
)
MAX_LINES = 600
DRAW_MAX_LINES = 400
PURE_MODULES = (
    "club.rules",
    "core.verbs",
    "club.pin_waits",
    "games.game_result",
    "games.ranking",
    "games.draw",
    "scoring.engine",
    "scoring.outcomes",
    "money.payout",
    "money.side_pots",
    "standings.charts",
    "tournaments.pairing",
    "tournaments.bracket",
    "tournaments.prizes",
)


def app_modules() -> list[Path]:
    """Every Python module of the apps, migrations left out."""
    return sorted(
        path
        for app in LAYERS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str, str]]:
    """(line, imported module, the statement as written) for every import in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, alias.name, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names = ", ".join(alias.name for alias in node.names)
            found.append(
                (node.lineno, module, f"from {'.' * node.level}{node.module or ''} import {names}")
            )
    return found


def upward_imports(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each import that runs up the layers, as "file:line: statement (app -> app above)"."""
    problems = []
    for path in paths:
        own = path.relative_to(root).parts[0]
        for line, module, statement in imports_of(path, root):
            target = module.split(".")[0]
            if target in LAYERS and LAYERS.index(target) > LAYERS.index(own):
                problems.append(
                    f"{path.relative_to(root)}:{line}: {statement} "
                    f"({own}, layer {LAYERS.index(own) + 1}, imports {target}, "
                    f"layer {LAYERS.index(target) + 1})"
                )
    return problems


def test_every_app_is_a_layer_and_installed():
    from django.conf import settings

    ours = [app for app in settings.INSTALLED_APPS if app in LAYERS]
    assert ours == list(LAYERS), "INSTALLED_APPS lists the apps in their layer order"
    assert all((ROOT / app / "__init__.py").exists() for app in LAYERS)


def test_no_import_runs_up_the_layers():
    problems = upward_imports(app_modules())
    assert not problems, "imports that run up the layers:\n" + "\n".join(problems)


def test_the_import_check_finds_an_upward_import(tmp_path):
    """The check itself can fail: a module of club importing web (at any depth) is named with
    its file and line; one importing a lower app is not. core, the lowest, imports no app."""
    (tmp_path / "club").mkdir()
    bad = tmp_path / "club" / "bad.py"
    bad.write_text(
        '"""A module that breaks the layers."""\n'
        "from games.models import Game\n"
        "from core.audit import audit_record\n"
        "def later():\n"
        "    from web.roles import user_role\n"
        "    from . import rules\n"
    )
    (tmp_path / "core").mkdir()
    low = tmp_path / "core" / "low.py"
    low.write_text('"""A module of the lowest layer."""\nfrom club.models import Club\n')
    assert upward_imports([bad, low], tmp_path) == [
        "club/bad.py:2: from games.models import Game (club, layer 2, imports games, layer 3)",
        "club/bad.py:5: from web.roles import user_role (club, layer 2, imports web, layer 8)",
        "core/low.py:2: from club.models import Club (core, layer 1, imports club, layer 2)",
    ]


def test_no_module_is_over_600_lines_and_no_draw_module_over_400():
    modules = app_modules() + sorted((ROOT / "config").rglob("*.py"))
    modules += sorted((ROOT / "tests").rglob("*.py"))
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these modules (over {MAX_LINES} lines): {long}"
    draw = sorted((ROOT / "games" / "draw").glob("*.py"))
    assert draw, "the draw is a package: games/draw/"
    long_draw = {
        path.name: lines
        for path in draw
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > DRAW_MAX_LINES
    }
    assert not long_draw, f"draw modules over {DRAW_MAX_LINES} lines: {long_draw}"


def test_every_app_module_opens_with_a_docstring():
    missing = [
        str(path.relative_to(ROOT))
        for path in app_modules()
        if path.name != "__init__.py"
        and "management" not in path.parts
        and path.name not in ("apps.py", "admin.py")
        and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not missing, f"say what these modules are about: {missing}"


def _pure_files(name: str) -> list[Path]:
    path = ROOT / Path(*name.split("."))
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


@pytest.mark.parametrize("name", PURE_MODULES)
def test_pure_modules_import_no_django(name):
    for path in _pure_files(name):
        for line, module, statement in imports_of(path):
            top = module.split(".")[0]
            assert top != "django", f"{path.relative_to(ROOT)}:{line}: {statement}"
            if top in LAYERS:
                assert any(module.startswith(pure) for pure in PURE_MODULES), (
                    f"{path.relative_to(ROOT)}:{line}: {statement} (a pure module imports "
                    "only the standard library and other pure modules)"
                )


def test_importing_the_pure_modules_loads_no_django():
    code = (
        "import importlib, sys\n"
        f"for name in {PURE_MODULES!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def _rule_reads_by_key(path: Path, root: Path = ROOT) -> list[str]:
    """`x.rules[...]` and `x.rules.get(...)`: reading a snapshot's rule by its string key."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "rules"
        ) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "rules"
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_code_outside_club_reads_a_house_rule_by_key():
    outside = [path for path in app_modules() if path.relative_to(ROOT).parts[0] != "club"]
    found = [where for path in outside for where in _rule_reads_by_key(path)]
    assert not found, f"read the rules through session.house_rules (HouseRules): {found}"
    templates = [
        str(path.relative_to(ROOT))
        for app in LAYERS
        for path in (ROOT / app).rglob("*.html")
        if ".rules." in path.read_text(encoding="utf-8")
    ]
    assert not templates, f"templates read session.house_rules, not the snapshot: {templates}"


def test_the_key_check_finds_a_read_by_key(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("a = session.rules['muggins']\nb = game.session.rules.get('skunk_bank')\n")
    assert _rule_reads_by_key(module, tmp_path) == ["bad.py:1", "bad.py:2"]


def test_rows_are_locked_only_through_core_locking():
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in app_modules()
        if path.relative_to(ROOT).as_posix() != "core/locking.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update"
    ]
    assert not calls, f"lock with core.locking.locked (FOR UPDATE OF self, in order): {calls}"
