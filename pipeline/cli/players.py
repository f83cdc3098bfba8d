"""cli.players: the ``ratings players`` command: the players of the output, or (``--suggest``) the likely
same-person pairs with their evidence, and a roster snippet to review.

Renders :mod:`pipeline.reports.identity` as tables fitted to the terminal (``--format csv|json`` for
scripts) and writes the snippet to ``--snippet FILE`` or, after the table, to standard output; maps
:class:`~pipeline.reports.ReportError` and a bad configuration to exit status 2. Never changes the
roster. Knows nothing of how the evidence is found.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.cells import cell_len

from pipeline.cli.common import (
    ConfigOpt,
    Format,
    FormatOpt,
    OutOpt,
    WideOpt,
    console,
    fail,
    output_folder,
    roster_of,
)
from pipeline.cli.diff import translated
from pipeline.cli.tables import Column, cell_text, print_fitted, print_frame
from pipeline.cli.wrapping import wrap
from pipeline.core import i18n
from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports import identity

if TYPE_CHECKING:
    import pandas as pd

PLAYERS_TABLE = (
    Column(N_("player"), names=True),
    Column(N_("games"), right=True),
    Column(N_("counted"), right=True, drop=2),
    Column(N_("first")),
    Column(N_("last")),
    Column(N_("ranks"), wrap=True, drop=1),
    Column(N_("roster rank"), drop=3),
    Column(N_("spellings"), names=True, drop=4),
)
PAIRS_TABLE = (
    Column(N_("group"), right=True),
    Column(N_("player"), names=True),
    Column(N_("same as"), names=True),
    Column(N_("score"), right=True),
    Column(N_("evidence"), wrap=True),
    Column(N_("against"), wrap=True, drop=1),
    Column(N_("records"), right=True, wide=True),
)


def players_command(
    suggest: Annotated[
        bool, typer.Option("--suggest", help=N_("List likely same-person pairs and write a roster snippet"))
    ] = False,
    snippet: Annotated[
        Path | None,
        typer.Option(
            "--snippet", metavar="FILE", help=N_("With --suggest: write the roster snippet to FILE")
        ),
    ] = None,
    min_score: Annotated[
        float,
        typer.Option(
            "--min-score",
            metavar="S",
            help=N_("With --suggest: the least score (0-1) of a grouped pair (default 0.5)"),
        ),
    ] = identity.MIN_SCORE,
    fmt: FormatOpt = Format.table,
    wide: WideOpt = False,
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """List the players of the output: records, counted games, first and last dates, declared ranks and
    the spellings the records used.

    With --suggest, list instead the pairs of players that are likely one person, best first, each with
    its evidence and a score from 0 to 1: the same name in another case or width, in traditional and
    simplified Chinese, with a romanisation or country code appended, a nickname beside the name, the
    same opponents in the same weeks without ever playing each other, the same declared rank. Pairs that
    played each other are listed with that against them (score 0). Pairs of --min-score or more make
    groups, written as roster entries (name and aliases) to review and paste into the roster file: to
    --snippet FILE, else after the table. Nothing is merged.

    Example: ratings players
    Example: ratings players --suggest --snippet aliases.toml
    """
    from pipeline.reports import ReportError

    if snippet is not None and not suggest:
        fail(_("--snippet needs --suggest"), 2)
    if not 0.0 <= min_score <= 1.0:
        fail(_("--min-score must be between 0 and 1, got {score}").format(score=min_score), 2)
    folder = output_folder(out, config)
    roster = roster_of(out, config)
    try:
        if not suggest:
            _print_players(identity.list_players(folder, roster), folder, fmt, wide)
            return
        if fmt is Format.table:
            found = identity.suggest(folder, roster, min_score=min_score)
        else:  # the evidence of CSV and JSON in English, whatever the language: the data
            with i18n.speaking(i18n.ENGLISH):
                found = identity.suggest(folder, roster, min_score=min_score)
    except ReportError as e:
        fail(str(e), 2)
    _print_pairs(found, folder, fmt, wide)
    if found.groups or snippet is not None:
        if fmt is not Format.table and snippet is not None and i18n.current() != i18n.ENGLISH:
            found = identity.suggest(folder, roster, min_score=min_score)  # the snippet's evidence is read
        _write_snippet(identity.roster_snippet(found, roster, str(folder)), snippet, fmt)


def _print_players(table: pd.DataFrame, folder: Path, fmt: Format, wide: bool) -> None:
    if fmt is not Format.table:
        print_frame(table, fmt)
        return
    rows = [
        [
            *(cell_text(r[k]) for k in ("player", "games", "counted", "first", "last")),
            ", ".join(r["ranks"]),
            cell_text(r["roster_rank"]),
            ", ".join(r["spellings"]),
        ]
        for r in table.to_dict("records")
    ]
    print_fitted(_("players: {folder}").format(folder=folder), translated(PLAYERS_TABLE), rows, wide)
    console().print(ngettext("{n} player", "{n} players", len(table)).format(n=len(table)))


def _print_pairs(found: identity.Suggestions, folder: Path, fmt: Format, wide: bool) -> None:
    if fmt is not Format.table:
        print_frame(found.pairs, fmt)
        return
    shown = console()
    if found.pairs.empty:
        said = ngettext(
            "players --suggest: {folder}: no likely same-person pair among {n} player",
            "players --suggest: {folder}: no likely same-person pair among {n} players",
            len(found.players),
        )
        shown.print(said.format(folder=folder, n=len(found.players)))
        _print_skipped(found.skipped)
        return
    rows = [
        [
            str(p["group"] or ""),
            p["a"],
            p["b"],
            f"{p['score']:.2f}",
            "\n".join(p["evidence"]),
            "\n".join(p["against"]),
            f"{p['games_a']} / {p['games_b']}",
        ]
        for p in found.pairs.to_dict("records")
    ]
    print_fitted(_("players --suggest: {folder}").format(folder=folder), translated(PAIRS_TABLE), rows, wide)
    pairs = ngettext("{n} pair", "{n} pairs", len(found.pairs)).format(n=len(found.pairs))
    players = ngettext("{n} player", "{n} players", len(found.players)).format(n=len(found.players))
    groups = ngettext("{n} group to review", "{n} groups to review", len(found.groups)).format(
        n=len(found.groups)
    )
    shown.print(_("{pairs} of {players}, {groups}").format(pairs=pairs, players=players, groups=groups))
    _print_skipped(found.skipped)


def _print_skipped(skipped: pd.DataFrame) -> None:
    """One line per bucket too crowded to pair."""
    for row in skipped.to_dict("records"):
        said = _("not compared: {key!r} ({evidence}) is shared by {n} players")
        console().print(said.format(key=row["key"], evidence=_evidence(row["evidence"]), n=row["players"]))


#: The buckets' evidence (the skipped frames' ``evidence``) in words.
_BUCKETS = {
    "name case_width": N_("name in another case or width"),
    "name script": N_("name in another script"),
    "name tail": N_("name with an appended part"),
    "name nickname": N_("nickname"),
    "name romanisation": N_("pinyin"),
    "co_opponents": N_("same opponents in the same week"),
}


def _evidence(code: str) -> str:
    return _(_BUCKETS[code]) if code in _BUCKETS else code


def fold_long_lines(text: str, width: int) -> str:
    """``text`` (TOML) with each line wider than ``width`` cells folded where TOML allows: a comment
    wrapped at its spaces or after a path's ``/`` (the lines after the first indented two more), an
    array of strings one item a line; other lines as they are (a value is never broken)."""
    lines = []
    for line in text.split("\n"):
        if cell_len(line) <= width:
            lines.append(line)
        elif line.startswith("#") and line.lstrip("# "):
            body = line.lstrip("# ")
            indent = line[: len(line) - len(body)]
            first, *rest = wrap(body, max(1, width - cell_len(indent) - 2), paths=True)
            lines += [indent + first, *(f"{indent}  {part}" for part in rest)]
        else:
            lines += _array_lines(line)
    return "\n".join(lines)


def _array_lines(line: str) -> list[str]:
    """A TOML ``key = [strings]`` line as a multi-line array, one string a line; else the line."""
    import json
    import tomllib

    try:
        ((key, values),) = tomllib.loads(line).items()
    except (tomllib.TOMLDecodeError, ValueError):
        return [line]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return [line]
    return [f"{key} = [", *(f"    {json.dumps(v, ensure_ascii=False)}," for v in values), "]"]


def _write_snippet(text: str, path: Path | None, fmt: Format) -> None:
    """The snippet to ``path`` (exit 2 if it cannot be written), else to standard output unless the
    listing went there as CSV or JSON."""
    if path is None:
        if fmt is Format.table:
            typer.echo("")
            typer.echo(fold_long_lines(text, console().width), nl=False)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        fail(_("cannot write the roster snippet to {path}: {why}").format(path=path, why=e.strerror or e), 2)
    said = _("roster snippet written to {path} (review it, then paste it into the roster file)")
    console().print(said.format(path=path))
