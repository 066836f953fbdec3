"""The table cards' pages (games.card_views) and what a card's link, or an old game link, answers
(games.table_views; docs/club/table-links.md "Table cards"): each role on the cards page, making
and making new cards through their forms, a card opening its table's current game, a table with no
game this round, a replaced card, links off, two clubs, and an old game link forwarded on a GET
and refused on a POST.

Terms: `first_of_two` (tests/games/conftest.py) is round 1's table 1 of a session opened, checked
in and drawn through the services (four players, two tables); `cards` gives its club cards for
tables 1 to 3. Rule texts cited: docs/spec.md "A Thursday, step by step", step 4 ("The link works
only while its round is open ... and only for its own game").
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import Club
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import Game, Result, TableCard
from tests.builders import LinkTable
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def assert_table_headers(response):
    assert "no-store" in response["Cache-Control"]


def organiser_of(table: LinkTable):
    user = UserFactory(role="organisers")
    PlayerFactory(club=table.club, user=user)
    return user


def member_of(table: LinkTable, role: str):
    user = UserFactory(role=role)
    PlayerFactory(club=table.club, user=user)
    return user


@pytest.fixture
def cards(first_of_two):
    services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=3)
    return first_of_two


def card_url(table: LinkTable, number: int) -> str:
    return f"/t/{services.current_cards(table.club).get(number=number).token}/"


# --- The cards page -------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "status"), [("players", 403), ("judges", 403)])
def test_players_and_judges_never_see_the_cards(client, cards, role, status):
    client.force_login(member_of(cards, role))
    response = client.get(reverse("games:table_cards"))
    assert response.status_code == status
    assert card_url(cards, 1) not in response.content.decode()


def test_the_organiser_sees_a_card_per_table_with_its_code_and_link(client, cards):
    client.force_login(organiser_of(cards))
    response = client.get(reverse("games:table_cards"))
    assert response.status_code == 200
    assert_table_headers(response)
    html = response.content.decode()
    for number in (1, 2, 3):
        assert f'data-testid="table-card-{number}"' in html
        assert card_url(cards, number) in html
    assert html.count('class="qr"') == 3
    assert cards.club.name in html
    assert "New cards" in html


def test_the_page_offers_cards_for_the_most_tables_the_club_has_had(client, first_of_two):
    client.force_login(organiser_of(first_of_two))
    response = client.get(reverse("games:table_cards"))
    assert response.context["make_form"].initial["up_to"] == 2
    assert "tables 1, 2 have no card yet" in response.content.decode()
    response = client.post(reverse("games:table_cards"), {"up_to": "2"}, follow=True)
    assert "Made the cards of tables 1 to 2: print them." in response.content.decode()
    assert list(services.current_cards(first_of_two.club).values_list("number", flat=True)) == [
        1,
        2,
    ]
    # More: the next number is offered; the printed ones are kept.
    assert response.context["make_form"].initial["up_to"] == 3
    response = client.post(reverse("games:table_cards"), {"up_to": "2"}, follow=True)
    assert "Tables 1 to 2 have their cards already." in response.content.decode()


@pytest.mark.parametrize("typed", ["", "0", "201", "x", "-3"])
def test_a_wrong_number_of_tables_is_a_form_error(client, first_of_two, typed):
    client.force_login(organiser_of(first_of_two))
    response = client.post(reverse("games:table_cards"), {"up_to": typed})
    assert response.status_code == 400
    assert "Give the number of tables, from 1 to 200." in response.content.decode()
    assert not TableCard.objects.exists()


def test_new_cards_warn_first_then_replace_the_old_ones_once(client, cards):
    client.force_login(organiser_of(cards))
    old = card_url(cards, 1)
    page = client.get(reverse("games:table_cards_renew"))
    assert page.status_code == 200
    assert "Every printed card stops working at once" in page.content.decode()
    token = page.context["form"]["submission_token"].value()
    data = {"submission_token": token}
    response = client.post(reverse("games:table_cards_renew"), data, follow=True)
    assert "3 new cards: print them" in response.content.decode()
    again = client.post(reverse("games:table_cards_renew"), data, follow=True)
    assert "This was already saved." in again.content.decode()
    assert AuditEntry.objects.filter(action=GameVerb.TABLE_CARD_RENEWED).count() == 3
    assert card_url(cards, 1) != old
    gone = client.get(old)
    assert gone.status_code == 410
    assert "This card was replaced by new cards on" in gone.content.decode()


def test_the_audit_log_names_the_cards_made_and_made_new(client, cards):
    services.table_cards_renew(club=cards.club, actor=cards.organiser)
    client.force_login(organiser_of(cards))
    html = client.get(reverse("club:audit")).content.decode()
    assert "Table card made" in html and "Table card made new" in html
    assert not any(card.token in html for card in TableCard.objects.all())


def test_new_cards_without_cards_say_to_make_them_first(client, first_of_two):
    client.force_login(organiser_of(first_of_two))
    page = client.get(reverse("games:table_cards_renew"))
    assert "no table cards yet: make them first" in page.content.decode()
    response = client.post(reverse("games:table_cards_renew"), {})
    assert response.status_code == 400
    assert not TableCard.objects.exists()


def test_the_round_page_and_the_chart_link_to_the_cards_for_organisers(client, cards):
    round_ = cards.game.round
    client.force_login(organiser_of(cards))
    for url in (
        reverse("games:round", args=[round_.pk]),
        reverse("games:round_print", args=[round_.pk]),
        reverse("web:session", args=[cards.session.pk]),
    ):
        assert reverse("games:table_cards") in client.get(url).content.decode(), url
    client.force_login(member_of(cards, "players"))
    assert (
        reverse("games:table_cards")
        not in client.get(reverse("games:round", args=[round_.pk])).content.decode()
    )


def test_the_chart_says_scan_the_card_and_keeps_codes_for_tables_without_one(client, first_of_two):
    client.force_login(organiser_of(first_of_two))
    url = reverse("games:round_print", args=[first_of_two.game.round.pk])
    before = client.get(url).content.decode()
    assert before.count('class="qr"') == 2
    assert "Scan the card on your table" not in before
    services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=1)
    html = client.get(url).content.decode()
    assert "Scan the card on your table" in html
    assert html.count('class="qr"') == 1  # table 2 has no card: its code stays
    assert first_of_two.game.table_token not in html
    assert first_of_two.other.table_token in html


# --- A card's link --------------------------------------------------------------------------------


def test_a_card_opens_its_tables_current_game_and_the_next_rounds_on_reload(client, cards):
    response = client.get(card_url(cards, 1))
    assert response.status_code == 302
    assert response.url == f"/t/{cards.game.table_token}/"
    assert_table_headers(response)
    page = client.get(response.url)
    assert "Who is entering?" in page.content.decode()
    round_2 = services.round_draw(session=cards.session, actor=cards.organiser)
    response = client.get(card_url(cards, 1))
    assert response.url == f"/t/{round_2.games.get(table=1).table_token}/"
    assert client.get(card_url(cards, 2)).url == (f"/t/{round_2.games.get(table=2).table_token}/")


def test_a_card_of_a_table_with_no_game_shows_the_rounds_tables(client, cards):
    response = client.get(card_url(cards, 3))
    assert response.status_code == 200
    assert_table_headers(response)
    html = response.content.decode()
    assert "Table 3 has no game in round 1." in html
    assert "Find your name" in html
    for player in cards.players:
        assert player.display_name in html
    # Nothing on it opens another table: no game's link.
    assert cards.game.table_token not in html and cards.other.table_token not in html
    found = client.get(card_url(cards, 3), {"name": "pat cow"}).content.decode()
    assert "Found at table 1." in found


def test_a_card_says_plainly_when_there_is_no_session_or_links_are_off(client, cards):
    Club.objects.filter(pk=cards.club.pk).update(table_links=False)
    off = client.get(card_url(cards, 1))
    assert off.status_code == 410
    assert_table_headers(off)
    assert "does not use table links" in off.content.decode().replace("&#x27;", "'")


def test_posting_through_a_cards_address_saves_nothing(client, cards):
    player = cards.players[0]
    before = Result.objects.count()
    for path in ("result/", "claims/new/", ""):
        response = client.post(card_url(cards, 1) + path, {"player": player.pk, "side_0": 121})
        assert response.status_code in (404, 405), path
        assert_table_headers(response)
    assert Result.objects.count() == before


def test_a_card_of_another_club_never_opens_this_clubs_game(client, cards):
    other = LinkTable(players=4, table_mode="singles")
    services.table_cards_make(club=other.club, actor=other.organiser, up_to=1)
    assert client.get(card_url(other, 1)).url == f"/t/{other.game.table_token}/"
    assert client.get(card_url(cards, 1)).url == f"/t/{cards.game.table_token}/"
    # An organiser of the other club sees only their own club's cards.
    client.force_login(organiser_of(other))
    html = client.get(reverse("games:table_cards")).content.decode()
    assert card_url(other, 1) in html and card_url(cards, 1) not in html


# --- An old game link -----------------------------------------------------------------------------


def test_an_old_game_link_forwards_on_get_and_refuses_posts(client, first_of_two):
    round_2 = services.round_draw(session=first_of_two.session, actor=first_of_two.organiser)
    response = client.get(first_of_two.page)
    assert response.status_code == 302
    assert response.url == f"/t/{round_2.games.get(table=1).table_token}/"
    assert_table_headers(response)
    before = Result.objects.count()
    post = client.post(
        f"{first_of_two.page}result/",
        {"player": first_of_two.players[0].pk, "side_0": 121, "side_1": 90},
    )
    assert post.status_code == 410
    assert "Round 1 is over (round 2 is drawn)" in post.content.decode()
    assert Result.objects.count() == before


def test_a_refused_post_at_an_old_link_leads_on_to_the_tables_game_now(client, first_of_two):
    """Not a dead end: the phone left on round 1's page posts, is refused, and is offered round
    2's game at the same table (docs/club/table-links.md "When a link works")."""
    round_2 = services.round_draw(session=first_of_two.session, actor=first_of_two.organiser)
    post = client.post(
        f"{first_of_two.page}result/",
        {"player": first_of_two.players[0].pk, "side_0": 121, "side_1": 90},
    )
    assert post.status_code == 410
    html = post.content.decode()
    link = f'href="/t/{round_2.games.get(table=1).table_token}/"'
    assert link in html and "Open table 1 in round 2" in html


def test_a_refused_post_at_an_old_link_of_a_table_with_no_game_now_shows_where_to_play(
    client, first_of_two
):
    for checkin in first_of_two.session.checkins.order_by("pk")[:2]:
        club_services.checkin_sits_out(
            checkin=checkin, actor=first_of_two.organiser, round_number=2
        )
    services.round_draw(session=first_of_two.session, actor=first_of_two.organiser)
    other = first_of_two.other
    post = client.post(
        f"/t/{other.table_token}/result/",
        {"player": other.seats.first().player_id, "side_0": 121, "side_1": 90},
    )
    assert post.status_code == 410
    html = post.content.decode()
    assert f'href="/t/{other.table_token}/"' in html and "Where everyone plays in round 2" in html


def test_an_old_link_of_a_table_with_no_game_now_says_so(client, first_of_two):
    for checkin in first_of_two.session.checkins.order_by("pk")[:2]:
        club_services.checkin_sits_out(
            checkin=checkin, actor=first_of_two.organiser, round_number=2
        )
    services.round_draw(session=first_of_two.session, actor=first_of_two.organiser)
    response = client.get(f"/t/{first_of_two.other.table_token}/")
    assert response.status_code == 200
    assert "Table 2 has no game in round 2." in response.content.decode()


def test_an_unfinished_games_old_link_keeps_its_refusal(client, first_of_two):
    services.game_not_played(game=first_of_two.other, actor=first_of_two.organiser, reason="Ill.")
    services.round_draw(session=first_of_two.session, actor=first_of_two.organiser)
    response = client.get(f"/t/{Game.objects.get(pk=first_of_two.other.pk).table_token}/")
    assert response.status_code == 410
    assert 'data-testid="table-forward"' not in response.content.decode()
