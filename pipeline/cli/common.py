"""cli.common: the options, consoles, output formats and exit path every ``ratings`` command shares.

Options with one metavar each (FILE, DIR, P, NAME, N, FORMAT); :func:`fail` (exit codes: 2 bad
configuration or arguments); :func:`output_folder`, whose "no output yet" message suggests the
``ratings run`` command that would make one, with the paths this command used; the roster of the
configuration (for aliases); the console. Tables fitted to the terminal and ``--format csv|json``
are :mod:`pipeline.cli.tables`.
Knows nothing of the library beyond the configuration and the output folder's games file. Imports no
library module that reads the outputs (they bring pandas) until a command asks for the output folder.
"""

from __future__ import annotations

import os
import shlex
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from pipeline import config as config_mod
from pipeline.config.roster import Roster, load_roster

_PIPED_WIDTH = 160  # columns of a table whose output is piped or captured, with no COLUMNS set


class Format(StrEnum):
    """What a listing command prints: a table for people, or CSV or JSON for scripts."""

    table = "table"
    csv = "csv"
    json = "json"


ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", metavar="FILE", help="TOML configuration (default: config/ratings.toml)"),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help="Output folder of `ratings run` (default: [ingest] out of the configuration)",
    ),
]


def period_spelling(value: str | None) -> str | None:
    """A ``--period`` value as the label it spells (``2024-5`` is ``2024-05``, ``2024q2`` ``2024-Q2``:
    :func:`pipeline.audit.periods.label_of`); a value that spells no period is passed on as typed, for
    the command to say it is unknown and list the periods the output has."""
    from pipeline.audit.periods import PeriodError, label_of

    if value is None:
        return None
    try:
        return label_of(value)
    except PeriodError:
        return value


def rules_spelling(value: str | None) -> str | None:
    """A ``--rules`` value (one name, or names separated by commas) in the registry's spelling
    (:func:`pipeline.config.rule_set_name`: ``HKGA`` is ``hkga``); a typer callback for the options
    that name rule sets."""
    if value is None:
        return None
    return ",".join(config_mod.rule_set_name(name) if name.strip() else name for name in value.split(","))


PeriodOpt = Annotated[
    str | None,
    typer.Option(
        "--period", metavar="P", help="Rating period, e.g. 2024-05, 2024-Q2, 2024", callback=period_spelling
    ),
]
PlayerOpt = Annotated[
    str | None, typer.Option("--player", metavar="NAME", help="Player name or alias (any case or width)")
]
TopOpt = Annotated[int | None, typer.Option("--top", metavar="N", help="Show only the first N rows")]
FormatOpt = Annotated[
    Format,
    typer.Option(
        "--format",
        metavar="FORMAT",
        help="table (for people), csv or json (every column in full, for scripts)",
    ),
]
WideOpt = Annotated[
    bool, typer.Option("--wide", help="Every column, however wide the terminal (default: what fits)")
]


def fail(message: str, code: int) -> NoReturn:
    """Print ``error: message`` to standard error and exit with ``code``."""
    Console(stderr=True).print(Text("error: ", style="red") + Text(message), soft_wrap=True)
    raise typer.Exit(code)


def settings_of(config: Path | None) -> config_mod.RunConfig:
    """The configuration ``config`` names (or the default file, or the defaults); exits 2 if it is bad."""
    try:
        return config_mod.load(config)
    except config_mod.ConfigError as e:
        fail(str(e), 2)


def output_folder(out: Path | None, config: Path | None) -> Path:
    """``--out`` when given, else the configuration's ``[ingest] out``, holding the output of a run.

    Exits 2 for a bad configuration, and when the folder holds no output yet: the message then suggests
    the ``ratings run`` command that makes it, with the configuration, raw folder and output folder
    this command used (absolute paths, so that it works as printed from any folder).
    """
    from pipeline.output.folder import GAMES_FILE

    settings = settings_of(config)
    folder = out if out is not None else settings.out
    if not (folder / GAMES_FILE).exists():
        fail(_no_output(folder, settings), 2)
    return folder


def _no_output(folder: Path, settings: config_mod.RunConfig) -> str:
    """The message for an output folder without ``games.parquet``, with the command that would fill it."""
    from pipeline.output.folder import GAMES_FILE

    command = ["ratings", "run"]
    if settings.source is not None:
        command += ["--config", str(settings.source.resolve())]
    said = f"no output in {folder} (no {GAMES_FILE})"
    raw = settings.raw.resolve()
    command += ["--raw", str(raw) if raw.is_dir() else "DIR", "--out", str(folder.resolve())]
    suggested = shlex.join(command)
    if raw.is_dir():
        return f"{said}: run `{suggested}` first"
    return (
        f"{said}, and no folder of records at {raw}: run `{suggested}` first, DIR the folder of SGF records"
    )


def roster_of(out: Path | None, config: Path | None) -> Roster | None:
    """The roster of the run, for aliases no record used; None when it had none.

    With ``--out`` and without ``--config`` it is the roster the run recorded in that output folder
    (:mod:`pipeline.config.recorded`), so that a command on ``--out`` alone answers from any folder as
    in the run's folder; so it is when no configuration file is read at all. With ``--config``, or with
    the default configuration file and its ``[ingest] out``, it is the configuration's (whose roster may
    add aliases since the run); so it is too for an output written before runs recorded their roster.
    When the two name the players differently, a note on standard error says which one was used.

    Exits 2 for a bad configuration or roster file named by ``--config``; when ``--config`` was not
    given, a default configuration that cannot be read gives the recorded roster, else none (it may be
    another run's: the names a roster adds only count for players of the output, see
    :func:`pipeline.reports.resolve_player`).
    """
    from pipeline.config import recorded  # (brings pyarrow: only when a command asks for a roster)

    configured, settings = _configured_roster(config)
    source = settings.source if settings is not None else None
    folder = out if out is not None else settings.out if settings is not None else config_mod.DEFAULT_OUT
    path = folder / recorded.ROSTER_FILE
    try:
        kept = recorded.read_roster(path)
    except (OSError, ValueError) as e:  # (ArrowInvalid is a ValueError)
        _note(f"cannot read the roster the run recorded ({path}: {e}); using the configuration's")
        return configured
    if not path.is_file() or recorded.same_names(kept, configured):  # the file's: ratings as written
        return configured
    if source is None or (out is not None and config is None):
        if source is not None:  # (no configuration at all: nothing to differ from)
            _note(f"using the roster the run recorded in {path}, not that of {source}, which differs")
        return kept
    _note(f"using the roster of {source}, not the one the run recorded in {path}, which differs")
    return configured


def _configured_roster(config: Path | None) -> tuple[Roster | None, config_mod.RunConfig | None]:
    """(the configuration's roster or None, the configuration or None when it cannot be read); exits 2
    for a bad ``--config`` or its roster file (see :func:`roster_of`)."""
    try:
        found = config_mod.load(config)
        return (load_roster(found.roster_path) if found.roster_path else None), found
    except config_mod.ConfigError as e:
        if config is None:
            return None, None
        fail(str(e), 2)


def _note(message: str) -> None:
    """Print ``note: message`` to standard error."""
    Console(stderr=True).print(Text("note: ", style="yellow") + Text(message), soft_wrap=True)


def console(width: int | None = None) -> Console:
    """A console for tables: ``width`` columns when given; else the terminal's width (``COLUMNS`` when
    set), or 160 columns when the output is piped or captured."""
    if width is not None:
        return Console(width=width)
    found = Console()
    return found if found.is_terminal or "COLUMNS" in os.environ else Console(width=_PIPED_WIDTH)
