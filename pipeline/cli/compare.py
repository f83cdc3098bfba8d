"""cli.compare: the ``ratings compare`` command: two configurations in, the library's comparison rendered
as tables fitted to the terminal, or one of its tables as CSV or JSON. Knows nothing of how the sides are
rated or compared (:mod:`pipeline.reports.compare`, imported when the command runs).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from pipeline import config as config_mod
from pipeline.cli.common import ConfigOpt, Format, FormatOpt, PeriodOpt, WideOpt, console, fail
from pipeline.cli.diff import translated
from pipeline.cli.lock import NoWaitOpt
from pipeline.cli.run import writing
from pipeline.cli.tables import (
    Column,
    column_texts,
    fitted,
    missing,
    print_frame,
    print_frames,
    print_table,
    unsigned_zero,
)
from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports.numbers import number_format

if TYPE_CHECKING:
    import pandas as pd

    from pipeline.reports import compare as compare_mod


class Shown(StrEnum):
    """The table of the comparison printed (all of them, as tables, when none is chosen)."""

    periods = "periods"
    players = "players"
    movers = "movers"
    prediction = "prediction"


RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", metavar="NAME", help=N_("Rule set of side A (default: the configured one)")),
]
AgainstOpt = Annotated[
    str | None,
    typer.Option("--against", metavar="NAME", help=N_("Rule set of side B (default: side A's)")),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help=N_("A [rules], [validity] or period setting of side A (repeatable)"),
    ),
]
AgainstSetOpt = Annotated[
    list[str] | None,
    typer.Option("--against-set", metavar="KEY=VALUE", help=N_("The same, for side B (repeatable)")),
]
RawOpt = Annotated[
    Path | None, typer.Option("--raw", metavar="DIR", help=N_("Folder of SGF records, read recursively"))
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help=N_("Output folder whose cache is used; alone (no --config), the run's recorded setup"),
    ),
]
TopOpt = Annotated[int, typer.Option("--top", metavar="N", min=1, help=N_("Movers shown in the table"))]
TableOpt = Annotated[
    Shown | None,
    typer.Option(
        "--table",
        metavar="NAME",
        help=N_("periods, players, movers or prediction: that table only (csv, json: default periods)"),
    ),
]

PERIODS_TABLE = (
    Column(N_("period")),
    Column(N_("games A"), right=True, drop=2),
    Column(N_("games B"), right=True, drop=2),
    Column(N_("players"), right=True, drop=3),
    Column(N_("only A"), right=True, drop=4),
    Column(N_("only B"), right=True, drop=4),
    Column(N_("moved"), right=True),
    Column(N_("ranks"), right=True, drop=1),
    Column(N_("promotions"), right=True, drop=5),
    Column(N_("largest"), right=True, drop=1),
    Column(N_("tau"), right=True),
)
MOVERS_TABLE = (
    Column(N_("player"), names=True),
    Column(N_("place A"), right=True),
    Column(N_("place B"), right=True),
    Column(N_("moved"), right=True),
    Column(N_("rank A"), drop=2),
    Column(N_("rank B"), drop=2),
    Column(N_("rating A"), right=True, drop=2),
    Column(N_("rating B"), right=True, drop=3),
    Column(N_("B - A"), right=True, drop=1),
    Column(N_("largest (period)"), drop=4),
)
PREDICTION_TABLE = (
    Column(N_("side")),
    Column(N_("configuration"), wrap=True),
    Column(N_("scored"), right=True),
    Column(N_("higher-rated wins"), right=True, drop=1),
    Column(N_("log-loss"), right=True),
    Column(N_("Brier"), right=True, drop=2),
)


def compare_command(
    rules: RulesOpt = None,
    against: AgainstOpt = None,
    set_: SetOpt = None,
    against_set: AgainstSetOpt = None,
    period: PeriodOpt = None,
    top: TopOpt = 10,
    table: TableOpt = None,
    fmt: FormatOpt = Format.table,
    wide: WideOpt = False,
    config: ConfigOpt = None,
    raw: RawOpt = None,
    out: OutOpt = None,
    no_wait: NoWaitOpt = False,
) -> None:
    """Compare two configurations on the same games: who changes place, rank or promotion, by how much,
    the rank-order agreement (Kendall's tau) and which predicts the results better.

    Side A runs --rules (default: the configured rule set) with the --set settings, side B runs --against
    (default: side A's rule set) with the --against-set settings. KEY=VALUE sets period, a [validity] key
    (opponent_cap, draw, ...) or a [rules] parameter (k, epsilon, stage_weights, ...); VALUE is a TOML
    value or plain text, "default" restores the rule set's default. The configuration's [validity],
    period and [rules] apply to the configured rule set only. Both sides are audited and rated in memory
    from the ingest cache: the output folder's snapshots are not changed. With --out alone (no --config)
    the run's recorded setup is used: its raw folder, rule set, settings, roster and events.

    Per period and overall (each side's final standings): players rated by both or one side, how many
    changed place (moved: places higher under B), rank or promotions, the largest move, and tau. Ratings
    are compared only when both sides are on one scale. The prediction is ratings backtest's scoring on
    the decisive games both rated; under 200 it says there are too few to tell. --period P lists the
    movers of P instead of the overall ones. --table prints one table (players: every changed player);
    --format csv or json writes that table with every column (default: periods).

    Example: ratings compare --rules club --against hkga
    Example: ratings compare --rules cga --set k=10 --against-set k=20
    Example: ratings compare --against-set opponent_cap=3 --table movers
    """
    from pipeline.reports import compare as compare_mod

    settings = _settings(config, raw, out)
    try:
        a = compare_mod.side(
            settings, rules, compare_mod.parse_assignments(set_ or [], "--set"), ("--rules", "--set")
        )
        b = compare_mod.side(
            settings,
            against or a.plan.rule_set,
            compare_mod.parse_assignments(against_set or [], "--against-set"),
            ("--against", "--against-set"),
        )
    except config_mod.ConfigError as e:
        fail(str(e), 2)
    with writing(settings, no_wait) as (options, steps):
        result = compare_mod.compare(a, b, options, steps)
    if period is not None and period not in set(result.periods["period"]):
        known = ", ".join(result.periods["period"])
        fail(
            _("--period {period!r}: not a period both sides rated (compared: {known})").format(
                period=period, known=known
            ),
            2,
        )
    chosen = result.movers_in(period) if period else result.movers
    if fmt is not Format.table:
        if table is Shown.players and period is None:
            print_frames(result.rows.frames(), fmt)  # (a period at a time: a server's has millions)
        else:
            print_frame(_frame(result, chosen, table or Shown.periods, period), fmt)
        return
    render(result, chosen, table, top, wide, period, (a.plan.rule_set, b.plan.rule_set))


def _settings(path: Path | None, raw: Path | None, out: Path | None) -> config_mod.RunConfig:
    """The configuration, or with ``--out`` alone the setup the run recorded there (:func:`run_setup`)."""
    from pipeline.cli.common import run_setup

    return run_setup(path, raw, out)


def _frame(
    result: compare_mod.Comparison, chosen: pd.DataFrame, shown: Shown, period: str | None
) -> pd.DataFrame:
    """The table ``shown`` as a frame for CSV or JSON (the players of ``period`` only when given)."""
    if shown is Shown.players:
        return result.players if period is None else result.rows.of(period)
    if shown is Shown.movers:
        return chosen
    if shown is Shown.prediction:
        return result.verdict.scores.assign(verdict=result.verdict.better)
    return result.periods


def render(
    result: compare_mod.Comparison,
    chosen: pd.DataFrame,
    table: Shown | None,
    top: int,
    wide: bool,
    period: str | None,
    rule_sets: tuple[str, str] = ("unknown", "unknown"),
) -> None:
    """Print the tables of the comparison (``table`` alone when given), the movers of ``period`` (None:
    overall; the first ``top`` of them but with ``table`` players), the verdict and the warnings; every
    column with ``wide``; each side's ratings as its rule set (of ``rule_sets``) writes them."""
    shown = console()
    title = _("compare: A = {a}, B = {b}").format(a=result.labels["a"], b=result.labels["b"])
    say = shown.print
    if table in (None, Shown.periods):
        print_table(fitted(title, translated(PERIODS_TABLE), period_cells(result.periods), shown.width, wide))
    if table in (None, Shown.movers, Shown.players):
        listed = chosen if table is Shown.players else chosen.head(top)
        movers = mover_cells(listed, rule_sets)
        print_table(
            fitted(_movers_title(result, chosen, period), translated(MOVERS_TABLE), movers, shown.width, wide)
        )
    if table in (None, Shown.prediction):
        title = _("prediction (ratings backtest's scoring)")
        print_table(fitted(title, translated(PREDICTION_TABLE), prediction_cells(result), shown.width, wide))
        say(Text(result.verdict.text))
    for warning in result.warnings:
        say(Text(_("warning: "), style="yellow") + Text(warning))


def _movers_title(result: compare_mod.Comparison, chosen: pd.DataFrame, period: str | None) -> str:
    """``largest movers in 2024-06 (of 9 changed)``, saying when the ratings are on two scales."""
    n = len(chosen)
    if period:
        title = ngettext(
            "largest movers in {period} (of {n} changed)", "largest movers in {period} (of {n} changed)", n
        )
    else:
        title = ngettext("largest movers (of {n} changed)", "largest movers (of {n} changed)", n)
    title = title.format(period=period, n=n)
    return title if result.same_scale else _("{title}; ratings on two scales").format(title=title)


def period_cells(frame: pd.DataFrame) -> list[list[str]]:
    """The cells of the periods table: counts (a zero of only A, only B and promotions left blank, so an
    empty column leaves), the largest move signed, tau to three places."""
    texts = {c: column_texts(frame[c]) for c in ("games_a", "games_b", "players", "moved", "rank_changed")}
    sparse = {
        c: [t if t != "0" else "" for t in column_texts(frame[c])]
        for c in ("only_a", "only_b", "promotion_changed")
    }
    largest = column_texts(frame["largest"], signed=True)
    tau = ["" if v != v else unsigned_zero(f"{v:.3f}") for v in frame["tau"]]
    order = [
        "games_a",
        "games_b",
        "players",
        "only_a",
        "only_b",
        "moved",
        "rank_changed",
        "promotion_changed",
    ]
    columns = {**texts, **sparse}
    return [
        [_period(p), *(columns[c][i] for c in order), largest[i], tau[i]]
        for i, p in enumerate(frame["period"])
    ]


def mover_cells(frame: pd.DataFrame, rule_sets: tuple[str, str] = ("unknown", "unknown")) -> list[list[str]]:
    """The cells of the movers table: places, the move (or which side alone rated the player), ranks,
    ratings as each side's rule set (of ``rule_sets``) writes them (:mod:`pipeline.reports.numbers`),
    the rating difference on one scale (as side A's), the largest move in one period."""
    a, b = (number_format(r) for r in rule_sets)
    ratings = {c: [w.rating(_float(v)) for v in frame[c]] for c, w in (("rating_a", a), ("rating_b", b))}
    diff = [a.delta(_float(v)) for v in frame["rating_diff"]]
    rows = []
    for i, row in enumerate(frame.to_dict("records")):
        rows.append(
            [str(row["player"]), _int(row["place_a"]), _int(row["place_b"]), _moved(row),
             _text(row["rank_a"]), _text(row["rank_b"]), ratings["rating_a"][i], ratings["rating_b"][i],
             diff[i], _largest(row)]
        )  # fmt: skip
    return rows


def prediction_cells(result: compare_mod.Comparison) -> list[list[str]]:
    """One row per side: its label, the games scored (too few marked), the three scores."""
    rows = []
    for row in result.verdict.scores.to_dict("records"):
        scored = _("{n} (too few)").format(n=row["n"]) if row["too_few"] and row["n"] else str(row["n"])
        scores = [_number(row[k]) for k in ("higher_rated_wins", "log_loss", "brier")]
        rows.append([str(row["side"]).upper(), str(row["label"]), scored, *scores])
    return rows


def _moved(row: Mapping[Hashable, Any]) -> str:
    if row["side"] != "both":
        return _("only {side}").format(side=str(row["side"]).upper())
    return unsigned_zero(f"{int(row['moved']):+d}")


def _largest(row: Mapping[Hashable, Any]) -> str:
    if missing(row["largest"]) or int(row["largest"]) == 0:
        return ""
    return f"{int(row['largest']):+d} ({_period(row['largest_in'])})"


def _period(label: Any) -> str:
    """A period label, the overall row's in words (:data:`pipeline.reports.compare.OVERALL`)."""
    return _("overall") if str(label) == "overall" else str(label)


def _float(value: Any) -> float | None:
    return None if missing(value) else float(value)


def _int(value: Any) -> str:
    return "" if missing(value) else str(int(value))


def _text(value: Any) -> str:
    return "" if missing(value) else str(value)


def _number(value: Any) -> str:
    return "" if missing(value) else f"{float(value):.4f}"
