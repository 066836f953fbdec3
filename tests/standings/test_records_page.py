"""The highlights on the all-time records (standings:all_time): the longest winning streak and the
streaks going now, grand slams, every accepted 29, 28 and 24, the most skunks given and each
season's skunk king, read by the same selectors as the board and the session page; the page's
queries do not grow with the club's history; a dispute on a big hand reaches the visitors' cached
copy at once."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from club.models import Club
from ops.demo import HANDS_24
from scoring import services as scoring_services
from scoring.models import ClaimKind, RulingDecision
from tests.builders import play_session
from tests.factories import PlayerFactory, UserFactory
from tests.web.test_highlights import THURSDAY, Season, count_queries, file_big_hands, text_of

pytestmark = pytest.mark.django_db

URL = reverse("standings:all_time")


@pytest.fixture
def season(club):
    return Season(club)


def section(html: str, testid: str) -> list[str]:
    found = re.search(rf'data-testid="{testid}">(.*?)</[ou]l>', html, re.S)
    items = re.findall(r"<li[^>]*>(.*?)</li>", found.group(1), re.S)
    return [re.sub(r" ([:,])", r"\1", text_of(item)) for item in items]


def test_every_kind_of_highlight_is_on_the_records(season, client):
    html = client.get(URL).content.decode()
    assert section(html, "longest-streaks")[0] == "Ann Able: 6 games in a row"
    assert section(html, "running-streaks")[0] == "Ann Able: 6 wins in a row"
    assert section(html, "grand-slams")[:2] == [
        "Ann Able: 2 grand slams (latest 12 Mar 2026)",
        "Bob Baker: 1 grand slam (latest 5 Mar 2026)",
    ]
    # Every accepted 29, 28 and 24 (the 24 too), the highest first.
    hands = section(html, "top-hands")
    assert [hand.split(", round")[0] for hand in hands] == [
        "29 Cy Dale, hand, 12 Mar 2026",
        "28 Cy Dale, crib, 12 Mar 2026",
        "24 Cy Dale, hand, 12 Mar 2026",
    ]
    assert section(html, "most-skunks")[0] == "Ann Able: 6"
    assert section(html, "skunk-kings") == ["2026: Ann Able, 6 skunks"]


def test_a_club_without_highlights_says_so(club, client):
    html = client.get(URL).content.decode()
    assert section(html, "running-streaks") == [
        "Nobody has won 3 or more in a row since their last loss."
    ]
    assert section(html, "grand-slams") == ["None yet."]
    assert section(html, "top-hands") == ["No 29, 28 or 24 yet."]
    assert section(html, "skunk-kings") == ["No skunk given yet."]


def test_the_records_cost_the_same_queries_whatever_the_history(season, client, member):
    client.force_login(member("player"))  # a fresh render, not the visitors' cache
    before = count_queries(client, URL)
    for n in range(2, 8):
        play_session(
            season.club,
            season.people,
            THURSDAY + dt.timedelta(weeks=n),
            [season.bob, season.ann, season.cy],
            skunks=[season.bob],
            claims=file_big_hands(season.people, season.cy),
        )
    assert count_queries(client, URL) == before


def test_a_dispute_on_a_big_hand_reaches_the_visitors_copy_at_once(club, client):
    """A disputed 24 waits for its judge (scoring.selectors): opening the dispute and ruling on
    it change the records, so each moves the club's pages version (the visitors' cache)."""
    people = UserFactory(role="organisers"), UserFactory(role="organisers")
    judge = UserFactory(role="judges", club=club)
    pat = PlayerFactory(club=club, display_name="Pat Cowley", user=UserFactory(role="players"))
    ann = PlayerFactory(club=club, display_name="Ann Able")
    found = {}

    def file(round_):
        found["claim"] = scoring_services.claim_file(
            game=round_.games.get(),
            actor=people[0],
            kind=ClaimKind.HAND,
            claimant=pat,
            claimed_points=24,
            hand=HANDS_24[0][0],
            starter=HANDS_24[0][1],
        )

    play_session(club, people, THURSDAY, [ann, pat], rounds=1, claims=file, settle=False)
    assert Club.objects.get(pk=club.pk).standings_public

    def hands():
        return section(client.get(URL).content.decode(), "top-hands")

    assert hands()[0].startswith("24 Pat Cowley")
    dispute = scoring_services.dispute_open(
        claim=found["claim"], actor=pat.user, statement="Count it again."
    )
    assert hands() == ["No 29, 28 or 24 yet."]
    scoring_services.dispute_rule(dispute=dispute, actor=judge, decision=RulingDecision.AGREE)
    assert hands()[0].startswith("24 Pat Cowley")
