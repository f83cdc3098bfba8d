"""progress: how a long step says what it is doing and how far it has gone.

One interface for every stage, report and page writer that can take more than a second: a
:class:`Steps` hands out one step at a time, named for what it does (``auditing``, ``rating``,
``writing player pages``) with the number of units it will take when known; the step's ``advance``
callable is called with the units done since the last call. :data:`SILENT` is the default of every
library function: it shows nothing and costs a function call.

Knows nothing of terminals: the command line gives a :class:`Steps` that draws rich's bars on
standard error (:mod:`pipeline.cli.progress`); tests give one that records the calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol


class Advance(Protocol):
    """A step's counter: ``advance(n)`` after ``n`` more units are done; ``total`` when the amount of
    the step turned out larger than it was first known (an archive listed when its turn comes)."""

    def __call__(self, n: int, total: int | None = None) -> None: ...


class Steps(Protocol):
    """Where long work reports itself: ``with steps.step("rating", total=len(periods)) as advance:``
    then ``advance(1)`` after each period. ``total`` None: the amount is not known (a spinner)."""

    def step(self, what: str, total: int | None = None) -> AbstractContextManager[Advance]: ...


class _Silent:
    """Steps that show nothing."""

    def step(self, what: str, total: int | None = None) -> AbstractContextManager[Advance]:
        return _nothing()


@contextmanager
def _nothing() -> Iterator[Advance]:
    yield _ignore


def _ignore(n: int, total: int | None = None) -> None:
    return None


#: The default of every library function that takes a :class:`Steps`: nothing is shown.
SILENT: Steps = _Silent()
