"""cli.listing: a list of counted items (``draw 2, handicap 2``) as a table cell that breaks lines only
between items, never inside one (``让子棋`` and its count stay together), however wide the column rich
gives it. Knows nothing of what the items count."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text


@dataclass(frozen=True)
class Listing:
    """``head`` + the ``items`` joined by ``sep`` + ``tail``, as lines of at most the width rendered
    into: a line ends after a separator (its trailing spaces dropped), an item is never split (one wider
    than the width stays whole, for rich to fold)."""

    items: Sequence[str]
    sep: str = ", "
    head: str = ""
    tail: str = ""

    def lines(self, width: int) -> list[str]:
        """The text as lines of at most ``width`` cells (see the class)."""
        pieces = [f"{self.head}{self.items[0] if self.items else ''}"]
        pieces += list(self.items[1:])
        pieces[-1] += self.tail
        end = self.sep.rstrip(" ")  # what a line that is not the last ends with
        lines = [pieces[0]]
        for i, piece in enumerate(pieces[1:], 2):
            joined = lines[-1] + self.sep + piece
            if cell_len(joined + (end if i < len(pieces) else "")) <= width:
                lines[-1] = joined
            else:
                lines[-1] += end
                lines.append(piece)
        return lines

    def __str__(self) -> str:
        return self.head + self.sep.join(self.items) + self.tail

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield Text("\n".join(self.lines(options.max_width)))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max(cell_len(line) for line in self.lines(1))
        return Measurement(min(widest, options.max_width), cell_len(str(self)))
