"""cli.explain: the ``ratings explain`` command, rendering :func:`pipeline.reports.explain.explain` with rich.

Turns the options into a query (the roster of the configuration, when one is read, supplies aliases
the records never used), prints the equation, the games with their workings, the games not counted
with their reasons, the awards and promotions, every line fitted to the terminal's width without
cutting a value; maps :class:`~pipeline.reports.ReportError`
(unknown player or period) and a bad configuration to exit status 2. Knows nothing of how the
explanation is built (:mod:`pipeline.reports.explain`, imported when the command runs).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated

import typer
from rich.cells import cell_len
from rich.text import Text

from pipeline.cli import progress
from pipeline.cli.common import ConfigOpt, OutOpt, PeriodOpt, console, fail, output_folder, roster_of
from pipeline.cli.wrapping import hanging, wrap
from pipeline.core.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from pipeline.reports import explain as explain_mod

_TERM = re.compile(r" (?=[+−] )")  # where an equation may break: before a term's sign
#: The words of a game's values (colour, result, speed), translated where they are shown.
_WORDS = {
    ("color", "B"): N_("B"),
    ("color", "W"): N_("W"),
    ("result", "win"): N_("win"),
    ("result", "loss"): N_("loss"),
    ("result", "draw"): N_("draw"),
    ("result", "no result"): N_("no result"),
    ("speed", "fast"): N_("fast"),
    ("speed", "slow"): N_("slow"),
}


def word(sense: str, value: str) -> str:
    """A game's ``value`` (a colour, a result, a speed: ``sense``) in the language spoken; another
    value as it is."""
    return _(_WORDS[(sense, value)]) if (sense, value) in _WORDS else value


def explain_command(
    player: Annotated[
        str,
        typer.Argument(metavar="NAME", hidden=True, help=N_("Player name or alias (see the description)")),
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
        with (
            progress.shown() as steps,
            steps.step(_("reading {player}'s games and changes").format(player=player)),
        ):
            found = explain_mod.explain(folder, player, period, roster_of(out, config))
    except ReportError as e:
        fail(str(e), 2)
    render(found)


def render(found: explain_mod.Explanation) -> None:
    """Print ``found``: title, summary, equation, workings, then the counted games, the games not
    counted, the awards and the promotions, fitted to the terminal's width (:func:`explanation_lines`)."""
    shown = console()
    for text, style in explanation_lines(found, shown.width):
        shown.print(Text(text, style=style), soft_wrap=True)


def explanation_lines(found: explain_mod.Explanation, width: int) -> list[tuple[str, str]]:
    """``found`` as (line, rich style) pairs of at most ``width`` cells, broken only at spaces (a
    value never cut): the equation between its terms (:func:`equation_lines`), a game on one line with
    its columns aligned when every game fits so, else its working on the lines below it (:func:`rows`);
    a line of prose continues indented."""
    title = _("{player}, {period} ({rule_set})").format(
        player=found.player, period=found.period, rule_set=found.rule_set
    )
    lines: list[tuple[str, str]] = [(t, "bold") for t in hanging(title, width, 0, 2)]
    lines += [(t, "") for t in hanging(found.summary, width, 0, 2)]
    lines += [(t, "bold") for t in equation_lines(found.equation, width)]
    lines += [(t, "") for w in found.workings for t in hanging(w, width, 2, 2)]
    if found.games:
        games = ngettext("counted game ({n}):", "counted games ({n}):", len(found.games)).format(
            n=len(found.games)
        )
    else:
        games = _("no counted games in {period}").format(period=found.period)
    lines += [(games, ""), *((t, "") for t in rows([game_cells(g) for g in found.games], width))]
    if found.not_counted:
        lines.append((_("not counted ({n}):").format(n=len(found.not_counted)), ""))
        lines += [(t, "") for t in rows([excluded_cells(g) for g in found.not_counted], width, 5)]
    for title, items in ((_("awards:"), found.awards), (_("promotions:"), found.promotions)):
        if items:
            lines.append((title, ""))
            lines += [(t, "") for item in items for t in hanging(item, width, 2, 2)]
    return lines


def equation_lines(equation: str, width: int) -> list[str]:
    """``equation`` on one line when it fits ``width`` cells, else broken before a ``+`` or ``−``
    term (a term too long for a line at its spaces), the lines after the first indented under the
    right-hand side."""
    if cell_len(equation) <= width:
        return [equation]
    first, *terms = _TERM.split(equation)
    indent = " " * min(cell_len(first.split(" = ")[0]) + 3, width // 3)
    lines = [first]
    for piece in terms:
        if cell_len(f"{lines[-1]} {piece}") <= width:
            lines[-1] += f" {piece}"
        else:
            lines += [indent + part for part in wrap(piece, width - len(indent))]
    return lines


def rows(cells: list[list[str]], width: int, keep: int = 7) -> list[str]:
    """Lines of ``cells`` indented two spaces, columns aligned (:func:`aligned`): one per row when
    every row fits ``width`` cells so; else each row's first ``keep`` cells aligned on a line and the
    others below it, indented six and wrapped at spaces (a path after a ``/`` too)."""
    whole = aligned(cells)
    if all(cell_len(line) + 2 <= width for line in whole):
        return [f"  {line}" for line in whole]
    found = []
    for row, head in zip(cells, aligned([r[:keep] for r in cells]), strict=True):
        found += [f"  {head}"] if cell_len(head) + 2 <= width else hanging(head, width, 2, 4)
        rest = "  ".join(c for c in row[keep:] if c)
        found += hanging(rest, width, 6, 2, paths=True) if rest else []
    return found


def game_cells(game: explain_mod.GameLine) -> list[str]:
    """date, colour, result, opponent (rank), speed, event, points, working."""
    opponent = _("vs {opponent}").format(opponent=game.opponent)
    opponent += f" ({game.opponent_rank})" if game.opponent_rank else ""
    speed = word("speed", game.speed) if game.speed else ""
    cells = [str(game.date), word("color", game.color), word("result", game.result), opponent, speed]
    cells.append(game.event or "")
    cells.append(game.points_text)
    return [*cells, game.working]


def excluded_cells(game: explain_mod.Excluded) -> list[str]:
    """date, colour, result, opponent, speed, source, reasons: why."""
    date = "" if game.date is None else str(game.date)
    why = _("{codes}: {why}").format(codes=", ".join(game.reasons), why=game.why)
    speed = word("speed", game.speed) if game.speed else ""
    opponent = _("vs {opponent}").format(opponent=game.opponent)
    return [date, word("color", game.color), word("result", game.result), opponent, speed, game.source, why]


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
