"""The table page when the hall's Wi-Fi drops (static/js/table-offline.js, the worker at /t/sw.js):
a phone at the table enters the scores with the network cut, the page says they are not sent yet
and nothing is saved; when the network is back they are sent once and the page shows them. A
reload without a network shows the table page again from the worker's copy, with the scores put
back; a phone without the worker (a laptop on a LAN address over plain http) keeps the post and
sends it when the page is opened again. An accept waits the same way; a post the server saved
whose answer was lost is answered "already saved"; without JavaScript the forms post as before.

Terms: *phone* is a 390 x 844 browser context with no login (tests/browser/test_table_link.py);
*cut* is Playwright's `context.set_offline(True)` (the browser is offline: `navigator.onLine`, the
`online` event when it is back) together with a route that aborts every request of the context,
the service worker's too, so that no request slips out while a page is being replaced; *kept* is
what table-offline.js holds in the phone's storage.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.models import Game, Result, ResultState
from scoring.models import Claim
from tests.browser.conftest import wait_until
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.browser.test_table_link import sides_of, thursday

pytestmark = pytest.mark.django_db(transaction=True)

RETRY_MS = 4_000  # table-offline.js's RETRY: the time between two tries of a waiting post
NOT_SENT = "Not sent yet: it will be sent when the phone is back on the network."


def phone(browser, **options):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, **options)
    context.add_init_script(RECORD_VIOLATIONS)
    context.clock.install()  # the page's clock, which `after_a_retry` moves on
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def shot(page, name: str, screenshot) -> None:
    """The page's screenshot into .artifacts/."""
    screenshot(page, name)


def cut(page) -> None:
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)


def restore(page) -> None:
    page.context.unroute_all(behavior="ignoreErrors")
    page.context.set_offline(False)


def a_table(**rules):
    club, organiser, session, round_ = thursday(**rules)
    game = Game.objects.get(round=round_, table=1)
    (first, *_), (other, *_) = sides_of(game)[:2]
    return game, first, other


def fill_scores(page, game: Game, who: str, scores: list[int]) -> None:
    form = page.get_by_test_id("table-result-form")
    form.get_by_role("radio", name=who, exact=True).check()
    for names, score in zip(sides_of(game), scores, strict=True):
        form.get_by_role("spinbutton", name=" & ".join(names)).fill(str(score))


def with_worker(page) -> None:
    """Wait until the worker runs the page and has kept its copy of it."""
    wait_until(page, "() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")
    wait_until(
        page,
        """async (path) => {
            const names = await caches.keys();
            for (const name of names) {
                if (await (await caches.open(name)).match(path)) return true;
            }
            return false;
        }""",
        page.url.replace(page.url.split("/t/")[0], ""),
    )


def after_a_retry(page) -> None:
    """The time between two tries of a waiting post passes at once (the page's clock moves on, so
    the test does not wait it out), and a request sent then has a moment to reach the server."""
    page.clock.run_for(RETRY_MS + 1_000)
    page.wait_for_timeout(250)


def kept(page) -> list[str]:
    return page.evaluate(
        """() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]
            .filter(key => key.startsWith("pegboard:keep:"))"""
    )


def assert_waiting(page, button: str) -> None:
    expect(page.locator("[data-keep-note]:visible")).to_have_text(NOT_SENT)
    expect(page.get_by_role("button", name="Waiting for the network…")).to_be_disabled()
    expect(page.get_by_role("button", name=button)).to_have_count(0)


def test_scores_saved_without_network_arrive_once_when_it_is_back(browser, live_server, screenshot):
    game, first, other = a_table()
    page = phone(browser)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    cut(page)

    scores = [121] + [97] * (game.side_count - 1)
    fill_scores(page, game, first, scores)
    page.get_by_role("button", name="Save the scores").click()
    assert_waiting(page, "Save the scores")
    # The note is by the form, inside it, where the player looks.
    expect(page.get_by_test_id("table-result-form").locator("[data-keep-note]")).to_be_visible()
    assert Result.objects.filter(game=game).count() == 0
    shot(page, "table-not-sent-phone", screenshot)
    page.set_viewport_size({"width": 1366, "height": 900})
    shot(page, "table-not-sent-desktop", screenshot)
    page.set_viewport_size({"width": 390, "height": 844})
    after_a_retry(page)  # a try while still cut: nothing goes out
    assert Result.objects.filter(game=game).count() == 0

    restore(page)
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    expect(page.get_by_test_id("result-state")).to_have_text("Waiting for Accept")
    assert page.url == f"{live_server.url}/t/{game.table_token}/"
    after_a_retry(page)  # the retry timer must not send it a second time
    assert Result.objects.filter(game=game).count() == 1
    result = Result.objects.get(game=game)
    assert result.state == ResultState.DRAFT and list(result.scores) == scores
    assert kept(page) == []
    assert page.evaluate("window.__cspViolations") == []
    shot(page, "table-sent-phone", screenshot)


def test_a_reload_without_network_shows_the_page_with_the_kept_scores(
    browser, live_server, screenshot
):
    game, first, other = a_table()
    page = phone(browser)
    path = f"/t/{game.table_token}/"
    page.goto(live_server.url + path)
    with_worker(page)

    # What is typed comes back after a reload, before anything is sent.
    form = page.get_by_test_id("table-result-form")
    form.get_by_role("radio", name=first, exact=True).check()
    side = " & ".join(sides_of(game)[0])
    form.get_by_role("spinbutton", name=side).fill("121")
    page.reload()
    form = page.get_by_test_id("table-result-form")
    expect(form.get_by_role("radio", name=first, exact=True)).to_be_checked()
    expect(form.get_by_role("spinbutton", name=side)).to_have_value("121")

    cut(page)
    scores = [121] + [88] * (game.side_count - 1)
    fill_scores(page, game, first, scores)
    page.get_by_role("button", name="Save the scores").click()
    assert_waiting(page, "Save the scores")

    # A reload at the table with no network: the worker's copy, not the browser's offline page.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 1")
    assert_waiting(page, "Save the scores")
    form = page.get_by_test_id("table-result-form")
    expect(form.get_by_role("radio", name=first, exact=True)).to_be_checked()
    for names, score in zip(sides_of(game), scores, strict=True):
        expect(form.get_by_role("spinbutton", name=" & ".join(names))).to_have_value(str(score))
    assert Result.objects.filter(game=game).count() == 0
    shot(page, "table-reloaded-offline-phone", screenshot)

    restore(page)
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    after_a_retry(page)
    assert Result.objects.filter(game=game).count() == 1
    assert list(Result.objects.get(game=game).scores) == scores

    # The worker's copy followed the save: a reload offline now shows the draft.
    wait_until(
        page,
        """async (path) => {
            const copy = await caches.match(path);
            return Boolean(copy) && (await copy.text()).includes("Waiting for Accept");
        }""",
        path,
    )
    cut(page)
    page.reload()
    expect(page.get_by_test_id("result-state")).to_have_text("Waiting for Accept")
    restore(page)


def test_the_workers_copy_leaves_a_posts_message_for_the_page_after_it(browser, live_server):
    # The worker refreshes its copy in the background after each answer shown; a refresh that
    # reaches the server between a post and the page its redirect leads to must not read the
    # post's message (core.context_processors): the player would never see "Saved".
    game, first, other = a_table()
    page = phone(browser)
    path = f"/t/{game.table_token}/"
    page.goto(live_server.url + path)
    with_worker(page)
    fill_scores(page, game, first, [121] + [90] * (game.side_count - 1))
    page.evaluate(
        """async (path) => {
            const form = document.querySelector("[data-testid=table-result-form]");
            // Posted, its redirect not followed: the message waits on the server.
            await fetch(form.action, {method: "POST", body: new FormData(form),
                                      credentials: "same-origin", redirect: "manual"});
            for (const name of await caches.keys()) await (await caches.open(name)).delete(path);
            navigator.serviceWorker.controller.postMessage({refresh: path});
        }""",
        path,
    )
    wait_until(page, "async (path) => Boolean(await caches.match(path))", path)  # the copy
    assert Result.objects.filter(game=game).count() == 1
    page.reload()
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    expect(page.get_by_test_id("result-state")).to_have_text("Waiting for Accept")


def test_without_the_worker_a_kept_post_is_sent_when_the_page_opens_again(browser, live_server):
    # A laptop on a LAN address over plain http: no service worker, the script alone.
    game, first, other = a_table()
    page = phone(browser, service_workers="block")
    url = f"{live_server.url}/t/{game.table_token}/"
    page.goto(url)
    cut(page)
    scores = [121] + [101] * (game.side_count - 1)
    fill_scores(page, game, first, scores)
    page.get_by_role("button", name="Save the scores").click()
    assert_waiting(page, "Save the scores")
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        page.reload()
    assert Result.objects.filter(game=game).count() == 0

    restore(page)
    page.goto(url)
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    expect(page.get_by_test_id("result-state")).to_have_text("Waiting for Accept")
    assert Result.objects.filter(game=game).count() == 1
    assert kept(page) == []


def test_an_accept_without_network_confirms_when_it_is_back(browser, live_server, screenshot):
    game, first, other = a_table()
    entered_by = game.seats.get(player__display_name=first).player
    game_services.table_result_enter(
        game=game, player=entered_by, scores=[121] + [90] * (game.side_count - 1)
    )
    page = phone(browser)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    cut(page)
    page.get_by_role("button", name=f"Accept as {other}").click()
    expect(page.locator("[data-keep-note]:visible")).to_have_text(NOT_SENT)
    expect(page.get_by_role("button", name="Waiting for the network…")).to_be_disabled()
    assert Result.objects.get(game=game).state == ResultState.DRAFT
    shot(page, "table-accept-not-sent-phone", screenshot)

    restore(page)
    expect(page.locator("#messages")).to_contain_text(f"Accepted by {other}")
    expect(page.get_by_test_id("confirmed-by")).to_contain_text(other)
    assert Result.objects.get(game=game).state == ResultState.CONFIRMED


def test_a_claim_typed_and_filed_without_network_is_kept_and_filed_once(browser, live_server):
    # Every POST form of the table page is kept, an app's panel too (scoring's claims).
    game, first, other = a_table()
    page = phone(browser)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    page.locator("summary", has_text="File a claim").click()
    claim = page.get_by_test_id("table-claim-form")
    claim.get_by_role("radio", name=first, exact=True).check()
    claim.get_by_role("radio", name="Hand", exact=True).check()
    claim.get_by_label("The four cards").fill("5H 5C 5S JD")
    page.reload()  # what was typed comes back, its fold open
    claim = page.get_by_test_id("table-claim-form")
    expect(claim).to_be_visible()
    expect(claim.get_by_label("The four cards")).to_have_value("5H 5C 5S JD")
    expect(claim.get_by_role("radio", name="Hand", exact=True)).to_be_checked()

    cut(page)
    claim.get_by_label("The starter").fill("5D")
    claim.get_by_label("Points claimed").fill("28")
    claim.get_by_role("button", name="File the claim").click()
    expect(claim.locator("[data-keep-note]")).to_have_text(NOT_SENT)
    assert not Claim.objects.filter(game=game).exists()

    restore(page)
    expect(page.locator("#messages")).to_contain_text("Claim filed.")
    after_a_retry(page)
    assert Claim.objects.filter(game=game).count() == 1
    assert kept(page) == []


def test_a_post_saved_whose_answer_was_lost_is_answered_already_saved(browser, live_server):
    game, first, other = a_table()
    page = phone(browser)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    cut(page)
    fill_scores(page, game, first, [121] + [95] * (game.side_count - 1))
    page.get_by_role("button", name="Save the scores").click()
    assert_waiting(page, "Save the scores")
    # The same post reached the server (its answer never came back to the phone).
    post = page.evaluate(
        """() => Object.keys(localStorage).filter(k => k.startsWith("pegboard:keep:waiting:"))
            .map(k => JSON.parse(localStorage.getItem(k)))[0]"""
    )
    answer = page.request.post(post["action"], form=dict(post["body"]), max_redirects=0)
    assert answer.status == 302
    assert Result.objects.filter(game=game).count() == 1

    restore(page)
    expect(page.locator("#messages")).to_contain_text("This was already saved.")
    expect(page.get_by_test_id("result-state")).to_have_text("Waiting for Accept")
    assert Result.objects.filter(game=game).count() == 1


def test_without_javascript_the_form_posts_as_before(browser, live_server):
    game, first, other = a_table()
    page = phone(browser, java_script_enabled=False)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    fill_scores(page, game, first, [121] + [97] * (game.side_count - 1))
    page.get_by_role("button", name="Save the scores").click()
    expect(page.locator("#messages")).to_contain_text(f"Saved, entered by {first}.")
    assert page.url == f"{live_server.url}/t/{game.table_token}/"
    assert Result.objects.filter(game=game).count() == 1
