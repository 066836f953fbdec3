"""Where the browser tests put their screenshots: into .artifacts/, inside the repository's own
tree (tests/browser/conftest.py's `screenshot`). A copy may go to a folder outside the tree, the
module's `SHOTS = Path("/work/shots")`, only when that folder already exists: a run on another
computer (CI), or two checkouts' runs side by side, then write nothing outside their own tree.

Terms:
- outside path: a string in a browser test's code that is an absolute path under /work/, other
  than the one `SHOTS` line.
"""

import ast
from pathlib import Path

BROWSER = Path(__file__).resolve().parent / "browser"
SHOTS_LINE = 'SHOTS = Path("/work/shots")'


def faults_of(path: Path) -> list[str]:
    text = path.read_text()
    lines = text.splitlines()
    faults = []
    for node in ast.walk(ast.parse(text)):
        outside = isinstance(node, ast.Constant) and str(node.value).startswith("/work/")
        if outside and lines[node.lineno - 1].strip() != SHOTS_LINE:
            faults.append(f"{path.name}:{node.lineno}: an outside path, {node.value!r}")
    if SHOTS_LINE in text:
        if "SHOTS.mkdir" in text:
            faults.append(f"{path.name}: makes the SHOTS folder instead of using it if it exists")
        if "SHOTS.is_dir()" not in text:
            faults.append(f"{path.name}: writes to SHOTS without asking whether it exists")
    return faults


def test_browser_tests_write_outside_the_tree_only_into_a_folder_that_exists():
    faults = [fault for path in sorted(BROWSER.glob("*.py")) for fault in faults_of(path)]
    assert not faults, "\n".join(faults)
