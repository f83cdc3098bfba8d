"""cli.wrapping: text broken into lines of at most so many terminal cells, only where a line may break.

A line breaks at a space and nowhere else: a code, a name, a number or a date is never cut. With
``paths``, a word may also break after a ``/`` (a file path's folders: ``2024-05/`` ``033.sgf``); a
no-break space (U+00A0) glues two words (``74 (too few)``). A piece wider than the width stays whole
on a line of its own: callers make the width at least :func:`widest_piece`. CJK characters count two
cells (:func:`rich.cells.cell_len`). Knows nothing of tables or of what the text says.
"""

from __future__ import annotations

from rich.cells import cell_len

GLUE = "\u00a0"  # a no-break space: joins two words that must stay on one line


def unglued(text: str) -> str:
    """``text`` with each :data:`GLUE` a plain space (as it is shown)."""
    return text.replace(GLUE, " ")


def pieces(word: str, paths: bool = False) -> list[str]:
    """The parts of ``word`` no line may break: the word itself, or with ``paths`` its parts ending
    at each ``/`` (``a/b/c.sgf`` -> ``a/``, ``b/``, ``c.sgf``)."""
    if not paths or "/" not in word.rstrip("/"):
        return [word]
    parts = word.split("/")
    return [p + "/" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def words(text: str) -> list[str]:
    """The words of ``text``: split at newlines and spaces (not at a :data:`GLUE`), none empty."""
    return [w for line in text.split("\n") for w in line.split(" ") if w]


def widest_piece(text: str, paths: bool = False) -> int:
    """The cells of the widest part of ``text`` that no line may break (0 for no text)."""
    return max((cell_len(p) for w in words(text) for p in pieces(w, paths)), default=0)


def wrap(text: str, width: int, paths: bool = False) -> list[str]:
    """``text`` as lines of at most ``width`` cells: each of its own lines (split at ``\\n``) filled
    word by word, broken at spaces only (and, with ``paths``, after a ``/`` of a word too wide for a
    line); a piece wider than ``width`` on a line of its own. An empty line stays one empty line; a
    :data:`GLUE` is written as a plain space."""
    if "\n" not in text and "  " not in text and cell_len(text) <= width:
        return [unglued(text.strip(" "))]  # the common case: one line that fits
    return [unglued(line) for own in text.split("\n") for line in _wrap_line(own, width, paths)]


def _wrap_line(line: str, width: int, paths: bool) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in (w for w in line.split(" ") if w):
        joined = f"{current} {word}" if current else word
        if cell_len(joined) <= width:
            current = joined
            continue
        if current:
            lines.append(current)
        current = ""
        for piece in pieces(word, paths) if cell_len(word) > width else [word]:
            if current and cell_len(current + piece) > width:
                lines.append(current)
                current = ""
            current += piece
    return [*lines, current] if current or not lines else lines


def hanging(text: str, width: int, indent: int, more: int, paths: bool = False) -> list[str]:
    """``text`` wrapped to fit ``width`` cells with its first line indented ``indent`` spaces and the
    lines after it ``indent + more`` (a paragraph that reads as one item)."""
    first, *rest = wrap(text, max(1, width - indent - more), paths) or [""]
    return [" " * indent + first, *(" " * (indent + more) + line for line in rest)]
