"""The table page `/t/<token>/` and its posts (games.table_views, scoring.table_views): what anyone
holding the link sees, entering and accepting, claims and calls for a judge, every refusal with its
status and nothing saved, and the headers that keep the token in (the seating chart's QR codes:
tests/games/test_seating_chart.py).

Terms: `first_of_two` (tests/games/conftest.py) is the first of round 1's two tables,
opened, checked in and drawn through the services, its players without logins; its `page` is its
table page's address and `other` the round's other game. Rule texts cited: docs/spec.md "A
Thursday, step by step", step 4 ("The link works only while its round is open ... and only for its
own game") and "People and what they do" ("Everything done through a table's link is in the audit
trail 'at the table'").
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from club import services as club_services
from club.models import Club, Player, WrongPin
from club.services import pins
from core.models import AuditEntry
from games import services
from games.models import Result, ResultState
from money.services import session_settle
from scoring import services as scoring_services
from scoring.models import Claim, Dispute
from tests.builders import LinkTable
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def token_of(response) -> str:
    return re.search(r'name="submission_token" value="([^"]+)"', response.content.decode())[1]


def enter(client, first_of_two, player, scores=(121, 98), **extra):
    data = {"player": player.pk, "side_0": scores[0], "side_1": scores[1], **extra}
    return client.post(f"{first_of_two.page}result/", data)


def accept(client, first_of_two, result, player, **extra):
    return client.post(
        f"{first_of_two.page}results/{result.pk}/accept/", {"player": player.pk, **extra}
    )


def assert_table_headers(response):
    # The site's same-origin policy keeps the token in the address from other sites; a page
    # under no-referrer could not post its forms through Django's CSRF check (Origin: null).
    assert response["Referrer-Policy"] == "same-origin"
    assert "no-store" in response["Cache-Control"]


# --- What the page shows --------------------------------------------------------------------------


def test_anyone_with_the_link_sees_the_table(client, first_of_two):
    response = client.get(first_of_two.page)
    assert response.status_code == 200
    assert_table_headers(response)
    html = response.content.decode()
    for text in (
        first_of_two.club.name,
        "Table 1",
        "round 1",
        "Thursday 5 March 2026",
        "game to 121",
        "Pat Cowley",
        "Sam Smith",
        "Who is entering?",
    ):
        assert text in html, text
    assert html.count('type="radio" name="player"') == 2
    assert html.count('inputmode="numeric"') >= 2
    assert '<label for="id_side_0">Pat Cowley:</label>' in html
    # Nothing of the other table.
    for seat in first_of_two.other.seats.select_related("player"):
        assert seat.player.display_name not in html
    assert first_of_two.other.table_token not in html


@pytest.mark.parametrize("who", ["player", "judge", "organiser", "stranger"])
def test_a_logged_in_visitor_sees_the_same_page(client, first_of_two, member, stranger, who):
    client.force_login(stranger("player") if who == "stranger" else UserFactory(role=f"{who}s"))
    response = client.get(first_of_two.page)
    assert response.status_code == 200
    assert "Who is entering?" in response.content.decode()


@pytest.mark.parametrize("who", ["public", "organiser"])
def test_the_page_links_to_no_organiser_page(client, first_of_two, who):
    if who == "organiser":
        client.force_login(first_of_two.organiser)
    html = client.get(first_of_two.page).content.decode()
    links = set(re.findall(r'(?:href|action)="([^"]*)"', html))
    allowed = re.compile(
        rf"^(#.*|/|/scoring/counter/|/club/account/|/login/\?next=.*|/logout/|/static/.*|{first_of_two.page}.*)$"
    )
    assert {link for link in links if not allowed.match(link)} == set()


def test_user_text_on_the_table_page_is_inert(client, first_of_two):
    Player.objects.filter(pk=first_of_two.players[0].pk).update(
        display_name="<script>alert(1)</script>"
    )
    Club.objects.filter(pk=first_of_two.club.pk).update(name="<b>Club</b>")
    html = client.get(first_of_two.page).content.decode()
    assert "<script>alert(1)" not in html and "<b>Club" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- Entering -------------------------------------------------------------------------------------


def test_a_valid_entry_saves_a_draft_and_comes_back(client, first_of_two):
    response = enter(client, first_of_two, first_of_two.players[0])
    assert response.status_code == 302 and response.url == first_of_two.page
    result = Result.objects.get(game=first_of_two.game)
    assert (result.state, result.entered_by_player, result.entered_by) == (
        ResultState.DRAFT,
        first_of_two.players[0],
        None,
    )
    page = client.get(first_of_two.page)
    html = page.content.decode()
    assert "Saved, entered by Pat Cowley" in html
    assert "Entered by Pat Cowley at the table" in html
    assert "Accept as Sam Smith" in html
    assert "Accept as Pat Cowley" not in html  # his side entered it
    assert "Enter the scores again" in html


def test_a_logged_in_organiser_enters_at_the_table_as_the_player_named(client, first_of_two):
    client.force_login(first_of_two.organiser)
    enter(client, first_of_two, first_of_two.players[1], scores=(90, 121))
    entry = AuditEntry.objects.get(action="result.entered")
    assert entry.actor is None
    assert entry.data["by_player"] == "Sam Smith"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"side_0": 121, "side_1": 98}, "player", "Choose your name"),
        ({"player": "PLAYER", "side_0": 100, "side_1": 98}, None, "Nobody reached 121"),
        ({"player": "PLAYER", "side_0": 121, "side_1": 130}, "side_1", "The game ends at 121"),
        ({"player": "PLAYER", "side_0": 121, "side_1": ""}, "side_1", "final score"),
        ({"player": "OTHER", "side_0": 121, "side_1": 98}, "player", "among the players"),
    ],
)
def test_a_bad_entry_is_shown_on_its_field_and_nothing_is_saved(
    client, first_of_two, data, field, message
):
    values = {
        "PLAYER": first_of_two.players[0].pk,
        "OTHER": first_of_two.other.seats.first().player_id,
    }
    data = {key: values.get(value, value) for key, value in data.items()}
    response = client.post(f"{first_of_two.page}result/", data)
    assert response.status_code == 400
    assert_table_headers(response)
    form = response.context["result_form"]
    errors = form.errors.get(field or "__all__", [])
    assert any(message in error for error in errors), form.errors
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Result.objects.exists()


def test_a_double_post_saves_once(client, first_of_two):
    token = token_of(client.get(first_of_two.page))
    first = enter(client, first_of_two, first_of_two.players[0], submission_token=token)
    second = enter(client, first_of_two, first_of_two.players[0], submission_token=token)
    assert first.status_code == second.status_code == 302
    assert Result.objects.filter(game=first_of_two.game).count() == 1
    assert "This was already saved." in client.get(first_of_two.page).content.decode()


def test_the_other_side_enters_again_and_the_first_accepts(client, first_of_two):
    pat, sam = first_of_two.players
    enter(client, first_of_two, pat, scores=(121, 98))
    enter(client, first_of_two, sam, scores=(121, 99))
    draft = Result.objects.get(game=first_of_two.game, state=ResultState.DRAFT)
    assert draft.scores == [121, 99]
    html = client.get(first_of_two.page).content.decode()
    assert "Accept as Pat Cowley" in html and "Accept as Sam Smith" not in html
    assert accept(client, first_of_two, draft, pat).status_code == 302
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_entering_after_the_result_is_confirmed_says_so_and_saves_nothing(client, first_of_two):
    pat, sam = first_of_two.players
    stale = token_of(client.get(first_of_two.page))  # a second phone still shows the scores form
    enter(client, first_of_two, pat)
    accept(client, first_of_two, Result.objects.get(game=first_of_two.game), sam)
    response = enter(client, first_of_two, sam, scores=(90, 121), submission_token=stale)
    assert response.status_code == 302
    html = client.get(first_of_two.page).content.decode()
    assert "This result is confirmed: an organiser can correct it" in html
    assert Result.objects.filter(game=first_of_two.game).count() == 1


# --- Accepting ------------------------------------------------------------------------------------


def test_the_other_side_accepts_and_the_game_page_shows_who(client, first_of_two):
    pat, sam = first_of_two.players
    enter(client, first_of_two, pat)
    draft = Result.objects.get(game=first_of_two.game)
    response = accept(client, first_of_two, draft, sam)
    assert response.status_code == 302 and response.url == first_of_two.page
    draft.refresh_from_db()
    assert (draft.state, draft.confirmed_by_player) == (ResultState.CONFIRMED, sam)
    html = client.get(first_of_two.page).content.decode()
    assert "Accepted by Sam Smith: the result is confirmed." in html
    assert "Confirmed by Sam Smith at the table" in html
    assert "Who is entering?" not in html and "Accept as" not in html
    client.force_login(first_of_two.organiser)
    game_page = client.get(f"/games/{first_of_two.game.pk}/").content.decode()
    assert "Entered by Pat Cowley at the table" in game_page
    assert "confirmed by Sam Smith at the table" in game_page
    audit = client.get("/club/audit/").content.decode()
    assert "At the table: Pat Cowley" in audit and "At the table: Sam Smith" in audit


def test_the_same_side_accepting_its_own_entry_is_refused(client, first_of_two):
    pat, _ = first_of_two.players
    enter(client, first_of_two, pat)
    draft = Result.objects.get(game=first_of_two.game)
    response = accept(client, first_of_two, draft, pat)
    assert response.status_code == 400
    assert "Pat Cowley's side entered this result" in response.content.decode().replace(
        "&#x27;", "'"
    )
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


def test_a_second_accept_says_it_is_confirmed_already(client, first_of_two):
    pat, sam = first_of_two.players
    enter(client, first_of_two, pat)
    draft = Result.objects.get(game=first_of_two.game)
    accept(client, first_of_two, draft, sam)
    again = accept(client, first_of_two, draft, sam)
    assert again.status_code == 302
    assert "This result is confirmed already." in client.get(first_of_two.page).content.decode()
    assert AuditEntry.objects.filter(action="result.confirmed").count() == 1


def test_a_result_of_another_game_through_this_link_is_not_found(client, first_of_two):
    other_draft = services.table_result_enter(
        game=first_of_two.other,
        player=first_of_two.other.seats.first().player,
        scores=[121, 90],
    )
    accepter = first_of_two.other.seats.last().player
    for player in (accepter, first_of_two.players[1]):
        response = accept(client, first_of_two, other_draft, player)
        assert response.status_code == 404
        assert_table_headers(response)
        assert "not at this table" in response.content.decode()
    other_draft.refresh_from_db()
    assert other_draft.state == ResultState.DRAFT


def test_a_player_of_another_table_cannot_accept_through_this_link(client, first_of_two):
    enter(client, first_of_two, first_of_two.players[0])
    draft = Result.objects.get(game=first_of_two.game)
    response = accept(client, first_of_two, draft, first_of_two.other.seats.first().player)
    assert response.status_code == 404
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


@pytest.mark.parametrize("player", ["", "x", "999999999", "-1"])
def test_an_accept_naming_nobody_is_refused(client, first_of_two, player):
    enter(client, first_of_two, first_of_two.players[0])
    draft = Result.objects.get(game=first_of_two.game)
    response = client.post(f"{first_of_two.page}results/{draft.pk}/accept/", {"player": player})
    assert response.status_code in (302, 404)
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


# --- PINs -----------------------------------------------------------------------------------------


@pytest.fixture
def pinned(first_of_two):
    club_services.club_update_rules(
        club=first_of_two.club, actor=first_of_two.organiser, table_pins=True
    )
    first_of_two.session.rules = {**first_of_two.session.rules, "table_pins": True}
    first_of_two.session.save(update_fields=["rules"])
    pins.pin_set(player=first_of_two.players[1], actor=first_of_two.organiser, pin="2468")
    return first_of_two


def test_with_pins_each_accept_asks_for_the_players_pin(client, pinned):
    enter(client, pinned, pinned.players[0])
    html = client.get(pinned.page).content.decode()
    field = re.search(r'<input type="text" name="pin"[^>]*>', html)[0]
    for attribute in ('inputmode="numeric"', 'autocomplete="off"', 'maxlength="4"'):
        assert attribute in field
    assert "Sam Smith&#x27;s PIN" in html
    assert "Accept as Sam Smith" in html


def test_a_wrong_pin_says_so_then_the_right_one_accepts(client, pinned):
    _, sam = pinned.players
    enter(client, pinned, pinned.players[0])
    draft = Result.objects.get(game=pinned.game)
    wrong = accept(client, pinned, draft, sam, pin="1111")
    assert wrong.status_code == 400
    assert "Wrong PIN for Sam Smith: try again." in wrong.content.decode()
    assert WrongPin.objects.get().player == sam
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    right = accept(client, pinned, draft, sam, pin="2468")
    assert right.status_code == 302
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_wrong_pins_make_a_wait_the_page_says_how_long_and_the_button_stays(client, pinned, clock):
    _, sam = pinned.players
    enter(client, pinned, pinned.players[0])
    draft = Result.objects.get(game=pinned.game)
    for _ in range(3):
        accept(client, pinned, draft, sam, pin="0000")
    fourth = accept(client, pinned, draft, sam, pin="0000")
    assert fourth.status_code == 400
    assert "Wrong PIN for Sam Smith: the next try in 5 seconds." in fourth.content.decode()
    assert "Accept as Sam Smith" in client.get(pinned.page).content.decode()
    clock.advance(1)
    waiting = accept(client, pinned, draft, sam, pin="2468")
    assert waiting.status_code == 400
    assert "Too many wrong PINs for Sam Smith: the next try in 4 seconds." in (
        waiting.content.decode()
    )
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT
    clock.advance(4)
    assert accept(client, pinned, draft, sam, pin="2468").status_code == 302
    draft.refresh_from_db()
    assert draft.state == ResultState.CONFIRMED


def test_a_player_without_a_pin_has_no_accept_button(client, pinned):
    enter(client, pinned, pinned.players[1], scores=(121, 100))  # Pat accepts: he has no PIN
    html = client.get(pinned.page).content.decode()
    assert "Accept as Pat Cowley" not in html
    assert "Pat Cowley has no PIN yet" in html
    draft = Result.objects.get(game=pinned.game)
    response = accept(client, pinned, draft, pinned.players[0], pin="1234")
    assert response.status_code == 400
    assert not WrongPin.objects.exists()


@pytest.mark.parametrize("pin", ["", "12", "abcd", "12345"])
def test_a_malformed_pin_is_a_field_error_and_costs_no_try(client, pinned, pin):
    enter(client, pinned, pinned.players[0])
    draft = Result.objects.get(game=pinned.game)
    response = accept(client, pinned, draft, pinned.players[1], pin=pin)
    assert response.status_code == 400
    assert not WrongPin.objects.exists()
    if pin:
        assert "A PIN is four digits." in response.content.decode()
    draft.refresh_from_db()
    assert draft.state == ResultState.DRAFT


# --- Dead links -----------------------------------------------------------------------------------


def test_an_unknown_token_is_not_found(client, first_of_two):
    for url in ("/t/nosuchtable2/", "/t/nosuchtable2/result/", "/t/%00%3Cscript%3E/"):
        response = client.get(url) if url.endswith("e2/") else client.post(url, {})
        assert response.status_code == 404
        assert_table_headers(response)
        assert "No table has this link" in response.content.decode()


def closed_round(first_of_two):
    services.round_draw(session=first_of_two.session, actor=first_of_two.organiser, seed=9)


def settled(first_of_two):
    for checkin in first_of_two.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=first_of_two.organiser)
    for game in first_of_two.game.round.games.all():
        draft = services.result_enter(game=game, actor=first_of_two.organiser, scores=[121, 90])
        services.result_confirm(
            result=draft, actor=UserFactory(role="organisers", club=first_of_two.club)
        )
    session_settle(session=first_of_two.session, actor=first_of_two.organiser, seed=1)


def links_off(first_of_two):
    Club.objects.filter(pk=first_of_two.club.pk).update(table_links=False)


@pytest.mark.parametrize(
    ("close", "sentence"),
    [
        (closed_round, "Round 1 is over (round 2 is drawn)"),
        (settled, "is settled: this table"),
        (links_off, "does not use table links"),
    ],
    ids=["later-round", "settled", "links-off"],
)
def test_a_closed_link_is_gone_with_the_reason(client, first_of_two, close, sentence):
    enter(client, first_of_two, first_of_two.players[0])
    draft = Result.objects.get(game=first_of_two.game)
    close(first_of_two)
    counts = (Result.objects.count(), Claim.objects.count(), AuditEntry.objects.count())
    response = client.get(first_of_two.page)
    if close is closed_round:
        # A GET of a past round's link goes to the same table's game of the round drawn now
        # (tests/games/test_table_card_views.py); its posts stay refused.
        assert response.status_code == 302
        assert response.url != first_of_two.page
        response = enter(client, first_of_two, first_of_two.players[1], scores=(121, 96))
    assert response.status_code == 410
    assert_table_headers(response)
    html = response.content.decode().replace("&#x27;", "'")
    assert sentence in html
    assert "Who is entering?" not in html
    posts = [
        enter(client, first_of_two, first_of_two.players[1], scores=(121, 97)),
        accept(client, first_of_two, draft, first_of_two.players[1]),
        client.post(
            f"{first_of_two.page}claims/new/",
            {"claimant": first_of_two.players[0].pk},
        ),
    ]
    assert [post.status_code for post in posts] == [410, 410, 410]
    assert (Result.objects.count(), Claim.objects.count(), AuditEntry.objects.count()) == counts


# --- Claims and judges at the table ---------------------------------------------------------------


def claim_data(who, **extra):
    data = {
        "claimant": who.pk,
        "kind": "hand",
        "hand": "5H 5C 5S JD",
        "starter": "5D",
        "claimed_points": 28,
    }
    return {**data, **extra}


def test_a_claim_filed_at_the_table_is_listed(client, first_of_two):
    response = client.post(f"{first_of_two.page}claims/new/", claim_data(first_of_two.players[0]))
    assert response.status_code == 302 and response.url == f"{first_of_two.page}#claims"
    claim = Claim.objects.get()
    assert (claim.filed_at_table, claim.filed_by, claim.true_points) == (True, None, 29)
    html = client.get(first_of_two.page).content.decode()
    assert "Claim filed." in html
    assert "<strong>Pat Cowley</strong> claimed <strong>28</strong> for hand" in html
    assert "the count is <strong>29</strong>" in html
    assert "Call a judge" in html


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"hand": ""}, "hand", "four cards"),
        ({"hand": "5H 5C 5S ZZ"}, "hand", ""),
        ({"kind": "play"}, "kind", "organiser on the game page"),
        ({"claimed_points": ""}, "claimed_points", "points claimed"),
        ({"claimant": "OTHER"}, "claimant", "among the players"),
    ],
)
def test_a_bad_claim_is_shown_on_its_field_and_nothing_is_saved(
    client, first_of_two, extra, field, message
):
    if extra.get("claimant") == "OTHER":
        extra = {"claimant": first_of_two.other.seats.first().player_id}
    response = client.post(
        f"{first_of_two.page}claims/new/",
        claim_data(first_of_two.players[0], **extra),
    )
    assert response.status_code == 400
    form = response.context["panels"][0].data["claim_form"]
    assert field in form.errors, form.errors
    assert message in " ".join(form.errors[field])
    assert 'table-claim-new" open' in response.content.decode()
    assert not Claim.objects.exists()


def test_a_claim_posted_twice_is_filed_once(client, first_of_two):
    token = token_of(
        client.get(first_of_two.page)
    )  # the first token on the page is the scores form's
    html = client.get(first_of_two.page).content.decode()
    claim_token = re.findall(r'name="submission_token" value="([^"]+)"', html)[-1]
    assert claim_token != token
    data = claim_data(first_of_two.players[0], submission_token=claim_token)
    client.post(f"{first_of_two.page}claims/new/", data)
    client.post(f"{first_of_two.page}claims/new/", data)
    assert Claim.objects.count() == 1


def test_a_party_calls_a_judge(client, first_of_two):
    client.post(f"{first_of_two.page}claims/new/", claim_data(first_of_two.players[0]))
    claim = Claim.objects.get()
    response = client.post(
        f"{first_of_two.page}claims/{claim.pk}/dispute/",
        {"player": first_of_two.players[1].pk, "statement": "The jack is his nobs."},
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert (dispute.claim, dispute.opened_by) == (claim, first_of_two.players[1])
    html = client.get(first_of_two.page).content.decode()
    assert "A judge is called" in html and "Disputed" in html
    entry = AuditEntry.objects.get(action="dispute.opened")
    assert (entry.actor, entry.data["by_player"]) == (None, "Sam Smith")


def test_a_call_for_a_judge_needs_a_party_and_a_sentence(client, first_of_two):
    client.post(f"{first_of_two.page}claims/new/", claim_data(first_of_two.players[0]))
    claim = Claim.objects.get()
    outsider = first_of_two.other.seats.first().player
    for data in (
        {"player": outsider.pk, "statement": "No."},
        {"player": first_of_two.players[1].pk, "statement": ""},
    ):
        response = client.post(f"{first_of_two.page}claims/{claim.pk}/dispute/", data)
        assert response.status_code == 400
    assert not Dispute.objects.exists()


def test_a_claim_of_another_game_through_this_link_is_not_found(client, first_of_two):
    other_claim = scoring_services.table_claim_file(
        game=first_of_two.other,
        kind="heels",
        claimant=first_of_two.other.seats.first().player,
        claimed_points=2,
        starter="JH",
    )
    response = client.post(
        f"{first_of_two.page}claims/{other_claim.pk}/dispute/",
        {"player": first_of_two.other.seats.last().player_id, "statement": "No."},
    )
    assert response.status_code == 404
    assert not Dispute.objects.exists()


def test_the_tables_posts_keep_the_csrf_check(first_of_two):
    """A table's forms are checked like every other form: a post from another site (no CSRF
    cookie, a foreign Origin) is refused and saves nothing; the page's own form posts."""
    client = Client(enforce_csrf_checks=True)
    data = {"player": first_of_two.players[0].pk, "side_0": 121, "side_1": 98}
    refused = client.post(
        f"{first_of_two.page}result/", data, HTTP_ORIGIN="https://elsewhere.example"
    )
    assert refused.status_code == 403
    assert not Result.objects.filter(game=first_of_two.game).exists()

    page = client.get(first_of_two.page)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    response = client.post(f"{first_of_two.page}result/", {**data, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Result.objects.filter(game=first_of_two.game).exists()


def test_a_partners_table_names_its_sides_and_both_opponents_may_accept(client):
    partners = LinkTable(players=4)  # partners: seats 0 & 2 against 1 & 3
    page = f"/t/{partners.game.table_token}/"
    first, partner = (p.display_name for p in partners.side(0))
    html = client.get(page).content.decode()
    assert f'<label for="id_side_0">{first} &amp; {partner}:</label>' in html
    assert html.count('type="radio" name="player"') == 4
    client.post(f"{page}result/", {"player": partners.side(0)[0].pk, "side_0": 121, "side_1": 88})
    html = client.get(page).content.decode()
    for player in partners.side(1):
        assert f"Accept as {player.display_name}" in html
    for player in partners.side(0):
        assert f"Accept as {player.display_name}" not in html
