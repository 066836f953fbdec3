"""Table cards (games.services.table_cards; docs/club/table-links.md "Table cards"): a club's
printed card per table number, made and made new by an organiser with audit entries, and where a
card, or an old game link whose round is over, leads now.

Terms: `first_of_two` (tests/games/conftest.py) is round 1's table 1 of a session opened, checked
in and drawn through the services (four players, two tables); `sit_out_two` makes round 2 a
single table by sitting out two players, so table 2 has no game in round 2. Rule texts cited:
docs/spec.md "A Thursday, step by step", step 4 ("The link works only while its round is open
... and only for its own game").
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from club import services as club_services
from club.models import Club
from core.models import AuditEntry
from core.submissions import AlreadySaved, new_token
from games import services
from games.audit import GameVerb
from games.models import Game, Round, TableCard
from money.services import session_settle
from tests.builders import LinkTable
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def draw(table: LinkTable) -> Round:
    return services.round_draw(session=table.session, actor=table.organiser)


def sit_out_two(table: LinkTable) -> None:
    """Two of the four players sit out round 2: it has one table."""
    for checkin in table.session.checkins.order_by("pk")[:2]:
        club_services.checkin_sits_out(checkin=checkin, actor=table.organiser, round_number=2)


def card(table: LinkTable, number: int) -> TableCard:
    return services.current_cards(table.club).get(number=number)


# --- Making cards ---------------------------------------------------------------------------------


def test_cards_are_made_for_each_table_number_with_an_audit_entry(first_of_two):
    made = services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=3)
    assert [card.number for card in made] == [1, 2, 3]
    assert all(card.made_by == first_of_two.organiser for card in made)
    tokens = {card.token for card in made}
    assert len(tokens) == 3
    assert all(services.table.TOKEN_PATTERN.fullmatch(token) for token in tokens)
    entries = AuditEntry.objects.filter(action=GameVerb.TABLE_CARD_MADE).order_by("pk")
    assert [entry.data["number"] for entry in entries] == [1, 2, 3]
    assert {entry.actor for entry in entries} == {first_of_two.organiser}
    assert {entry.club_id for entry in entries} == {first_of_two.club.pk}


def test_making_cards_again_keeps_the_printed_ones_and_adds_the_missing(first_of_two):
    club, organiser = first_of_two.club, first_of_two.organiser
    first = services.table_cards_make(club=club, actor=organiser, up_to=2)
    assert services.table_cards_make(club=club, actor=organiser, up_to=2) == []  # safe twice
    more = services.table_cards_make(club=club, actor=organiser, up_to=4)
    assert [card.number for card in more] == [3, 4]
    assert [c.token for c in services.current_cards(club)][:2] == [c.token for c in first]
    assert AuditEntry.objects.filter(action=GameVerb.TABLE_CARD_MADE).count() == 4


@pytest.mark.parametrize("up_to", [0, -1, services.MOST_CARDS + 1])
def test_a_number_of_tables_out_of_range_is_refused(first_of_two, up_to):
    with pytest.raises(ValidationError) as error:
        services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=up_to)
    assert "Give the number of tables, from 1 to 200." in " ".join(error.value.messages)
    assert not TableCard.objects.exists()


def test_the_most_tables_of_a_club_is_its_highest_table_number(first_of_two):
    assert services.most_tables(first_of_two.club) == 2
    assert services.most_tables(LinkTable().club) == 1


def test_a_cards_token_is_never_a_games_nor_another_cards(first_of_two, monkeypatch):
    """The first two tokens drawn are taken (a game's, then a card's): the third is used."""
    club, organiser = first_of_two.club, first_of_two.organiser
    services.table_cards_make(club=club, actor=organiser, up_to=1)
    tokens = iter([first_of_two.game.table_token, card(first_of_two, 1).token, "q" * 12])
    monkeypatch.setattr("games.services.table_cards.new_table_token", lambda: next(tokens))
    made = services.table_cards_make(club=club, actor=organiser, up_to=2)
    assert made[0].token == "q" * 12


def test_a_draw_never_gives_a_game_a_cards_token(first_of_two, monkeypatch):
    services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=1)
    taken = card(first_of_two, 1).token
    fresh = iter([taken, taken, "r" * 12, "s" * 12])
    monkeypatch.setattr("games.services.draws.new_table_token", lambda: next(fresh))
    round_2 = draw(first_of_two)
    assert sorted(round_2.games.values_list("table_token", flat=True)) == ["r" * 12, "s" * 12]


# --- New cards ------------------------------------------------------------------------------------


def test_new_cards_retire_the_old_ones_and_audit_each(first_of_two):
    club, organiser = first_of_two.club, first_of_two.organiser
    old = services.table_cards_make(club=club, actor=organiser, up_to=2)
    new = services.table_cards_renew(club=club, actor=organiser, token=new_token())
    assert [card.number for card in new] == [1, 2]
    assert {card.token for card in new}.isdisjoint({card.token for card in old})
    for previous in old:
        previous.refresh_from_db()
        assert previous.retired_at is not None
    assert list(services.current_cards(club)) == new
    entries = AuditEntry.objects.filter(action=GameVerb.TABLE_CARD_RENEWED).order_by("pk")
    assert [(e.data["number"], e.data["replaces"]) for e in entries] == [
        (1, old[0].pk),
        (2, old[1].pk),
    ]
    assert all(previous.token not in str(entry.data) for entry in entries for previous in old)


def test_new_cards_posted_twice_are_made_once(first_of_two):
    club, organiser = first_of_two.club, first_of_two.organiser
    services.table_cards_make(club=club, actor=organiser, up_to=2)
    token = new_token()
    new = services.table_cards_renew(club=club, actor=organiser, token=token)
    with pytest.raises(AlreadySaved):
        services.table_cards_renew(club=club, actor=organiser, token=token)
    assert list(services.current_cards(club)) == new  # the cards just printed still work
    assert TableCard.objects.count() == 4


def test_new_cards_without_cards_are_refused(first_of_two):
    with pytest.raises(ValidationError) as error:
        services.table_cards_renew(club=first_of_two.club, actor=first_of_two.organiser)
    assert "no table cards yet: make them first" in " ".join(error.value.messages)
    assert not AuditEntry.objects.filter(action=GameVerb.TABLE_CARD_RENEWED).exists()


# --- Where a card leads ---------------------------------------------------------------------------


@pytest.fixture
def cards(first_of_two):
    services.table_cards_make(club=first_of_two.club, actor=first_of_two.organiser, up_to=3)
    return first_of_two


def test_a_card_opens_its_tables_game_in_the_current_round(cards):
    now = services.card_now(card(cards, 1))
    assert (now.game, now.refusal) == (cards.game, "")
    assert services.card_now(card(cards, 2)).game == cards.other
    round_2 = draw(cards)
    assert services.card_now(card(cards, 1)).game == round_2.games.get(table=1)
    assert services.card_now(card(cards, 2)).game == round_2.games.get(table=2)


def test_a_card_of_a_table_with_no_game_this_round_says_so(cards):
    now = services.card_now(card(cards, 3))
    assert now.game is None and not now.refusal
    assert now.round == cards.game.round
    assert now.sentence.startswith("Table 3 has no game in round 1.")


def test_a_card_before_the_first_round_says_no_round_is_drawn(db):
    fresh = LinkTable()
    services.table_cards_make(club=fresh.club, actor=fresh.organiser, up_to=1)
    later = club_services.session_open(
        club=fresh.club, actor=fresh.organiser, date=fresh.session.date + dt.timedelta(days=7)
    )
    now = services.card_now(services.current_cards(fresh.club).get())
    assert now.session == later and now.game is None and not now.refusal
    assert now.sentence.startswith("No round is drawn yet on")


def test_a_card_without_an_open_session_says_so(cards):
    for checkin in cards.session.checkins.all():
        club_services.fee_mark_paid(checkin=checkin, actor=cards.organiser)
    for game in (cards.game, cards.other):
        draft = services.result_enter(game=game, actor=cards.organiser, scores=[121, 90])
        services.result_confirm(result=draft, actor=UserFactory(role="organisers", club=cards.club))
    session_settle(session=cards.session, actor=cards.organiser, seed=1)
    now = services.card_now(card(cards, 1))
    assert now.game is None and now.session is None and not now.refusal
    assert now.sentence.startswith("No session is open today.")


def test_an_old_card_and_links_off_are_refused_with_the_reason(cards):
    old = card(cards, 1)
    services.table_cards_renew(club=cards.club, actor=cards.organiser)
    old.refresh_from_db()
    refused = services.card_now(old)
    assert refused.game is None
    assert refused.refusal.startswith("This card was replaced by new cards on")
    Club.objects.filter(pk=cards.club.pk).update(table_links=False)
    off = services.card_now(card(cards, 1))
    assert off.game is None and "does not use table links" in off.refusal


def test_two_open_sessions_the_card_opens_todays(cards):
    """A session left open from an earlier morning is passed over once today's is open; one
    opened ahead for a later date waits for its day."""
    today = timezone.localdate()
    ahead = club_services.session_open(
        club=cards.club, actor=cards.organiser, date=today + dt.timedelta(days=7)
    )
    assert ahead.is_open
    assert services.card_now(card(cards, 1)).game == cards.game  # the earlier one, still open
    todays = club_services.session_open(club=cards.club, actor=cards.organiser, date=today)
    now = services.card_now(card(cards, 1))
    assert (now.session, now.game) == (todays, None)
    assert now.sentence.startswith("No round is drawn yet")


def test_a_card_never_opens_another_clubs_game(cards):
    other = LinkTable(players=4, table_mode="singles")
    services.table_cards_make(club=other.club, actor=other.organiser, up_to=1)
    theirs = services.current_cards(other.club).get()
    assert services.card_now(theirs).game == other.game
    assert services.card_now(card(cards, 1)).game == cards.game
    assert services.table_card(theirs.token) == theirs
    assert services.table_card(theirs.token.upper()) == theirs  # a phone's capitals
    assert services.table_card("not-a-token") is None


# --- Old game links -------------------------------------------------------------------------------


def test_an_old_game_link_forwards_to_the_same_tables_current_game(first_of_two):
    assert services.table_forward(first_of_two.game) is None  # its round is the newest
    round_2 = draw(first_of_two)
    assert services.table_forward(first_of_two.game).game == round_2.games.get(table=1)
    assert services.table_forward(first_of_two.other).game == round_2.games.get(table=2)
    # The link's posts stay refused: a result is not entered at a past round's game.
    assert "Round 1 is over (round 2 is drawn)" in services.table_refusal(first_of_two.game)


def test_an_old_game_link_of_a_table_with_no_game_now_says_so(first_of_two):
    sit_out_two(first_of_two)
    round_2 = draw(first_of_two)
    assert round_2.games.count() == 1
    now = services.table_forward(first_of_two.other)
    assert (now.game, now.round) == (None, round_2)
    assert now.sentence.startswith("Table 2 has no game in round 2.")


def test_an_old_link_is_not_forwarded_when_links_are_off_or_the_game_unfinished(first_of_two):
    services.game_not_played(
        game=first_of_two.other, actor=first_of_two.organiser, reason="Taken ill."
    )
    draw(first_of_two)
    assert services.table_forward(Game.objects.get(pk=first_of_two.other.pk)) is None
    assert services.table_forward(first_of_two.game) is not None
    Club.objects.filter(pk=first_of_two.club.pk).update(table_links=False)
    first_of_two.game.session.club.refresh_from_db()
    assert services.table_forward(Game.objects.get(pk=first_of_two.game.pk)) is None
