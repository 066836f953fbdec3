"""A form's checkbox sits beside its label, and its help text runs beneath both (templates/
includes/form.html, static/css/pegboard.css ".field--checkbox"): on a phone and at a desk, on the
house rules form, whose checkboxes carry the longest help texts."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.factories import PASSWORD, ClubFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

LAYOUT = """fields => fields.map(field => {
  const box = field.querySelector('input[type=checkbox]').getBoundingClientRect();
  const label = field.querySelector('label').getBoundingClientRect();
  const help = field.querySelector('.help');
  const text = help && help.getBoundingClientRect();
  return {
    name: field.querySelector('label').textContent.trim(),
    gap: label.left - box.right,
    helpLeft: text ? text.left - box.left : 0,
    helpWidth: text ? text.width : field.getBoundingClientRect().width,
    width: field.getBoundingClientRect().width,
  };
})"""


@pytest.mark.parametrize("width", [390, 1366])
def test_a_checkbox_is_beside_its_label_and_its_help_runs_beneath(browser, live_server, width):
    user = UserFactory(role="organisers", club=ClubFactory())
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    log_in(page, live_server.url, user.get_username(), PASSWORD)
    page.goto(f"{live_server.url}/club/rules/edit/")
    expect(page.get_by_label("Standings public")).to_be_visible()
    fields = page.locator(".field--checkbox").evaluate_all(LAYOUT)
    assert len(fields) >= 4
    for field in fields:
        assert 0 <= field["gap"] <= 24, field  # the label starts just after its box
        assert abs(field["helpLeft"]) <= 6, field  # the help text under the box, not beside it
        assert field["helpWidth"] >= field["width"] - 1, field  # and as wide as the field
    page.context.close()
