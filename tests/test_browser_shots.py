"""The browser tests put their screenshots and PDFs into .artifacts/, inside the repository's own
tree, and write nowhere else: a run on another computer (CI), or two checkouts' runs side by side,
then leave nothing outside their own tree. They write them only through tests/browser/conftest.py's
`keep_shot` and `keep_file`, which make the folder first: a fresh clone has none, and a test that
wrote there itself passed or failed by whether another test on its worker had made it.

Terms:
- outside path: a string in a browser test's code that is an absolute path (it starts with "/"
  and names a folder, not a URL's path: the site's own addresses start with "/" too, so only
  strings naming a top folder of the machine count).
- own write: in a browser test module other than the conftest, a use of `ARTIFACTS`, or a `path=`
  given to a page's `screenshot` or `pdf`.
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


def own_writes_of(path: Path) -> list[str]:
    faults = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Name) and node.id == "ARTIFACTS":
            faults.append(f"{path.name}:{node.lineno}: ARTIFACTS used, not keep_file or keep_shot")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("screenshot", "pdf")
            and any(keyword.arg == "path" for keyword in node.keywords)
        ):
            faults.append(f"{path.name}:{node.lineno}: {node.func.attr}(path=...) written directly")
    return sorted(faults)


def test_browser_tests_write_nowhere_outside_the_tree():
    faults = [fault for path in sorted(BROWSER.glob("*.py")) for fault in faults_of(path)]
    assert not faults, "\n".join(faults)


def test_the_check_finds_an_outside_path(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text('SHOTS = "/work/shots"\nURL = "/games/ratings/"\n')
    assert faults_of(module) == ["test_example.py:1: an outside path, '/work/shots'"]


def test_browser_tests_write_only_through_the_conftest():
    modules = [path for path in sorted(BROWSER.glob("*.py")) if path.name != "conftest.py"]
    faults = [fault for path in modules for fault in own_writes_of(path)]
    assert not faults, "\n".join(faults)


def test_the_check_finds_an_own_write(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text(
        '(ARTIFACTS / "x.pdf").write_bytes(pdf)\n'
        'page.pdf(path="x.pdf", format="A4")\n'
        "page.screenshot(full_page=True)\n"
    )
    assert own_writes_of(module) == [
        "test_example.py:1: ARTIFACTS used, not keep_file or keep_shot",
        "test_example.py:2: pdf(path=...) written directly",
    ]
