"""config: the run's TOML configuration (``config/ratings.toml``), read and validated once at start-up.

Sections: ``[run]`` (``rule_set``, ``period``, ``roster``, ``events``), ``[ingest]`` (``raw``, ``out``,
``workers``, ``speed_threshold_minutes``), ``[validity]`` (the validity rules' settings) and ``[rules]``
(parameters of the chosen rule set, which checks them itself). Every key is
optional; an omitted rule-set setting stays None (or out of :attr:`RunConfig.validity`) so that the rule
set's default applies. Knows nothing of what the stages do with the values, nor which rule set names
are registered, nor what the roster and events files hold (:mod:`pipeline.config.roster`,
:mod:`pipeline.config.events`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.config.toml import ConfigError as ConfigError
from pipeline.config.toml import Kind, Table, integer, list_of, number, one_of, read_toml, text

DEFAULT_PATH = Path("config/ratings.toml")
PERIODS = ("month", "quarter", "half", "year")
SECTIONS = ("run", "ingest", "validity", "rules")
RUN_KEYS = ("rule_set", "period", "roster", "events")
INGEST_KEYS = ("raw", "out", "workers", "speed_threshold_minutes")


def _validity_kinds() -> tuple[tuple[str, Kind[Any]], ...]:
    """The ``[validity]`` keys in order, each with what it may hold."""
    choice = one_of("exclude", "count")
    return (
        ("game_types", list_of(integer(1), "a non-empty list of ints >= 1 (1 Go, 4 Gomoku)", nonempty=True)),
        ("draw", choice),
        ("no_show", choice),
        ("handicap", choice),
        ("non_member", choice),
        ("opponent_cap", integer(0, "of type int, 0 (no cap) or more")),
        ("min_moves", integer(0)),
        ("handicap_from", integer(2)),
        ("unknown_speed", one_of("fast", "slow")),
    )


@dataclass(frozen=True, slots=True)
class RunConfig:
    """The run's settings after defaults.

    ``raw``/``out`` folders (relative to the working directory), ``workers`` (None: every core),
    ``speed_threshold_s``; ``rule_set`` and ``period`` (None: the rule set's default); ``roster_path`` and
    ``events_path`` (None: no such file); ``validity``: only the ``[validity]`` keys given, checked
    (``game_types`` as a tuple of ints); ``source``: the file read (None when none was); ``rules``: the
    ``[rules]`` table of rule-set parameters, unchecked here (the chosen rule set checks it).
    """

    raw: Path = Path("data/raw")
    out: Path = Path("data/processed")
    workers: int | None = None
    speed_threshold_s: float = 1800.0
    rule_set: str | None = None
    period: str | None = None
    roster_path: Path | None = None
    events_path: Path | None = None
    validity: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None
    rules: Table | None = None


def load(path: Path | None) -> RunConfig:
    """Read ``path`` (or :data:`DEFAULT_PATH` when it exists, else return the defaults).

    Raises :class:`ConfigError` if the file named is missing, is not TOML, holds an unknown section or key,
    or a value of the wrong type or out of range.
    """
    if path is None:
        if not DEFAULT_PATH.exists():
            return RunConfig()
        path = DEFAULT_PATH
    root = Table(path, "", read_toml(path))
    root.check_keys(SECTIONS)
    ingest, run = root.table("ingest"), root.table("run")
    ingest.check_keys(INGEST_KEYS)
    run.check_keys(RUN_KEYS)
    return RunConfig(
        raw=Path(ingest.get("raw", text(), "data/raw")),
        out=Path(ingest.get("out", text(), "data/processed")),
        workers=ingest.get("workers", integer(0, "of type int, 0 (every core) or more"), 0) or None,
        speed_threshold_s=60.0 * ingest.get("speed_threshold_minutes", number(positive=True), 30.0),
        rule_set=run.optional("rule_set", text()),
        period=run.optional("period", one_of(*PERIODS)),
        roster_path=_companion(run, "roster"),
        events_path=_companion(run, "events"),
        validity=_validity(root.table("validity")),
        source=path,
        rules=root.table("rules"),
    )


def _companion(run: Table, key: str) -> Path | None:
    """The path ``[run] key`` names, relative to the folder of the file read.

    Omitted: ``<key>.toml`` beside the file when it exists, else None; ``""``: None.
    Raises :class:`ConfigError` if the value is not a string or names a file that does not exist.
    """
    folder = run.path.parent
    value = run.optional(key, text(empty=True))
    if value is None:
        beside = folder / f"{key}.toml"
        return beside if beside.is_file() else None
    if not value.strip():
        return None
    if not (folder / value).is_file():
        run.fail(key, f"an existing file ({folder / value} not found)", value)
    return folder / value


def _validity(section: Table) -> dict[str, Any]:
    """The ``[validity]`` keys given, each checked. Raises :class:`ConfigError` for an unknown or bad key."""
    kinds = _validity_kinds()
    section.check_keys([key for key, _ in kinds])
    return {key: section.required(key, kind) for key, kind in kinds if key in section.data}
