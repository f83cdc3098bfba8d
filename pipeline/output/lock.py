"""lock: one writer at a time per output folder.

Every command that writes into an output folder or its cache (``run``, ``ingest``, ``backtest``,
``compare``) holds an exclusive lock on the file :data:`LOCK_FILE` in it for as long as it runs:
``flock(2)``, a lock of the operating system that is released when the process ends however it ends,
so a killed run never leaves a stale lock behind. While it holds the lock the file says who does
(host, process id, command, start time), for the message of a process that finds the folder taken.
Worker processes forked by the holder inherit the open file, and so the lock: they end with their
parent (:mod:`pipeline.ingest.pool`), and the lock with them.

Knows nothing of what the folder holds, nor of waiting messages or exit codes: a caller that waits
is told once, through ``waiting``, who it waits for; a caller that will not wait gets
:class:`OutputBusy`. POSIX only (``fcntl``). Readers take no lock: they read the generation that
``.gen/current`` names, which no writer changes (:mod:`pipeline.output.snapshots`).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.i18n import _

#: The lock file in the output folder (its contents only say who holds it).
LOCK_FILE = ".lock"


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds an output folder: a process ``pid`` running ``command`` since ``started`` (UTC),
    on ``host`` (shown when it is not this one). Unknown fields (a lock taken before its holder had
    written them) are None."""

    pid: int | None
    command: str | None
    started: str | None
    host: str | None = None

    def __str__(self) -> str:
        said = _("process {pid}").format(pid=self.pid) if self.pid is not None else _("another process")
        if self.host and self.host != socket.gethostname():
            said = _("{process} on {host}").format(process=said, host=self.host)
        details = [f"`{self.command}`"] if self.command else []
        details += [_("since {time}").format(time=self.started)] if self.started else []
        return (
            _("{process} ({details})").format(process=said, details=_(", ").join(details))
            if details
            else said
        )


class OutputBusy(Exception):
    """The output folder ``out`` is locked by ``holder`` and the caller would not wait."""

    def __init__(self, out: Path, holder: Holder) -> None:
        super().__init__(_("{out} is in use by {holder}").format(out=out, holder=holder))
        self.out = out
        self.holder = holder


@contextmanager
def held(
    out: Path,
    command: str,
    wait: bool = True,
    waiting: Callable[[Holder], None] | None = None,
) -> Iterator[None]:
    """Hold the lock of the output folder ``out`` (created if missing) while the ``with`` lasts,
    recording ``command`` as what holds it.

    When another process holds it: with ``wait``, ``waiting`` is called once with the holder, then the
    lock is waited for (Ctrl-C stops the wait); without, :class:`OutputBusy` is raised. Raises OSError
    if the folder or its lock file cannot be made.
    """
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        if not _try_lock(fd):
            holder = read_holder(out)
            if holder.pid is None:  # (taken this instant: its holder is writing who it is)
                time.sleep(0.1)
                holder = read_holder(out)
            if not wait:
                raise OutputBusy(out, holder)
            if waiting is not None:
                waiting(holder)
            fcntl.flock(fd, fcntl.LOCK_EX)
        _write_holder(fd, command)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)  # (a killed holder's words stay: harmless, the lock is what counts)
    finally:
        os.close(fd)  # releases the lock


def read_holder(out: Path) -> Holder:
    """Who the lock file of ``out`` says holds it (fields None when it says nothing readable)."""
    try:
        found = json.loads((out / LOCK_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        found = None
    if not isinstance(found, dict):
        return Holder(None, None, None)
    pid, command, started, host = (found.get(k) for k in ("pid", "command", "started", "host"))
    return Holder(
        pid if isinstance(pid, int) else None,
        command if isinstance(command, str) else None,
        started if isinstance(started, str) else None,
        host if isinstance(host, str) else None,
    )


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _write_holder(fd: int, command: str) -> None:
    """Write this process as the holder into the locked file ``fd``."""
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    said = json.dumps(
        {"pid": os.getpid(), "command": command, "started": started, "host": socket.gethostname()},
        ensure_ascii=False,
    )
    os.ftruncate(fd, 0)
    os.pwrite(fd, said.encode("utf-8"), 0)
