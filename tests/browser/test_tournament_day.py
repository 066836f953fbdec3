"""A club tournament played through the pages: 37 entrants (an odd number: a bye every round),
seven qualifying rounds drawn on the tournament's page, the cut with a tie across its line
decided by a recorded cut of the cards, the seeded bracket, the playoffs to a champion on the
tables' phones (one qualifier forfeiting game by game), and the prize fund settled to the cent.

Which qualifying results go through the phones: rounds 1 and 7 at the first eight tables,
entered and accepted on each table's phone through its table card (round 1: the card scanned
once opens the table's game; round 7: the same phone, reloaded, is forwarded past the rounds
between to its table's game now); the same eight phones play the playoffs. The other tables of
rounds 1 and 7, and every table of rounds 2 to 6, go through the services the table page posts
to (games.services.table_result_enter, then table_result_accept), as the table's players with
no login, as a phone does: the same results, without a hundred more games' worth of page loads,
to keep the test quick.

The ACC's rules (http://cribbage.org/rules/rule13.asp): 13.2.b one in four entrants qualify,
rounded up (37: 10); 13.2.d first-round byes to the top seeds (16 - 10 = 6); 13.1 a qualifier
who does not appear forfeits a game, then another.

Terms: *desk* is the director's laptop (1366 px, logged in), a *phone* each table's (390 px, no
login), which scans its table card once and reloads it for each game; the stronger player (the
one checked in first) wins every game played, 121 to 100.
"""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club import services as club_services
from club.models import Player
from core.submissions import new_token
from games.models import Game, GameStatus, ResultState
from games.services import table_result_accept, table_result_enter
from money.models import LedgerEntry, Payout, Pot, Settlement
from tests.browser.conftest import log_in
from tests.browser.test_table_cards import card_path
from tests.browser.test_table_link import phone, sides_of
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Match, Stage, Tournament
from tournaments.selectors import qualifying_standings
from tournaments.services import qualifying

pytestmark = pytest.mark.django_db(transaction=True)

ENTRANTS = 37
ROUNDS = 7
ON_THE_PHONES = {1, ROUNDS}  # the qualifying rounds played on the tables' phones
PHONES = 8  # tables with a phone: 1 to 8


class Seeded:
    """The tournament's random choices (the draws, the cut of the cards) from one seed, so the
    day is the same on every run and on every database."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, limit: int) -> int:
        return self.rng.randrange(limit)


def the_club():
    club = ClubFactory(name="Riverside Cribbage", slug="riverside", payout_coin_cents=25)
    director = UserFactory(role="organisers", username="olive")
    PlayerFactory(club=club, user=director, display_name="Olive Director", active=False)
    players = [PlayerFactory(club=club, display_name=f"Entrant {n:02d}") for n in range(ENTRANTS)]
    return club, director, players


def desk(browser, base: str):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, base, "olive", PASSWORD)
    return page


def play_at(page, strength: dict[int, int]) -> bool:
    """At a table's phone, reloaded: enter its game's result (the stronger wins, 121-100) and
    accept it as the other side. False when the table has no game waiting."""
    page.reload()
    form = page.get_by_test_id("table-result-form")
    if not form.count():
        return False
    token = re.search(r"/t/([A-Za-z0-9]+)/", page.url)[1]
    game = Game.objects.get(table_token=token)
    if game.status != GameStatus.PLAYED or game.results.filter(state=ResultState.CONFIRMED):
        return False
    seats = {seat.player_id: seat for seat in game.seats.select_related("player")}
    winner = min(seats, key=lambda pid: strength[pid])
    loser = next(pid for pid in seats if pid != winner)
    names = sides_of(game)
    scores = [0, 0]
    scores[seats[winner].side], scores[seats[loser].side] = 121, 100
    form.get_by_role("radio", name=seats[winner].player.display_name, exact=True).check()
    for side_names, score in zip(names, scores, strict=True):
        form.get_by_role("spinbutton", name=" & ".join(side_names)).fill(str(score))
    page.get_by_role("button", name="Save the scores").click()
    other = seats[loser].player.display_name
    page.get_by_role("button", name=f"Accept as {other}").click()
    # The page's messages: on a machine slow enough that the post went unanswered, the form's
    # "Not sent yet" line is a second status until the phone's next try (every 4 s) sends it.
    expect(page.locator("#messages")).to_contain_text(f"Accepted by {other}", timeout=10_000)
    return True


def play_through_the_services(tournament: Tournament, number: int, strength: dict[int, int]) -> int:
    """Every table of qualifying round `number`, as its phone would post it: the stronger
    player enters the result (121-100), the other accepts it. The number of games played."""
    games = Game.objects.filter(
        session=tournament.session, round__number=number, status=GameStatus.PLAYED
    ).exclude(results__state=ResultState.CONFIRMED)
    played = 0
    for game in games.order_by("table"):
        seats = {seat.player_id: seat for seat in game.seats.select_related("player")}
        winner = min(seats, key=lambda pid: strength[pid])
        loser = next(pid for pid in seats if pid != winner)
        scores = [0, 0]
        scores[seats[winner].side], scores[seats[loser].side] = 121, 100
        draft = table_result_enter(
            game=game, player=seats[winner].player, scores=scores, token=new_token()
        )
        table_result_accept(result=draft, player=seats[loser].player)
        played += 1
    return played


def test_a_tournament_of_37_from_the_cards_on_the_tables_to_the_prize_fund(
    browser, live_server, screenshot, monkeypatch
):
    monkeypatch.setattr(qualifying, "secrets", Seeded(54))
    club, director, players = the_club()
    strength = {player.pk: rank for rank, player in enumerate(players)}
    base = live_server.url
    office = desk(browser, base)

    # The director creates the tournament on its page.
    office.goto(f"{base}/tournaments/new/")
    office.get_by_label("Name").fill("Riverside Championship")
    office.get_by_label("First day").fill(dt.date.today().isoformat())
    office.get_by_label("Entry fee").fill("$20")
    office.get_by_label("Qualifying games").select_option("7")
    office.get_by_label("Club's share (percent)").fill("10")
    office.get_by_label("The final").select_option("3")
    office.get_by_role("button", name="Create the tournament").click()
    expect(office.get_by_role("heading", level=1)).to_contain_text("Riverside Championship")
    tournament = Tournament.objects.get()
    # At the door: the entrants check in and pay their $20 (the session page's check-in).
    club_services.checkins_create(
        session=tournament.session, actor=director, players=players, paid=True
    )

    # Qualifying: seven rounds, each drawn on the tournament's page; the first and the last
    # played on the tables' phones, the rounds between through the services the phones post to.
    tables: dict[int, object] = {}
    for number in range(1, ROUNDS + 1):
        office.goto(f"{base}/tournaments/{tournament.pk}/")
        office.get_by_role("button", name=f"Draw qualifying round {number}").click()
        expect(office.get_by_role("status")).to_contain_text(f"round {number}")
        if number == 1:  # the cards, printed once for the day
            office.goto(f"{base}/games/table-cards/")
            office.get_by_role("button", name="Make the cards").click()
            for table in range(1, PHONES + 1):
                tables[table] = phone(browser)
                tables[table].goto(base + card_path(office, table))
            screenshot(tables[1], "tournament-qualifying-table-phone")
        played = 0
        if number in ON_THE_PHONES:
            played = sum(play_at(page, strength) for page in tables.values())
            assert played == PHONES
        played += play_through_the_services(tournament, number, strength)
        assert played == ENTRANTS // 2  # 18 tables; one entrant has the bye

    office.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    expect(office.get_by_text("across the cut line")).to_be_visible()
    screenshot(office, "tournament-standings-before-the-cut-desktop")
    standings = qualifying_standings(tournament)
    tenth, eleventh = standings[9], standings[10]
    assert (tenth.game_points, tenth.won, tenth.spread) == (
        eleventh.game_points,
        eleventh.won,
        eleventh.spread,
    ), "a tie across the cut line"

    office.goto(f"{base}/tournaments/{tournament.pk}/")
    office.get_by_role("button", name="Close qualifying").click()
    tournament.refresh_from_db()
    assert tournament.stage == Stage.PLAYOFFS and len(tournament.seeds) == 10
    assert any("across the cut line" in step for step in tournament.cut_steps)
    office.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    expect(office.locator("body")).to_contain_text("a cut of the cards")
    office.goto(f"{base}/tournaments/{tournament.pk}/bracket/")
    byes = Match.objects.filter(tournament=tournament, round_number=1, is_bye=True)
    assert sorted(m.top_seed or m.bottom_seed for m in byes) == [1, 2, 3, 4, 5, 6]
    screenshot(office, "tournament-bracket-start-desktop")

    # The playoffs: the first round's lowest seed does not appear and forfeits game by game.
    absent_match = Match.objects.filter(tournament=tournament, round_number=1, is_bye=False)
    absent_match = absent_match.order_by("-bottom_seed").first()
    absent = Player.objects.get(pk=absent_match.bottom_id)
    for _ in range(2):
        office.goto(f"{base}/tournaments/{tournament.pk}/")
        line = office.get_by_test_id("matches").locator(".match-line", has_text=absent.display_name)
        choice = line.get_by_label("Who has not appeared")
        choice.select_option(value=str(absent.pk))
        line.get_by_role("button", name="Forfeit a game").click()
        expect(office.get_by_role("status")).to_be_visible()
    absent_match.refresh_from_db()
    assert absent_match.winner_id == absent_match.top_id

    def waiting():
        """The playoff games drawn and not yet confirmed, each at its table."""
        return Game.objects.filter(
            session=tournament.session, status=GameStatus.PLAYED, match_game__isnull=False
        ).exclude(results__state=ResultState.CONFIRMED)

    rounds = 0
    while tournament.stage != Stage.FINISHED and rounds < 20:
        # The phones of the tables with a game: the others have nothing to enter.
        busy = sorted({game.table for game in waiting()})
        played = sum(play_at(tables[table], strength) for table in busy)
        tournament.refresh_from_db()
        assert played or tournament.stage == Stage.FINISHED, [
            (game.table, game.round.number, tables[game.table].url) for game in waiting()
        ]
        rounds += 1
    assert tournament.champion_id == players[0].pk
    office.goto(f"{base}/tournaments/{tournament.pk}/bracket/")
    expect(office.locator("body")).to_contain_text(players[0].display_name)
    screenshot(office, "tournament-bracket-champion-desktop")
    mobile_bracket = phone(browser)
    mobile_bracket.goto(f"{base}/tournaments/{tournament.pk}/bracket/")
    screenshot(mobile_bracket, "tournament-bracket-champion-phone")

    # The prize fund: $740 in fees, the club keeps 10%, $666 to the ten qualifiers.
    office.goto(base + reverse("money:settle_preview", args=[tournament.session.pk]))
    screenshot(office, "tournament-prize-sheet-desktop")
    office.get_by_role("button", name="Settle and lock").click()
    settlement = Settlement.objects.get(session=tournament.session)
    paid = list(Payout.objects.filter(settlement=settlement, amount_cents__gt=0))
    assert sum(p.amount_cents for p in paid) == 66_600
    assert {p.player_id for p in paid} == set(tournament.seeds)
    assert max(paid, key=lambda p: p.amount_cents).player_id == players[0].pk
    main = LedgerEntry.objects.filter(session=tournament.session, pot=Pot.MAIN)
    assert sum(main.values_list("amount_cents", flat=True)) == 0
    assert main.filter(kind="club_share").get().amount_cents == -7_400
