"""The browser tests put their screenshots into .artifacts/, inside the repository's own tree
(tests/browser/conftest.py's `screenshot`, `ARTIFACTS`), and write nowhere else: a run on another
computer (CI), or two checkouts' runs side by side, then leave nothing outside their own tree.

Terms:
- outside path: a string in a browser test's code that is an absolute path (it starts with "/"
  and names a folder, not a URL's path: the site's own addresses start with "/" too, so only
  strings naming a top folder of the machine count).
"""

import ast
from pathlib import Path

BROWSER = Path(__file__).resolve().parent / "browser"
TOP_FOLDERS = ("/work/", "/tmp/", "/home/", "/root/", "/var/", "/srv/", "/mnt/")


def faults_of(path: Path) -> list[str]:
    faults = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and str(node.value).startswith(TOP_FOLDERS):
            faults.append(f"{path.name}:{node.lineno}: an outside path, {node.value!r}")
    return faults


def test_browser_tests_write_nowhere_outside_the_tree():
    faults = [fault for path in sorted(BROWSER.glob("*.py")) for fault in faults_of(path)]
    assert not faults, "\n".join(faults)


def test_the_check_finds_an_outside_path(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text('SHOTS = "/work/shots"\nURL = "/games/ratings/"\n')
    assert faults_of(module) == ["test_example.py:1: an outside path, '/work/shots'"]
