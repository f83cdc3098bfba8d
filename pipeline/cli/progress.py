"""cli.progress: the command line's :class:`~pipeline.core.progress.Steps`, rich's progress bars on
standard error.

One bar a step, named for what it does, with how far it is (``12/120``) and the time it has taken;
a step of unknown length shows its spinner and time only. The bars are drawn only when standard
error is a terminal (a cron job's log, a pipe or a test's capture gets none of them) and vanish when
the command ends, so that the tables it prints are all that stays. Knows nothing of what the steps are.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

from rich.console import Console

from pipeline.core.progress import SILENT, Advance, Steps

if TYPE_CHECKING:
    from rich.progress import Progress


class Bars:
    """:class:`~pipeline.core.progress.Steps` drawn on ``bar``: each step a task, removed when it ends."""

    def __init__(self, bar: Progress) -> None:
        self._bar = bar

    def step(self, what: str, total: int | None = None) -> AbstractContextManager[Advance]:
        return self._task(what, total)

    @contextmanager
    def _task(self, what: str, total: int | None) -> Iterator[Advance]:
        task = self._bar.add_task(what, total=total)

        def advance(n: int, total: int | None = None) -> None:
            if total is not None:
                self._bar.update(task, total=total)
            self._bar.advance(task, n)

        try:
            yield advance
        finally:
            self._bar.remove_task(task)


@contextmanager
def shown(console: Console | None = None) -> Iterator[Steps]:
    """Steps drawn as bars on ``console`` (standard error by default) while the ``with`` lasts; none
    drawn when it is not a terminal (then :data:`~pipeline.core.progress.SILENT`, and rich's progress
    module is not even imported: a command's output piped or captured pays nothing for its bars)."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield SILENT
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from pipeline.cli.bars import Bar, Count

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        Bar(bar_width=24),
        Count(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        yield Bars(bar)
