"""cli.bars: the columns of :mod:`pipeline.cli.progress`'s bars, apart so that rich's progress module is
imported only when bars are drawn (standard error a terminal)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, Task
from rich.text import Text


class Bar(ProgressColumn):
    """rich's bar, and nothing for a step of unknown length (the spinner says it is busy)."""

    def __init__(self, bar_width: int) -> None:
        super().__init__()
        self._bar = BarColumn(bar_width=bar_width)

    def render(self, task: Task) -> RenderableType:
        return self._bar.render(task) if task.total is not None else Text("")


class Count(MofNCompleteColumn):
    """``12/120``, and nothing for a step of unknown length."""

    def render(self, task: Task) -> Text:
        return super().render(task) if task.total is not None else Text("")
