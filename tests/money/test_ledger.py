"""The ledger page: a page at a time, newest first, filtered by session, kind, player and pot (the
current club's only), each pot's balance on top and each row's pot balance, and the filtered rows
as CSV. One page of everything would be 1 MB and a second to render at three years of history."""

import csv
import datetime as dt
import io
import itertools
from collections import defaultdict

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.templatetags.pegboard import cents
from money.ledger_selectors import ledger_balances, pot_balances_and_rows
from money.models import LedgerEntry, LedgerKind, Pot
from money.selectors import pot_balances
from money.services import session_settle
from tests.builders import run_session
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/club/ledger/"


@pytest.fixture
def ledger(club, member):
    """Two settled sessions of five players (fees in, payouts out) of the club."""
    organiser = member("organiser")
    confirmer = UserFactory(role="organisers", club=club)
    sessions = []
    for week in range(2):
        session = run_session(
            club,
            organiser,
            confirmer,
            players=5,
            rounds=1,
            date=dt.date(2026, 3, 5) + dt.timedelta(days=7 * week),
            seed=week,
        )
        session_settle(session=session, actor=organiser)
        sessions.append(session)
    return organiser, sessions


def add_rows(club, count, *, pot=Pot.SKUNK_BANK, player=None):
    """`count` more ledger rows of the club's last settlement, one second apart, a ledger's size
    without playing that many mornings (the page only reads these rows)."""
    last = LedgerEntry.objects.filter(club=club).order_by("-created_at", "-pk").first()
    start = last.created_at if last else timezone.now()
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            club=club,
            pot=pot,
            kind=LedgerKind.SKUNK_COIN,
            amount_cents=25,
            session=last.session,
            settlement=last.settlement,
            player=player,
            created_at=start + dt.timedelta(seconds=n + 1),
        )
        for n in range(count)
    )


def shown(response) -> list[LedgerEntry]:
    return [row.record for row in response.context["table"].page.object_list]


def running_balances(club) -> dict[int, int]:
    """id -> pot balance after the row, counted naively in Python over the whole club."""
    totals, found = defaultdict(int), {}
    for row in LedgerEntry.objects.filter(club=club).order_by("created_at", "pk"):
        totals[row.pot] += row.amount_cents
        found[row.pk] = totals[row.pot]
    return found


def test_a_page_at_a_time_newest_first(ledger, club, client):
    organiser, _ = ledger
    add_rows(club, 90)
    client.force_login(organiser)
    everything = list(LedgerEntry.objects.filter(club=club).order_by("-created_at", "-pk"))
    assert len(everything) > 100
    first = client.get(URL)
    assert first.status_code == 200
    assert shown(first) == everything[:50]
    second = client.get(URL, {"page": 2})
    assert shown(second) == everything[50:100]
    assert shown(client.get(URL, {"page": 99})) == everything[100:]  # the last page
    assert shown(client.get(URL, {"page": "x"})) == everything[:50]
    assert len(shown(client.get(URL, {"per_page": -1}))) == 1  # clamped, not a 500
    assert len(shown(client.get(URL, {"per_page": 0}))) == 50  # the default
    html = first.content.decode()
    assert 'data-testid="ledger"' in html and "Skunk coin" in html


def test_each_pot_balance_on_top_and_each_rows_pot_balance(ledger, club, client):
    organiser, _ = ledger
    add_rows(club, 3)
    client.force_login(organiser)
    page = client.get(URL)
    balances = pot_balances(club)
    assert {b["pot"]: b["balance"] for b in page.context["balances"]} == balances
    assert balances[Pot.MAIN] == 0  # the fees were all paid out
    assert 'data-testid="balance-skunk_bank">75¢<' in page.content.decode()
    expected = running_balances(club)
    assert ledger_balances(club) == expected
    assert ledger_balances(club, [row.pk for row in shown(page)]) == {
        row.pk: expected[row.pk] for row in shown(page)
    }


def test_filter_by_session(ledger, club, client):
    organiser, sessions = ledger
    client.force_login(organiser)
    page = client.get(URL, {"session": sessions[0].pk})
    assert page.status_code == 200
    rows = shown(page)
    assert rows and {row.session_id for row in rows} == {sessions[0].pk}
    assert f"{sessions[0].date:%-d}\u00a0{sessions[0].date:%b %Y}" in page.content.decode()
    assert len(rows) == LedgerEntry.objects.filter(session=sessions[0]).count()


@pytest.mark.parametrize("kind", [LedgerKind.FEE, LedgerKind.PAYOUT])
def test_filter_by_kind(ledger, club, client, kind):
    organiser, _ = ledger
    client.force_login(organiser)
    rows = shown(client.get(URL, {"kind": kind}))
    assert rows and {row.kind for row in rows} == {kind}
    assert len(rows) == LedgerEntry.objects.filter(club=club, kind=kind).count()


def test_filter_by_player_and_pot_with_the_pots_real_balance(ledger, club, client):
    organiser, sessions = ledger
    winner = sessions[0].settlements.get().payouts.order_by("place").first().player
    add_rows(club, 2, player=winner)
    client.force_login(organiser)
    page = client.get(URL, {"player": winner.pk})
    rows = shown(page)
    assert rows and {row.player_id for row in rows} == {winner.pk}
    assert len(rows) == LedgerEntry.objects.filter(player=winner).count()
    assert page.context["filtered_total"] == sum(row.amount_cents for row in rows)
    assert 'data-testid="filtered-total"' in page.content.decode()
    # The balance on a filtered row is still its pot's balance over the whole club.
    expected = running_balances(club)
    table = page.context["table"]
    for row in rows:
        assert table.render_balance(row) == cents(expected[row.pk])
    pot_rows = shown(client.get(URL, {"pot": Pot.SKUNK_BANK, "player": winner.pk}))
    assert len(pot_rows) == 2 and {row.pot for row in pot_rows} == {Pot.SKUNK_BANK}


def test_the_choices_are_the_current_clubs_only(ledger, club, other_club, client):
    organiser, _ = ledger
    theirs = run_session(
        other_club,
        *(UserFactory(role="organisers", club=other_club) for _ in range(2)),
        players=4,
        rounds=1,
    )
    their_player = PlayerFactory(club=other_club, display_name="Other Club Olga")
    client.force_login(organiser)
    page = client.get(URL)
    form = page.context["filter"].form
    assert set(form.fields["session"].queryset) == set(club.sessions.all())
    assert set(form.fields["player"].queryset) == set(club.players.all())
    assert "Other Club Olga" not in page.content.decode()
    for query in ({"session": theirs.pk}, {"player": their_player.pk}):
        refused = client.get(URL, query)
        assert refused.status_code == 400
        assert "Select a valid choice" in refused.content.decode()
        assert shown(refused) == []


@pytest.mark.parametrize(
    "query",
    [
        {"session": "abc"},
        {"session": str(10**25)},
        {"player": "-1"},
        {"kind": "bribe"},
        {"pot": "<script>"},
        {"session": "abc", "_export": "csv"},
    ],
)
def test_a_bad_filter_is_a_form_error_never_a_500(ledger, client, query):
    organiser, _ = ledger
    client.force_login(organiser)
    response = client.get(URL, query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "Select a valid choice" in response.content.decode()


def test_the_csv_has_every_filtered_row_with_its_pot_balance(ledger, club, client):
    organiser, sessions = ledger
    add_rows(club, 70)
    client.force_login(organiser)
    download = client.get(URL, {"pot": Pot.SKUNK_BANK, "_export": "csv", "page": 2})
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert download["Content-Disposition"] == 'attachment; filename="ledger.csv"'
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert rows[0] == ["Session", "What", "Pot", "Amount", "Balance", "Player"]
    entries = list(
        LedgerEntry.objects.filter(club=club, pot=Pot.SKUNK_BANK).order_by("-created_at", "-pk")
    )
    assert len(rows) - 1 == len(entries) == 70  # every row, not a page
    balances = running_balances(club)
    for line, entry in zip(rows[1:], entries, strict=True):
        assert line == [
            entry.session.date.isoformat(),
            "Skunk coin",
            "Skunk bank",
            "0.25",
            f"{balances[entry.pk] / 100:.2f}",
            "",
        ]
    fees = client.get(URL, {"kind": LedgerKind.FEE, "session": sessions[1].pk, "_export": "csv"})
    fee_rows = list(csv.reader(io.StringIO(fees.content.decode())))[1:]
    assert len(fee_rows) == 5
    assert {row[3] for row in fee_rows} == {"0.25"} and {row[1] for row in fee_rows} == {
        "Entry fee"
    }


def test_the_query_count_does_not_grow_with_the_ledger(ledger, club, client):
    organiser, _ = ledger
    client.force_login(organiser)
    queries = []
    for size in (120, 600):
        add_rows(club, size)
        for query in ({}, {"kind": LedgerKind.SKUNK_COIN, "page": 2}, {"_export": "csv"}):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(URL, query).status_code == 200
            queries.append(len(captured))
    assert LedgerEntry.objects.filter(club=club).count() > 700
    assert queries[:3] == queries[3:]
    assert max(queries) <= 15, queries


def test_players_and_judges_do_not_read_the_ledger(client_for):
    for role, status in itertools.product(("player", "judge"), [403]):
        assert client_for(role).get(URL).status_code == status


@pytest.mark.django_db(transaction=True)
def test_the_pots_are_summed_again_only_once_a_row_is_added(ledger, club, client):
    """Outside a transaction the page keeps the pots' balances for the rows it counted: the
    next page does not sum the club's history again, a row added (by any path) is summed, and
    what a transaction saw of its own rows before rolling back is never kept."""
    organiser, _ = ledger
    client.force_login(organiser)

    def balances_and_sums() -> tuple[dict, int]:
        with CaptureQueriesContext(connection) as captured:
            page = client.get(URL)
        sums = [q for q in captured if "SUM(" in q["sql"] and "GROUP BY" in q["sql"]]
        return {b["pot"]: b["balance"] for b in page.context["balances"]}, len(sums)

    first, summed = balances_and_sums()
    assert first == pot_balances(club) and summed == 1
    assert balances_and_sums() == (first, 0)
    add_rows(club, 3)
    after, summed = balances_and_sums()
    assert after == pot_balances(club) and summed == 1
    assert after[Pot.SKUNK_BANK] == first[Pot.SKUNK_BANK] + 75
    with pytest.raises(RuntimeError), transaction.atomic():
        add_rows(club, 2)
        assert pot_balances_and_rows(club) == (pot_balances(club), len(running_balances(club)))
        raise RuntimeError("rolled back")
    assert balances_and_sums() == (after, 0)
    # The same number of rows again (on SQLite, with the ids the rolled back ones had).
    add_rows(club, 2, pot=Pot.JACKPOT_29)
    final, summed = balances_and_sums()
    assert final == pot_balances(club) and summed == 1
    assert final[Pot.SKUNK_BANK] == after[Pot.SKUNK_BANK]
