"""snapshots: the write stage. Every output of a run is one generation, switched in by one rename.

Layout of the output folder::

    games.parquet -> .gen/current/games.parquet        (relative symbolic links, made once)
    ratings       -> .gen/current/ratings              ratings/period=<P>/part-0.parquet, and
                                                       ratings/period=-/part-0.parquet (no rows)
    changes, awards, leaderboards, manifest.json       the same way
    .gen/current  -> <generation>                      the one link a run replaces
    .gen/<generation>/...                              the files themselves (``g-`` and 12 hex digits)
    .gen/<generation>/state/, index/                   the state a later run resumes from
                                                       (:mod:`pipeline.output.state`) and the index by
                                                       player (:mod:`pipeline.output.player_index`): no
                                                       entries of the output folder
    .gen/history.json                                  the kept generations, in the order they were
                                                       switched in, each with its time (UTC)

A run writes a new generation folder beside the old one, then replaces the ``.gen/current`` link
with ``os.replace`` (atomic on POSIX): a failure or a kill at any point leaves the previous
complete output in place, and readers never see a mix of two runs. After the switch the history
gains the new generation, and only the latest ``keep`` generations of it are kept (:data:`KEEP` by
default: the current one and the two before it, so that ``ratings diff`` can say what the last run
changed, and what the one before it did); every other folder under ``.gen/`` (older generations, a
generation whose switch failed, one a kill left half-written) is removed. A generation's id is its
folder name; its manifest's ``generation`` entry repeats the id and gives the time it was written.
Unchanged partitions are hard links between generations, so a kept generation costs only the files
its run wrote.

Every dataset also gets the partition ``period=-`` (:data:`SCHEMA_PARTITION`): one file with the
dataset's columns and no rows. Readers infer a hive partition's type from the labels of the folder
names, and every label of a yearly run (``period=2024``) is all digits, so pandas and pyarrow would
read ``period`` as int32, DuckDB as BIGINT and polars as Int64, unlike ``games.parquet``'s text (a merge
on ``period`` then finds nothing, a filter ``period = '2024'`` raises). One label that is not a number
makes every reader type ``period`` as text with its defaults (pyarrow: a dictionary of strings, DuckDB:
VARCHAR, polars: String), for every period kind; as it has no rows, no query sees it, and it still
gives the columns of a dataset without rows. pandas would make pyarrow's dictionary an unordered
categorical (``max()`` raises, ``-`` is among its categories): every partition file's pandas metadata
names ``period`` with pandas' Arrow string (:data:`pipeline.core.tables.PARTITION_DTYPE`), which
pyarrow applies, so ``max()`` is the latest period and no placeholder shows. ``-`` sorts before every
digit, for readers that would look at the first folders only. (The alternatives, and why each fails:
docs/design.md#period-partition.)

Knows nothing of what the tables mean; each table is stored as :func:`pipeline.core.tables.stored`
gives it (types for analysts' readers, pandas metadata).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import shutil
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.core import store, tables
from pipeline.core.interrupts import held

GENERATIONS = ".gen"
CURRENT = "current"
HISTORY = "history.json"
#: Generations kept by default (the current one included): set by ``[output] keep_generations``.
KEEP = 3
PART = "part-0.parquet"
#: The label of each dataset's partition without rows that makes readers type ``period`` as text.
SCHEMA_PARTITION = "-"


def write_generation(
    out: Path,
    files: Mapping[str, pa.Table],
    datasets: Mapping[str, pa.Table],
    manifest: dict[str, Any],
    periods: Mapping[str, Sequence[str]] | None = None,
    keep: int = KEEP,
) -> Path:
    """Write one complete output into ``out`` and switch to it; return the generation folder.

    ``files`` are single Parquet files by name (``games.parquet``); ``datasets`` are tables with a
    ``period`` column (text), written as ``<name>/period=<P>/part-0.parquet`` plus the partition
    without rows ``period=-`` (:data:`SCHEMA_PARTITION`); a dataset with no rows gets an empty
    partition for each label ``periods[name]`` lists, so that it still has partitions; ``manifest``
    goes to ``manifest.json``. Each table is stored as :func:`pipeline.core.tables.stored` gives it.
    ``keep``: the generations kept after the switch, this one included (:class:`Generation`).
    Raises OSError if the folder cannot be written (the old output stays), ValueError if ``keep`` < 1.
    """
    with Generation(out, keep) as generation:
        for name, table in files.items():
            generation.write_file(name, table)
        for name, table in datasets.items():
            write_dataset(generation, name, table, (periods or {}).get(name, ()))
        return generation.commit(manifest)


class Generation:
    """A generation being written: files and partitions written or hard-linked from another generation
    (nothing copied), then :meth:`commit` switches to it. Used as a context manager, it is removed if the
    block raises before the commit (the old output stays). ``keep``: how many generations the commit
    leaves, this one included (1: this one only). Raises ValueError if ``keep`` is less than 1."""

    def __init__(self, out: Path, keep: int = KEEP) -> None:
        if keep < 1:
            raise ValueError(f"generations to keep must be 1 or more, got {keep!r}")
        self.out, self.root, self.keep = out, out / GENERATIONS, keep
        self.path = self.root / f"g-{uuid.uuid4().hex[:12]}"
        self.path.mkdir(parents=True)
        self.entries: dict[str, None] = {}  # the names under out/ that link into it, in order
        self._done = False

    def __enter__(self) -> Generation:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._done:
            shutil.rmtree(self.path, ignore_errors=True)

    def write_file(self, name: str, table: pa.Table) -> None:
        """Write ``table`` as the file ``name`` (``games.parquet``). Raises OSError if it cannot."""
        store.write_parquet(tables.stored(name, table), self.path / name, atomic=False)
        self.entries[name] = None

    def file_path(self, name: str) -> Path:
        """The path of the file ``name`` in this generation, for a writer that streams into it
        (:class:`~pipeline.core.store.ParquetStream`); ``name`` becomes an entry of the output."""
        self.entries[name] = None
        return self.path / name

    def write_partition(self, dataset: str, label: str, table: pa.Table) -> None:
        """Write ``table`` (without its ``period`` column) as partition ``label`` of ``dataset``."""
        part = tables.stored(dataset, table, partition="period")
        store.write_parquet(part, partition(self.path, dataset, label), atomic=False)
        self.entries[dataset] = None

    def link(self, previous: Path, relative: str | Path, entry: str | None) -> None:
        """Hard-link ``previous/relative`` (a file of another generation) into this one; ``entry`` is the
        name under the output folder it belongs to (``ratings``; None: none, e.g. the run's state).
        Raises OSError if it cannot."""
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(previous / relative, target)
        if entry is not None:
            self.entries[entry] = None

    def commit(self, manifest: dict[str, Any]) -> Path:
        """Write ``manifest.json`` (``manifest`` with a ``generation`` entry: ``id`` and ``written``, the
        UTC time), switch ``out`` to this generation, keep the latest ``keep`` generations of the
        history and remove every other folder under ``.gen/``; return this generation's folder."""
        written = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        identity = {"id": self.path.name, "written": written}
        store.write_json({**manifest, "generation": identity}, self.path / "manifest.json")
        self.entries["manifest.json"] = None
        before = current(self.out)
        with held():  # switched and not done: the exit would remove the generation switched to
            _switch(self.root, self.path.name)
            self._done = True
        _link_entries(self.out, list(self.entries))
        _prune(self.root, _record(self.root, identity, before, self.keep))
        return self.path


@dataclass(frozen=True, slots=True)
class Kept:
    """A kept generation: ``id`` its folder name, ``path`` the folder, ``written`` when it was written
    (UTC; None for one written before generations had a time), ``current`` whether it is switched in."""

    id: str
    path: Path
    written: dt.datetime | None
    current: bool


def kept(out: Path) -> list[Kept]:
    """The generations kept in ``out``, oldest first, the current one last (empty: no output).

    The order and the times are the history's (the order of the switches, whatever the clock did); a
    current generation the history does not name (one written by an older version, or a kill between
    the switch and the history) is added last, with its manifest's time."""
    root, now = out / GENERATIONS, current(out)
    found = [
        Kept(e["id"], root / e["id"], _time(e["written"]), root / e["id"] == now) for e in _history(root)
    ]
    found = [k for k in found if k.path.is_dir()]
    if now is None or any(k.current for k in found):
        return found
    return [*found, Kept(now.name, now, _time(_identity(now).get("written")), True)]


def current(out: Path) -> Path | None:
    """The generation folder ``out``'s output is switched to, or None if it has none."""
    link = out / GENERATIONS / CURRENT
    return link.resolve() if link.is_symlink() and link.resolve().is_dir() else None


def partition(generation: Path, dataset: str, label: str) -> Path:
    """The file of partition ``label`` of ``dataset`` in ``generation``."""
    return generation / dataset / f"period={label}" / PART


def partitions(generation: Path, dataset: str) -> list[str]:
    """The labels of ``dataset``'s partitions in ``generation`` (:data:`SCHEMA_PARTITION` aside)."""
    folder = generation / dataset
    if not folder.is_dir():
        return []
    names = [p.name.removeprefix("period=") for p in folder.iterdir() if p.name.startswith("period=")]
    return sorted(n for n in names if n != SCHEMA_PARTITION)


def write_dataset(generation: Generation, name: str, table: pa.Table, labels: Sequence[str]) -> None:
    """The partition :data:`SCHEMA_PARTITION` (no rows), then one partition per period value of
    ``table``; a table with no rows gets one empty partition per label of ``labels`` (only then:
    thousands of empty files would cost more than they tell)."""
    generation.write_partition(name, SCHEMA_PARTITION, table.slice(0, 0))
    if not table.num_rows:
        for label in labels:
            generation.write_partition(name, label, table)
    write_partitions(generation, name, table)


def write_partitions(generation: Generation, name: str, table: pa.Table) -> None:
    """One partition of dataset ``name`` per period value of ``table`` (none for a table without rows)."""
    table = table.sort_by("period")  # stable: a period's rows keep their order
    start = 0
    for label, rows in itertools.groupby(table.column("period").to_pylist()):
        count = sum(1 for _ in rows)
        generation.write_partition(name, label, table.slice(start, count))
        start += count


def _switch(root: Path, name: str) -> None:
    """Point ``root/current`` at generation ``name`` in one atomic rename."""
    temporary = root / f".{CURRENT}.{uuid.uuid4().hex[:8]}"
    os.symlink(name, temporary)
    os.replace(temporary, root / CURRENT)


def _link_entries(out: Path, names: list[str]) -> None:
    """Make each ``out/<name>`` a link into ``.gen/current`` (replacing a plain file or folder once),
    and remove the links of earlier runs to entries this generation does not have (e.g. another
    rule set's reports), so that no link dangles."""
    current = Path(GENERATIONS) / CURRENT
    for entry in out.iterdir():
        if entry.is_symlink() and Path(os.readlink(entry)).parent == current and entry.name not in names:
            entry.unlink()
    for name in names:
        entry, target = out / name, Path(GENERATIONS) / CURRENT / name
        if entry.is_symlink() and Path(os.readlink(entry)) == target:
            continue
        temporary = out / f".{name}.{uuid.uuid4().hex[:8]}"
        os.symlink(target, temporary)
        with held():  # (a stop signal between the two would leave the entry missing until the next run)
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            os.replace(temporary, entry)


def _record(root: Path, identity: dict[str, str], before: Path | None, keep: int) -> set[str]:
    """Add the generation ``identity`` names to ``root``'s history (after ``before``, the one switched
    in until now, when the history lacks it), cut it to the last ``keep``, write it; return their ids."""
    history = [e for e in _history(root) if (root / e["id"]).is_dir() and e["id"] != identity["id"]]
    if before is not None and before.name not in {e["id"] for e in history}:
        history.append({"id": before.name, "written": _identity(before).get("written")})
    history = [*history, identity][-keep:]
    store.write_json({"generations": history}, root / HISTORY)
    return {e["id"] for e in history}


def _history(root: Path) -> list[dict[str, Any]]:
    """The entries (``id``, ``written``) of ``root``'s history, oldest first; none when it is missing or
    unreadable (then only the current generation is known)."""
    try:
        entries = json.loads((root / HISTORY).read_text(encoding="utf-8"))["generations"]
        return [{"id": str(e["id"]), "written": e.get("written")} for e in entries]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return []


def _identity(generation: Path) -> dict[str, Any]:
    """The ``generation`` entry of the manifest of ``generation`` (empty when there is none)."""
    try:
        found = json.loads((generation / "manifest.json").read_text(encoding="utf-8")).get("generation")
    except (OSError, ValueError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def _time(text: Any) -> dt.datetime | None:
    """``text`` (an ISO time with its offset) as a datetime; None if it is not one."""
    try:
        return dt.datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def _prune(root: Path, keep: set[str]) -> None:
    """Remove every entry of ``root`` but the generations ``keep``, the current link and the history
    (older generations, one whose switch failed, a half-written one, links an interrupted switch left)."""
    for path in root.iterdir():
        if path.name in keep or path.name in (CURRENT, HISTORY):
            continue
        if path.is_symlink() or path.is_file():
            path.unlink()
        else:
            shutil.rmtree(path, ignore_errors=True)
