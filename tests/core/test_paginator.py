"""The clamped paginator: a page size held to 1..MAX_PER_PAGE, and a count the view has already
read taken as the rows' count, its pages' lengths worked out from it without reading them."""

import pytest

from core.mixins import MAX_PER_PAGE, ClampedPaginator


class Unread(list):
    """Rows that must not be read whole: a page's length comes from the count."""

    def __len__(self):
        raise AssertionError("the rows were counted")

    def count(self):
        raise AssertionError("the rows were counted")


@pytest.mark.parametrize("rows", [0, 1, 49, 50, 51, 120, 149])
@pytest.mark.parametrize("per_page, orphans", [(50, 0), (50, 3), (1, 0), (7, 2)])
def test_a_given_count_pages_as_counting_the_rows_would(rows, per_page, orphans):
    counted = ClampedPaginator(list(range(rows)), per_page, orphans=orphans)
    given = ClampedPaginator(Unread(range(rows)), per_page, orphans=orphans, count=rows)
    assert given.count == counted.count and given.num_pages == counted.num_pages
    for number in counted.page_range:
        page, expected = given.page(number), counted.page(number)
        assert len(page) == len(expected) and bool(page) == bool(expected)
        assert (page.start_index(), page.end_index()) == (
            expected.start_index(),
            expected.end_index(),
        )


@pytest.mark.parametrize("asked, held", [(0, 1), (-5, 1), (10**6, MAX_PER_PAGE), (20, 20)])
def test_the_page_size_is_held_in_range(asked, held):
    assert ClampedPaginator(list(range(3)), asked).per_page == held
