"""The project's docs stand on their own: the README points into docs/, every file it and the
docs name exists, and nothing points outside the repository (a user has the repository only)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))


def test_the_readme_opens_with_the_two_commands_and_points_to_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("make run") < readme.index("make test") < readme.index("## ")
    for doc in ("docs/design.md", "docs/rules.md", "docs/architecture.md"):
        assert doc in readme, doc


def test_nothing_points_outside_the_repository():
    for path in [ROOT / "README.md", *DOCS]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path.name


def test_every_file_the_docs_name_exists():
    named = set()
    for path in [ROOT / "README.md", *DOCS]:
        text = path.read_text(encoding="utf-8")
        named |= set(
            re.findall(r"`((?:docs|tests|fixtures)/[\w./-]+\.(?:md|py|svg|json|gz))`", text)
        )
    named.add("docs/layers.svg")
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, missing
    assert "(layers.svg)" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_the_docs_build_strictly(tmp_path):
    """`make docs` in a test: MkDocs in strict mode, where a broken link between pages, a link to
    a heading a page does not have, or a page left out of mkdocs.yml's nav is a warning, and a
    warning fails the build (about a second, so the suite runs it as CI does)."""
    pytest.importorskip("mkdocs", reason="mkdocs is a dev dependency: make install")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert done.returncode == 0, "\n".join(warnings) or done.stderr
    assert (tmp_path / "site" / "index.html").exists()
