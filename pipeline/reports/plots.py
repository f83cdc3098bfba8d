"""plots: PNG charts of a finished output folder: players' rating histories, a period's rating distribution.

Reads ``ratings/`` and ``games.parquet`` as ``ratings run`` wrote them, through :mod:`pipeline.reports`
(which also raises the errors for a missing output or an unknown period), and draws with matplotlib's Agg
canvas on a figure of its own: no pyplot, no backend switched for the process, settings held in an
``rc_context`` for the drawing only. Names are set in a CJK font (:func:`cjk_font`: the Noto Sans CJK SC
that the ``mplfonts`` package ships, else a system font that has the glyphs), so Chinese, Japanese and
Korean names render instead of empty boxes. Knows nothing of rule sets or of the command line.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from pipeline import reports
from pipeline.audit import periods as periods_mod
from pipeline.output import folder as outputs
from pipeline.reports import ReportError

if TYPE_CHECKING:
    from collections.abc import Callable

    from matplotlib.axes import Axes

    _Painter = Callable[[Axes], None]

#: Characters a CJK font must have to be chosen: Simplified and Traditional Chinese, kana, hangul.
CJK_PROBE = "羽焰凝兰阿扬宜城老僧陳志明鄭龍ひらがなカタカナ한국어"
#: The font file in the ``mplfonts`` package (Noto Sans CJK SC: every CJK ideograph, kana and hangul).
PACKAGED_FONT = ("mplfonts", "fonts/NotoSansCJKsc-Regular.otf")
SIZE_INCHES = (10.0, 6.0)
DPI = 100  # SIZE_INCHES x DPI: a 1000 x 600 pixel PNG
_MAX_TICKS = 12  # more periods than this: label every n-th period end only


class PlotError(RuntimeError):
    """A chart cannot be drawn on this machine: no font with CJK glyphs is installed."""


def cjk_font() -> Path:
    """The file of a font that has every character of :data:`CJK_PROBE`, registered with matplotlib.

    The font the ``mplfonts`` package ships when it is installed, else the first system font matplotlib
    finds whose character map covers the probe. Registering is idempotent.

    Raises:
        PlotError: if no such font is installed (the message says how to get one).
    """
    from matplotlib import font_manager

    path = _packaged_font() or _system_cjk_font()
    if path is None:
        raise PlotError(
            f"no font with Chinese, Japanese and Korean glyphs ({CJK_PROBE}) is installed: "
            "`pip install mplfonts` (a dependency of sgf-ratings) or install a system CJK font"
        )
    if not any(entry.fname == str(path) for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(path))
    return path


def covered(font: Path, text: str) -> str:
    """The characters of ``text`` (white space aside) that ``font`` has no glyph for, in order, once each."""
    from matplotlib.ft2font import FT2Font

    charmap = FT2Font(str(font)).get_charmap()
    missing = dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in charmap)
    return "".join(missing)


def history(out: Path, players: list[str]) -> dict[str, list[tuple[dt.date, float]]]:
    """The rating history of ``players``: canonical name -> ``(date, rating)`` points in time order.

    A player's points are the rating they began their first rated period with, dated its first day
    (when the table records one), then their rating at the last day of every rated period that holds them.

    Args:
        out: an output folder written by ``ratings run``.
        players: names or aliases as the records spell them (any case or width, as
            :func:`pipeline.config.roster.name_key` compares them); a name spelling two players gives both;
            repeats are given once.

    Returns:
        One entry per player, in the order named.

    Raises:
        ReportError: if ``out`` holds no output, ``players`` is empty, a name is no player of the records,
            or a player has no rating in any period.
    """
    games = reports.read_games(out, columns=["black", "white", "black_player", "white_player"])
    if not players:
        raise ReportError("name at least one player to draw a rating history")
    tables = {label: _ratings(out, label) for label in reports.rated_periods(out)}
    names = list(dict.fromkeys(n for player in players for n in _canonical(games, player, out)))
    series = {name: _history(tables, name) for name in names}
    for name, points in series.items():
        if not points:
            raise ReportError(f"player {name!r} has no rating in {out} (no counted game in a rated period)")
    return series


def history_chart(out: Path, players: list[str], target: Path) -> Path:
    """Draw :func:`history` as a PNG: a line with a point per period end for each player, a legend of
    their names, the dates on the x axis (ticks at the rated periods' last days).

    Args:
        out: an output folder written by ``ratings run``.
        players: names or aliases, as :func:`history` takes them.
        target: the PNG file to write (its folder is created).

    Returns:
        ``target``.

    Raises:
        ReportError: as :func:`history` does.
        PlotError: if no CJK font is installed.
    """
    series = history(out, players)
    rated = reports.rated_periods(out)
    span = f"{rated[0]} to {rated[-1]}" if len(rated) > 1 else rated[0]
    return _draw(target, lambda ax: _draw_history(ax, series, rated, f"Rating history, {span}"))


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
            raise ReportError(f"no rated period in {out}: no game was counted, so no distribution")
        period = rated[-1]
    return period, sorted(float(r) for r in table["rating"])


def distribution_chart(out: Path, period: str | None, target: Path) -> Path:
    """Draw :func:`distribution` as a PNG: a histogram of the ratings, the median marked.

    Args:
        out: an output folder written by ``ratings run``.
        period: a rated period's label (``2024-05``), or None for the latest.
        target: the PNG file to write (its folder is created).

    Returns:
        ``target``.

    Raises:
        ReportError: as :func:`distribution` does.
        PlotError: if no CJK font is installed.
    """
    label, ratings = distribution(out, period)
    title = f"Rating distribution at the end of {label} ({len(ratings)} players)"
    return _draw(target, lambda ax: _draw_distribution(ax, ratings, title))


def _packaged_font() -> Path | None:
    """The ``mplfonts`` package's font file, found without importing the package; None if absent."""
    package, relative = PACKAGED_FONT
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / relative
        if path.is_file():
            return path
    return None


def _system_cjk_font() -> Path | None:
    """The first system font file (by path) whose character map has every :data:`CJK_PROBE` character."""
    from matplotlib import font_manager

    for name in sorted(font_manager.findSystemFonts()):
        try:
            if not covered(Path(name), CJK_PROBE):
                return Path(name)
        except (OSError, RuntimeError, ValueError):  # a file FreeType cannot read
            continue
    return None


def _ratings(out: Path, label: str) -> pd.DataFrame:
    """The ``player``, ``rating`` and ``rating_before`` columns of ``out``'s ratings table of ``label``."""
    path = outputs.partition_path(out, "ratings", label)
    return pd.read_parquet(path, columns=["player", "rating", "rating_before"])


def _canonical(games: pd.DataFrame, player: str, out: Path) -> list[str]:
    """The canonical names that ``player`` spells in the records (sorted).

    Raises ReportError if it spells none.
    """
    return sorted(reports.players_named(games, player, out))


def _history(tables: dict[str, pd.DataFrame], name: str) -> list[tuple[dt.date, float]]:
    """``(date, rating)`` points of ``name``: the start of the first period holding them, then each end."""
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


def _draw(target: Path, paint: _Painter) -> Path:
    """Make a figure, let ``paint`` fill its one axes under the CJK font, write it to ``target`` as PNG."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    family = _family(cjk_font())
    target.parent.mkdir(parents=True, exist_ok=True)
    fonts = [family, "DejaVu Sans"]  # the CJK font has Latin letters too; DejaVu only if it lacks one
    with matplotlib.rc_context({"font.family": "sans-serif", "font.sans-serif": fonts, "font.size": 11}):
        figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained")
        FigureCanvasAgg(figure)  # the Agg canvas, for this figure only
        paint(figure.add_subplot())
        figure.savefig(target, format="png", dpi=DPI)
    return target


def _family(font: Path) -> str:
    """The family name matplotlib knows ``font`` by."""
    from matplotlib import font_manager

    return str(font_manager.get_font(str(font)).family_name)


def _draw_history(
    ax: Axes, series: dict[str, list[tuple[dt.date, float]]], rated: list[str], title: str
) -> None:
    """One line with markers per player; ticks at the rated periods' last days, labelled with the dates."""
    from matplotlib.dates import date2num

    for name, points in series.items():
        days, values = zip(*points, strict=True)
        ax.plot(days, values, marker="o", linewidth=2, label=name)
    ends = [periods_mod.bounds(label)[1] for label in rated]
    step = -(-len(ends) // _MAX_TICKS)  # ceiling: at most _MAX_TICKS labelled period ends
    shown = [periods_mod.bounds(rated[0])[0], *ends[::step]]  # the first line points start on day one
    ticks = date2num(shown)  # type: ignore[no-untyped-call]  # matplotlib's stubs leave it untyped
    ax.set_xticks(ticks, [d.isoformat() for d in shown], rotation=30, ha="right")
    ax.set_xlabel("date (a point at the end of each rating period)")
    ax.set_ylabel("rating")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(title="player", loc="best")


def _draw_distribution(ax: Axes, ratings: Iterable[float], title: str) -> None:
    """A histogram of ``ratings`` with the median marked (in the legend with its value)."""
    from matplotlib.ticker import MaxNLocator

    values = sorted(ratings)
    if values:
        ax.hist(values, bins="auto", color="tab:blue", edgecolor="white", label="players")
        middle = len(values) // 2
        median = values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
        ax.axvline(median, color="tab:red", linestyle="--", label=f"median {median:g}")
        ax.legend(loc="best")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rating")
    ax.set_ylabel("players")
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
