"""Every way a result is confirmed or corrected replays the ratings inside its own service's
transaction (games.hooks.results_changed, registered by standings in its AppConfig): a round's
signed scorecards, a round's drafts confirmed at once, a draft accepted at the table, and (in
tests/standings/test_ratings.py) result_confirm and result_correct. A failed replay leaves the
result unconfirmed."""

import pytest
from django.db import transaction

from games import hooks
from games import services as game_services
from games.models import Result, ResultSource, ResultState
from standings.models import GameRating
from tests.builders import LinkTable
from tests.games.test_round_results import card, drawn_round, organiser_user
from tests.standings.test_ratings import independent_replay, stored_replay

pytestmark = pytest.mark.django_db


def rated(club) -> int:
    return GameRating.objects.filter(club=club).values("game_id").distinct().count()


def test_standings_listens_for_changed_results():
    """games.hooks.results_changed reaches standings: the session's ratings are replayed."""
    table = LinkTable()
    table.accept(table.enter(table.players[0], scores=(121, 98)), table.players[1])
    GameRating.objects.filter(club=table.club).delete()
    hooks.results_changed(table.session)
    assert rated(table.club) == 1


def test_signed_scorecards_are_rated_at_once():
    round_ = drawn_round()
    club = round_.session.club
    game_services.round_results_enter(
        round_=round_,
        actor=organiser_user(),
        scores=card(round_),
        source=ResultSource.SCORECARD,
        signed=True,
    )
    assert rated(club) == round_.games.count() == 4
    assert stored_replay(club) == independent_replay(club)


def test_a_rounds_drafts_are_rated_when_the_round_is_confirmed():
    round_ = drawn_round()
    club = round_.session.club
    game_services.round_results_enter(round_=round_, actor=organiser_user(), scores=card(round_))
    assert rated(club) == 0

    game_services.round_results_confirm(round_=round_, actor=organiser_user())
    assert rated(club) == 4
    assert stored_replay(club) == independent_replay(club)


def test_a_draft_accepted_at_the_table_is_rated():
    table = LinkTable()
    draft = table.enter(table.players[0], scores=(121, 98))
    assert rated(table.club) == 0

    table.accept(draft, table.players[1])
    assert rated(table.club) == 1
    assert stored_replay(table.club) == independent_replay(table.club)


def test_a_replay_that_fails_confirms_nothing(monkeypatch):
    """The replay runs in the confirming service's transaction: when it breaks, the result
    stays a draft (and the totals as they were)."""
    table = LinkTable()
    draft = table.enter(table.players[0], scores=(121, 98))

    def broken(session):
        raise RuntimeError("the replay broke")

    monkeypatch.setitem(hooks._RESULTS_CHANGED, "ratings", broken)
    with pytest.raises(RuntimeError), transaction.atomic():
        table.accept(draft, table.players[1])
    assert Result.objects.get(pk=draft.pk).state == ResultState.DRAFT
    assert rated(table.club) == 0
