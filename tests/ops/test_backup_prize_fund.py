"""A settled tournament in a backup (ops/backup_money.py): its club's share row imports with
the settlement it belongs to, and an edit of it, or of what the tournament keeps, is refused,
naming the row, with nothing imported.

Terms as in tests/ops/test_backup_checks.py: the *document* is the export of a club (here one
small tournament, settled with a 25% club's share: 8 entrants at $20, 2 qualifiers, the final),
an *edit* changes one thing in a copy of it, written signed with this site's key.
"""

from __future__ import annotations

import copy
import json

import pytest

from club.models import Club
from money.models import LedgerEntry, LedgerKind
from money.services import session_settle
from tests.factories import ClubFactory, UserFactory
from tests.ops.backup_support import cli, empty_the_database, export_text, refused, rows, write
from tests.tournaments.test_tournament_services import (
    enter,
    make_tournament,
    open_playoff_games,
    play,
    play_qualifying,
    stronger,
)
from tournaments import services

pytestmark = pytest.mark.django_db

SLUG = "prize-club"


@pytest.fixture
def document() -> dict:
    """The export of a club whose tournament is settled, then the database emptied."""
    club = ClubFactory(name="Prize Club", slug=SLUG)
    organiser = UserFactory(role="organisers", club=club)
    confirmer = UserFactory(role="organisers", club=club)
    tournament = make_tournament(
        club, organiser, qualifying_games=1, match_lengths=[3], club_share_percent=25
    )
    enter(tournament, organiser, 8)
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=1)
    while games := open_playoff_games(tournament):
        for game in games:
            play(game, organiser, confirmer, stronger(game))
    session_settle(session=tournament.session, actor=organiser, seed=2)
    assert LedgerEntry.objects.get(kind=LedgerKind.CLUB_SHARE).amount_cents == -4_000
    exported = json.loads(export_text(SLUG))
    empty_the_database()
    return exported


def club_share_row(document: dict) -> dict:
    (row,) = [r for r in rows(document, "money.ledgerentry") if r["fields"]["kind"] == "club_share"]
    return row


def test_a_settled_tournament_with_its_clubs_share_restores(
    monkeypatch, capsys, tmp_path, document
):
    code, out, err = cli(monkeypatch, capsys, "import_club", str(write(document, tmp_path / "x")))
    assert (code, err) == (0, "")
    assert Club.objects.get().slug == SLUG
    assert LedgerEntry.objects.get(kind=LedgerKind.CLUB_SHARE).amount_cents == -4_000


def share_and_a_payout_moved(document: dict) -> str:
    """$1 more kept and $1 less paid, every sum still right: only the tournament's percent
    says the share is wrong."""
    share = club_share_row(document)
    share["fields"]["amount_cents"] -= 100
    payout = next(r for r in rows(document, "money.payout") if r["fields"]["amount_cents"])
    payout["fields"]["amount_cents"] -= 100
    paid = next(
        r
        for r in rows(document, "money.ledgerentry")
        if r["fields"]["kind"] == "payout" and r["fields"]["player"] == payout["fields"]["player"]
    )
    paid["fields"]["amount_cents"] += 100
    settlement = share["fields"]["settlement"]
    return (
        f"money.ledgerentry #{share['pk']}: the club's share of money.settlement #{settlement} "
        "is 4,100¢, but its tournament keeps 25% of 16,000¢, rounded down: 4,000¢."
    )


def share_given_to_a_player(document: dict) -> str:
    share = club_share_row(document)
    share["fields"]["player"] = rows(document, "club.player")[0]["pk"]
    return (
        f"money.ledgerentry #{share['pk']}: a club's share is money out of the session pot, "
        "below 0¢, with no player."
    )


def share_removed(document: dict) -> str:
    share = club_share_row(document)
    document["objects"].remove(share)
    document["counts"]["money.ledgerentry"] -= 1
    return f"money.settlement #{share['fields']['settlement']}: its payouts sum to 12,000¢"


def tournament_keeps_less(document: dict) -> str:
    (tournament,) = rows(document, "tournaments.tournament")
    tournament["fields"]["club_share_percent"] = 20
    share = club_share_row(document)
    return (
        f"money.ledgerentry #{share['pk']}: the club's share of money.settlement "
        f"#{share['fields']['settlement']} is 4,000¢, but its tournament keeps 20% of 16,000¢, "
        "rounded down: 3,200¢."
    )


@pytest.mark.parametrize(
    "edit",
    [share_and_a_payout_moved, share_given_to_a_player, share_removed, tournament_keeps_less],
)
def test_an_edited_clubs_share_is_refused_naming_the_row(
    monkeypatch, capsys, tmp_path, document, edit
):
    edited = copy.deepcopy(document)
    message = edit(edited)
    err = refused(monkeypatch, capsys, write(edited, tmp_path / "edited.json"))
    assert message in err
