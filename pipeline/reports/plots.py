"""plots: charts of a finished output folder: players' rating histories, a period's rating distribution.

Reads ``ratings/``, ``games.parquet`` and ``manifest.json`` as ``ratings run`` wrote them, through
:mod:`pipeline.reports` (which also raises the errors for a missing output or an unknown period; a
player's ratings rows through the index by player, :mod:`pipeline.reports.player_rows`), and
draws with matplotlib's Agg canvas on a figure of its own: no pyplot, no backend switched for the
process, settings held in an ``rc_context`` for the drawing only. The file's suffix picks the format
(:data:`FORMATS`: PNG, JPEG, SVG, PDF); it is written atomically. Names are set in a CJK font
(:mod:`pipeline.reports.fonts`), so Chinese, Japanese and Korean names render instead of empty boxes.
Titles name the run's rule set (from the manifest) and the period. Ratings that are ranks
(:func:`rank_scale`: whole numbers, one rank each, as tga's dans and kyus) get one tick per rank,
labelled with it (``2d 3d 4d``; ``2段 3段 4段`` in Chinese: :func:`rank_label`). Titles, axes, legends
and rank ticks are in the language spoken (:mod:`pipeline.core.i18n`); names, periods and rule sets as
they are. pandas, matplotlib and the readers are imported by the functions that use them: the command
line imports this module to name :data:`DEFAULT_TOP`. matplotlib is first imported through
:func:`pipeline.reports.artist_docs.prepare`, which leaves its docstrings' property tables out when the
process asked it to (the command line does).

Knows nothing of how a rule set rates, or of the command line.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline import reports
from pipeline.core.i18n import _, ngettext, pgettext
from pipeline.reports.fonts import cjk_font, family

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from pipeline.config.roster import Roster

    _Painter = Callable[[Axes], None]

#: Rating -> rank label, for ratings that are ranks (:func:`rank_scale`).
RankScale = dict[float, str]
_Series = dict[str, list[tuple[dt.date, float]]]

SIZE_INCHES = (10.0, 6.0)
DPI = 100  # SIZE_INCHES x DPI: a 1000 x 600 pixel PNG
_MAX_TICKS = 12  # more periods than this: label every n-th period end only
#: The chart formats by file suffix (matplotlib's format names).
FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg", ".pdf": "pdf"}
#: Players in a history chart when none is named: the best of the latest rated period.
DEFAULT_TOP = 10


def history(out: Path, players: list[str], roster: Roster | None = None) -> _Series:
    """The rating history of ``players``: canonical name -> ``(date, rating)`` points in time order.

    A player's points are the rating they began their first rated period with, dated its first day
    (when the table records one), then their rating at the last day of every rated period that holds them.

    Args:
        out: an output folder written by ``ratings run``.
        players: names or aliases, each resolved by :func:`pipeline.reports.resolve_player` (any spelling
            a record used, a rated name, or a ``roster`` alias); repeats are given once.
        roster: the run's roster, for aliases no record used (None: the records' spellings only).

    Returns:
        One entry per player, in the order named.

    Raises:
        ReportError: if ``out`` holds no output, ``players`` is empty, a name is no player (an
            :class:`~pipeline.reports.UnknownPlayer` naming close names) or two, or a player has no
            rating in any period.
    """
    from pipeline.reports import player_rows
    from pipeline.reports.explain.names import NAME_COLUMNS

    indexed = player_rows.index_of(out) is not None
    games = None if indexed else reports.read_games(out, columns=NAME_COLUMNS)  # (read once for every name)
    if not players:
        raise reports.ReportError(_("name at least one player to draw a rating history"))
    names = list(dict.fromkeys(reports.resolve_player(out, p, roster, games) for p in players))
    series = _indexed_history(out, names)
    if series is None:
        tables = _rating_tables(out)
        series = {name: _history(tables, name) for name in names}
    for name, points in series.items():
        if not points:
            raise reports.ReportError(
                _("player {name} has no rating in {folder} (no counted game in a rated period)").format(
                    name=repr(name), folder=out
                )
            )
    return series


def history_chart(
    out: Path, players: list[str], target: Path, top: int = DEFAULT_TOP, roster: Roster | None = None
) -> Path:
    """Draw :func:`history_figure` into ``target``, its format from its suffix (:data:`FORMATS`; its
    folder is created); return ``target``.

    Raises:
        ReportError: as :func:`history_figure` does, or if ``target``'s suffix is not one of
            :data:`FORMATS` (before anything is read or written).
        PlotError: if no CJK font is installed.
    """
    chart_format(target)
    return save(history_figure(out, players, top, roster), target)


def history_figure(
    out: Path, players: list[str], top: int = DEFAULT_TOP, roster: Roster | None = None
) -> Figure:
    """:func:`history` as a chart: a line with a point per period end for each player, a legend of their
    names, the dates on the x axis (ticks at the rated periods' last days), a title naming the rule set
    and the periods, ranks on the y axis when the ratings are ranks (:func:`rank_scale`).

    Args:
        out: an output folder written by ``ratings run``.
        players: names or aliases, as :func:`history` takes them; empty: the ``top`` best players of
            the latest rated period (:func:`top_players`).
        top: how many players to draw when ``players`` is empty.
        roster: as :func:`history` takes it.

    Raises:
        ReportError: as :func:`history` and :func:`top_players` do.
        PlotError: if no CJK font is installed.
    """
    named = players or top_players(out, top)
    series = history(out, named, roster)
    rated = reports.rated_periods(out)
    rule_set = _rule_set(out)
    if len(rated) > 1:
        title = _("Rating history under {rule_set}, {first} to {last}").format(
            rule_set=rule_set, first=rated[0], last=rated[-1]
        )
    else:
        title = _("Rating history under {rule_set}, {period}").format(rule_set=rule_set, period=rated[0])
    if not players:
        title = _("{title}: top {n}").format(title=title, n=len(named))
    scale = rank_scale(out)
    return _figure(lambda ax: _draw_history(ax, series, rated, title, scale))


def save(figure: Figure, target: Path) -> Path:
    """Write ``figure`` to ``target`` in the format of its suffix, through a temporary file renamed over
    it (its folder is created); return ``target``.

    Raises ReportError if the suffix is not one of :data:`FORMATS`, OSError if the file cannot be written.
    """
    from pipeline.core.store import atomic_path

    kind = chart_format(target)
    with _style(), atomic_path(target) as temporary:
        figure.savefig(temporary, format=kind, dpi=DPI)
    return target


def top_players(out: Path, top: int = DEFAULT_TOP) -> list[str]:
    """The first ``top`` players of the standings at the end of the latest rated period, best first.

    Raises ReportError if ``out`` holds no output, ``top`` is less than 1, or the run rated no period.
    """
    found = reports.standings(out, top=top)
    if found.empty:
        raise reports.ReportError(
            _("no rated period in {folder}: no game was counted, so no player to draw").format(folder=out)
        )
    return [str(name) for name in found["player"]]


def chart_format(target: Path) -> str:
    """matplotlib's name of the format of ``target``'s suffix (any case): ``png``, ``jpeg``, ``svg``, ``pdf``.

    Raises ReportError if the suffix is not one of :data:`FORMATS`.
    """
    found = FORMATS.get(target.suffix.lower())
    if found is None:
        known = ", ".join(sorted(FORMATS))
        raise reports.ReportError(
            _("cannot draw a chart as {file}: name a file ending in one of {suffixes}").format(
                file=repr(target.name), suffixes=known
            )
        )
    return found


def rank_scale(out: Path) -> RankScale | None:
    """The rank of each rating when the run's ratings are ranks, else None.

    They are when every rating and rating before the period of every rated period of ``out`` is a whole
    number that comes with one rank (``rank``, ``rank_before``) and each rank with one rating: tga's
    dan and kyu numbers, not a points system where many ratings share a rank. The periods are read one
    at a time, and no further once a rating is not a whole number or two ratings share a rank (for a
    points system, usually the first period).
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from pipeline.core.arrays import stacked
    from pipeline.core.strings import text
    from pipeline.output import folder as outputs

    ranks: RankScale = {}
    ratings: dict[str, float] = {}
    for label in reports.rated_periods(out):
        table = pq.ParquetFile(outputs.partition_path(out, "ratings", label)).read(
            columns=["rating", "rank", "rating_before", "rank_before"], use_threads=False
        )
        values = stacked([table.column(r).cast(pa.float64()) for r in ("rating", "rating_before")])
        names = stacked([table.column(k).cast(pa.string()) for k in ("rank", "rank_before")])
        known = pc.and_(pc.is_valid(names), pc.invert(pc.is_nan(values)))
        values, names = values.filter(known), names.filter(known)
        if (
            len(values)
            and not pc.all(pc.and_(pc.is_finite(values), pc.equal(values, pc.floor(values)))).as_py()
        ):
            return None  # (not whole numbers; an infinite one neither)
        pairs = pc.binary_join_element_wise(values.cast(pa.string()), names, text(" "))
        if (
            not pc.count_distinct(values).as_py()
            == pc.count_distinct(names).as_py()
            == pc.count_distinct(pairs).as_py()
        ):
            return None  # (a rating with two ranks, or a rank with two ratings)
        distinct = pc.unique(values)  # (each with its one rank: that of its first row)
        spelled = names.take(pc.index_in(distinct, value_set=values))
        for rating, rank in zip(distinct.to_pylist(), spelled.to_pylist(), strict=True):
            if ranks.setdefault(rating, rank) != rank or ratings.setdefault(rank, rating) != rating:
                return None
    return ranks or None


_RANK = re.compile(r"(\d+)([dkp])")


def rank_label(rank: str) -> str:
    """``rank`` (``2d``, ``5k``, ``9p``: a canonical rank) as the language spoken writes it (``2段``,
    ``5级``, ``职业9段``; English: as it is); any other text as it is."""
    found = _RANK.fullmatch(rank)
    if found is None:
        return rank
    number, kind = found.groups()
    if kind == "d":
        return pgettext("rank", "{n}d").format(n=number)
    if kind == "k":
        return pgettext("rank", "{n}k").format(n=number)
    return pgettext("rank", "{n}p").format(n=number)


def distribution(out: Path, period: str | None) -> tuple[str, list[float]]:
    """The ratings of every player rated by the end of ``period`` (the latest rated period when None).

    Args:
        out: an output folder written by ``ratings run``.
        period: a rated period's label (``2024-05``), or None for the latest.

    Returns:
        ``(period label, ratings lowest first)``.

    Raises:
        ReportError: if ``out`` holds no output, ``period`` is not a rated period of the run, or the run
            rated no period.
    """
    table = reports.standings(out, period=period)
    if period is None:
        rated = reports.rated_periods(out)
        if not rated:
            raise reports.ReportError(
                _("no rated period in {folder}: no game was counted, so no distribution").format(folder=out)
            )
        period = rated[-1]
    return period, sorted(float(r) for r in table["rating"])


def distribution_chart(out: Path, period: str | None, target: Path) -> Path:
    """Draw :func:`distribution_figure` into ``target``, its format from its suffix (:data:`FORMATS`; its
    folder is created); return ``target``.

    Raises:
        ReportError: as :func:`distribution` does, or if ``target``'s suffix is not one of
            :data:`FORMATS` (before anything is read or written).
        PlotError: if no CJK font is installed.
    """
    chart_format(target)
    return save(distribution_figure(out, period), target)


def distribution_figure(out: Path, period: str | None) -> Figure:
    """:func:`distribution` as a chart: a histogram of the ratings, the median marked, a title naming the
    rule set and the period; one bar per rank, labelled, when the ratings are ranks (:func:`rank_scale`).

    Args:
        out: an output folder written by ``ratings run``.
        period: a rated period's label (``2024-05``), or None for the latest.

    Raises:
        ReportError: as :func:`distribution` does.
        PlotError: if no CJK font is installed.
    """
    label, ratings = distribution(out, period)
    title = ngettext(
        "Rating distribution under {rule_set} at the end of {period} ({n} player)",
        "Rating distribution under {rule_set} at the end of {period} ({n} players)",
        len(ratings),
    ).format(rule_set=_rule_set(out), period=label, n=len(ratings))
    scale = rank_scale(out)
    return _figure(lambda ax: _draw_distribution(ax, ratings, title, scale))


def _rating_tables(out: Path) -> dict[str, pd.DataFrame]:
    """Every rated period's ratings table of ``out`` (``player``, ``rating``, ``rating_before``, ``rank``,
    ``rank_before``) by label, in time order."""
    import pandas as pd

    from pipeline.output import folder as outputs

    columns = ["player", "rating", "rating_before", "rank", "rank_before"]
    return {
        label: pd.read_parquet(outputs.partition_path(out, "ratings", label), columns=columns)
        for label in reports.rated_periods(out)
    }


def _indexed_history(out: Path, names: list[str]) -> _Series | None:
    """:func:`_history` of each of ``names`` from ``out``'s player index: their ratings rows where they
    first appear or moved, the rating held through the periods between (None: ``out`` has no index, or
    it cannot be read)."""
    from pipeline.core import periods as periods_mod
    from pipeline.reports import player_rows

    index = player_rows.index_of(out)
    if index is None:
        return None
    rated = reports.rated_periods(out)
    series: _Series = {}
    try:
        for name in names:
            rows = player_rows.ratings_table(index, name, rated).select(["period", "rating_before", "rating"])
            periods, befores, ratings = (column.to_pylist() for column in rows.columns)
            found = dict(zip(periods, zip(befores, ratings, strict=True), strict=True))
            points: list[tuple[dt.date, float]] = []
            for label in rated[rated.index(periods[0]) :] if periods else []:
                first, last = periods_mod.bounds(label)
                before, rating = found.get(label, (None, points[-1][1] if points else None))
                if not points and before is not None and before == before:
                    points.append((first, float(before)))
                points.append((last, float(rating)))
            series[name] = points
    except player_rows.Unreadable:
        return None
    return series


def _rule_set(out: Path) -> str:
    """The rule set named in ``out``'s manifest (``an unknown rule set``, in the language spoken, when
    it names none)."""
    from pipeline.output import folder as outputs

    return str(outputs.read_manifest(out).get("rule_set") or _("an unknown rule set"))


def _history(tables: dict[str, pd.DataFrame], name: str) -> list[tuple[dt.date, float]]:
    """``(date, rating)`` points of ``name``: the start of the first period holding them, then each end."""
    import pandas as pd

    from pipeline.core import periods as periods_mod

    points: list[tuple[dt.date, float]] = []
    for label, table in tables.items():
        rows = table[table["player"] == name]
        if rows.empty:
            continue
        row = rows.iloc[0]
        first, last = periods_mod.bounds(label)
        if not points and pd.notna(row["rating_before"]):
            points.append((first, float(row["rating_before"])))
        points.append((last, float(row["rating"])))
    return points


def _figure(paint: _Painter) -> Figure:
    """A figure on its own Agg canvas whose one axes ``paint`` fills, under the CJK font."""
    from pipeline.reports import artist_docs

    artist_docs.prepare()  # (matplotlib imported, its property tables left out if the process asked)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with _style():
        figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained")
        FigureCanvasAgg(figure)  # the Agg canvas, for this figure only
        paint(figure.add_subplot())
    return figure


def _style() -> AbstractContextManager[Any]:
    """The charts' matplotlib settings, for a ``with``: the CJK font (DejaVu for a glyph it lacks)."""
    import matplotlib

    fonts = [family(cjk_font()), "DejaVu Sans"]
    return matplotlib.rc_context({"font.family": "sans-serif", "font.sans-serif": fonts, "font.size": 11})


def _draw_history(
    ax: Axes,
    series: dict[str, list[tuple[dt.date, float]]],
    rated: list[str],
    title: str,
    scale: RankScale | None,
) -> None:
    """One line with markers per player; ticks at the rated periods' last days, labelled with the dates;
    the y axis in ranks when ``scale`` is given."""
    from matplotlib.dates import date2num

    for name, points in series.items():
        days, values = zip(*points, strict=True)
        ax.plot(days, values, marker="o", linewidth=2, label=name)
    shown = history_ticks(rated)
    ticks = date2num(shown)  # type: ignore[no-untyped-call]  # matplotlib's stubs leave it untyped
    ax.set_xticks(ticks, [d.isoformat() for d in shown], rotation=30, ha="right")
    ax.set_xlabel(_("date (a point at the end of each rating period)"))
    _rank_axis(ax.yaxis, scale, [v for points in series.values() for _, v in points])
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(title=pgettext("chart", "player"), loc="best")


def history_ticks(rated: list[str]) -> list[dt.date]:
    """The days a history chart labels on its time axis (``rated`` the run's rated periods, in time
    order): the first period's first day (the first line points start there), then every ``step``-th
    period's last day, ``step`` periods apart from it (so that the labels are evenly spaced and never
    crowd the first), at most :data:`_MAX_TICKS` of them."""
    from pipeline.core import periods as periods_mod

    ends = [periods_mod.bounds(label)[1] for label in rated]
    step = -(-len(ends) // _MAX_TICKS)  # ceiling: at most _MAX_TICKS labelled period ends
    return [periods_mod.bounds(rated[0])[0], *ends[step - 1 :: step]]


def _draw_distribution(ax: Axes, ratings: Iterable[float], title: str, scale: RankScale | None) -> None:
    """A histogram of ``ratings`` with the median marked (in the legend with its value); one bar per
    whole number, the x axis in ranks, when ``scale`` is given."""
    from matplotlib.ticker import MaxNLocator

    values = sorted(ratings)
    if values:
        low, high = values[0], values[-1]
        bins = [v - 0.5 for v in range(int(low), int(high) + 2)] if scale else "auto"
        ax.hist(values, bins=bins, color="tab:blue", edgecolor="white", label=pgettext("chart", "players"))
        middle = len(values) // 2
        median = values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
        shown = rank_label(scale[median]) if scale and median in scale else f"{median:g}"
        ax.axvline(median, color="tab:red", linestyle="--", label=_("median {value}").format(value=shown))
        ax.legend(loc="best")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    _rank_axis(ax.xaxis, scale, values)
    ax.set_ylabel(pgettext("chart", "players"))
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)


def _rank_axis(axis: Any, scale: RankScale | None, values: list[float]) -> None:
    """Label ``axis`` ``rating``, or, with ``scale``, ``rank`` with a tick per rank from the lowest to the
    highest of ``values`` (at most :data:`_MAX_TICKS` of them, evenly spread), labelled with the ranks."""
    if not scale or not values:
        axis.set_label_text(pgettext("chart", "rating"))
        return
    shown = [v for v in sorted(scale) if min(values) <= v <= max(values)] or sorted(values)[:1]
    step = -(-len(shown) // _MAX_TICKS)
    ticks = shown[::step]
    axis.set_ticks(ticks, [rank_label(scale[v]) if v in scale else f"{v:g}" for v in ticks])
    axis.set_label_text(pgettext("chart", "rank"))
