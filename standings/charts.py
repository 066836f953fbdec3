"""Small server-side SVG charts for a player's page. Pure Python: standard library only.

Terms:
- point: one session on the chart, a `Point` with an x-axis `label` (the session date, e.g.
  "12 Mar") and a `value` (game points that session, or the running rank after it).
- plot area: the rectangle inside the axes; the chart's coordinates are viewBox units
  (`WIDTH` x `HEIGHT`), and the SVG scales to its container's width (width="100%"), so text is
  sized to stay readable when the container is about 360 CSS pixels wide.
- marker: the `<circle class="chart__point">` drawn for every point, with a `<title>` child
  "label: value" (a tooltip on desktop). Line charts join the markers with a line; bar charts
  draw a bar from zero and put the marker on the bar's end, so a session scoring 0 still shows.
- inverted axis (`invert_y`): smaller values at the top, for ranks (rank 1 at the top).
- nice step: 1, 2 or 5 times a power of ten; y ticks are the multiples of one nice step inside
  the axis range (at most `MAX_Y_TICKS`), plus the caller's own `y_min` / `y_max` ends when
  there is room to label them (rank 1 stays labelled at the top of a rank chart).
- thinning: when the x labels would overlap (by an estimated text width) only every k-th one is
  shown, at most `MAX_X_LABELS`, always the first and the last.

Everything that comes from data (title, desc, labels) is XML-escaped, so a player called
"<script>" renders as text. Coordinates are rounded to one decimal. Styling is by CSS classes
(chart, chart__line, chart__point, chart__grid, chart__axis, chart__label, chart__bar) with
inline presentation attributes as a fallback; nothing relies on colour alone (solid line, open
markers, dashed grid), so the charts print in black and white.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

WIDTH = 480
HEIGHT = 280
EMPTY_HEIGHT = 80
MAX_Y_TICKS = 6
MAX_X_LABELS = 8
MAX_LABEL_CHARS = 12  # longer x labels are shortened on the axis (the marker title has it whole)

FONT_SIZE = 16  # viewBox units: 12 CSS px at 360 px wide
CAPTION_SIZE = 16
CHAR_WIDTH = 0.6  # estimated average glyph width, in ems, of a sans-serif font
LABEL_GAP = 8  # least room between two x labels

MARGIN_TOP = 34
MARGIN_RIGHT = 14
MARGIN_BOTTOM = 36
INNER_PAD_X = 12  # line charts: keep the first and last markers off the axis

INK = "#222"
LINE = "#1f4e79"
BAR = "#8fb0d3"
BAND = "#dbe6f1"
GRID = "#999"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")


@dataclass(frozen=True)
class Point:
    label: str  # x-axis label, e.g. "12 Mar" (a session date)
    value: int | float


@dataclass(frozen=True)
class YScale:
    """The y axis: the value range `low`..`high` and the tick values to label."""

    low: float
    high: float
    ticks: tuple[float, ...]
    step: float


# --- Public API ----------------------------------------------------------------------------------


def line_chart_svg(
    *,
    points: Sequence[Point],
    title: str,
    y_label: str,
    invert_y: bool = False,
    y_min: float | None = None,
    y_max: float | None = None,
    integer_ticks: bool = True,
    desc: str = "",
    chart_id: str | None = None,
    band: Sequence[tuple[float, float]] | None = None,
) -> str:
    """A line chart of `points` in order, as a complete `<svg>` element.

    `band`: one (low, high) per point, drawn as a shaded area behind the line (a rating's
    uncertainty); the y axis widens to hold it.

    `y_min` / `y_max` fix an end of the y axis (data outside them still widens the axis); without
    them the axis runs from nice ticks around the data. `invert_y` puts small values at the top.
    `desc` defaults to a summary of the data. `chart_id` prefixes the ids of the `<title>` and
    `<desc>` (default: derived from the content), for two identical charts on one page.
    """
    points = _checked(points)
    _check_bounds(y_min, y_max)
    if band is not None and len(band) != len(points):
        raise ValueError("a band needs one (low, high) per point")
    ident = _chart_id(chart_id, "line", points, title, y_label, invert_y, y_min, y_max, desc, band)
    summary = desc or _summary(points, y_label=y_label, invert_y=invert_y)
    if not points:
        return _empty_svg(ident=ident, title=title, desc=summary, kind="line")
    values = [p.value for p in points] + [edge for pair in band or () for edge in pair]
    scale = y_scale(
        values,
        y_min=y_min,
        y_max=y_max,
        integer=integer_ticks,
        min_gap=_min_tick_gap(),
    )
    frame = _Frame.for_scale(scale, integer=integer_ticks)
    n = len(points)
    if n == 1:
        xs = [frame.left + frame.width / 2]
    else:
        inner = frame.width - 2 * INNER_PAD_X
        xs = [frame.left + INNER_PAD_X + inner * i / (n - 1) for i in range(n)]
    ys = [frame.y(p.value, scale, invert=invert_y) for p in points]
    spacing = (xs[1] - xs[0]) if n > 1 else frame.width
    radius = max(2.5, min(4.5, spacing / 2.6))

    body = _axes(frame, scale, integer=integer_ticks, invert=invert_y)
    if band:
        edges = list(zip(xs, band, strict=True))
        upper = [(x, frame.y(high, scale, invert=invert_y)) for x, (_, high) in edges]
        lower = [(x, frame.y(low, scale, invert=invert_y)) for x, (low, _) in edges]
        if n == 1:  # a lone point: a short bar of the band
            upper = [(xs[0] - 4, upper[0][1]), (xs[0] + 4, upper[0][1])]
            lower = [(xs[0] - 4, lower[0][1]), (xs[0] + 4, lower[0][1])]
        outline = " ".join(f"{_num(x)},{_num(y)}" for x, y in upper + lower[::-1])
        body.append(f'<polygon class="chart__band" points="{outline}" fill="{BAND}"/>')
    body += _x_labels(frame, [p.label for p in points], xs)
    if n > 1:
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in zip(xs, ys, strict=True))
        body.append(
            f'<polyline class="chart__line" points="{coords}" fill="none" stroke="{LINE}" '
            'stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>'
        )
    body += [
        _marker(p, x, y, radius=radius, fill="#fff", stroke=LINE)
        for p, x, y in zip(points, xs, ys, strict=True)
    ]
    body.append(_caption(y_label))
    return _svg(ident=ident, title=title, desc=summary, kind="line", height=HEIGHT, body=body)


def bar_chart_svg(
    *,
    points: Sequence[Point],
    title: str,
    y_label: str,
    desc: str = "",
    chart_id: str | None = None,
) -> str:
    """A bar chart of `points` in order (bars from zero), as a complete `<svg>` element.

    Each bar ends in a marker carrying the point's title. `desc` and `chart_id` as for
    `line_chart_svg`; y ticks are whole numbers.
    """
    points = _checked(points)
    ident = _chart_id(chart_id, "bar", points, title, y_label, desc)
    summary = desc or _summary(points, y_label=y_label, invert_y=False)
    if not points:
        return _empty_svg(ident=ident, title=title, desc=summary, kind="bar")
    values = [p.value for p in points]
    low, high = min(0, *values), max(0, *values)
    if low == high == 0:
        high = 1  # all zero: an axis 0..1 with the markers on the baseline
    scale = y_scale([low, high], y_min=None, y_max=None, integer=True, min_gap=_min_tick_gap())
    frame = _Frame.for_scale(scale, integer=True)
    n = len(points)
    band = frame.width / n
    bar_width = max(1.0, band * 0.7)
    xs = [frame.left + band * (i + 0.5) for i in range(n)]
    zero = frame.y(0, scale, invert=False)
    radius = max(2.0, min(4.0, band / 3))

    body = _axes(frame, scale, integer=True, invert=False)
    body += _x_labels(frame, [p.label for p in points], xs)
    for p, x in zip(points, xs, strict=True):
        y = frame.y(p.value, scale, invert=False)
        top, height = min(y, zero), abs(zero - y)
        body.append(
            f'<rect class="chart__bar" x="{_num(x - bar_width / 2)}" y="{_num(top)}" '
            f'width="{_num(bar_width)}" height="{_num(height)}" fill="{BAR}" stroke="{LINE}" '
            f'stroke-width="1"><title>{_text(_point_title(p))}</title></rect>'
        )
    body += [
        _marker(p, x, frame.y(p.value, scale, invert=False), radius=radius, fill=LINE, stroke=LINE)
        for p, x in zip(points, xs, strict=True)
    ]
    body.append(_caption(y_label))
    return _svg(ident=ident, title=title, desc=summary, kind="bar", height=HEIGHT, body=body)


def y_scale(
    values: Sequence[float],
    *,
    y_min: float | None = None,
    y_max: float | None = None,
    integer: bool = True,
    max_ticks: int = MAX_Y_TICKS,
    min_gap: float = 0.0,
) -> YScale:
    """The y axis for `values`: nice ticks covering them, within the caller's fixed ends.

    A free end rounds out to a multiple of the step; a fixed end (`y_min`, `y_max`) stays where
    it is, and is labelled itself when it is at least `min_gap` (a fraction of the axis) from the
    nearest tick. All values equal and both ends free: the values sit in the middle.
    """
    low, high = min(values), max(values)
    if y_min is not None:
        low = min(low, y_min)
    if y_max is not None:
        high = max(high, y_max)
    fixed_low = y_min is not None and low == y_min  # data below y_min frees that end
    fixed_high = y_max is not None and high == y_max
    flat = low == high  # both ends fixed cannot be flat: y_min < y_max
    if flat:
        pad = 1.0 if integer or low == 0 else 10.0 ** math.floor(math.log10(abs(low)))
        if fixed_low:
            high += pad
        elif fixed_high:
            low -= pad
        else:
            low, high = low - pad, high + pad

    smallest = 10.0 ** math.floor(math.log10((high - low) / max_ticks))  # <= the step to use
    for step in _steps_from(smallest, integer):
        axis_low = low if fixed_low else math.floor(low / step + 1e-9) * step
        axis_high = high if fixed_high else math.ceil(high / step - 1e-9) * step
        first = math.ceil(axis_low / step - 1e-9)
        last = math.floor(axis_high / step + 1e-9)
        if last - first + 1 <= max_ticks:
            break
    if flat and not (fixed_low or fixed_high):
        middle = (min(values) + max(values)) / 2
        half = max(middle - axis_low, axis_high - middle)
        axis_low, axis_high = middle - half, middle + half
        first = math.ceil(axis_low / step - 1e-9)
        last = math.floor(axis_high / step + 1e-9)
    ticks = [_clean(k * step) for k in range(first, last + 1)]
    for end, fixed in ((axis_low, fixed_low), (axis_high, fixed_high)):
        span = axis_high - axis_low
        room = len(ticks) < max_ticks and all(abs(end - t) >= min_gap * span for t in ticks)
        if fixed and end not in ticks and room:
            ticks.append(_clean(end))
    return YScale(low=axis_low, high=axis_high, ticks=tuple(sorted(ticks)), step=step)


def thin_labels(
    centres: Sequence[float], widths: Sequence[float], *, left: float, right: float
) -> list[int]:
    """Indexes of the x labels to show: every k-th (smallest k that fits), first and last.

    `centres` are the labels' x positions, `widths` their estimated widths; a label that would
    cross `left` or `right` is shifted inside. Shown labels never overlap (with `LABEL_GAP`
    between them) and number at most `MAX_X_LABELS`.
    """
    n = len(centres)
    if n <= 1:
        return list(range(n))
    boxes = [_label_box(c, w, left=left, right=right) for c, w in zip(centres, widths, strict=True)]

    def fits(a: int, b: int) -> bool:
        return boxes[a][1] + LABEL_GAP <= boxes[b][0]

    for every in range(1, n):
        shown = list(range(0, n - 1, every)) + [n - 1]
        while len(shown) > 2 and not fits(shown[-2], shown[-1]):
            del shown[-2]
        if len(shown) <= MAX_X_LABELS and all(
            fits(a, b) for a, b in zip(shown, shown[1:], strict=False)
        ):
            return shown
    return [0, n - 1]


# --- Layout --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Frame:
    left: float
    top: float
    width: float
    height: float

    @classmethod
    def for_scale(cls, scale: YScale, *, integer: bool) -> _Frame:
        widest = max(_text_width(_tick_text(t, scale, integer=integer)) for t in scale.ticks)
        left = max(36.0, widest + 14)
        return cls(
            left=left,
            top=MARGIN_TOP,
            width=WIDTH - left - MARGIN_RIGHT,
            height=HEIGHT - MARGIN_TOP - MARGIN_BOTTOM,
        )

    @property
    def bottom(self) -> float:
        return self.top + self.height

    @property
    def right(self) -> float:
        return self.left + self.width

    def y(self, value: float, scale: YScale, *, invert: bool) -> float:
        fraction = (value - scale.low) / (scale.high - scale.low)
        return self.top + (fraction if invert else 1 - fraction) * self.height


def _axes(frame: _Frame, scale: YScale, *, integer: bool, invert: bool) -> list[str]:
    parts = ['<g class="chart__grid">']
    labels = ['<g class="chart__label chart__label--y">']
    for tick in scale.ticks:
        y = _num(frame.y(tick, scale, invert=invert))
        parts.append(
            f'<line x1="{_num(frame.left)}" y1="{y}" x2="{_num(frame.right)}" y2="{y}" '
            f'stroke="{GRID}" stroke-width="1" stroke-dasharray="4 4"/>'
        )
        labels.append(
            f'<text x="{_num(frame.left - 8)}" y="{y}" dy="0.35em" text-anchor="end" '
            f'font-size="{FONT_SIZE}" fill="{INK}">{_tick_text(tick, scale, integer=integer)}'
            "</text>"
        )
    parts.append("</g>")
    labels.append("</g>")
    left, bottom = _num(frame.left), _num(frame.bottom)
    axis = (
        f'<path class="chart__axis" d="M{left},{_num(frame.top)} V{bottom} H{_num(frame.right)}" '
        f'fill="none" stroke="{INK}" stroke-width="1.5"/>'
    )
    return parts + [axis] + labels


def _x_labels(frame: _Frame, labels: Sequence[str], xs: Sequence[float]) -> list[str]:
    texts = [_short(_clean_text(label)) for label in labels]
    widths = [_text_width(t) for t in texts]
    left, right = 2.0, float(WIDTH - 2)
    shown = thin_labels(xs, widths, left=left, right=right)
    parts = ['<g class="chart__label chart__label--x">']
    y = frame.bottom + 6 + FONT_SIZE
    for i in shown:
        x0, x1 = _label_box(xs[i], widths[i], left=left, right=right)
        if x0 > xs[i] - widths[i] / 2:
            x, anchor = x0, "start"
        elif x1 < xs[i] + widths[i] / 2:
            x, anchor = x1, "end"
        else:
            x, anchor = xs[i], "middle"
        parts.append(
            f'<line x1="{_num(xs[i])}" y1="{_num(frame.bottom)}" x2="{_num(xs[i])}" '
            f'y2="{_num(frame.bottom + 4)}" stroke="{INK}" stroke-width="1"/>'
            f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" font-size="{FONT_SIZE}" '
            f'fill="{INK}">{escape(texts[i])}</text>'
        )
    parts.append("</g>")
    return parts


def _label_box(centre: float, width: float, *, left: float, right: float) -> tuple[float, float]:
    x0 = centre - width / 2
    if x0 < left:
        x0 = left
    elif x0 + width > right:
        x0 = right - width
    return x0, x0 + width


def _marker(point: Point, x: float, y: float, *, radius: float, fill: str, stroke: str) -> str:
    return (
        f'<circle class="chart__point" cx="{_num(x)}" cy="{_num(y)}" r="{_num(radius)}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2">'
        f"<title>{_text(_point_title(point))}</title></circle>"
    )


def _caption(y_label: str) -> str:
    return (
        f'<text class="chart__label chart__label--caption" x="4" y="{CAPTION_SIZE + 2}" '
        f'font-size="{CAPTION_SIZE}" font-weight="600" fill="{INK}">{_text(y_label)}</text>'
    )


def _svg(*, ident: str, title: str, desc: str, kind: str, height: int, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart--{kind}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" preserveAspectRatio="xMidYMid meet" font-family={quoteattr(FONT)}>'
        f'<title id="{ident}-title">{_text(title)}</title>'
        f'<desc id="{ident}-desc">{_text(desc)}</desc>'
    )
    return head + "".join(body) + "</svg>"


def _empty_svg(*, ident: str, title: str, desc: str, kind: str) -> str:
    message = (
        f'<text class="chart__label chart__label--empty" x="{WIDTH // 2}" '
        f'y="{EMPTY_HEIGHT // 2}" dy="0.35em" text-anchor="middle" font-size="{CAPTION_SIZE}" '
        f'fill="{INK}">No sessions yet</text>'
    )
    return _svg(ident=ident, title=title, desc=desc, kind=kind, height=EMPTY_HEIGHT, body=[message])


# --- Text and numbers ----------------------------------------------------------------------------


def _checked(points: Sequence[Point]) -> list[Point]:
    points = list(points)
    for point in points:
        value = point.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"A point's value is a number, not {value!r}.")
        if not math.isfinite(value):
            raise ValueError(f"A point's value must be finite, not {value!r}.")
    return points


def _check_bounds(y_min: float | None, y_max: float | None) -> None:
    for bound in (y_min, y_max):
        if bound is not None and not math.isfinite(bound):
            raise ValueError(f"Axis ends must be finite, not {bound!r}.")
    if y_min is not None and y_max is not None and y_min >= y_max:
        raise ValueError(f"y_min ({y_min}) must be below y_max ({y_max}).")


def _chart_id(chart_id: str | None, *content: object) -> str:
    if chart_id is not None:
        if not _ID.match(chart_id):
            raise ValueError(
                f"chart_id must be a letter then letters, digits, - or _: {chart_id!r}"
            )
        return chart_id
    return "chart-" + hashlib.sha1(repr(content).encode(), usedforsecurity=False).hexdigest()[:10]


def _summary(points: Sequence[Point], *, y_label: str, invert_y: bool) -> str:
    if not points:
        return "No sessions yet"
    n = len(points)
    sessions = f"{n} session" if n == 1 else f"{n} sessions"
    highest = max(points, key=lambda p: p.value)  # the first of equals
    lowest = min(points, key=lambda p: p.value)
    prefix = f"{_clean_text(y_label)}: " if y_label else ""
    if n == 1:
        return f"{prefix}{sessions}; {_value(highest.value)} on {_clean_text(highest.label)}"
    best, worst = ("best", lowest), ("worst", highest)
    ends = (best, worst) if invert_y else (("highest", highest), ("lowest", lowest))
    parts = [sessions] + [f"{word} {_value(p.value)} on {_clean_text(p.label)}" for word, p in ends]
    parts.append(f"latest {_value(points[-1].value)} on {_clean_text(points[-1].label)}")
    return prefix + "; ".join(parts)


def _point_title(point: Point) -> str:
    return f"{_clean_text(point.label)}: {_value(point.value)}"


def _text(value: str) -> str:
    """`value` as XML character data (escaped, characters XML cannot hold dropped)."""
    return escape(_clean_text(value))


def _clean_text(value: object) -> str:
    return _XML_INVALID.sub("", str(value))


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL_CHARS else label[: MAX_LABEL_CHARS - 1] + "…"


def _text_width(text: str, size: float = FONT_SIZE) -> float:
    return len(text) * size * CHAR_WIDTH


def _value(value: float) -> str:
    """A data value for people: whole numbers plainly, others to at most two decimals."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _tick_text(tick: float, scale: YScale, *, integer: bool) -> str:
    if float(tick).is_integer():
        return str(int(tick))
    on_step = abs(tick / scale.step - round(tick / scale.step)) < 1e-6
    if integer or not on_step:
        return _value(tick)  # a fixed end between the steps
    decimals = max(0, -math.floor(math.log10(scale.step) + 1e-9))
    return f"{tick:.{decimals}f}"


def _num(value: float) -> str:
    """A coordinate, rounded to one decimal, without a trailing ".0" or a "-0"."""
    # Formatting rounds as round(value, 1) does (correctly, from the binary value), without
    # making the rounded float first: some 3,000 coordinates on a player's page.
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def _clean(value: float) -> float:
    """`value` without float noise (0.30000000000000004 -> 0.3)."""
    return float(f"{value:.10g}")


def _steps_from(step: float, integer: bool):
    """Nice steps from `step` upward: step, then the next 1-2-5 steps."""
    exponent = math.floor(math.log10(step) + 1e-9)
    multiples = (1, 2, 5)
    mantissa = round(step / 10.0**exponent)
    index = multiples.index(mantissa) if mantissa in multiples else 0
    while True:
        candidate = _clean(multiples[index] * 10.0**exponent)
        if not integer or candidate >= 1:
            yield candidate
        index += 1
        if index == len(multiples):
            index, exponent = 0, exponent + 1


def _min_tick_gap() -> float:
    """The least distance, as a fraction of the plot height, between two labelled ticks."""
    return (FONT_SIZE * 1.4) / (HEIGHT - MARGIN_TOP - MARGIN_BOTTOM)
