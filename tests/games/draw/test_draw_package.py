"""The draw is a package of pure modules (games/draw/): standard library and its own modules
only, each opening with a docstring, none over 400 lines, and importing it loads no Django."""

import ast
import subprocess
import sys
from pathlib import Path

import games.draw

PACKAGE = Path(games.draw.__file__).parent
ROOT = PACKAGE.parent.parent
MODULES = sorted(PACKAGE.glob("*.py"))


def test_the_package_has_one_module_per_part():
    assert {path.stem for path in MODULES} >= {
        "__init__", "types", "budgets", "problem", "planner", "exact", "local", "seating", "api"
    }  # fmt: skip


def test_every_module_imports_only_the_standard_library_and_its_siblings():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.name}: no relative imports"
                modules.add(node.module or "")
        assert modules, f"{path.name}: the parse found the imports"
        outside = {
            name
            for name in modules
            if name.split(".")[0] not in sys.stdlib_module_names
            and name != "__future__"
            and name != "games.draw"
            and not name.startswith("games.draw.")
        }
        assert not outside, (path.name, outside)


def test_every_module_opens_with_a_docstring_and_is_at_most_400_lines():
    for path in MODULES:
        text = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(text))
        assert docstring and len(docstring) > 80, path.name
        assert len(text.splitlines()) <= 400, path.name
        assert "Terms" in docstring or "*" in docstring, f"{path.name}: define the terms"
    assert "Terms:" in ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text()))


def test_importing_the_draw_loads_no_django():
    code = (
        "import sys, games.draw; "
        "d = games.draw.draw_round(entrants=range(1, 9), mode='singles', seed=1); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
