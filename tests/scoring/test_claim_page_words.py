"""The claims' pages lead on and speak of people: the game page's claim list says where a claim's
dispute stands ("Disputed: waiting for a judge", "Ruled by ..."); rulings name the judge's player,
not their login; the claim form shows the deal number and the play rows for a claim in the play only
(a part to open without JavaScript), each play row labelled, and drops them for another kind; the
table page's claim form has neither."""

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Claim, Dispute
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def judge(club, username, name):
    user = UserFactory(role="judges", username=username, first_name="", last_name="")
    PlayerFactory(club=club, user=user, display_name=name)
    return user


def file_hand(club_table) -> Claim:
    return services.claim_file(
        game=club_table.game,
        actor=club_table.users[0],
        kind="hand",
        claimant=club_table.players[0],
        claimed_points=12,
        hand="2S QD AD 2H",
        starter="3S",
    )


def claim_list(client, club_table) -> str:
    html = client.get(reverse("games:game", args=[club_table.game.pk])).content.decode()
    return html.split('id="claims"')[1].split("</section>")[0]


# --- d. The game page says a claim is disputed ----------------------------------------------------


def test_the_game_pages_claim_list_says_where_each_dispute_stands(client, club, club_table):
    claim = file_hand(club_table)
    client.force_login(club_table.users[1])
    assert "Disputed" not in claim_list(client, club_table)
    services.dispute_open(claim=claim, actor=club_table.users[1], statement="Surely 16.")
    assert "Disputed: waiting for a judge." in claim_list(client, club_table)

    jo = judge(club, "jo", "Jo Lee")
    dispute = Dispute.objects.get()
    services.dispute_rule(dispute=dispute, actor=jo, decision="agree")
    listed = claim_list(client, club_table)
    assert "Ruled by Jo Lee: agrees with the engine (may be appealed once)." in listed
    services.dispute_appeal(dispute=dispute, actor=club_table.users[1], statement="Still 16.")
    assert "Appealed: waiting for a second judge." in claim_list(client, club_table)
    kim = judge(club, "kim", "Kim Ray")
    services.dispute_rule(dispute=dispute, actor=kim, decision="agree")
    assert "Ruled on appeal by Kim Ray: agrees with the engine (final)." in claim_list(
        client, club_table
    )


# --- j. Rulings name the judge ------------------------------------------------------------------


def test_rulings_name_the_judges_player_not_their_login(client, club, club_table):
    claim = file_hand(club_table)
    services.dispute_open(claim=claim, actor=club_table.users[1], statement="Surely 16.")
    jo = judge(club, "jo", "Jo Lee")
    services.dispute_rule(dispute=Dispute.objects.get(), actor=jo, decision="agree")
    client.force_login(jo)
    detail = client.get(reverse("scoring:claim", args=[claim.pk])).content.decode()
    assert "</strong> by Jo Lee: agrees with the engine." in detail
    session = club_table.game.session_id
    report = client.get(reverse("scoring:session_report", args=[session])).content.decode()
    assert "Ruling by Jo Lee:" in report and "by jo:" not in report


# --- k. The claim form: the play's part for a claim in the play only ------------------------------


def claim_form(client, club_table, data=None):
    url = reverse("scoring:claim_new", args=[club_table.game.pk])
    client.force_login(club_table.users[0])
    return client.post(url, data) if data is not None else client.get(url)


def play_part(html: str) -> str:
    return html.split('data-testid="claim-play"')[1].split("</details>")[0]


def test_the_deal_and_the_play_rows_are_a_part_for_a_claim_in_the_play(client, club_table):
    html = claim_form(client, club_table).content.decode()
    assert '<script src="/static/js/claim-form.js" defer></script>' in html
    before, part = html.split('<details class="claim-play"')[0], play_part(html)
    opening = part.split(">")[0]
    assert " open" not in opening  # closed until "Play" is chosen (or posted)
    assert "Deal number" not in before and "Deal number" in part
    assert "A claim in the play" in part.split("</summary>")[0]
    for row in (1, 8):
        assert f'<label for="id_play_player_{row}">Play {row}: who:</label>' in part
        assert f'<label for="id_play_card_{row}">Play {row}: card:</label>' in part
    assert "visually-hidden" not in part


def test_a_hand_claim_ignores_what_the_play_rows_hold(client, club_table):
    first, _ = club_table.players
    response = claim_form(
        client,
        club_table,
        {
            "kind": "hand",
            "claimant": first.pk,
            "claimed_points": 12,
            "hand": "2S QD AD 2H",
            "starter": "3S",
            "deal": "3",
            "play_card_1": "5H",  # left behind, without who laid it
        },
    )
    assert response.status_code == 302
    claim = Claim.objects.get()
    assert (claim.kind, claim.deal, claim.plays) == ("hand", None, [])


def test_a_play_claim_in_error_shows_its_part_open(client, club_table):
    first, second = club_table.players
    response = claim_form(
        client,
        club_table,
        {"kind": "play", "claimant": second.pk, "claimed_points": 2, "deal": "2"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert play_part(html).split(">")[0].endswith(" open")
    assert "Give the cards of the current count" in html
    assert not Claim.objects.exists()


def test_the_table_pages_claim_form_has_no_deal_nor_play_rows(client, club_table):
    html = client.get(f"/t/{club_table.game.table_token}/").content.decode()
    form = html.split('data-testid="table-claim-form"')[1].split("</form>")[0]
    assert "Deal number" not in form and "play_player" not in form and "play_card" not in form
