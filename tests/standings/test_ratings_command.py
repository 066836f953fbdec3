"""`manage.py ratings [--club SLUG] [--json] [--rebuild]`, and the check that the ratings are right:
they match a recomputation from the club's backup file (`manage.py export_club`) with the same
library, to 1e-9.

Terms: the *mixed club* has singles sessions with an odd number of players (2-player tables and
a cut-throat one), a partners session, a corrected result (its first version superseded), a
draft nobody confirmed, and a session dated before the others but played last. The
*recomputation* reads only the export's JSON and calls openskill directly.
"""

import datetime as dt
import io
import json
from collections import defaultdict

import pytest
from django.core.management import call_command
from django.db import connection, connections, transaction
from openskill.models import PlackettLuce

from club import services as club_services
from club.models import Club
from core.models import AuditEntry
from games import services as game_services
from games.models import Game
from standings.audit import StandingsVerb
from standings.management.commands.ratings import Command
from standings.models import GameRating
from standings.rating_selectors import current_ratings
from tests.builders import run_session
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

THURSDAY = dt.date(2026, 3, 5)
SLUG = "mixed"


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The mixed club, built once for the module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        build_mixed()
        connection.check_constraints()  # now, not again at every test's teardown
        yield
        transaction.set_rollback(True)


@pytest.fixture
def mixed(built):
    return Club.objects.get(slug=SLUG)


def build_mixed() -> None:
    organiser, confirmer = UserFactory(role="organisers"), UserFactory(role="organisers")
    club = ClubFactory(slug=SLUG, name="Mixed Club")
    week = dt.timedelta(7)
    run_session(club, organiser, confirmer, players=7, rounds=3, date=THURSDAY + week)
    club_services.club_update_rules(club=club, actor=organiser, table_mode="partners")
    run_session(club, organiser, confirmer, players=8, rounds=2, date=THURSDAY + 2 * week, seed=2)
    club_services.club_update_rules(club=club, actor=organiser, table_mode="singles")
    late = run_session(
        club, organiser, confirmer, players=9, rounds=3, date=THURSDAY + 3 * week, seed=3
    )
    game = Game.objects.filter(session=late, kind="two").order_by("round__number", "table")[0]
    scores = game.results.get(state="confirmed").scores
    game_services.result_correct(
        game=game,
        actor=organiser,
        scores=[121 if score != 121 else 99 for score in scores],
        reason="The pegs were read the wrong way round",
    )
    draft_session = run_session(
        club, organiser, confirmer, players=5, rounds=1, date=THURSDAY + 4 * week, seed=4
    )
    round_ = game_services.round_draw(session=draft_session, actor=organiser, seed=9)
    game_services.result_enter(game=round_.games.first(), actor=organiser, scores=[121, 80])
    run_session(club, organiser, confirmer, players=6, rounds=2, date=THURSDAY, seed=5)


def recompute(document: dict) -> tuple[dict, dict]:
    """From the backup's rows alone: ({(game, player): (mu_before, sigma_before, mu_after,
    sigma_after, win_chance)}, {player: (mu, sigma, games)}), replaying the confirmed results
    by session date, session, round, table, game; a side's players by id; the winner ranks 1
    and the losers by score, equal scores tied."""
    rows = defaultdict(dict)
    for row in document["objects"]:
        rows[row["model"]][row["pk"]] = row["fields"]
    sessions, rounds, games = rows["club.session"], rows["games.round"], rows["games.game"]
    confirmed = {
        fields["game"]: pk
        for pk, fields in rows["games.result"].items()
        if fields["state"] == "confirmed"
    }
    lines = defaultdict(list)
    for fields in rows["games.resultline"].values():
        lines[fields["result"]].append(fields)

    def order(game_id):
        game = games[game_id]
        session = game["session"]
        return (sessions[session]["date"], session, rounds[game["round"]]["number"], game["table"])

    model = PlackettLuce()
    ratings: dict[int, tuple[float, float, int]] = {}
    per_game = {}
    for game_id in sorted(confirmed, key=lambda g: (*order(g), g)):
        sides = defaultdict(list)
        for line in lines[confirmed[game_id]]:
            sides[line["side"]].append(line)
        teams = [sorted(sides[side], key=lambda line: line["player"]) for side in sorted(sides)]
        losing = [team[0]["score"] for team in teams if not team[0]["won"]]
        ranks = [
            1 if team[0]["won"] else 2 + sum(score > team[0]["score"] for score in losing)
            for team in teams
        ]
        before = [
            [model.rating(*ratings.get(line["player"], (25.0, 25 / 3, 0))[:2]) for line in team]
            for team in teams
        ]
        chances = model.predict_win(before)
        after = model.rate(before, ranks=ranks)
        for i, team in enumerate(teams):
            for j, line in enumerate(team):
                old, new = before[i][j], after[i][j]
                games_played = ratings.get(line["player"], (0, 0, 0))[2] + 1
                ratings[line["player"]] = (new.mu, new.sigma, games_played)
                per_game[(game_id, line["player"])] = (
                    old.mu,
                    old.sigma,
                    new.mu,
                    new.sigma,
                    chances[i],
                )
    return per_game, ratings


def test_the_ratings_match_a_recomputation_from_the_backup_file(mixed):
    out = io.StringIO()
    call_command("export_club", SLUG, stdout=out)
    document = json.loads(out.getvalue())
    kinds = {fields["kind"] for (model, fields) in _rows(document, "games.game")}
    assert kinds == {"two", "three", "partners"}
    assert {fields["state"] for _, fields in _rows(document, "games.result")} == {
        "confirmed",
        "superseded",
        "draft",
    }

    per_game, final = recompute(document)

    stored = {
        (r.game_id, r.player_id): (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
        + (r.win_chance,)
        for r in GameRating.objects.filter(club=mixed)
    }
    assert stored.keys() == per_game.keys()
    for key, figures in per_game.items():
        assert stored[key] == pytest.approx(figures, abs=1e-9, rel=0), key
    table = current_ratings(mixed)
    assert {row.player_id for row in table} == set(final)
    for row in table:
        mu, sigma, games = final[row.player_id]
        assert (row.mu, row.sigma) == pytest.approx((mu, sigma), abs=1e-9, rel=0)
        assert row.ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9, rel=0)
        assert row.games == games and row.provisional == (games < 12)

    printed = json.loads(run("--club", SLUG, "--json")[1])["ratings"]
    assert {entry["player_id"] for entry in printed} == set(final)
    for entry in printed:
        mu, sigma, games = final[entry["player_id"]]
        assert (entry["mu"], entry["sigma"]) == pytest.approx((mu, sigma), abs=1e-9, rel=0)
        assert entry["games"] == games


def _rows(document, label):
    return [(row["model"], row["fields"]) for row in document["objects"] if row["model"] == label]


# --- The command ---------------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    """`manage.py ratings <argv>` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    command = Command(stdout=out, stderr=err)
    original = connections.close_all
    connections.close_all = lambda: None  # the test's transaction must outlive the command
    try:
        command.run_from_argv(["manage.py", "ratings", *argv])
        code = 0
    except SystemExit as stop:
        code = stop.code
    finally:
        connections.close_all = original
    return code, out.getvalue(), err.getvalue()


def test_the_table_lists_every_rated_player_best_first_and_marks_the_provisional(mixed):
    code, out, err = run("--club", SLUG)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Ratings of Mixed Club: ordinal = mu − 3·sigma")
    assert lines[1].split() == ["#", "player", "games", "mu", "sigma", "ordinal", "provisional"]
    table = current_ratings(mixed)
    assert len(lines) == 2 + len(table)
    for line, row in zip(lines[2:], table, strict=True):
        assert row.player in line
        assert line.split()[-4:-1] == [f"{row.mu:.3f}", f"{row.sigma:.3f}", f"{row.ordinal:.3f}"]
        assert line.rstrip().endswith("yes") == row.provisional
        assert f" {row.games} " in line
    ordinals = [row.ordinal for row in table]
    assert ordinals == sorted(ordinals, reverse=True)
    assert any(row.provisional for row in table)


def test_the_json_gives_the_model_and_the_unrounded_figures(mixed):
    code, out, _ = run("--club", SLUG, "--json")
    data = json.loads(out)
    assert code == 0 and data["club"] == SLUG
    assert data["model"] == {
        "library": "openskill",
        "model": "PlackettLuce",
        "mu": 25.0,
        "sigma": 25 / 3,
        "beta": 25 / 6,
        "kappa": 0.0001,
        "tau": 25 / 300,
    }
    assert data["provisional_below_games"] == 12
    assert data["ratings"] == [
        {
            "player_id": row.player_id,
            "player": row.player,
            "games": row.games,
            "mu": row.mu,
            "sigma": row.sigma,
            "ordinal": row.ordinal,
            "provisional": row.provisional,
        }
        for row in current_ratings(mixed)
    ]


def test_rebuild_recomputes_the_same_figures_and_writes_the_audit_log(mixed):
    kept = sorted(
        GameRating.objects.filter(club=mixed).values_list("game_id", "player_id", "mu_after")
    )
    GameRating.objects.filter(club=mixed).update(mu_after=0)  # spoiled behind the services' back

    code, out, err = run("--club", SLUG, "--rebuild", "--json")
    assert code == 0 and json.loads(out)["club"] == SLUG
    assert "Rebuilt the ratings of Mixed Club from" in err
    assert (
        sorted(
            GameRating.objects.filter(club=mixed).values_list("game_id", "player_id", "mu_after")
        )
        == kept
    )
    entry = AuditEntry.objects.get(action=StandingsVerb.RATINGS_REBUILT)
    rated = GameRating.objects.filter(club=mixed)
    assert entry.club == mixed and entry.actor is None
    assert entry.data == {"games": rated.values("game_id").distinct().count(), "rows": len(kept)}


def test_without_a_slug_it_is_the_club_visitors_see(mixed, settings):
    other = ClubFactory(slug="other", name="Other Club")
    settings.PEGBOARD_DEFAULT_CLUB = "other"
    assert run()[1].splitlines()[1] == "No rated game yet: a rating starts with a confirmed result."
    assert other.name in run()[1]
    settings.PEGBOARD_DEFAULT_CLUB = ""
    assert run()[1].startswith("Ratings of Mixed Club")


def test_an_unknown_club_is_exit_code_2_with_the_clubs_named(mixed):
    code, out, err = run("--club", "nowhere")
    assert (code, out) == (2, "")
    assert "There is no club 'nowhere' (clubs here: mixed)." in err
    assert "Traceback" not in err
