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

import dataclasses
import os
import shlex
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from pipeline import config as config_mod
from pipeline.config.roster import Roster, load_roster
from pipeline.core import i18n
from pipeline.core.i18n import N_, _, pgettext

if TYPE_CHECKING:
    from pipeline.config import readback

_PIPED_WIDTH = 160  # columns of a table whose output is piped or captured, with no COLUMNS set


class Format(StrEnum):
    """What a listing command prints: a table for people, or CSV or JSON for scripts."""

    table = "table"
    csv = "csv"
    json = "json"


ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", metavar="FILE", help=N_("TOML configuration (default: config/ratings.toml)")),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="DIR",
        help=N_("Output folder of `ratings run` (default: [ingest] out of the configuration)"),
    ),
]


def period_spelling(value: str | None) -> str | None:
    """A ``--period`` value as the label it spells (``2024-5`` is ``2024-05``, ``2024q2`` ``2024-Q2``:
    :func:`pipeline.core.periods.label_of`); a value that spells no period is passed on as typed, for
    the command to say it is unknown and list the periods the output has."""
    from pipeline.core.periods import PeriodError, label_of

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
        "--period",
        metavar="P",
        help=N_("Rating period, e.g. 2024-05, 2024-Q2, 2024"),
        callback=period_spelling,
    ),
]
PlayerOpt = Annotated[
    str | None, typer.Option("--player", metavar="NAME", help=N_("Player name or alias (any case or width)"))
]
TopOpt = Annotated[int | None, typer.Option("--top", metavar="N", help=N_("Show only the first N rows"))]
FormatOpt = Annotated[
    Format,
    typer.Option(
        "--format",
        metavar="FORMAT",
        help=N_("table (for people), csv or json (every column in full, for scripts)"),
    ),
]
WideOpt = Annotated[
    bool, typer.Option("--wide", help=N_("Every column, however wide the terminal (default: what fits)"))
]


#: Why a record could not be read (``error_kind`` of ``games.parquet``), as a person reads it.
ERROR_KINDS = {
    "empty": N_("an empty file"),
    "binary": N_("not a text file"),
    "not_sgf": N_("not an SGF record"),
    "unreadable": N_("the file could not be read"),
    "not_a_file": N_("not a file"),
    "link_loop": N_("a loop of links"),
    "truncated": N_("the record is cut short"),
    "timeout": N_("reading took too long"),
    "crash": N_("the reader crashed"),
    "bad_value": N_("a value the reader cannot take"),
    "bad_archive": N_("a damaged archive"),
    "internal": N_("an internal error"),
}
#: The fields of a record that were not known (the run summary's ``unknown`` row).
UNKNOWN_FIELDS = {
    "result": N_("result"),
    "date": N_("date"),
    "time_setting": N_("time control"),
    "players": N_("players"),
}


def worded(code: str, phrases: Mapping[str, str]) -> str:
    """``code`` as a table shows it: in English the code itself (the one the docs, the options and
    ``--format csv|json`` name), in another language its phrase in ``phrases`` (English messages,
    translated here); a code without a phrase as it is."""
    if i18n.current() == i18n.ENGLISH or code not in phrases:
        return code
    return _(phrases[code])


def reason_word(code: str) -> str:
    """A reason code (or a note) as a table shows it: the code in English, its phrase in another
    language (:func:`pipeline.core.reasons.phrase`)."""
    from pipeline.core.reasons import phrase

    return code if i18n.current() == i18n.ENGLISH else phrase(code)


def speed_word(speed: str) -> str:
    """``fast`` or ``slow`` in the language spoken (any other value as it is)."""
    words = {"fast": pgettext("speed", "fast"), "slow": pgettext("speed", "slow")}
    return words.get(speed, speed)


def fail(message: str, code: int) -> NoReturn:
    """Print ``error: message`` to standard error and exit with ``code``."""
    Console(stderr=True).print(Text(_("error: "), style="red") + Text(message), soft_wrap=True)
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
    said = _("no output in {folder} (no {file})").format(folder=folder, file=GAMES_FILE)
    raw = settings.raw.resolve()
    command += ["--raw", str(raw) if raw.is_dir() else "DIR", "--out", str(folder.resolve())]
    suggested = shlex.join(command)
    if raw.is_dir():
        return _("{said}: run `{command}` first").format(said=said, command=suggested)
    return _(
        "{said}, and no folder of records at {raw}: run `{command}` first, DIR the folder of SGF records"
    ).format(said=said, raw=raw, command=suggested)


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
    from pipeline.core import setup_tables

    configured, settings = _configured_roster(config)
    source = settings.source if settings is not None else None
    folder = out if out is not None else settings.out if settings is not None else config_mod.DEFAULT_OUT
    path = folder / setup_tables.ROSTER_FILE
    try:
        kept = recorded.read_roster(path)
    except (OSError, ValueError) as e:  # (ArrowInvalid is a ValueError)
        _note(
            _("cannot read the roster the run recorded ({path}: {error}); using the configuration's").format(
                path=path, error=e
            )
        )
        return configured
    if not path.is_file() or recorded.same_names(kept, configured):  # the file's: ratings as written
        return configured
    if source is None or (out is not None and config is None):
        if source is not None:  # (no configuration at all: nothing to differ from)
            _note(
                _("using the roster the run recorded in {path}, not that of {source}, which differs").format(
                    path=path, source=source
                )
            )
        return kept
    _note(
        _("using the roster of {source}, not the one the run recorded in {path}, which differs").format(
            source=source, path=path
        )
    )
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
    Console(stderr=True).print(Text(_("note: "), style="yellow") + Text(message), soft_wrap=True)


def console(width: int | None = None) -> Console:
    """A console for tables: ``width`` columns when given; else the terminal's width (``COLUMNS`` when
    set), or 160 columns when the output is piped or captured."""
    if width is not None:
        return Console(width=width)
    found = Console()
    return found if found.is_terminal or "COLUMNS" in os.environ else Console(width=_PIPED_WIDTH)


def run_setup(config: Path | None, raw: Path | None, out: Path | None) -> config_mod.RunConfig:
    """The setup of a command that rates the games again (``backtest``, ``compare``), ``--raw`` and
    ``--out`` applied: so that ``--out`` alone rates as the run did from any folder, it is the setup the
    run recorded in its output folder (:func:`pipeline.config.readback.read_setup`: the raw folder, rule
    set, settings, roster and events) when ``--out`` is given without ``--config``, or when no
    configuration file is read at all; with ``--config``, or with the default configuration file and its
    ``[ingest] out``, it is the configuration's, as for an output that recorded no setup. When the two
    differ, a note on standard error says which one was used and what differs (as :func:`roster_of`).
    A recorded setup keeps the configuration file's ``workers``, ``file_timeout_s`` and ``scheduler``
    (how to parse on this machine, which the run did not record).

    Exits 2 for a bad configuration named by ``--config`` (or a bad default one when no setup was
    recorded), a recorded setup that cannot be read, and a recorded raw folder relative to the folder
    the run ran in that no folder holding the output holds, when ``--raw`` is not given.
    """
    from pipeline.config import readback  # (brings pyarrow: only when a command rates again)
    from pipeline.run import setup

    configured = _configuration(config, raw, out)
    folder = out if out is not None else configured.out if configured is not None else config_mod.DEFAULT_OUT
    try:
        kept = readback.read_setup(folder)
    except config_mod.ConfigError as e:
        fail(_("cannot read the setup the run recorded: {error}").format(error=e), 2)
    if kept is None:
        return configured if configured is not None else settings_of(config)
    mine = config_mod.with_overrides(kept.config, raw=raw, out=folder)
    if configured is None or configured.source is None:  # no configuration: nothing to differ from
        return _raw_found(kept, mine, raw is not None)
    source, differs = configured.source, ", ".join(setup.differences(configured, mine))
    if config is not None or out is None:
        if differs:
            _note(
                _(
                    "using the configuration of {source}, not the setup the run recorded in {manifest}, "
                    "which differs ({differences})"
                ).format(source=source, manifest=kept.manifest, differences=differs)
            )
        return configured
    if differs:
        _note(
            _(
                "using the setup the run recorded in {manifest}, not that of {source}, which differs "
                "({differences})"
            ).format(manifest=kept.manifest, source=source, differences=differs)
        )
    found = _raw_found(kept, mine, raw is not None)
    return dataclasses.replace(
        found,
        workers=configured.workers,
        file_timeout_s=configured.file_timeout_s,
        scheduler=configured.scheduler,
    )


def _configuration(config: Path | None, raw: Path | None, out: Path | None) -> config_mod.RunConfig | None:
    """The configuration (see :func:`run_setup`) with the flags applied; None when the default file
    cannot be read and ``--out`` is given (the setup recorded there may serve); exits 2 otherwise."""
    try:
        return config_mod.with_overrides(config_mod.load(config), raw=raw, out=out)
    except config_mod.ConfigError as e:
        if config is not None or out is None:
            fail(str(e), 2)
        return None


def _raw_found(kept: readback.Recorded, setup: config_mod.RunConfig, given: bool) -> config_mod.RunConfig:
    """``setup``; exits 2 when ``--raw`` was not ``given`` and the raw folder the run recorded relative
    to the folder it ran in was not found (:func:`pipeline.config.readback.read_setup`)."""
    if not given and not kept.raw_found:
        fail(
            _(
                "the run recorded its raw folder as {raw!r}, relative to the folder it ran in, which no "
                "folder holding {out} holds: give the folder of records with --raw DIR"
            ).format(raw=kept.raw, out=setup.out),
            2,
        )
    return setup
