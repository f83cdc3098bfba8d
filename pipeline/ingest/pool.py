"""pool: worker processes whose death costs only their own task, and that end with their parent.

- :func:`ordered_map` runs a function over items in forked worker processes, each with its own pipe, and
  gives the results in order; a worker that dies (a segfault, the OOM killer, ``os._exit``) gives
  :class:`WorkerDied` for its own item only, and a fresh worker takes its place. (The standard
  ``ProcessPoolExecutor`` fails every pending task when one worker dies; pebble's pool shares one pipe
  and its lock between workers, so a worker killed while sending leaves the others blocked.)
- :func:`die_with_parent` ends a worker with its parent (``prctl(PR_SET_PDEATHSIG)`` on Linux, and
  everywhere a thread that watches the parent), so a killed run leaves no worker behind.

Knows nothing of files or rows; needs ``fork`` (the workers share the parent's code and state).
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing, suppress
from multiprocessing import connection, get_context
from typing import Generic, TypeVar, cast

#: Seconds between two looks of a worker at its parent (the fallback where the kernel does not help).
WATCH_INTERVAL_S = 1.0
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_END = object()  # the end of the items
A = TypeVar("A")
R = TypeVar("R")


class WorkerDied(Exception):
    """The worker process that held an item ended without giving its result.

    ``exitcode`` is the process's, as :mod:`multiprocessing` gives it (negative: the signal that ended
    it); :meth:`how` says it in words: ``killed by SIGKILL``, ``exit code 9``.
    """

    def __init__(self, exitcode: int | None) -> None:
        self.exitcode = exitcode
        super().__init__(self.how())

    def how(self) -> str:
        code = self.exitcode
        if code is None or code >= 0:
            return f"exit code {code}"
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"


def ordered_map(
    function: Callable[[A], R], items: Iterable[A], processes: int
) -> Generator[R | WorkerDied, None, None]:
    """``function(item)`` for each of ``items``, in order, run in ``processes`` forked worker processes.

    ``items`` is read as the workers need them, never ahead of the window below: a generator of
    millions of items is never held. An item whose worker died gives :class:`WorkerDied` (the others
    go on; a fresh worker is started). At most ``4 × processes`` items are handed out beyond the one
    to be given next, so few results wait for their turn. Raises what ``function`` raised in a worker
    (pickled back). The workers ignore SIGINT (the caller decides), end with the caller, and are
    killed when the iterator is closed.
    """
    pool = _Pool(function, processes)
    try:
        yield from pool.results(items, 4 * processes)
    finally:
        pool.close()


def in_fresh_process(function: Callable[[A], R], item: A) -> R | WorkerDied:
    """``function(item)`` run in a new forked process: its result, or :class:`WorkerDied`."""
    with closing(ordered_map(function, [item], 1)) as results:
        return next(results)


class _Worker(Generic[A, R]):
    """One worker process, its end of the pipe, and the position of the item it holds (None: idle)."""

    def __init__(self, function: Callable[[A], R]) -> None:
        fork = get_context("fork")
        self.conn, theirs = fork.Pipe()
        self.process = fork.Process(
            target=_serve, args=(theirs, function, os.getpid()), name="sgf-ratings-worker", daemon=True
        )
        self.process.start()
        theirs.close()
        self.task: int | None = None

    def died(self) -> WorkerDied:
        """What became of its item when it ended (a worker whose pipe broke but still runs is killed)."""
        self.process.join(WATCH_INTERVAL_S)
        self.kill()
        return WorkerDied(self.process.exitcode)

    def kill(self) -> None:
        self.conn.close()
        if self.process.exitcode is None:
            self.process.kill()
        self.process.join()


class _Pool(Generic[A, R]):
    def __init__(self, function: Callable[[A], R], processes: int) -> None:
        self.function = function
        self.workers = [_Worker(function) for _ in range(processes)]

    def results(self, items: Iterable[A], ahead: int) -> Iterator[R | WorkerDied]:
        done: dict[int, R | WorkerDied] = {}
        source, sent, position = iter(items), 0, 0
        while True:
            while position not in done:
                sent = self._hand_out(source, sent, position + 1 + ahead, done)
                if position >= sent:  # every item was handed out and given back
                    return
                if position not in done:
                    self._receive(done)
            yield done.pop(position)
            position += 1

    def _hand_out(self, source: Iterator[A], sent: int, limit: int, done: dict[int, R | WorkerDied]) -> int:
        """Hand items of ``source`` to idle workers while fewer than ``limit`` are out; the new count."""
        for i, worker in enumerate(self.workers):
            if sent >= limit or worker.task is not None:
                continue
            item = next(source, _END)
            if item is _END:
                return sent
            try:
                worker.conn.send(item)
                worker.task = sent
            except OSError:  # it had ended while idle: its item is given to the caller to sort out
                done[sent] = self._replace(i)
            sent += 1
        return sent

    def _receive(self, done: dict[int, R | WorkerDied]) -> None:
        busy = [(i, w) for i, w in enumerate(self.workers) if w.task is not None]
        ready = set(connection.wait([w.conn for _, w in busy] + [w.process.sentinel for _, w in busy]))
        for i, worker in busy:
            if worker.task is not None and {worker.conn, worker.process.sentinel} & ready:
                task, worker.task = worker.task, None
                done[task] = self._collect(i, worker)

    def _collect(self, i: int, worker: _Worker[A, R]) -> R | WorkerDied:
        try:
            ok, value = worker.conn.recv() if worker.conn.poll() else (None, None)
        except (EOFError, OSError):  # it died while sending
            ok = None
        if ok is None:
            return self._replace(i)
        if not ok:
            raise cast(BaseException, value)
        return cast(R, value)

    def _replace(self, i: int) -> WorkerDied:
        died = self.workers[i].died()
        self.workers[i] = _Worker(self.function)
        return died

    def close(self) -> None:
        for worker in self.workers:
            worker.kill()


def _serve(conn: connection.Connection, function: Callable[[A], R], parent: int) -> None:
    """A worker's loop: an item in, ``(True, result)`` or ``(False, exception)`` out, until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()  # what it inherited stays: the collector need not walk (and copy) the parent's objects
    die_with_parent(parent)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, object] = (True, function(item))
        except BaseException as e:
            reply = (False, e)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as e:  # the result or the exception does not pickle
            conn.send((False, RuntimeError(f"the worker's result cannot be sent: {e!r}")))


def die_with_parent(parent: int) -> None:
    """Initializer of a worker process: end it when its parent, the process ``parent``, ends.

    Without this a worker whose parent was killed (SIGKILL) blocks on the task queue forever. On Linux
    the kernel kills it (``PR_SET_PDEATHSIG``); everywhere a daemon thread looks every
    :data:`WATCH_INTERVAL_S` seconds and exits the worker once its parent is another process.
    """
    set_parent_death_signal()
    if os.getppid() != parent:  # the parent ended before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def set_parent_death_signal() -> None:
    """Ask the kernel to SIGKILL this process when its parent ends (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    with suppress(OSError, AttributeError):  # no C library to load, or no prctl in it: the thread remains
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL_S)
    os._exit(1)
