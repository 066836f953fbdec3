"""Double posts on the games pages: the draw button pressed twice draws one round, and each games
form posted twice (the same page, so the same one-time token) saves once; the second post is told so
and sent to what the first made, never a second row or an error page.

Terms: a *double post* is the same form posted twice from one rendering of its page (a double
click, a resent form); `token_of(page, form)` reads the one-time token that page rendered.
"""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from club import services as club_services
from core.models import AuditEntry
from core.submissions import TOKEN_FIELD
from games import services
from games.audit import GameVerb
from games.models import Result, ResultState, Round, Seat
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(club, organiser):
    session = club_services.session_open(club=club, actor=organiser, date=dt.date(2026, 11, 26))
    for _ in range(4):
        club_services.checkin_create(
            session=session, actor=organiser, player=PlayerFactory(club=club)
        )
    return session


def texts(response) -> list[tuple[str, str]]:
    """The messages the response leaves for the next page: the first post's are still waiting
    (the test does not follow its redirect), so a second post's message is the last."""
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]


def token_of(page, form_name: str) -> str:
    token = page.context[form_name][TOKEN_FIELD].value()
    assert token
    return token


# --- The draw -------------------------------------------------------------------------------------


def test_the_draw_button_names_the_round_it_draws(client, organiser, session):
    client.force_login(organiser)
    page = client.get(reverse("web:session", args=[session.pk]))
    assert '<input type="hidden" name="round_number" value="1">' in page.content.decode()


def test_the_draw_pressed_twice_draws_one_round(client, organiser, session):
    client.force_login(organiser)
    url = reverse("games:round_draw", args=[session.pk])
    first = client.post(url, {"round_number": "1"})
    (round_,) = Round.objects.filter(session=session)
    assert first.url == reverse("games:round", args=[round_.pk])

    second = client.post(url, {"round_number": "1"})

    assert list(Round.objects.filter(session=session)) == [round_]
    assert second.status_code == 302
    assert second.url == reverse("games:round", args=[round_.pk])
    assert texts(second)[-1:] == [("info", "Round 1 is already drawn.")]
    assert AuditEntry.objects.filter(action=GameVerb.ROUND_DRAWN).count() == 1


def test_the_next_round_is_drawn_when_the_button_names_it(client, organiser, session):
    client.force_login(organiser)
    url = reverse("games:round_draw", args=[session.pk])
    client.post(url, {"round_number": "1"})
    client.post(url, {"round_number": "2"})
    assert list(session.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_a_draw_without_the_round_number_still_draws_the_next(client, organiser, session):
    """An old page (or a script) that does not say which round: no guard, as before."""
    client.force_login(organiser)
    url = reverse("games:round_draw", args=[session.pk])
    client.post(url)
    client.post(url)
    assert session.rounds.count() == 2


@pytest.mark.parametrize("number", ["3", "0", "x", "1e9"])
def test_a_draw_of_a_round_that_is_not_next_is_refused_with_a_message(
    client, organiser, session, number
):
    client.force_login(organiser)
    response = client.post(reverse("games:round_draw", args=[session.pk]), {"round_number": number})
    assert response.status_code == 302
    assert response.url == reverse("web:session", args=[session.pk]) + "#rounds"
    [(level, message)] = texts(response)
    assert level == "error"
    assert "reload" in message
    assert not session.rounds.exists()


def test_the_service_draw_is_a_no_op_for_a_round_drawn(organiser, session):
    from core.submissions import AlreadySaved

    round_ = services.round_draw(session=session, actor=organiser, seed=1, expected_number=1)
    with pytest.raises(AlreadySaved, match="Round 1 is already drawn") as caught:
        services.round_draw(session=session, actor=organiser, seed=2, expected_number=1)
    assert caught.value.made_pk(Round) == round_.pk
    assert list(session.rounds.all()) == [round_]


# --- Results, corrections, swaps ------------------------------------------------------------------


@pytest.fixture
def game(session, organiser):
    return services.round_draw(session=session, actor=organiser, seed=7).games.order_by("table")[0]


def test_a_result_entered_twice_is_one_version(client, organiser, game):
    client.force_login(organiser)
    page = client.get(reverse("games:game", args=[game.pk]))
    post = {"side_0": "121", "side_1": "90", TOKEN_FIELD: token_of(page, "result_form")}
    url = reverse("games:result_enter", args=[game.pk])
    assert client.post(url, post).status_code == 302

    second = client.post(url, post)

    assert second.status_code == 302
    assert second.url == reverse("games:game", args=[game.pk])
    assert texts(second)[-1:] == [("info", "This was already saved.")]
    (result,) = Result.objects.filter(game=game)
    assert (result.version, result.state, result.scores) == (1, ResultState.DRAFT, [121, 90])
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_ENTERED).count() == 1


def test_a_refused_result_can_be_posted_again_corrected_with_the_same_page(client, organiser, game):
    client.force_login(organiser)
    token = token_of(client.get(reverse("games:game", args=[game.pk])), "result_form")
    url = reverse("games:result_enter", args=[game.pk])
    refused = client.post(url, {"side_0": "100", "side_1": "90", TOKEN_FIELD: token})
    assert refused.status_code == 400
    assert refused.context["result_form"][TOKEN_FIELD].value() == token  # kept on the page
    assert (
        client.post(url, {"side_0": "121", "side_1": "90", TOKEN_FIELD: token}).status_code == 302
    )
    assert Result.objects.filter(game=game).count() == 1


def test_a_result_confirmed_twice_is_confirmed_once_and_the_second_is_told(
    client, organiser, member, game
):
    draft = services.result_enter(game=game, actor=organiser, scores=[121, 90])
    client.force_login(member("organiser"))
    url = reverse("games:result_confirm", args=[game.pk, draft.pk])
    client.post(url)
    second = client.post(url)
    assert second.status_code == 302
    assert texts(second)[-1] == (
        "error",
        "Version 1 is confirmed, not a draft waiting for confirmation.",
    )
    assert AuditEntry.objects.filter(action=GameVerb.RESULT_CONFIRMED).count() == 1


def test_a_correction_posted_twice_is_one_version(client, organiser, member, game):
    draft = services.result_enter(game=game, actor=organiser, scores=[121, 90])
    services.result_confirm(result=draft, actor=member("organiser"))
    client.force_login(organiser)
    page = client.get(reverse("games:game", args=[game.pk]))
    post = {
        "side_0": "121",
        "side_1": "95",
        "reason": "Recount",
        TOKEN_FIELD: token_of(page, "correction_form"),
    }
    url = reverse("games:result_correct", args=[game.pk])
    assert client.post(url, post).status_code == 302
    second = client.post(url, post)
    assert texts(second)[-1:] == [("info", "This was already saved.")]
    assert list(
        Result.objects.filter(game=game).order_by("version").values_list("version", "state")
    ) == [
        (1, ResultState.SUPERSEDED),
        (2, ResultState.CONFIRMED),
    ]


def test_a_swap_posted_twice_swaps_once(client, organiser, game):
    """Without the guard the second post swapped the two players back."""
    round_ = game.round
    a, b = (
        Seat.objects.filter(round=round_).exclude(game=game).first().player,
        game.seats.first().player,
    )
    client.force_login(organiser)
    page = client.get(reverse("games:round", args=[round_.pk]))
    post = {"player_a": str(a.pk), "player_b": str(b.pk), TOKEN_FIELD: token_of(page, "swap_form")}
    url = reverse("games:round_swap", args=[round_.pk])
    assert client.post(url, post).status_code == 302
    second = client.post(url, post)
    assert second.url == reverse("games:round", args=[round_.pk])
    assert texts(second)[-1:] == [("info", "This was already saved.")]
    assert Seat.objects.get(round=round_, player=a).game == game
    assert AuditEntry.objects.filter(action=GameVerb.SEATS_SWAPPED).count() == 1


def test_a_bad_token_is_a_form_error_that_says_to_reload(client, organiser, game):
    client.force_login(organiser)
    response = client.post(
        reverse("games:result_enter", args=[game.pk]),
        {"side_0": "121", "side_1": "90", TOKEN_FIELD: "not-a-token"},
    )
    assert response.status_code == 400
    assert "out of date" in response.content.decode()
    assert not Result.objects.exists()


def test_the_game_page_renders_the_token_once_per_form(client, organiser, game):
    client.force_login(organiser)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    # The result form and "This game cannot be finished" (no correction yet).
    assert html.count(f'name="{TOKEN_FIELD}"') == 2
