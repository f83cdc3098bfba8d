"""config: the run's TOML configuration (``config/ratings.toml``), read and validated once at start-up.

Sections: ``[run]`` (``rule_set``, ``period``, ``roster``, ``events``), ``[ingest]`` (``raw``, ``out``,
``workers``, ``speed_threshold_minutes``, ``file_timeout_seconds``, ``scheduler``), ``[output]``
(``keep_generations``, ``provisional_games``, ``provisional_deviation``, ``language``,
``active_within``: :data:`OUTPUT_KEYS`), ``[validity]`` (the validity rules' settings) and ``[rules]``
(parameters of the chosen rule set, which checks them itself). Every key is optional; an omitted
rule-set setting stays None (or out of :attr:`RunConfig.validity`) so
that the rule set's default applies.

Paths (C1): a path written in a configuration file is relative to that file's folder (``[run] roster``
and ``events``, ``[ingest] raw`` and ``out``); a path given by a flag (:func:`with_overrides`) is relative
to the working directory, and so are the defaults ``data/raw`` and ``data/processed`` when neither gives
one. :attr:`RunConfig.origins` remembers where each ``raw``/``out``/``workers``/``scheduler`` came from,
so that a later check (:func:`pipeline.run.plan`) names the file and key or the flag.

Knows nothing of what the stages do with the values, nor which rule set names are registered, nor what
the roster and events files hold (:mod:`pipeline.config.roster`, :mod:`pipeline.config.events`).
"""

from __future__ import annotations

import dataclasses
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.config.toml import ConfigError as ConfigError
from pipeline.config.toml import Kind, Table, integer, list_of, number, one_of, read_toml, text
from pipeline.core import activity, i18n
from pipeline.core.activity import Span
from pipeline.core.i18n import N_

DEFAULT_PATH = Path("config/ratings.toml")
PERIODS = ("month", "quarter", "half", "year")
SECTIONS = ("run", "ingest", "output", "validity", "rules")
RUN_KEYS = ("rule_set", "period", "roster", "events")
INGEST_KEYS = ("raw", "out", "workers", "speed_threshold_minutes", "file_timeout_seconds", "scheduler")
#: ``[output]`` keys: ``keep_generations`` (int >= 1, default 3), the generations of the output folder kept
#: (the current one and the ones before it); ``provisional_games`` (int >= 0, default 0: off), the counted
#: games (all periods, up to the end of a period) a player needs to be established: one with fewer is
#: marked provisional in the standings and left off that period's leaderboards (and the year's);
#: ``provisional_deviation`` (a number >= 0, default 0: off), under a rule set whose ratings carry a deviation
#: (glicko2), the largest deviation an established player has: one above it is provisional too;
#: ``language`` (``zh-Hans``, ``zh-Hant`` or ``en``; default: the locale's), the language of every surface a
#: person reads (:mod:`pipeline.core.i18n`; ``--lang`` overrides it); ``active_within`` (a span of time
#: such as ``"24 months"``, :func:`pipeline.core.activity.span_of`; default: none, everyone listed), the span
#: before a period's end in which a player needs a counted game to be listed in its standings and
#: leaderboards.
OUTPUT_KEYS = ("keep_generations", "provisional_games", "provisional_deviation", "language", "active_within")
#: What ``[output] provisional_deviation`` may hold: a finite number, 0 (off) or more.
DEVIATION = Kind(
    N_("a number, 0 (off) or more"),
    lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < float("inf"),
    float,
)
#: What ``[output] language`` may hold.
LANGUAGE = Kind(
    N_("one of zh-Hans, zh-Hant, en"),
    lambda v: isinstance(v, str) and i18n.spells_language(v),
    i18n.language_of,
)
#: What ``[output] active_within`` may hold.
ACTIVE_WITHIN = Kind(activity.EXPECTED, lambda v: isinstance(v, str) and _spells_span(v), activity.span_of)
DEFAULT_RAW, DEFAULT_OUT = Path("data/raw"), Path("data/processed")
#: The flag that overrides each setting :func:`with_overrides` takes.
FLAGS = {"raw": "--raw", "out": "--out", "workers": "--workers", "scheduler": "--scheduler"}
_ADDRESS = re.compile(r"(tcp|tls|ws|wss|ucx)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}")
#: What ``[ingest] scheduler`` and ``--scheduler`` may hold ("" means none: parse on this machine).
SCHEDULER = Kind(
    N_("a Dask scheduler address such as 'tcp://HOST:8786' (or \"\" for none)"),
    lambda v: isinstance(v, str) and (v == "" or _ADDRESS.fullmatch(v) is not None),
    str,
)


def _spells_span(text: str) -> bool:
    """Whether ``text`` spells a span of time (:func:`pipeline.core.activity.span_of`)."""
    try:
        activity.span_of(text)
    except activity.SpanError:
        return False
    return True


def _validity_kinds() -> tuple[tuple[str, Kind[Any]], ...]:
    """The ``[validity]`` keys in order, each with what it may hold."""
    choice = one_of("exclude", "count")
    return (
        (
            "game_types",
            list_of(integer(1), N_("a non-empty list of ints >= 1 (1 Go, 4 Gomoku)"), nonempty=True),
        ),
        ("draw", choice),
        ("no_show", choice),
        ("handicap", choice),
        ("non_member", choice),
        ("opponent_cap", integer(0, N_("of type int, 0 (no cap) or more"))),
        ("min_moves", integer(0)),
        ("handicap_from", integer(2)),
        ("unknown_speed", one_of("fast", "slow")),
        ("placeholder_names", list_of(text(), N_("a list of non-empty strings (may be empty: [])"))),
    )


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a setting came from: ``place`` starts a message about it (``config/ratings.toml: [ingest]
    raw`` or ``--raw``), ``written`` is its value as written there (``'nope'``, not the resolved path),
    ``value`` the value it gave (to tell when it was replaced since)."""

    place: str
    written: str
    value: object


@dataclass(frozen=True, slots=True)
class RunConfig:
    """The run's settings after defaults.

    ``raw``/``out`` folders (see the module docstring for what they are relative to), ``workers`` (None:
    every core), ``speed_threshold_s``, ``file_timeout_s`` (the longest one file may take to parse),
    ``scheduler`` (the Dask scheduler to parse on; None: this machine's processes); ``keep_generations``,
    ``provisional_games``, ``provisional_deviation`` and ``active_within`` (``[output]``, see
    :data:`OUTPUT_KEYS`; ``active_within`` None: everyone active);
    ``rule_set`` and ``period`` (None: the rule set's default); ``roster_path`` and ``events_path`` (None:
    no such file); ``validity``: only the ``[validity]`` keys given, checked (``game_types`` as a tuple of
    ints); ``source``: the file read (None when none was); ``rules``: the ``[rules]`` table of rule-set
    parameters, unchecked here (the chosen rule set checks it); ``origins``: for each of ``raw``, ``out``
    and ``workers`` that the file or a flag gave, where (:class:`Origin`); absent: the default.
    """

    raw: Path = DEFAULT_RAW
    out: Path = DEFAULT_OUT
    workers: int | None = None
    speed_threshold_s: float = 1800.0
    file_timeout_s: float = 10.0
    scheduler: str | None = None
    keep_generations: int = 3
    provisional_games: int = 0
    provisional_deviation: float = 0.0
    language: str | None = None
    active_within: Span | None = None
    rule_set: str | None = None
    period: str | None = None
    roster_path: Path | None = None
    events_path: Path | None = None
    validity: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None
    rules: Table | None = None
    origins: Mapping[str, Origin] = field(default_factory=dict)

    def origin(self, key: str) -> Origin:
        """Where ``key`` (``raw``, ``out``, ``workers``, ``scheduler``) came from; for a default, a place
        that says so.

        A value replaced without its origin (``dataclasses.replace`` rather than :func:`with_overrides`)
        is taken to come from its flag, the only other source there is.
        """
        value, found = getattr(self, key), self.origins.get(key)
        if found is not None and found.value == value:
            return found
        if found is None and value == getattr(RunConfig(), key):
            return Origin(f"[ingest] {key} (not set: the default)", str(value), value)
        return Origin(FLAGS[key], str(value), value)


def load(path: Path | None) -> RunConfig:
    """Read ``path`` (or :data:`DEFAULT_PATH` when it exists, else return the defaults).

    Raises :class:`ConfigError` if the file named is missing, a folder, unreadable, not UTF-8 or not TOML
    (:func:`~pipeline.config.toml.read_toml`), holds an unknown section or key, or a value of the wrong
    type or out of range. Does not check that the folders exist (:func:`pipeline.run.plan` does).
    """
    if path is None:
        if not DEFAULT_PATH.exists():
            return RunConfig()
        path = DEFAULT_PATH
    root = Table(path, "", read_toml(path))
    root.check_keys(SECTIONS)
    ingest, run, output = root.table("ingest"), root.table("run"), root.table("output")
    ingest.check_keys(INGEST_KEYS)
    run.check_keys(RUN_KEYS)
    output.check_keys(OUTPUT_KEYS)
    config = RunConfig(
        raw=_folder(ingest, "raw", DEFAULT_RAW),
        out=_folder(ingest, "out", DEFAULT_OUT),
        workers=ingest.get("workers", integer(0, N_("of type int, 0 (every core) or more")), 0) or None,
        speed_threshold_s=60.0 * ingest.get("speed_threshold_minutes", number(positive=True), 30.0),
        file_timeout_s=ingest.get("file_timeout_seconds", number(positive=True), 10.0),
        scheduler=ingest.get("scheduler", SCHEDULER, "") or None,
        keep_generations=output.get("keep_generations", integer(1), 3),
        provisional_games=output.get("provisional_games", integer(0, N_("of type int, 0 (off) or more")), 0),
        provisional_deviation=output.get("provisional_deviation", DEVIATION, 0.0),
        language=output.optional("language", LANGUAGE),
        active_within=output.optional("active_within", ACTIVE_WITHIN),
        rule_set=_rule_set(run),
        period=run.optional("period", one_of(*PERIODS)),
        roster_path=_companion(run, "roster"),
        events_path=_companion(run, "events"),
        validity=validity_section(root.table("validity")),
        source=path,
        rules=root.table("rules"),
    )
    return dataclasses.replace(config, origins=_origins(ingest, config))


def rule_set_name(written: str) -> str:
    """The spelling of a rule-set name the registry uses, from ``written`` as a person typed it:
    NFKC-folded (full-width letters), stripped, casefolded, white space and underscores as hyphens
    (``HKGA`` is ``hkga``, ``CGA_Dan`` and ``cga dan`` are ``cga-dan``). Whether such a rule set exists
    is for the registry to say (:mod:`pipeline.rules`)."""
    return re.sub(r"[\s_]+", "-", unicodedata.normalize("NFKC", written).strip().casefold())


def _rule_set(run: Table) -> str | None:
    """``[run] rule_set`` in the registry's spelling (:func:`rule_set_name`), None when not given."""
    written = run.optional("rule_set", text())
    return None if written is None else rule_set_name(written)


def _origins(ingest: Table, config: RunConfig) -> dict[str, Origin]:
    """The origin of each setting of :data:`FLAGS` the ``[ingest]`` section gave."""
    return {
        key: Origin(ingest.place(key), str(ingest.data[key]), getattr(config, key))
        for key in FLAGS
        if key in ingest.data
    }


def with_overrides(
    config: RunConfig,
    *,
    raw: Path | None = None,
    out: Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> RunConfig:
    """``config`` with the flags given (None: not given) in place of its values, and their origins set to
    the flag (``--raw``...). Paths stay as given (relative to the working directory); ``workers`` 0 means
    every core (None), and ``scheduler`` "" none, as in the file.

    Raises :class:`ConfigError` if ``scheduler`` is not a scheduler address (:data:`SCHEDULER`).
    """
    if scheduler is not None and not SCHEDULER.accepts(scheduler):
        raise ConfigError(f"--scheduler must be {SCHEDULER.expected}, got {scheduler!r}")
    replaced = dataclasses.replace(
        config,
        raw=raw if raw is not None else config.raw,
        out=out if out is not None else config.out,
        workers=(workers or None) if workers is not None else config.workers,
        scheduler=(scheduler or None) if scheduler is not None else config.scheduler,
    )
    flags = {"raw": raw, "out": out, "workers": workers, "scheduler": scheduler}
    given = {key: flag for key, flag in flags.items() if flag is not None}
    flagged = {key: Origin(FLAGS[key], str(flag), getattr(replaced, key)) for key, flag in given.items()}
    return dataclasses.replace(replaced, origins={**config.origins, **flagged})


def _folder(ingest: Table, key: str, default: Path) -> Path:
    """``[ingest] key`` relative to the folder of the file read (an absolute path is kept), as an absolute
    path without ``..`` (the folder's links resolved first, so ``..`` means its real parent), else
    ``default`` (relative to the working directory). Raises :class:`ConfigError` if the value is not a
    string."""
    value = ingest.optional(key, text())
    return default if value is None else Path(os.path.normpath(ingest.path.parent.resolve() / value))


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


def validity_section(section: Table) -> dict[str, Any]:
    """The ``[validity]`` keys given, each checked. Raises :class:`ConfigError` for an unknown or bad key."""
    kinds = _validity_kinds()
    section.check_keys([key for key, _ in kinds])
    return {key: section.required(key, kind) for key, kind in kinds if key in section.data}
