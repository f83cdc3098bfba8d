"""interrupts: stretches of work that a stop signal does not cut in two.

A stop signal (Ctrl-C's SIGINT; SIGTERM, which the command line turns into Ctrl-C) raises
KeyboardInterrupt wherever the main thread happens to be: between the step that keeps a batch of
rows and the count of what was kept, or halfway through writing a batch's months. Work that must
happen whole or not at all goes inside ``with hold:`` where ``hold`` comes from :func:`deferring`: a
signal that arrives inside is noted, and its handler runs as the stretch ends, so the
KeyboardInterrupt is raised before the stretch began or after it ended, never within.

Only handlers that are Python functions are deferred (a signal ignored, or left to the system,
stays so). Signal handlers run in the main thread alone: from any other thread :func:`deferring`
changes nothing. Knows nothing of what the work is.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType

_Handler = Callable[[int, FrameType | None], object]
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Hold:
    """A context manager: a signal deferred by :func:`deferring` arriving inside runs its handler on
    exit. Reentrant (the outermost exit runs them)."""

    def __init__(self) -> None:
        self.depth = 0
        self.noted: list[tuple[_Handler, int, FrameType | None]] = []

    def __enter__(self) -> Hold:
        self.depth += 1
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.depth -= 1
        if self.depth == 0:
            noted, self.noted = self.noted, []
            for handler, signum, frame in noted:
                handler(signum, frame)

    def wrap(self, handler: _Handler) -> _Handler:
        """``handler``, run at once outside the hold and noted for its exit inside."""

        def deferred(signum: int, frame: FrameType | None) -> object:
            if self.depth:
                self.noted.append((handler, signum, frame))
                return None
            return handler(signum, frame)

        return deferred


@contextmanager
def deferring(signals: tuple[signal.Signals, ...] = STOP_SIGNALS) -> Iterator[Hold]:
    """While the ``with`` lasts, the handlers of ``signals`` that are Python functions wait for the
    end of any ``with hold:`` they arrive in (``hold`` is what this yields); restored after."""
    hold = Hold()
    previous: dict[signal.Signals, _Handler] = {}
    try:
        if threading.current_thread() is threading.main_thread():
            for signum in signals:
                handler = signal.getsignal(signum)
                if callable(handler):
                    previous[signum] = handler
                    signal.signal(signum, hold.wrap(handler))
        yield hold
    finally:
        for stopped, kept in previous.items():
            signal.signal(stopped, kept)


@contextmanager
def held(signals: tuple[signal.Signals, ...] = STOP_SIGNALS) -> Iterator[None]:
    """The ``with`` block as one stretch: a stop signal arriving inside raises as it ends (for a few
    steps that must not be parted, such as the two renames that swap a folder for another)."""
    with deferring(signals) as hold, hold:
        yield
