"""site.chart: a player's rating history as a small SVG drawn from the points alone.

The site draws a chart per rated player, so from a template of lines and text, not with matplotlib
(docs/design.md#site-charts). The line has a point at the end of each period in which the rating moved,
flat between them (a rating that did not move in a period kept its value), starting from the rating the
player began their first period with; the browser sets the text, so any name renders in the reader's
fonts. The full chart, with ranks on the axis, stays ``ratings plot`` (:mod:`pipeline.reports.plots`).
Knows nothing of files.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from pipeline.core import periods as periods_mod
from pipeline.core.i18n import gettext
from pipeline.reports.explain.terms import number
from pipeline.site import speech

WIDTH, HEIGHT = 1000, 600
_LEFT, _RIGHT, _TOP, _BOTTOM = 80, 30, 50, 70
_TICKS = 6


def history_points(rows: Sequence[tuple[str, float, float]], last: str) -> list[tuple[dt.date, float]]:
    """The chart's points from ``rows`` ``(period, rating before, rating)`` of the periods in which the
    player first appears or moved, in time order, up to the period ``last`` (the latest rated)."""
    points: list[tuple[dt.date, float]] = []
    for label, before, after in rows:
        first, end = periods_mod.bounds(label)
        if not points:
            points.append((first, before))
        elif first - dt.timedelta(days=1) > points[-1][0]:  # flat through the periods between
            points.append((first - dt.timedelta(days=1), points[-1][1]))
        points.append((end, after))
    final = periods_mod.bounds(last)[1]
    if points and final > points[-1][0]:
        points.append((final, points[-1][1]))
    return points


def chart(name: str, points: Sequence[tuple[dt.date, float]], rule_set: str) -> dict[str, Any]:
    """The context of ``chart.svg.j2``: the line, its marks, the axes' ticks and the title."""
    days = [d.toordinal() for d, _ in points]
    values = [v for _, v in points]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    start, stop = min(days), max(days)
    stop = stop if stop > start else start + 1

    def x(day: int) -> float:
        return round(_LEFT + (day - start) / (stop - start) * (WIDTH - _LEFT - _RIGHT), 1)

    def y(value: float) -> float:
        return round(HEIGHT - _BOTTOM - (value - low) / (high - low) * (HEIGHT - _TOP - _BOTTOM), 1)

    line = " ".join(f"{x(d)},{y(v)}" for d, v in zip(days, values, strict=True))
    yticks = [
        (y(low + (high - low) * i / (_TICKS - 1)), number(low + (high - low) * i / (_TICKS - 1), 1))
        for i in range(_TICKS)
    ]
    xticks = [
        (
            x(start + (stop - start) * i // (_TICKS - 1)),
            speech.day(dt.date.fromordinal(start + (stop - start) * i // (_TICKS - 1))),
        )
        for i in range(_TICKS)
    ]
    marks = [(x(d), y(v)) for d, v in zip(days, values, strict=True)][:: max(1, len(days) // 200)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": _LEFT,
        "right": WIDTH - _RIGHT,
        "top": _TOP,
        "bottom": HEIGHT - _BOTTOM,
        "line": line,
        "marks": marks,
        "yticks": yticks,
        "xticks": xticks,
        "title": gettext("Rating history of {name} under {rule_set}").format(name=name, rule_set=rule_set),
        "name": name,
    }
