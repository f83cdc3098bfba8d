"""plain_copy: the current snapshot of an output folder as a plain folder (``ratings export --parquet DIR``).

An output folder's entries (``games.parquet``, ``ratings/``, ``manifest.json``, ...) are symbolic links
into ``.gen/current`` (:mod:`pipeline.output.snapshots`), so ``cp -r out/* elsewhere`` copies links that
dangle once moved. :func:`export_parquet` copies the files of the current generation's entries (not its
``state``) into a folder of real files, no link of either kind, laid out as the output folder is
(``ratings/period=<P>/part-0.parquet``, the partitions ``period=-`` included): every reader loads it as it
loads the output folder, and it stays as it is whatever later runs do. The copy is written beside the
target under a temporary name and renamed into place, so a failure leaves no half-copied folder; a
previous copy there is replaced.

Knows nothing of what the files hold, nor of the command line.
"""

from __future__ import annotations

import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.i18n import _
from pipeline.core.interrupts import held
from pipeline.core.progress import SILENT, Steps
from pipeline.output import snapshots
from pipeline.output.folder import MANIFEST_FILE, ReportError


@dataclass(frozen=True, slots=True)
class Copied:
    """What :func:`export_parquet` copied: the ``generation`` (its id), the ``entries`` (names, a folder's
    with a trailing ``/``) and the number of ``files``."""

    generation: str
    entries: list[str]
    files: int


def export_parquet(out: Path, target: Path, steps: Steps = SILENT) -> Copied:
    """Copy the current snapshot of the output folder ``out`` into the folder ``target`` as plain files.

    ``target`` must not exist, or be an empty folder, or a previous copy (a folder with a
    ``manifest.json`` and no ``.gen``), which is replaced; its parent folders are created. ``steps``
    gets one unit a file copied.

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``, ``target`` is ``out`` or inside it,
            or ``target`` is a file or a folder that is neither empty nor a previous copy.
        OSError: if ``target`` cannot be written (nothing is left in its place but what was there).
    """
    generation = snapshots.current(out)
    names = entries(out)
    if generation is None or not names:
        raise ReportError(_("no output in {out}: run `ratings run --out {out}` first").format(out=out))
    _check_target(out, target)
    files = [rel for name in names for rel in _files(generation, name)]
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        with steps.step(_("copying the snapshot"), total=len(files)) as advance:
            for rel in files:
                (temporary / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(generation / rel, temporary / rel)
                advance(1)
        _replace(temporary, target)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    shown = [f"{n}/" if (generation / n).is_dir() else n for n in names]
    return Copied(generation.name, shown, len(files))


def entries(out: Path) -> list[str]:
    """The names of ``out``'s entries: its symbolic links into ``.gen/current``, sorted."""
    current = Path(snapshots.GENERATIONS) / snapshots.CURRENT
    if not out.is_dir():
        return []
    return sorted(e.name for e in out.iterdir() if e.is_symlink() and Path(os.readlink(e)).parent == current)


def _files(generation: Path, name: str) -> list[Path]:
    """The files of entry ``name`` of ``generation``, relative to it (the entry itself for a file)."""
    path = generation / name
    if not path.is_dir():
        return [Path(name)] if path.is_file() else []
    return sorted(p.relative_to(generation) for p in path.rglob("*") if p.is_file())


def _check_target(out: Path, target: Path) -> None:
    """Raise ReportError if ``target`` cannot take a copy of ``out`` (see :func:`export_parquet`)."""
    where = target.resolve()
    if where == out.resolve() or out.resolve() in where.parents:
        message = _("the copy must be outside the output folder {out}, got {target}")
        raise ReportError(message.format(out=out, target=repr(str(target))))
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        message = _("{target} exists and is not a folder: give a new folder for the copy")
        raise ReportError(message.format(target=repr(str(target))))
    if target.is_dir() and any(target.iterdir()) and not _previous_copy(target):
        message = _(
            "the folder {target} is not empty and holds no earlier copy of an output (no {file}): "
            "give a new or empty folder"
        )
        raise ReportError(message.format(target=repr(str(target)), file=MANIFEST_FILE))


def _previous_copy(folder: Path) -> bool:
    """True if ``folder`` looks like an earlier copy: a manifest, and no generations of its own."""
    return (folder / MANIFEST_FILE).is_file() and not (folder / snapshots.GENERATIONS).exists()


def _replace(temporary: Path, target: Path) -> None:
    """Put the folder ``temporary`` in place of ``target`` (an empty folder, an earlier copy, nothing)."""
    if not target.exists():
        os.replace(temporary, target)
        return
    old = target.with_name(f".{target.name}.{secrets.token_hex(6)}.old")
    with held():  # a stop signal between the renames would leave no copy at the target
        os.replace(target, old)
        try:
            os.replace(temporary, target)
        except OSError:
            os.replace(old, target)
            raise
    shutil.rmtree(old, ignore_errors=True)
