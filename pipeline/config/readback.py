"""config.readback: the setup of a run read back from its output folder, for the commands that rate
the games again (``ratings backtest``, ``ratings compare``) from ``--out`` alone.

:func:`read_setup` gives the run's settings (the manifest's ``raw``, ``settings``: rule set, period,
validity, ``[rules]``, speed threshold, provisional games, active within) as a
:class:`~pipeline.config.RunConfig` whose roster and events are the tables the run recorded
(:mod:`pipeline.config.recorded`), which :func:`tables_of` reads back
(:func:`pipeline.run.setup.differences` says what a configuration sets
otherwise). Knows
nothing of how the output folder's files are switched in (it reads the generation the manifest is in),
nor of what the commands do with the setup; which of a configuration and a recorded setup a command
uses is the command line's choice (:func:`pipeline.cli.common.run_setup`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.config import PERIODS, ConfigError, Origin, RunConfig, validity_section
from pipeline.config.events import Events
from pipeline.config.recorded import read_events, read_roster
from pipeline.config.roster import Roster
from pipeline.config.toml import Table, one_of
from pipeline.core.activity import Span, span_of
from pipeline.core.setup_tables import EVENTS_FILE, ROSTER_FILE

MANIFEST_FILE = "manifest.json"


@dataclass(frozen=True, slots=True)
class Recorded:
    """A run's setup read back from its output folder (:func:`read_setup`): ``config`` as the run's
    configuration would give it; ``manifest`` the file it was read from; ``raw`` the raw folder as the
    manifest wrote it, and ``raw_found``: False when that is a relative path (relative to the folder the
    run ran in, which the output does not say) and no folder holding the output holds it."""

    config: RunConfig
    manifest: Path
    raw: str
    raw_found: bool


def read_setup(folder: Path) -> Recorded | None:
    """The setup of the run whose output is ``folder``, as a :class:`RunConfig` its commands can rate
    with again: the raw folder, the rule set, ``[run] period``, every ``[validity]`` key as the run
    resolved it, ``[rules]``, the speed threshold, ``provisional_games``, ``provisional_deviation`` and
    ``active_within`` from the manifest's ``settings``; ``roster_path`` and ``events_path`` the tables the
    run recorded (None: the run had no such file), which :func:`tables_of` reads (:func:`pipeline.run.plan`
    reads only configuration files); ``source`` the manifest. Read from one generation (the folder's
    current one), whatever runs later.

    A raw folder the manifest wrote relative is looked for in the output folder and the folders above
    it, nearest first (a run's output is usually in the folder it ran in).

    None when the folder holds no manifest, or one written before runs recorded their setup (no
    ``settings``, roster or events table). Raises ConfigError naming the manifest if its settings are not
    ones a configuration could give.
    """
    manifest = folder / MANIFEST_FILE
    try:
        generation = manifest.resolve(strict=True).parent
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    settings = data.get("settings") if isinstance(data, dict) else None
    tables = [generation / ROSTER_FILE, generation / EVENTS_FILE]
    if not isinstance(settings, dict) or "raw" not in data or not all(p.is_file() for p in tables):
        return None
    try:
        return _recorded(manifest, folder, data, tables)
    except (TypeError, ValueError, AttributeError) as e:  # (a manifest no run wrote)
        raise ConfigError(f"{manifest}: not the settings of a run ({type(e).__name__}: {e})") from None


def _recorded(manifest: Path, folder: Path, data: dict[str, Any], tables: list[Path]) -> Recorded:
    """The :class:`Recorded` of :func:`read_setup` from the ``manifest``'s ``data`` and the recorded
    ``tables`` (roster, events). Raises ConfigError, TypeError or ValueError for settings no run wrote."""
    settings = data["settings"]
    raw, found = _raw(str(data["raw"]), folder)
    overrides, period = _validity(manifest, dict(settings.get("validity", {})))
    config = RunConfig(
        raw=raw,
        out=folder,
        speed_threshold_s=float(settings.get("speed_threshold_s", RunConfig().speed_threshold_s)),
        provisional_games=int(settings.get("provisional_games", 0)),
        provisional_deviation=float(settings.get("provisional_deviation", 0.0)),
        active_within=_span(settings.get("active_within")),
        rule_set=str(settings.get("rule_set", data.get("rule_set"))),
        period=period,
        roster_path=tables[0] if settings.get("roster") is not None else None,
        events_path=tables[1] if settings.get("events") is not None else None,
        validity=overrides,
        source=manifest,
        rules=Table(manifest, "[rules]", dict(settings.get("rules") or {})),
        origins={"raw": Origin(f"{manifest}: raw", str(data["raw"]), raw)},
    )
    return Recorded(config, manifest, str(data["raw"]), found)


def _span(written: Any) -> Span | None:
    """The ``active_within`` a manifest recorded (None: none). Raises ValueError if it is not a span."""
    return None if written is None else span_of(str(written))


def _raw(written: str, folder: Path) -> tuple[Path, bool]:
    """The raw folder ``written`` in the manifest of ``folder``: (the path, False when relative and not
    found in ``folder`` or a folder above it; then the path as written)."""
    path = Path(written)
    if path.is_absolute():
        return path, True
    here = folder.resolve()
    found = next((base / path for base in (here, *here.parents) if (base / path).is_dir()), None)
    return (found, True) if found is not None else (path, False)


def _validity(manifest: Path, recorded: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The ``[validity]`` keys (all of them) and the period of the run's recorded validity. Raises
    ConfigError naming ``manifest`` if a value is not one a configuration could give."""
    from pipeline.core.reasons import OPTIONAL_REASONS

    excluded = set(recorded.get("excluded", ()))
    given = {k: v for k, v in recorded.items() if k not in ("period", "excluded")}
    given |= {reason: "exclude" if reason in excluded else "count" for reason in OPTIONAL_REASONS}
    period = Table(manifest, "settings: validity", recorded).optional("period", one_of(*PERIODS))
    return validity_section(Table(manifest, "settings: validity", given)), period


def tables_of(config: RunConfig) -> tuple[Roster, Events | None] | None:
    """The roster and the events of a configuration read back by :func:`read_setup` whose run had a
    roster or an events file: the roster as its file gave the starting ratings (:func:`file_form`), and
    the events (None: the run had no events file, so the rule set's implicit events apply). None for any
    other configuration (its files are configuration files, for :func:`pipeline.run.plan`).

    Raises ConfigError naming the table if one cannot be read.
    """
    paths = [config.roster_path, config.events_path]
    if not any(p is not None and p.suffix == ".parquet" for p in paths):
        return None
    try:
        roster = read_roster(paths[0]) if paths[0] is not None else None
        events = read_events(paths[1]) if paths[1] is not None else None
    except (OSError, ValueError) as e:  # (ArrowInvalid is a ValueError)
        raise ConfigError(f"cannot read the setup the run recorded: {e}") from None
    return file_form(roster or Roster()), events


def file_form(roster: Roster) -> Roster:
    """``roster`` read back with each player's starting ratings as the roster file gave them, for any
    rule set to choose from again (:func:`pipeline.rules.scales.starting_ratings`): a player with a table
    of ratings had no plain number (the recorded one is the run's choice from the table). A plain number
    the run's rule set set aside is not recorded: another rule set starts that player from the rank."""
    return roster.with_ratings({p.name: None for p in roster.players if p.ratings})
