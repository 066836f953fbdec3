"""Backups carry a club's tournaments: its entries, byes, bracket and match games come back as
they were, and the tournament plays on after the restore."""

import io
import json

from django.contrib.auth import get_user_model
from django.core.management import call_command

from club.models import Club
from tests.ops.backup_support import empty_the_database, export_text, without_restores
from tests.tournaments.test_tournament_services import (
    enter,
    make_tournament,
    open_playoff_games,
    play,
    play_qualifying,
    stronger,
)
from tournaments import services
from tournaments.models import Bye, Match, MatchGame, Stage, Tournament

User = get_user_model()


def test_a_tournament_in_the_playoffs_is_backed_up_and_plays_on_after_the_restore(
    tmp_path, club, member
):
    organiser, confirmer = member("organiser"), member("organiser")
    tournament = make_tournament(club, organiser, qualifying_games=1, match_lengths=[3, 3])
    enter(tournament, organiser, 13)  # 4 qualifiers: two semi-finals
    play_qualifying(tournament, organiser, confirmer)
    services.qualifying_close(tournament=tournament, actor=organiser, seed=3)
    first, _ = open_playoff_games(tournament)
    play(first, organiser, confirmer, stronger(first))
    counts = {
        "tournaments.tournament": 1,
        "tournaments.bye": 1,
        "tournaments.match": Match.objects.count(),
        "tournaments.matchgame": MatchGame.objects.count(),
    }

    text = export_text(club.slug)
    assert {model: json.loads(text)["counts"][model] for model in counts} == counts
    path = tmp_path / "cup.json"
    path.write_text(text, encoding="utf-8")
    empty_the_database()
    call_command("import_club", str(path), stdout=io.StringIO())

    assert without_restores(export_text(club.slug)) == without_restores(text)
    tournament = Tournament.objects.get(club=Club.objects.get(slug=club.slug))
    organiser, confirmer = (User.objects.get(pk=user.pk) for user in (organiser, confirmer))
    assert tournament.stage == Stage.PLAYOFFS and len(tournament.seeds) == 4
    assert Bye.objects.filter(tournament=tournament).count() == 1
    plays = 0
    while (games := open_playoff_games(tournament)) and plays < 20:
        for game in games:
            play(game, organiser, confirmer, stronger(game))
            plays += 1
    tournament.refresh_from_db()
    assert tournament.stage == Stage.FINISHED and tournament.champion_id is not None
