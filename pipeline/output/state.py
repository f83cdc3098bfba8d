"""state: what a generation keeps so that the next run rates only from the earliest period that changed.

Inside every generation, ``state/`` holds:

- ``index.json``: the configuration digest, the ingest digest (``IngestResult.digest``), each period's
  label with its *chained* digest ``d_P = H(d_{P-1}, P, the period's replay input, its due awards)``
  (``d_{-1}`` the configuration digest), the periods whose standings are kept, and the datasets written
  with placeholder partitions only (a run without rows: :func:`pipeline.output.snapshots.write_dataset`);
- ``<label>.pickle``: the standings (``dict[str, PlayerState]``, pickled :data:`CHUNK` players at a
  time, as a list of names and a list per field) at the end of that period, for the
  periods of :func:`checkpoints` (every twelfth and the last three: a late record replays at most
  eleven periods more than it must, a night's new games in the latest period none).

The configuration digest covers everything but the games that the output depends on: the settings (rule
set, validity, ``[rules]``, roster and events digests, speed threshold), the parser version, the package
version and a digest of the source of every module after ingest (the core, audit, rules, output,
reports, configuration), so that a pickle is never read by code other than the code that wrote it, and
a change of the rating code replays everything. A period's replay input is
:meth:`pipeline.rules.prepare.Prepared.rows` (every column the rule set reads, the streak resets and
``closes`` included) as uncompressed Parquet bytes (:func:`values_digest`). Equal digests mean
equal inputs; unequal ones may only cost a needless replay, never a wrong output.

Knows nothing of what the standings mean, nor of how the partitions are carried (snapshots).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.core.standings import PlayerState

FOLDER = "state"
INDEX = "index.json"
#: The packages whose source the output depends on after ingest (relative to ``pipeline/``).
CODE = ("core", "audit", "rules", "boards", "output", "reports", "config", "run")
EVERY = 12  # periods between two kept standings
LAST = 3  # the latest periods whose standings are always kept
CHUNK = 1 << 16  # players a pickle of kept standings holds
#: The fields of :class:`PlayerState` in the order of its constructor: a kept standings file holds one
#: list per field (:func:`save_standings`).
STATE_FIELDS = ("rating", "rank", "games_total", "fixed", "extra")


class ReplayInput(Protocol):
    """What a replay is fed, period by period (:class:`pipeline.rules.prepare.Prepared`): the labels in
    order, each period's rows, and the awards due in each (compared by their ``repr``)."""

    @property
    def labels(self) -> Sequence[str]: ...
    @property
    def due(self) -> Mapping[str, Sequence[object]]: ...
    def rows(self, label: str) -> pa.Table: ...


@dataclass(frozen=True, slots=True)
class Index:
    """A generation's ``state/index.json``: see the module docstring. ``periods`` pairs each label
    with its chained digest, in order; ``standings`` are the labels with a pickle; ``players`` and
    ``reports`` (the report files) are what a run that changes nothing reports; ``pieces`` are the
    audited pieces in order, each its key, audit digest and row count
    (:mod:`~pipeline.output.carried_games`)."""

    config: str
    inputs: str
    periods: list[tuple[str, str]]
    standings: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)
    players: int = 0
    reports: list[str] = field(default_factory=list)
    pieces: list[tuple[str, str | None, int]] = field(default_factory=list)


def config_digest(settings: dict[str, Any], parser_version: str) -> str:
    """The digest of a run's configuration ``settings`` (JSON-able), parser version and rating code."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(json.dumps(settings, sort_keys=True, default=str).encode())
    digest.update(f"{parser_version}\0{__version__}".encode())
    root = Path(__file__).resolve().parent.parent
    for name in CODE:
        for path in sorted((root / name).rglob("*.py")) if (root / name).is_dir() else [root / name]:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def values_digest(table: pa.Table) -> str:
    """A digest of ``table``'s values, equal for equal values whatever the memory layout (Parquet
    stores no bytes under a null, unlike Arrow IPC, where two equal slices can differ there)."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="NONE", use_dictionary=False, write_statistics=False)
    return hashlib.blake2b(memoryview(sink.getvalue()), digest_size=16).hexdigest()


def chained(config: str, prepared: ReplayInput) -> list[tuple[str, str]]:
    """Each period label of ``prepared`` with its chained digest (see the module docstring)."""
    found: list[tuple[str, str]] = []
    previous = config
    for label in prepared.labels:
        digest = hashlib.blake2b(digest_size=16)
        due = repr(prepared.due.get(label, []))
        for part in (previous, label, values_digest(prepared.rows(label)), due):
            digest.update(part.encode() + b"\0")
        previous = digest.hexdigest()
        found.append((label, previous))
    return found


def first_changed(previous: Index | None, config: str, periods: list[tuple[str, str]]) -> int:
    """The index of the first period of ``periods`` whose chained digest differs from ``previous``'s (the
    number of periods when every one is equal; 0 without a previous index or with another configuration)."""
    if previous is None or previous.config != config:
        return 0
    for i, (now, before) in enumerate(zip(periods, previous.periods, strict=False)):
        if tuple(now) != tuple(before):
            return i
    return min(len(periods), len(previous.periods))


def restart(previous: Index | None, labels: list[str], first: int) -> int:
    """The index to replay from: the period after the last one before ``first`` whose standings
    ``previous`` kept (0: from scratch)."""
    kept = set(previous.standings) if previous else set()
    return max((i + 1 for i in range(first) if labels[i] in kept), default=0)


def checkpoints(labels: list[str]) -> set[str]:
    """The labels whose standings a generation keeps: every :data:`EVERY`-th and the last :data:`LAST`."""
    return {label for i, label in enumerate(labels) if i % EVERY == EVERY - 1 or i >= len(labels) - LAST}


def standings_path(generation: Path, label: str) -> Path:
    """Where ``generation`` keeps the standings at the end of period ``label``."""
    return generation / FOLDER / f"{label}.pickle"


def save_standings(generation: Path, label: str, standings: Mapping[str, PlayerState]) -> None:
    """Write the standings at the end of ``label`` into ``generation``, as consecutive pickles of
    :data:`CHUNK` players each, each the players' names and then one list per field of
    :data:`STATE_FIELDS`. By chunks: pickle remembers every object it wrote until the end of a dump. By
    fields: a list of floats or strings is pickled at C speed, a dataclass through Python calls (see
    docs/design.md#standings-pickles). Raises OSError if it cannot."""
    path = standings_path(generation, label)
    path.parent.mkdir(parents=True, exist_ok=True)
    fields = [operator.attrgetter(name) for name in STATE_FIELDS]
    with path.open("wb") as file:
        items = iter(standings.items())
        while chunk := list(itertools.islice(items, CHUNK)):
            players = [state for _, state in chunk]
            columns = [[name for name, _ in chunk], *(list(map(field, players)) for field in fields)]
            pickle.dump(columns, file, protocol=pickle.HIGHEST_PROTOCOL)


def load_standings(generation: Path, label: str) -> dict[str, PlayerState]:
    """The standings at the end of ``label`` that ``generation`` kept (written by this very code: the
    configuration digest, which includes it, matched), in the order they were saved. Raises OSError if
    the file is missing."""
    found: dict[str, PlayerState] = {}
    with standings_path(generation, label).open("rb") as file:
        while file.peek(1):
            names, *columns = pickle.load(file)
            found.update(zip(names, map(PlayerState, *columns), strict=True))
    return found


def read_index(generation: Path | None) -> Index | None:
    """``generation``'s index, or None if there is none or it cannot be read (then a run starts over)."""
    if generation is None:
        return None
    try:
        data = json.loads((generation / FOLDER / INDEX).read_text(encoding="utf-8"))
        data["periods"] = [(str(a), str(b)) for a, b in data["periods"]]
        data["pieces"] = [
            (str(k), None if d is None else str(d), int(n)) for k, d, n in data.get("pieces", [])
        ]
        return Index(**data)
    except (OSError, ValueError, TypeError, KeyError):
        return None


def write_index(generation: Path, index: Index) -> None:
    """Write ``index`` into ``generation``. Raises OSError if it cannot."""
    path = generation / FOLDER / INDEX
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(index), indent=1) + "\n", encoding="utf-8")
