"""The SVG charts of a player's page (standings/charts.py): valid XML, one marker per point, the
inverted rank axis, escaping, x-label thinning, nice y ticks, and purity. No database, no Django.

Terms: a *kind* is how a test draws a chart: "line", "rank" (a line chart with `invert_y=True`
and `y_min=1`) or "bar". *Markers* are the `<circle class="chart__point">` elements; *x labels*
and *y labels* are the `<text>` elements of the groups classed `chart__label--x` and
`chart__label--y`. A label's *box* is its extent along x estimated as the module estimates it
(characters x font size x `CHAR_WIDTH`), placed by its `text-anchor`.
"""

from __future__ import annotations

import ast
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standings.charts import (
    CHAR_WIDTH,
    FONT_SIZE,
    LABEL_GAP,
    MAX_X_LABELS,
    MAX_Y_TICKS,
    WIDTH,
    Point,
    _num,
    bar_chart_svg,
    line_chart_svg,
    y_scale,
)

NS = "{http://www.w3.org/2000/svg}"
KINDS = ("line", "rank", "bar")
MODULE = Path(__file__).resolve().parents[2] / "standings" / "charts.py"
HOSTILE = [
    "<script>alert('x')</script>",
    'Tom & "Jerry" <b>',
    "a > b < c & d ' e",
    "]]><!-- -->&amp;",
    "\x00bell\x07 and tab\t",
]


def session_points(n: int, *, values=None) -> list[Point]:
    """`n` weekly sessions from 1 Jan with made-up values (or `values`)."""
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    values = values if values is not None else [(i * 7) % 13 for i in range(n)]
    return [
        Point(label=f"{(i * 7) % 28 + 1} {months[(i * 7 // 28) % 12]}", value=values[i])
        for i in range(n)
    ]


def chart(kind: str, points, **kwargs) -> str:
    kwargs.setdefault("title", "Chart")
    kwargs.setdefault("y_label", "Value")
    if kind == "bar":
        return bar_chart_svg(points=points, **kwargs)
    if kind == "rank":
        kwargs.setdefault("y_min", 1)
        return line_chart_svg(points=points, invert_y=True, **kwargs)
    return line_chart_svg(points=points, **kwargs)


def markers(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}circle") if e.get("class") == "chart__point"]


def labels(root: ET.Element, axis: str) -> list[ET.Element]:
    group = root.find(f"{NS}g[@class='chart__label chart__label--{axis}']")
    return [] if group is None else group.findall(f"{NS}text")


def y_ticks(root: ET.Element) -> list[float]:
    return [float(e.text) for e in labels(root, "y")]


def box(text: ET.Element) -> tuple[float, float]:
    width = len(text.text) * FONT_SIZE * CHAR_WIDTH
    x = float(text.get("x"))
    start = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor")]
    return start, start + width


def is_nice(step: float) -> bool:
    exponent = math.floor(math.log10(step) + 1e-9)
    return round(step / 10**exponent, 9) in (1, 2, 5)


# --- Valid SVG, accessible, scalable -------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 2, 12, 60])
def test_output_is_one_svg_element_that_parses(kind, n):
    svg = chart(kind, session_points(n))
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert root.get("role") == "img"
    assert root.get("width") == "100%" and root.get("height") is None  # scales to its container
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox"))
    assert root.get("preserveAspectRatio")
    assert "chart" in root.get("class").split()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 12])
def test_aria_labelledby_names_the_title_and_the_desc(kind, n):
    root = ET.fromstring(chart(kind, session_points(n), title="Rank through the season"))
    ids = root.get("aria-labelledby").split()
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert ids == [title.get("id"), desc.get("id")]
    assert title.text == "Rank through the season"
    assert desc.text


def test_desc_is_the_callers_or_a_summary_of_the_data():
    points = session_points(3, values=[4, 14, 0])
    root = ET.fromstring(line_chart_svg(points=points, title="t", y_label="Game points"))
    assert root.find(f"{NS}desc").text == (
        "Game points: 3 sessions; highest 14 on 8 Jan; lowest 0 on 15 Jan; latest 0 on 15 Jan"
    )
    ranks = session_points(3, values=[5, 1, 3])
    root = ET.fromstring(
        line_chart_svg(points=ranks, title="t", y_label="Rank", invert_y=True, y_min=1)
    )
    assert root.find(f"{NS}desc").text == (
        "Rank: 3 sessions; best 1 on 8 Jan; worst 5 on 1 Jan; latest 3 on 15 Jan"
    )
    root = ET.fromstring(bar_chart_svg(points=points, title="t", y_label="y", desc="Mine."))
    assert root.find(f"{NS}desc").text == "Mine."


def test_two_different_charts_get_different_ids_and_chart_id_overrides():
    one = ET.fromstring(chart("line", session_points(4)))
    two = ET.fromstring(chart("rank", session_points(4)))
    assert one.find(f"{NS}title").get("id") != two.find(f"{NS}title").get("id")
    mine = ET.fromstring(chart("bar", session_points(4), chart_id="points-chart"))
    assert mine.get("aria-labelledby") == "points-chart-title points-chart-desc"
    with pytest.raises(ValueError, match="chart_id"):
        chart("bar", session_points(4), chart_id='x" onload="alert(1)')


# --- Markers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [0, 1, 2, 12, 60])
def test_one_marker_per_point_titled_label_colon_value(kind, n):
    points = session_points(n)
    root = ET.fromstring(chart(kind, points))
    found = markers(root)
    assert len(found) == n
    assert [m.find(f"{NS}title").text for m in found] == [f"{p.label}: {p.value}" for p in points]


def test_marker_titles_show_fractions_briefly():
    points = [Point("1 Mar", 2.5), Point("8 Mar", 1 / 3), Point("15 Mar", 4.0)]
    root = ET.fromstring(line_chart_svg(points=points, title="t", y_label="y", integer_ticks=False))
    titles = [m.find(f"{NS}title").text for m in markers(root)]
    assert titles == ["1 Mar: 2.5", "8 Mar: 0.33", "15 Mar: 4"]


@pytest.mark.parametrize("kind", KINDS)
def test_no_points_says_no_sessions_yet(kind):
    root = ET.fromstring(chart(kind, []))
    assert markers(root) == []
    assert "No sessions yet" in [e.text for e in root.iter(f"{NS}text")]
    assert root.find(f"{NS}desc").text == "No sessions yet"


@pytest.mark.parametrize("kind", ["line", "rank"])
def test_one_point_is_a_marker_without_a_line(kind):
    root = ET.fromstring(chart(kind, session_points(1)))
    assert len(markers(root)) == 1
    assert root.find(f".//{NS}polyline") is None
    assert ET.fromstring(chart(kind, session_points(2))).find(f".//{NS}polyline") is not None


@pytest.mark.parametrize("kind", ["line", "rank"])
@pytest.mark.parametrize("value", [0, 3, 121, 2.5])
def test_equal_values_draw_a_flat_line_in_the_middle(kind, value):
    points = session_points(5, values=[value] * 5)
    svg = chart(kind, points, integer_ticks=not isinstance(value, float), y_min=None)
    root = ET.fromstring(svg)
    ys = {float(m.get("cy")) for m in markers(root)}
    assert len(ys) == 1
    grid = [
        float(line.get("y1")) for line in root.iter(f"{NS}line") if line.get("stroke-dasharray")
    ]
    assert ys.pop() == pytest.approx((min(grid) + max(grid)) / 2, abs=0.1)


@pytest.mark.parametrize("value", [0, 4])
def test_bars_of_equal_values_are_fine(value):
    root = ET.fromstring(
        bar_chart_svg(points=session_points(3, values=[value] * 3), title="t", y_label="y")
    )
    assert len(markers(root)) == 3
    assert 0 in y_ticks(root)


def test_bars_start_at_zero_and_a_zero_still_shows_a_marker():
    root = ET.fromstring(
        bar_chart_svg(points=session_points(3, values=[3, 0, 6]), title="t", y_label="y")
    )
    bars = [r for r in root.iter(f"{NS}rect") if r.get("class") == "chart__bar"]
    assert len(bars) == 3
    bottoms = {round(float(b.get("y")) + float(b.get("height")), 1) for b in bars}
    assert len(bottoms) == 1  # every bar stands on the zero line
    heights = [float(b.get("height")) for b in bars]
    assert heights[1] == 0 and heights[2] == pytest.approx(2 * heights[0], abs=0.2)
    assert y_ticks(root)[0] == 0
    assert float(markers(root)[1].get("cy")) == pytest.approx(bottoms.pop(), abs=0.1)


# --- Direction -----------------------------------------------------------------------------------


def test_inverted_chart_puts_rank_1_above_rank_5():
    points = [Point("1 Mar", 5), Point("8 Mar", 1), Point("15 Mar", 3)]
    root = ET.fromstring(
        line_chart_svg(points=points, title="Rank", y_label="Rank", invert_y=True, y_min=1)
    )
    rank_5, rank_1, rank_3 = (float(m.get("cy")) for m in markers(root))
    assert rank_1 < rank_3 < rank_5  # SVG y grows downward
    ticks = {float(e.text): float(e.get("y")) for e in labels(root, "y")}
    assert ticks[1] == min(ticks.values())  # rank 1 is labelled, at the top


@pytest.mark.parametrize("kind", ["line", "bar"])
def test_upright_chart_puts_more_points_higher(kind):
    root = ET.fromstring(chart(kind, [Point("1 Mar", 1), Point("8 Mar", 5)]))
    low, high = (float(m.get("cy")) for m in markers(root))
    assert high < low


def test_markers_run_left_to_right_in_order():
    root = ET.fromstring(chart("line", session_points(12)))
    xs = [float(m.get("cx")) for m in markers(root)]
    assert xs == sorted(xs) and len(set(xs)) == 12


# --- Escaping ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", HOSTILE)
def test_text_from_data_is_escaped_and_inert(kind, text):
    points = [Point(text, 3), Point("8 Mar", 1), Point(text, 2)]
    svg = chart(kind, points, title=text, y_label=text, desc=text)
    assert "<script" not in svg and "<b>" not in svg and "<!--" not in svg
    root = ET.fromstring(svg)
    clean = text.replace("\x00", "").replace("\x07", "")
    assert root.find(f"{NS}title").text == clean
    assert root.find(f"{NS}desc").text == clean
    assert markers(root)[0].find(f"{NS}title").text == f"{clean}: 3"
    assert [e.tag for e in root.iter() if e.tag.startswith(f"{NS}script")] == []


def test_a_hostile_player_name_in_the_automatic_summary_is_escaped():
    svg = chart("line", [Point("<script>", 2), Point("x", 1)], y_label="<img src=x>")
    assert "<script" not in svg and "<img" not in svg
    assert "&lt;script&gt;" in svg
    assert ET.fromstring(svg).find(f"{NS}desc").text.startswith("<img src=x>: 2 sessions")


# --- x labels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 12, 20, 33, 60, 100])
@pytest.mark.parametrize("long_labels", [False, True])
def test_x_labels_are_thinned_never_overlap_and_keep_first_and_last(kind, n, long_labels):
    points = session_points(n)
    if long_labels:
        points = [Point(f"Session {i} at the Legion hall", p.value) for i, p in enumerate(points)]
    root = ET.fromstring(chart(kind, points))
    shown = labels(root, "x")
    assert 1 <= len(shown) <= min(n, MAX_X_LABELS)
    texts = [e.text for e in shown]
    assert points[0].label.startswith(texts[0].rstrip("…"))
    assert points[-1].label.startswith(texts[-1].rstrip("…"))
    boxes = [box(e) for e in shown]
    assert all(start >= 0 and end <= WIDTH for start, end in boxes)
    for (_, end), (start, _) in zip(boxes, boxes[1:], strict=False):
        assert end + LABEL_GAP <= start + 0.1


@pytest.mark.parametrize("kind", KINDS)
def test_short_labels_are_still_capped(kind):
    points = [Point(str(i), i) for i in range(1, 41)]  # "1".."40": narrow enough for 20 labels
    shown = [e.text for e in labels(ET.fromstring(chart(kind, points)), "x")]
    assert len(shown) <= MAX_X_LABELS and shown[0] == "1" and shown[-1] == "40"


def test_every_label_shows_when_there_is_room():
    root = ET.fromstring(chart("line", session_points(6)))
    assert [e.text for e in labels(root, "x")] == [p.label for p in session_points(6)]


# --- y ticks -------------------------------------------------------------------------------------


RANGES = [(0, 0), (0, 1), (0, 14), (3, 7), (1, 12), (-5, 5), (0, 121), (17, 18), (0, 1000)]
RANGES += [(-121, -3), (5, 5), (99, 1234), (1, 2)]


@pytest.mark.parametrize(("low", "high"), RANGES)
def test_integer_ticks_are_nice_few_and_cover_the_data(low, high):
    scale = y_scale([low, high])
    assert 2 <= len(scale.ticks) <= MAX_Y_TICKS
    assert scale.step >= 1 and is_nice(scale.step)
    assert all(float(t).is_integer() and t % scale.step == 0 for t in scale.ticks)
    assert scale.ticks[0] <= low and scale.ticks[-1] >= high
    assert scale.low <= low <= high <= scale.high


def test_integer_ticks_for_every_small_range():
    for low in range(0, 40):
        for high in range(low, low + 130, 3):
            scale = y_scale([low, high])
            assert len(scale.ticks) <= MAX_Y_TICKS, (low, high)
            assert scale.ticks[0] <= low and scale.ticks[-1] >= high, (low, high)


@pytest.mark.parametrize(("low", "high"), [(0.1, 0.73), (2.5, 2.5), (-0.02, 0.03), (1.5, 7.25)])
def test_fractional_ticks_are_nice_and_cover_the_data(low, high):
    scale = y_scale([low, high], integer=False)
    assert 2 <= len(scale.ticks) <= MAX_Y_TICKS and is_nice(scale.step)
    assert all(abs(t / scale.step - round(t / scale.step)) < 1e-9 for t in scale.ticks)
    assert scale.low <= low <= high <= scale.high


def test_fixed_ends_hold_and_are_labelled_when_there_is_room():
    scale = y_scale([2, 6], y_min=1, y_max=9, min_gap=0.1)
    assert (scale.low, scale.high) == (1, 9)
    assert scale.ticks == (1, 2, 4, 6, 8, 9)
    crowded = y_scale([2, 12], y_min=1, min_gap=0)  # no room under the tick cap
    assert crowded.ticks == (2, 4, 6, 8, 10, 12) and crowded.low == 1
    points = y_scale([3, 14], y_min=0)
    assert points.low == 0 and points.ticks[0] == 0
    beyond = y_scale([-2, 5], y_min=0)  # data below the fixed end widens the axis
    assert beyond.low <= -2


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [1, 2, 12, 60])
def test_chart_y_labels_are_nice_and_cover_the_data(kind, n):
    points = session_points(n, values=[(i * 5) % 17 + 1 for i in range(n)])
    free = {} if kind == "bar" else {"y_min": None}  # let the rank axis end where the data do
    ticks = y_ticks(ET.fromstring(chart(kind, points, **free)))
    assert len(ticks) <= MAX_Y_TICKS
    assert ticks == sorted(ticks)
    assert ticks[0] <= min(p.value for p in points) and ticks[-1] >= max(p.value for p in points)
    steps = {b - a for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len(steps) <= 1 and all(is_nice(s) for s in steps)


# --- Numbers, style, errors, purity --------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_coordinates_have_at_most_one_decimal(kind):
    points = session_points(7, values=[1 / 3, 2 / 3, 1, 22 / 7, 0.1, 5, 2.75])
    svg = chart(kind, points) if kind == "bar" else chart(kind, points, integer_ticks=False)
    numbers = re.findall(r' (?:c?[xy][12]?|r|width|height|points|d)="([^"]*)"', svg)
    assert len(numbers) > 7 * 3
    assert not [a for a in numbers if re.search(r"\d\.\d{2}", a)]
    assert not [a for a in numbers if re.search(r"\.0\b|(?<![\d.])-0(?![\d.])", a)]


@given(st.floats(min_value=-1e6, max_value=1e6) | st.sampled_from([0.05, -0.05, 0.25, 2.675]))
def test_a_coordinate_is_the_value_rounded_to_one_decimal(value):
    """As round(value, 1) prints it: halves and float noise included."""
    expected = f"{round(value, 1):.1f}".removesuffix(".0")
    assert _num(value) == ("0" if expected == "-0" else expected)


@pytest.mark.parametrize("kind", KINDS)
def test_styled_by_classes_with_inline_fallbacks_not_colour_alone(kind):
    root = ET.fromstring(chart(kind, session_points(5)))
    grid = root.find(f"{NS}g[@class='chart__grid']")
    assert grid is not None and all(line.get("stroke-dasharray") for line in grid)
    axis = [e for e in root.iter() if e.get("class") == "chart__axis"]
    assert axis and axis[0].get("stroke")
    assert all(m.get("stroke") and m.get("fill") for m in markers(root))
    if kind == "bar":
        bars = [e for e in root.iter(f"{NS}rect") if e.get("class") == "chart__bar"]
        assert len(bars) == 5 and all(b.get("fill") and b.get("stroke") for b in bars)
    else:
        line = root.find(f"{NS}polyline")
        assert line.get("class") == "chart__line" and line.get("stroke")
        assert line.get("fill") == "none"
    sizes = [float(e.get("font-size")) for e in root.iter(f"{NS}text")]
    width = float(root.get("viewBox").split()[2])
    assert min(sizes) * 360 / width >= 11  # at least 11 CSS px in a 360 px wide container


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"points": [Point("a", math.nan)]}, ValueError),
        ({"points": [Point("a", math.inf)]}, ValueError),
        ({"points": [Point("a", "3")]}, TypeError),
        ({"points": [Point("a", 1)], "y_min": 5, "y_max": 5}, ValueError),
        ({"points": [Point("a", 1)], "y_min": 6, "y_max": 2}, ValueError),
    ],
)
def test_bad_input_is_refused(kwargs, error):
    with pytest.raises(error):
        line_chart_svg(title="t", y_label="y", **kwargs)


def test_points_are_frozen():
    with pytest.raises(AttributeError):
        Point("1 Mar", 3).value = 4


def test_module_imports_only_the_standard_library():
    tree = ast.parse(MODULE.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            modules.add((node.module or "").split(".")[0])
    assert modules, "the parse found the imports"
    assert "django" not in modules
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, modules
    assert "Terms:" in ast.get_docstring(tree)


def test_a_band_is_drawn_behind_the_line_and_widens_the_axis():
    """A rating's uncertainty (mu ± 3 sigma) as a shaded band behind its line."""
    points = [Point("1 Mar", 25), Point("8 Mar", 27), Point("15 Mar", 26)]
    svg = line_chart_svg(
        points=points,
        title="Rating",
        y_label="Mu",
        integer_ticks=False,
        band=[(0, 50), (10, 44), (12, 40)],
    )
    assert svg.index('class="chart__band"') < svg.index('class="chart__line"')
    assert ">50<" in svg or ">60<" in svg  # the axis holds the band's top
    with pytest.raises(ValueError, match="one \\(low, high\\) per point"):
        line_chart_svg(points=points, title="Rating", y_label="Mu", band=[(0, 50)])
