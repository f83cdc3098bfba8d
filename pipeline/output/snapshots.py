"""snapshots: the write stage. Every output of a run is one generation, switched in by one rename.

Layout of the output folder::

    games.parquet -> .gen/current/games.parquet        (relative symbolic links, made once)
    ratings       -> .gen/current/ratings              ratings/period=<P>/part-0.parquet, and
                                                       ratings/period=-/part-0.parquet (no rows)
    changes, awards, leaderboards, manifest.json       the same way
    .gen/current  -> <generation>                      the one link a run replaces
    .gen/<generation>/...                              the files themselves

A run writes a new generation folder beside the old one, then replaces the ``.gen/current`` link
with ``os.replace`` (atomic on POSIX): a failure or a kill at any point leaves the previous
complete output in place, and readers never see a mix of two runs. Older generations are removed
after the switch.

Every dataset also gets the partition ``period=-`` (:data:`SCHEMA_PARTITION`): one file with the
dataset's columns and no rows. Readers infer a hive partition's type from the labels of the folder
names, and every label of a yearly run (``period=2024``) is all digits, so pandas and pyarrow would
read ``period`` as int32, DuckDB as BIGINT and polars as Int64, unlike ``games.parquet``'s text (a merge
on ``period`` then finds nothing, a filter ``period = '2024'`` raises). One label that is not a number
makes every reader type ``period`` as text with its defaults (pyarrow: a dictionary of strings, pandas:
a categorical of strings), for every period kind; as it has no rows, no query sees it, and it still
gives the columns of a dataset without rows. ``-`` sorts before every digit, for readers that would
look at the first folders only. (Measured with pyarrow 26, pandas 3.1, DuckDB 2.0, polars 2.1: writing
``period`` inside the files as well makes pyarrow refuse to merge the two; a ``_common_metadata`` file
is ignored by pyarrow and stops polars reading the folder.)

Knows nothing of what the tables mean; each table is stored as :func:`pipeline.output.tables.stored`
gives it (types for analysts' readers, pandas metadata).
"""

from __future__ import annotations

import itertools
import os
import shutil
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.output import store, tables

GENERATIONS = ".gen"
CURRENT = "current"
PART = "part-0.parquet"
#: The label of each dataset's partition without rows that makes readers type ``period`` as text.
SCHEMA_PARTITION = "-"


def write_generation(
    out: Path,
    files: Mapping[str, pa.Table],
    datasets: Mapping[str, pa.Table],
    manifest: dict[str, Any],
    periods: Mapping[str, Sequence[str]] | None = None,
) -> Path:
    """Write one complete output into ``out`` and switch to it; return the generation folder.

    ``files`` are single Parquet files by name (``games.parquet``); ``datasets`` are tables with a
    ``period`` column (text), written as ``<name>/period=<P>/part-0.parquet`` plus the partition
    without rows ``period=-`` (:data:`SCHEMA_PARTITION`); a dataset with no rows gets an empty
    partition for each label ``periods[name]`` lists, so that it still has partitions; ``manifest``
    goes to ``manifest.json``. Each table is stored as :func:`pipeline.output.tables.stored` gives it.
    Raises OSError if the folder cannot be written (the old output stays).
    """
    root = out / GENERATIONS
    generation = root / f"g-{uuid.uuid4().hex[:12]}"
    generation.mkdir(parents=True)
    try:
        for name, table in files.items():
            store.write_parquet(tables.stored(name, table), generation / name, atomic=False)
        for name, table in datasets.items():
            _write_dataset(table, generation / name, (periods or {}).get(name, ()))
        store.write_json(manifest, generation / "manifest.json")
    except BaseException:
        shutil.rmtree(generation, ignore_errors=True)
        raise
    _switch(root, generation.name)
    _link_entries(out, [*files, *datasets, "manifest.json"])
    _prune(root, generation.name)
    return generation


def _write_dataset(table: pa.Table, folder: Path, labels: Sequence[str]) -> None:
    """The partition :data:`SCHEMA_PARTITION` (no rows), then one partition folder per period value; a
    table with no rows gets one empty partition per label of ``labels`` (only then: thousands of empty
    files would cost more than they tell)."""
    folder.mkdir(parents=True)
    table = tables.stored(folder.name, table).sort_by("period")  # stable: a period's rows keep their order
    parts: dict[str, pa.Table] = {SCHEMA_PARTITION: table.slice(0, 0)}
    parts |= {label: table for label in labels} if not table.num_rows else {}
    start = 0
    for label, rows in itertools.groupby(table.column("period").to_pylist()):
        count = sum(1 for _ in rows)
        parts[label] = table.slice(start, count)
        start += count
    for label, part in parts.items():
        store.write_parquet(part.drop_columns(["period"]), folder / f"period={label}" / PART, atomic=False)


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
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        os.replace(temporary, entry)


def _prune(root: Path, keep: str) -> None:
    """Remove every generation but ``keep`` (and any link left behind by an interrupted switch)."""
    for path in root.iterdir():
        if path.name in (keep, CURRENT):
            continue
        if path.is_symlink() or path.is_file():
            path.unlink()
        else:
            shutil.rmtree(path, ignore_errors=True)
