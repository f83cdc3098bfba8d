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

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from pipeline.core.progress import Advance, Steps


class _Bar(ProgressColumn):
    """rich's bar, and nothing for a step of unknown length (the spinner says it is busy)."""

    def __init__(self, bar_width: int) -> None:
        super().__init__()
        self._bar = BarColumn(bar_width=bar_width)

    def render(self, task: Task) -> RenderableType:
        return self._bar.render(task) if task.total is not None else Text("")


class _Count(MofNCompleteColumn):
    """``12/120``, and nothing for a step of unknown length."""

    def render(self, task: Task) -> Text:
        return super().render(task) if task.total is not None else Text("")


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
    drawn when it is not a terminal."""
    console = console or Console(stderr=True)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        _Bar(bar_width=24),
        _Count(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as bar:
        yield Bars(bar)
