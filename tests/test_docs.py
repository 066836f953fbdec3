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


URL_MAP = ROOT / "docs" / "developers" / "urls.md"
# A row of the URL map: | `address` | `name` | app | who may open it |
URL_MAP_ROW = re.compile(r"^\| `(/[^`]*)` \| `([^`]+)` \|", re.MULTILINE)


def site_addresses() -> dict[str, str]:
    """Every named URL of the URL conf (the admin aside, as tests/web/test_pages.py lists them),
    with its whole address as written in the URL conf: "/club/players/<int:pk>/edit/"."""
    from django.urls import URLPattern, URLResolver, get_resolver

    from tests.web.test_pages import named_urls

    addresses = {}

    def walk(resolver, prefix: str, namespace: str) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver) and pattern.namespace != "admin":
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                addresses[f"{namespace}{pattern.name}"] = f"/{prefix}{pattern.pattern}"

    walk(get_resolver(), "", "")
    assert set(addresses) == {name for name, _ in named_urls()}
    return addresses


def test_every_named_url_is_in_the_url_map():
    """docs/developers/urls.md lists each URL pattern of the site: a new page without its row (or
    a row left at an old address) fails here."""
    mapped = {name: address for address, name in URL_MAP_ROW.findall(URL_MAP.read_text("utf-8"))}
    missing = {
        name: address for name, address in site_addresses().items() if mapped.get(name) != address
    }
    assert not missing, f"give these a row (address, name) in {URL_MAP.name}: {missing}"


def test_the_url_map_names_no_url_that_is_gone():
    rows = URL_MAP_ROW.findall(URL_MAP.read_text("utf-8"))
    names = [name for _, name in rows]
    assert len(names) == len(set(names)), "a URL name has two rows"
    gone = sorted(set(names) - set(site_addresses()))
    assert not gone, f"{URL_MAP.name} names URLs the URL conf does not have: {gone}"
