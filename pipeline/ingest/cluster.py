"""cluster: the parse stage on a ``dask.distributed`` cluster: one task a batch of files, tables in order.

``ratings run --scheduler tcp://HOST:8786`` (or ``[ingest] scheduler``): the batches of
:mod:`~pipeline.ingest.workers` (``BATCH`` files each) go to the cluster's workers as tasks of
:func:`~pipeline.ingest.workers.parse_batch`, and their tables come back in order, at most two a worker
thread handed out ahead of the one needed next. The cache and the output stay on this machine. The
workers read the raw files themselves: each must see them at the same absolute path (a shared file
system) and run the same parser; both are checked on every worker before the first task, since a worker
that cannot read the files would fill the cache with ``unreadable`` rows.

- The per-file time budget: tasks run in the workers' threads, where SIGALRM does not reach;
  a watchdog thread enforces it there (:class:`~pipeline.ingest.budget.FileBudget`).
- A worker that dies: its nanny starts a new one and the scheduler gives the task to a worker again, at
  most ``distributed.scheduler.allowed-failures`` times (the scheduler's setting; 3 by default). Then
  the task fails with ``KilledWorker`` and its batch is read on this machine, in fresh processes, down
  to the file that kills its process, which gets a ``crash`` row (:func:`~pipeline.ingest.workers.recover`):
  no file can make the run loop, and every file ends as rows.

Knows nothing of the cache, of what the files hold, or of how to start a cluster.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline.core.i18n import N_, _
from pipeline.ingest import workers
from pipeline.ingest.cache import parser_version
from pipeline.ingest.discover import FileEntry, IngestError
from pipeline.ingest.workers import Batches, parse_batch, recover

if TYPE_CHECKING:
    from distributed import Client, Future

#: Seconds to wait for the scheduler to answer, and then for a first worker.
CONNECT_TIMEOUT_S = 30.0
_KEPT = N_("nothing to rate; the previous output is kept")


def parse_on_cluster(todo: Iterable[FileEntry], address: str, file_timeout_s: float = 10.0) -> Batches:
    """Each batch of ``todo`` with its table (schema CACHE), in order, parsed on the cluster of the
    scheduler at ``address``; nothing is asked of the cluster when ``todo`` is empty.

    ``file_timeout_s`` is each file's budget. Closing the iterator releases the tasks not done. Raises
    :class:`IngestError` if ``dask.distributed`` is not installed, the scheduler cannot be reached or
    has no worker, a worker does not see the files or runs another parser, or a task fails otherwise
    than by its worker dying.
    """
    batches = workers.chunks(todo, workers.BATCH)
    first = next(batches, None)
    if first is None:
        return
    client = _connect(address)
    try:
        _check_workers(client, address, next((e.path for e in first if e.error_kind is None), None))
        yield from _ordered(client, address, itertools.chain([first], batches), file_timeout_s)
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _connect(address: str) -> Client:
    """A client of the scheduler at ``address`` with at least one worker. Raises IngestError if none."""
    try:
        from distributed import Client
    except ImportError:
        message = _(
            "--scheduler {address} needs dask.distributed: pip install 'sgf-ratings[cluster]'; {kept}"
        )
        raise IngestError(message.format(address=address, kept=_(_KEPT))) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as e:
        message = _("cannot reach the Dask scheduler at {address}: {error}; {kept}")
        raise IngestError(message.format(address=address, error=e, kept=_(_KEPT))) from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    except TimeoutError:
        client.close()  # type: ignore[no-untyped-call]
        message = _(
            "the Dask scheduler at {address} has no worker (start one with `dask worker {address}`); {kept}"
        )
        raise IngestError(message.format(address=address, kept=_(_KEPT))) from None
    return client


def _check_workers(client: Client, address: str, path: str | None) -> None:
    """Raises IngestError if a worker cannot run the parser, does not see ``path`` or runs another one."""
    try:
        seen: dict[str, tuple[bool, str]] = client.run(worker_view, path)
    except Exception as e:
        message = _("the Dask workers of {address} cannot run the parser: {error}; {kept}")
        raise IngestError(message.format(address=address, error=repr(e), kept=_(_KEPT))) from None
    for worker, (sees, version) in sorted(seen.items()):
        if not sees:
            message = _(
                "the Dask worker {worker} does not see {path}: every worker must read the raw folder at "
                "the same path (a shared file system); {kept}"
            )
            raise IngestError(message.format(worker=worker, path=path, kept=_(_KEPT)))
        if version != parser_version():
            message = _(
                "the Dask worker {worker} runs parser version {version}, this machine {here}: "
                "install the same sgf-ratings on every worker; {kept}"
            )
            raise IngestError(
                message.format(worker=worker, version=version, here=parser_version(), kept=_(_KEPT))
            )


def worker_view(path: str | None) -> tuple[bool, str]:
    """Run on each worker: whether it sees ``path`` (None: nothing to see), and its parser version."""
    return path is None or os.path.exists(path), parser_version()


def _ordered(
    client: Client, address: str, batches: Iterable[list[FileEntry]], file_timeout_s: float
) -> Batches:
    """The batches with their tables, in order, at most two a worker thread handed out at a time."""
    window = 2 * max(sum(client.nthreads().values()), 1)  # type: ignore[no-untyped-call]
    waiting = iter(batches)
    pending: deque[tuple[list[FileEntry], Future[pa.Table]]] = deque()
    _submit(client, waiting, pending, window, file_timeout_s)
    while pending:
        batch, future = pending.popleft()
        table = _result(future, batch, address, file_timeout_s)
        _submit(client, waiting, pending, window, file_timeout_s)
        yield batch, table


def _submit(
    client: Client,
    waiting: Iterator[list[FileEntry]],
    pending: deque[tuple[list[FileEntry], Future[pa.Table]]],
    window: int,
    file_timeout_s: float,
) -> None:
    for batch in waiting:
        pending.append((batch, client.submit(parse_batch, batch, file_timeout_s, pure=False)))
        if len(pending) >= window:
            return


def _result(
    future: Future[pa.Table], batch: list[FileEntry], address: str, file_timeout_s: float
) -> pa.Table:
    """The task's table; read here when it killed its workers. Raises IngestError if it failed otherwise."""
    from distributed import KilledWorker

    try:
        return future.result()
    except KilledWorker:
        return recover(batch, file_timeout_s)
    except Exception as e:
        message = _("the Dask cluster at {address} failed to parse the files from {path}: {error}; {kept}")
        raise IngestError(
            message.format(address=address, path=batch[0].rel, error=repr(e), kept=_(_KEPT))
        ) from None
