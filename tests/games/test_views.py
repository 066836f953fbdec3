"""The session, round and game pages through the test client: each form's success and error path
as a user meets it, and that a player acts only at their own table."""

import datetime as dt

import pytest
from django.urls import reverse

from club import services as club_services
from club.models import CheckIn, Player
from core.models import AuditEntry
from games import services
from games.audit import GameVerb
from games.models import Result, ResultState, Round
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(club, organiser):
    return club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))


@pytest.fixture
def drawn(session, organiser, club):
    """A session with 5 checked-in players (one of them a logged-in player) and round 1 drawn."""
    user = UserFactory(role="players")
    players = [PlayerFactory(club=club, user=user, display_name="Pat Seated")]
    players += [PlayerFactory(club=club) for _ in range(4)]
    for player in players:
        club_services.checkin_create(session=session, actor=organiser, player=player)
    round_ = services.round_draw(session=session, actor=organiser, seed=7)
    pat_game = round_.games.get(seats__player=players[0])
    other_game = round_.games.exclude(pk=pat_game.pk).first()
    return {"round": round_, "user": user, "pat_game": pat_game, "other_game": other_game}


def test_open_session_form_defaults_to_next_thursday_and_refuses_a_second(client, organiser, club):
    client.force_login(organiser)
    form = client.get("/club/sessions/open/").context["form"]
    assert form.initial["date"].weekday() == 3
    response = client.post("/club/sessions/open/", {"date": "2026-11-26", "starts_at": "09:30"})
    assert response.status_code == 302
    again = client.post("/club/sessions/open/", {"date": "2026-11-26", "starts_at": "09:30"})
    assert "already a session" in again.context["form"].errors["date"][0]


def test_check_in_by_name_new_player_and_twice(client, organiser, session, club):
    client.force_login(organiser)
    PlayerFactory(club=club, display_name="Kay Kowalski")
    url = f"/club/sessions/{session.pk}/checkin/"
    assert client.post(url, {"name": "kay kowalski"}).status_code == 302
    twice = client.post(url, {"name": "Kay Kowalski"})
    assert twice.status_code == 400
    assert "already checked in" in twice.context["checkin_form"].errors["name"][0]
    unknown = client.post(url, {"name": "Zed Zulu"})
    assert "tick" in unknown.context["checkin_form"].errors["name"][0]
    assert client.post(url, {"name": "Zed Zulu", "new_player": "on"}).status_code == 302
    assert CheckIn.objects.filter(session=session).count() == 2
    assert Player.objects.filter(club=club, display_name="Zed Zulu").exists()


def test_fee_buttons_and_totals(client, organiser, session, club):
    client.force_login(organiser)
    checkin = club_services.checkin_create(
        session=session, actor=organiser, player=PlayerFactory(club=club)
    )
    client.post(f"/club/sessions/{session.pk}/checkins/{checkin.pk}/paid/")
    page = client.get(f"/club/sessions/{session.pk}/")
    assert page.context["totals"].collected_cents == 25
    html = page.content.decode()
    assert "Collected <strong>25¢</strong>" in html
    # Each undo says what it undoes: a bare "Undo" beside "Undo payment" would undo the check-in.
    assert ">Undo payment</button>" in html and ">Undo check-in</button>" in html
    assert ">Undo</button>" not in html


def test_a_player_does_not_see_fees(client_for, session, organiser, club):
    club_services.checkin_create(session=session, actor=organiser, player=PlayerFactory(club=club))
    html = client_for("player").get(f"/club/sessions/{session.pk}/").content.decode()
    assert 'data-testid="fee-totals"' not in html
    assert "Mark " not in html


def test_draw_with_one_player_says_there_is_nothing_to_draw(client, organiser, session, club):
    client.force_login(organiser)
    club_services.checkin_create(session=session, actor=organiser, player=PlayerFactory(club=club))
    response = client.post(f"/games/sessions/{session.pk}/draw/", follow=True)
    assert "nothing to draw" in response.content.decode()
    assert not Round.objects.exists()


def test_round_page_shows_the_seed_and_prints_a_seating_chart(client, organiser, drawn):
    client.force_login(organiser)
    round_ = drawn["round"]
    page = client.get(f"/games/rounds/{round_.pk}/").content.decode()
    assert f'data-testid="seed">{round_.seed}<' in page
    chart = client.get(f"/games/rounds/{round_.pk}/print/").content.decode()
    assert 'data-testid="seating-chart"' in chart
    for game in round_.games.all():
        assert f'class="table-no">{game.table}<' in chart


def test_swap_through_the_page_then_refused_after_a_result(client, organiser, drawn):
    client.force_login(organiser)
    round_ = drawn["round"]
    a, b = (seat.player_id for seat in round_.seats.all()[:2])
    swapped = client.post(f"/games/rounds/{round_.pk}/swap/", {"player_a": a, "player_b": b})
    assert swapped.status_code == 302
    assert AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED).count() == 1
    game = drawn["other_game"]
    services.result_enter(game=game, actor=organiser, scores=[121, 90, 80][: game.side_count])
    refused = client.post(f"/games/rounds/{round_.pk}/swap/", {"player_a": a, "player_b": b})
    assert refused.status_code == 400
    assert "can no longer be swapped" in refused.content.decode()


def scores_for(game) -> dict[str, int]:
    """Valid final scores for the game's sides as the result form posts them."""
    return {f"side_{i}": score for i, score in enumerate([121, 100, 80][: game.side_count])}


def test_seated_player_enters_and_bad_scores_are_field_errors(client, drawn):
    client.force_login(drawn["user"])
    game = drawn["pat_game"]
    url = reverse("games:result_enter", args=[game.pk])
    bad = client.post(url, {f"side_{i}": 121 for i in range(game.side_count)})
    assert bad.status_code == 400
    assert "Only one side can reach 121" in bad.content.decode()
    negative = client.post(url, {"side_0": 121, "side_1": -3, "side_2": 5})
    assert "cannot be negative" in negative.content.decode()
    assert not Result.objects.exists()
    ok = client.post(url, scores_for(game))
    assert ok.status_code == 302
    assert Result.objects.get().state == ResultState.DRAFT


def test_a_player_acts_only_at_their_own_table(client, drawn, organiser):
    other = drawn["other_game"]
    client.force_login(drawn["user"])
    assert (
        client.post(reverse("games:result_enter", args=[other.pk]), scores_for(other)).status_code
        == 403
    )
    draft = services.result_enter(
        game=other, actor=organiser, scores=[121, 95, 60][: other.side_count]
    )
    page = client.get(f"/games/{other.pk}/").content.decode()
    assert "Confirm this result" not in page
    response = client.post(reverse("games:result_confirm", args=[other.pk, draft.pk]))
    assert response.status_code == 403
    assert Result.objects.get(pk=draft.pk).state == ResultState.DRAFT

    mine = drawn["pat_game"]
    own = services.result_enter(game=mine, actor=organiser, scores=[121, 95, 60][: mine.side_count])
    assert "Confirm this result" in client.get(f"/games/{mine.pk}/").content.decode()
    client.post(reverse("games:result_confirm", args=[mine.pk, own.pk]))
    assert Result.objects.get(pk=own.pk).state == ResultState.CONFIRMED


def test_organiser_corrects_with_a_reason_and_the_history_shows_both(
    client, drawn, organiser, member
):
    game = drawn["other_game"]
    draft = services.result_enter(
        game=game, actor=organiser, scores=[121, 95, 60][: game.side_count]
    )
    services.result_confirm(result=draft, actor=member("organiser"))
    client.force_login(organiser)
    url = reverse("games:result_correct", args=[game.pk])
    scores = {"side_0": 121, "side_1": 85, "side_2": 60}
    no_reason = client.post(url, scores)
    assert no_reason.status_code == 400
    assert not Result.objects.filter(version=2).exists()
    assert client.post(url, {**scores, "reason": "Side 2 miscounted"}).status_code == 302
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "(version 2)" in page and "(version 1)" in page  # versions: for organisers
    assert "Replaced by the correction of" in page
    assert "Side 2 miscounted" in page


def test_after_an_entry_the_page_says_who_confirms_it(client, drawn, organiser):
    """An organiser who does not play has no "other side"; the message names who confirms the entry:
    a player at the table (on the game page or the table's link) or another organiser. A player who
    entered it is told a player of another side confirms it."""
    client.force_login(organiser)
    game = drawn["other_game"]
    entered = client.post(
        reverse("games:result_enter", args=[game.pk]), scores_for(game), follow=True
    )
    text = entered.content.decode()
    assert "the other side confirms it" not in text
    assert "a player at the table or another organiser confirms it" in text

    client.force_login(drawn["user"])
    pats = drawn["pat_game"]
    entered = client.post(
        reverse("games:result_enter", args=[pats.pk]), scores_for(pats), follow=True
    )
    assert "a player of another side confirms it" in entered.content.decode()
