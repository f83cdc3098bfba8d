"""cli.explain: the ``ratings explain`` command, rendering :func:`pipeline.reports.explain.explain` with rich.

Turns the options into a query (the roster of the configuration, when one is read, supplies aliases
the records never used), prints the equation on one unbroken line, the games in a table, the games not
counted with their reasons, the awards and promotions; maps :class:`~pipeline.reports.ReportError`
(unknown player or period) and a bad configuration to exit status 2. Knows nothing of how the
explanation is built (:mod:`pipeline.reports.explain`, imported when the command runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.cells import cell_len
from rich.text import Text

from pipeline.cli.common import ConfigOpt, OutOpt, PeriodOpt, console, fail, output_folder, roster_of

if TYPE_CHECKING:
    from pipeline.reports import explain as explain_mod


def explain_command(
    player: Annotated[
        str,
        typer.Argument(metavar="NAME", hidden=True, help="Player name or alias (see the description)"),
    ],
    period: PeriodOpt = None,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Explain a player's rating in a period: the equation from the start to the end, each counted game
    with its opponent, result, speed and points, the games not counted and why, and the period's awards
    and promotions.

    The period defaults to the latest in which the player's rating or rank changed, or they had counted
    games or awards. NAME matches a roster alias or any spelling the records used, in any case or width;
    an unknown name gets the closest names as suggestions.

    Example: ratings explain 羽焰 --period 2024-05
    """
    from pipeline.reports import ReportError
    from pipeline.reports import explain as explain_mod

    folder = output_folder(out, config)
    try:
        found = explain_mod.explain(folder, player, period, roster_of(out, config))
    except ReportError as e:
        fail(str(e), 2)
    render(found)


def render(found: explain_mod.Explanation) -> None:
    """Print ``found``: title, summary, equation, workings, then one line per counted game, per game
    not counted, per award and per promotion. Lines are never wrapped."""
    shown = console()

    def say(text: str, style: str = "") -> None:
        shown.print(Text(text, style=style), soft_wrap=True)

    say(f"{found.player}, {found.period} ({found.rule_set})", "bold")
    say(found.summary)
    say(found.equation, "bold")
    for line in found.workings:
        say(f"  {line}")
    say(f"counted games ({len(found.games)}):" if found.games else f"no counted games in {found.period}")
    for line in aligned([game_cells(g) for g in found.games]):
        say(f"  {line}")
    if found.not_counted:
        say(f"not counted ({len(found.not_counted)}):")
        for line in aligned([excluded_cells(g) for g in found.not_counted]):
            say(f"  {line}")
    for title, lines in (("awards", found.awards), ("promotions", found.promotions)):
        if lines:
            say(f"{title}:")
            for line in lines:
                say(f"  {line}")


def game_cells(game: explain_mod.GameLine) -> list[str]:
    """date, colour, result, opponent (rank), speed, event, points, working."""
    opponent = f"vs {game.opponent}" + (f" ({game.opponent_rank})" if game.opponent_rank else "")
    cells = [str(game.date), game.color, game.result, opponent, game.speed or "", game.event or ""]
    cells.append(game.points_text)
    return [*cells, game.working]


def excluded_cells(game: explain_mod.Excluded) -> list[str]:
    """date, colour, result, opponent, speed, source, reasons: why."""
    date = "" if game.date is None else str(game.date)
    why = f"{', '.join(game.reasons)}: {game.why}"
    return [date, game.color, game.result, f"vs {game.opponent}", game.speed or "", game.source, why]


def aligned(rows: list[list[str]]) -> list[str]:
    """``rows`` as lines, each column padded to its widest cell (terminal cells: CJK counts two);
    empty columns dropped, the last column left unpadded."""
    if not rows:
        return []
    keep = [i for i in range(len(rows[0])) if any(row[i] for row in rows)]
    widths = {i: max(cell_len(row[i]) for row in rows) for i in keep}
    lines = []
    for row in rows:
        cells = [row[i] + " " * (widths[i] - cell_len(row[i])) for i in keep[:-1]] + [row[keep[-1]]]
        lines.append("  ".join(cells).rstrip())
    return lines
