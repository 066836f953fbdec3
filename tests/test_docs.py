"""The project's docs stand on their own: the README is a short front page that opens with the two
commands and points to the guides, every file and link they name exists, nothing points outside
the repository (a user has the repository only), they speak of the game and the code rather than
of how the work was organised, they build strictly with MkDocs, and the URL map lists every named
URL of the site.

Terms: the *docs* are README.md and every Markdown file under docs/; a *guide* is one of the four
index pages by reader (the club, operators, developers, decisions)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
GUIDES = (
    "docs/club/index.md",
    "docs/operators/index.md",
    "docs/developers/index.md",
    "docs/decisions/index.md",
)
# A Markdown link's target: [text](target), the target up to a space or the closing parenthesis.
LINK = re.compile(r"\]\(([^)\s]+)\)")
# Files the docs name in code spans: `docs/rules.md`, `club/rules.py`, `static/js/board.js`.
NAMED_FILE = re.compile(
    r"`((?:docs|tests|fixtures|config|static|templates|core|club|games|scoring|money|standings|web|ops)"
    r"/[\w./-]+\.(?:md|py|svg|json|gz|js|css|html))`"
)


def test_the_readme_opens_with_the_two_commands_and_points_to_the_guides():
    readme = README.read_text(encoding="utf-8")
    assert readme.index("make run") < readme.index("make test") < readme.index("## ")
    for guide in (*GUIDES, "docs/spec.md", "docs/rules.md", "docs/architecture.md"):
        assert f"]({guide})" in readme, f"the README links to {guide}"


def test_the_readme_is_a_front_page():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines: move the detail into a guide"


def test_every_relative_link_of_the_docs_leads_to_a_file():
    """MkDocs checks the links between pages of docs/; this checks the README's too, and that
    each target is a file of the repository as GitHub shows it."""
    broken = []
    for path in [README, *DOCS]:
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = (path.parent / target.split("#")[0]).resolve()
            if not file.is_file():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_nothing_points_outside_the_repository():
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text, path.name
        for target in LINK.findall(text):
            if not re.match(r"[a-z]+:", target):
                file = (path.parent / target.split("#")[0]).resolve()
                assert file.is_relative_to(ROOT), f"{path.name} links outside: {target}"


def test_every_file_the_docs_name_exists():
    named = set()
    for path in [README, *DOCS]:
        named |= set(NAMED_FILE.findall(path.read_text(encoding="utf-8")))
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


def test_the_built_docs_stay_out_of_the_checked_sources():
    """`make docs` writes the site into .artifacts/docs: ignored by git, and outside what the
    suite's source checks walk (tests/security/test_csp.py reads every HTML file of the checkout
    but .artifacts/, and the theme's pages carry inline scripts and styles)."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^site_dir: \.artifacts/docs$", config, re.MULTILINE)
    assert "mkdocs build --strict --site-dir .artifacts/docs" in makefile
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".artifacts/" in ignored


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
