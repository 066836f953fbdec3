"""The tournament's benchmark (ops.tournament_bench) on a small tournament, in the test database:
it builds through the services, times the three pages, and `targets` reads its section."""

from ops import tournament_bench
from ops.management.commands.bench import targets


def test_a_small_tournament_is_built_and_its_pages_timed(db, settings):
    built = tournament_bench.build(9)
    assert built["entrants"] == 9 and built["qualifiers"] == 3
    assert built["draw_ms"]["max_ms"] > 0

    # time_pages serves the bench's club by default; through the fixture, so it is put back.
    settings.PEGBOARD_DEFAULT_CLUB = tournament_bench.SLUG
    pages = tournament_bench.time_pages(built["tournament"], built["director"], renders=2)

    assert set(pages) == {"standings", "bracket", "director"}
    assert all(page["queries"] > 0 and page["p95_ms"] > 0 for page in pages.values())


def test_the_targets_read_the_tournament_section():
    page = {"queries_constant": True, "p95_under_target": False}
    report = {
        "engine": {"score_hand_per_second": 1, "distribution_seconds": 1, "discard": {}},
        "draw": {"under_target": True},
        "tournament": {"draw_under_target": True, "pages": {"standings": page}},
    }

    held = targets(report)

    assert held["tournament_round_drawn_under_1000_ms"] is True
    assert held["tournament_page_query_counts_constant"] is True
    assert held["tournament_page_p95_under_150_ms"] is False
    assert held["all"] is False
