"""budget: a time budget for each file, so that no one record can stall the run.

:class:`FileBudget` raises :class:`FileTimeout` inside a call that runs past its budget: by SIGALRM in
the main thread of a process (a worker's, or the caller's with one worker), and in any other thread (a
Dask worker's) by a watchdog thread that raises it there (``PyThreadState_SetAsyncExc``). Either way the
exception arrives between two bytecodes: code that never returns to the interpreter is not stopped.

Knows nothing of files or rows. Does not enforce the budget where there is no SIGALRM (Windows) or, off
the main thread, outside CPython.
"""

from __future__ import annotations

import ctypes
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import ParamSpec, TypeVar

_Handler = Callable[[int, FrameType | None], object] | int | None  # what signal.signal returns
#: Bytes a file may have for each :attr:`FileBudget.seconds` of its budget (4 MiB: some 2,500 records).
BUDGET_BYTES = 4 * 1024 * 1024
_SHORTEST = 1e-4  # seconds: the timer is never set for less (0 would stop it)
P = ParamSpec("P")
T = TypeVar("T")


class FileTimeout(BaseException):
    """Raised inside the reading of a file that ran past its time budget.

    A BaseException, so that no ``except Exception`` on the way (a normaliser's) can swallow it.
    """


class FileBudget:
    """The time budget of each file of one batch: ``with FileBudget(s) as budget: budget.run(...)``.

    In the main thread the SIGALRM handler is installed for the whole batch (``with``) and the previous
    one restored after it; a real-time timer that was running is stopped meanwhile and re-armed after the
    batch with the time it had left. In another thread a watchdog thread lives for the batch. Each
    :meth:`run` has its whole budget from its start. In the main thread the timer is set only when a
    call's budget ends before the time it is set for (two system calls a file would be a tenth of the
    reading of a small one): files of equal budgets, one after another, set it about once per budget's
    length of reading. A timer that rings while a call still has time left is set again for that time;
    one that rings between calls is let go. Enforces nothing when ``seconds`` <= 0, where there is no
    SIGALRM in the main thread, or no ``PyThreadState_SetAsyncExc`` in another.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        main = threading.current_thread() is threading.main_thread()
        self.enabled = seconds > 0 and (hasattr(signal, "setitimer") if main else _can_raise_in_threads())
        self._watchdog = None if main or not self.enabled else _Watchdog(threading.get_ident())
        self._timing = False  # an alarm that arrives after its file was done is ignored
        self._deadline = 0.0  # when the call being timed runs out of its budget (time.monotonic)
        self._rings = math.inf  # when the timer set last rings (time.monotonic); inf: not set
        self._previous: _Handler = None
        self._outer = (0.0, 0.0)  # (seconds left, when read) of a timer that was running

    def __enter__(self) -> FileBudget:
        if self._watchdog is not None:
            self._watchdog.start()
        elif self.enabled:
            self._previous = signal.signal(signal.SIGALRM, self._expire)
            self._outer = (signal.setitimer(signal.ITIMER_REAL, 0)[0], time.monotonic())
            self._rings = math.inf
        return self

    def __exit__(self, *exc: object) -> None:
        if self._watchdog is not None:
            self._watchdog.stop()
        if self._watchdog is not None or not self.enabled:
            return
        signal.setitimer(signal.ITIMER_REAL, 0)
        self._rings = math.inf
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)
        left, since = self._outer
        if left:
            signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - since), 1e-3))

    def run(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)``; raises :class:`FileTimeout` if it runs longer than the budget."""
        return self.run_within(self.seconds, call, *args, **kwargs)

    def for_size(self, size: int) -> float:
        """The budget of a file of ``size`` bytes: :attr:`seconds`, and as much again for every
        :data:`BUDGET_BYTES` past the first (a text file of 30,000 records is no pathological input)."""
        return self.seconds * max(1.0, size / BUDGET_BYTES)

    def run_within(self, seconds: float, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)``; raises :class:`FileTimeout` if it runs longer than ``seconds``."""
        if not self.enabled:
            return call(*args, **kwargs)
        if self._watchdog is not None:
            with self._watchdog.armed(seconds):
                return call(*args, **kwargs)
        self._deadline = time.monotonic() + seconds
        self._timing = True  # before the timer is set: a ring from now on sees this call's deadline
        try:
            if self._deadline < self._rings:
                self._set_timer()
            return call(*args, **kwargs)
        finally:
            self._timing = False

    def _set_timer(self) -> None:
        """Set the timer to ring at :attr:`_deadline` (noted first: a ring meanwhile sets it again)."""
        self._rings = self._deadline
        signal.setitimer(signal.ITIMER_REAL, max(self._deadline - time.monotonic(), _SHORTEST))

    def _expire(self, signum: int, frame: FrameType | None) -> None:
        self._rings = math.inf
        if not self._timing:
            return
        if time.monotonic() >= self._deadline:
            raise FileTimeout("over its time budget")
        self._set_timer()  # it was set for an earlier call: this one has time left


class _Watchdog:
    """A thread that raises :class:`FileTimeout` in the thread ``target`` when an armed budget runs out."""

    def __init__(self, target: int) -> None:
        self._target = target
        self._changed = threading.Condition()
        self._deadline: float | None = None
        self._fired = self._stopped = False
        self._thread = threading.Thread(target=self._watch, name="file-budget", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify()
        self._thread.join()

    @contextmanager
    def armed(self, seconds: float) -> Iterator[None]:
        """The budget of ``seconds`` runs while inside; a FileTimeout not raised yet is withdrawn after."""
        with self._changed:
            self._deadline, self._fired = time.monotonic() + seconds, False
            self._changed.notify()
        try:
            yield
        finally:
            with self._changed:
                self._deadline = None
                if self._fired:
                    _raise_in(self._target, None)

    def _watch(self) -> None:
        with self._changed:
            while not self._stopped:
                left = None if self._deadline is None else self._deadline - time.monotonic()
                if left is None or left > 0:
                    self._changed.wait(left)
                    continue
                self._deadline, self._fired = None, True
                _raise_in(self._target, FileTimeout)


def _can_raise_in_threads() -> bool:
    return hasattr(ctypes, "pythonapi") and hasattr(ctypes.pythonapi, "PyThreadState_SetAsyncExc")


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` at its next bytecode (None: withdraw one not raised yet)."""
    what = None if exception is None else ctypes.py_object(exception)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), what)
