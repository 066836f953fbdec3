"""The Content-Security-Policy: every response carries a policy that allows only the site's own
scripts, styles and images, and no page needs more: no inline script, no `style` attribute or
`<style>` element, no `on...=` handler, no `javascript:` address, in what the pages render nor in
the templates and the code that builds HTML or SVG.

Every page of the page table is checked in tests/security/test_csp_pages.py;
tests/browser/test_csp.py checks the same in a real browser (no violation is reported)."""

import ast
import re
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}
# What CSP without 'unsafe-inline' refuses, in HTML or SVG markup.
INLINE = {
    "a style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE),
    "a <style> element": re.compile(r"<style[\s>]", re.IGNORECASE),
    "an event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE),
    "a javascript: address": re.compile(r"javascript:", re.IGNORECASE),
    "an inline script": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE),
}


def policy_of(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def inline_in(text: str) -> list[str]:
    return [what for what, pattern in INLINE.items() if pattern.search(text)]


def test_error_pages_and_the_admin_carry_it_too(club, client):
    assert policy_of(client.get("/no-such-page/")) == POLICY
    assert policy_of(client.get(reverse("admin:login"))) == POLICY
    assert policy_of(client.post(reverse("logout"))) == POLICY


@pytest.mark.parametrize("https", [False, True], ids=["plain HTTP", "HTTPS redirect on"])
@pytest.mark.parametrize("path", ["/", "/healthz", "/login/"])
def test_a_refused_host_gets_the_400_page_with_the_policy_and_no_framing(club, https, path):
    """A Host the site does not serve is answered with the 400 page by the first middleware
    that asks for the host (CommonMiddleware; SecurityMiddleware itself when it redirects plain
    HTTP to HTTPS): that page carries the policy and refuses to be framed like every other."""
    with override_settings(ALLOWED_HOSTS=["pegboard.example.org"], SECURE_SSL_REDIRECT=https):
        client = Client(HTTP_HOST="evil.example", raise_request_exception=False)
        response = client.get(path)
    assert response.status_code == 400
    assert policy_of(response) == POLICY
    assert response["X-Frame-Options"] == "DENY"


def test_a_form_that_fails_its_csrf_check_gets_the_sites_own_page(club):
    """Django's built-in CSRF page styles itself inline: the site has its own."""
    response = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "x"})
    assert response.status_code == 403
    assert 'data-testid="csrf-failure"' in response.content.decode()
    assert policy_of(response) == POLICY
    assert not inline_in(response.content.decode())


def test_the_500_page_is_styled_from_the_stylesheet():
    from django.test import RequestFactory
    from django.views.defaults import server_error

    html = server_error(RequestFactory().get("/")).content.decode()
    assert 'href="/static/css/pegboard.css"' in html
    assert not inline_in(html)


@pytest.mark.parametrize(("page", "script"), [("counter", "counter"), ("discard", "discard")])
def test_the_card_tools_load_their_scripts_from_the_site(club, page, script):
    html = Client().get(reverse(f"scoring:{page}")).content.decode()
    assert re.search(r'<script src="/static/js/card-picker\.js"', html)
    assert re.search(rf'<script src="/static/js/{script}\.js"', html)


def source_files():
    skip = {".venv", "staticfiles", "tests", "migrations", ".git", "node_modules", ".artifacts"}
    for path in sorted(ROOT.rglob("*")):
        parts = set(path.relative_to(ROOT).parts)
        if parts & skip or not path.is_file():
            continue
        if path.suffix in (".html", ".svg") or (path.suffix == ".py" and "templates" not in parts):
            yield path


def markup_literals(source: str) -> list[str]:
    """The string literals of a module that hold markup (a "<"), docstrings left out; the
    parts of an f-string joined with a placeholder where its values go."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    parts = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "0" for part in node.values
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings or id(node) in parts:
                continue
            text = node.value
        else:
            continue
        if "<" in text:
            found.append(text)
    return found


def test_no_template_or_module_writes_anything_inline():
    """Templates, static SVGs, and Python that builds markup (charts, template tags, tables)."""
    found = []
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            text = "\n".join(markup_literals(text))
        found += [f"{path.relative_to(ROOT)}: {what}" for what in inline_in(text)]
    assert not found, found


def test_the_check_finds_what_it_looks_for():
    assert inline_in('<p style="color: red">') == ["a style attribute"]
    assert inline_in('<button type="button" onclick="go()">') == ["an event handler attribute"]
    assert inline_in("<script>alert(1)</script>") == ["an inline script"]
    assert inline_in('<a href="javascript:go()">') == ["a javascript: address"]
    assert inline_in("<style>p{}</style>") == ["a <style> element"]
    assert not inline_in('<script src="/static/js/x.js" defer></script><p class="on">online</p>')
    module = (
        '"""Docs may say <script> and style="x"."""\n'
        "X = f'<rect style=\"fill: {c}\" ' f'x=\"1\"/>'\n"
    )
    assert [inline_in(text) for text in markup_literals(module)] == [["a style attribute"]]
