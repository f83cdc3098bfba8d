"""cli.wrapping: text broken into lines of at most so many terminal cells, only where a line may break.

A line breaks at a space and nowhere else: a code, a name, a number or a date is never cut. With
``paths``, a word may also break after a ``/`` (a file path's folders: ``2024-05/`` ``033.sgf``); a
no-break space (U+00A0) glues two words (``74 (too few)``). A piece wider than the width stays whole
on a line of its own: callers make the width at least :func:`widest_piece`. CJK characters count two
cells (:func:`rich.cells.cell_len`). With ``prose`` (a sentence, not a name), a line may also break
between two Chinese, Japanese or Korean characters, as those languages break lines, but never before a
closing mark (``，。、：）」``) nor after an opening one (``（「``). Knows nothing of tables or of what
the text says.
"""

from __future__ import annotations

import functools
import re

from rich.cells import cell_len

GLUE = "\u00a0"  # a no-break space: joins two words that must stay on one line
_WIDE = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"  # CJK, Hangul, full-width forms
_OPENING = "（「『【〔《〈“‘"
_CLOSING = "，。、：；！？）」』】〕》〉”’…・"
#: A piece of prose no line may break: an opening mark, then one wide character or a run of narrow
#: ones, then any closing marks (compiled when first used: its wide negated class takes 4 to 7 ms to
#: compile, which every command paid at start-up).
_PROSE_PIECE = rf"[{_OPENING}]*(?:[{_WIDE}]|[^{_WIDE}{_OPENING}]+)[{_CLOSING}]*"


def unglued(text: str) -> str:
    """``text`` with each :data:`GLUE` a plain space (as it is shown)."""
    return text.replace(GLUE, " ")


def pieces(word: str, paths: bool = False, prose: bool = False) -> list[str]:
    """The parts of ``word`` no line may break: the word itself, or with ``paths`` its parts ending
    at each ``/`` (``a/b/c.sgf`` -> ``a/``, ``b/``, ``c.sgf``), and with ``prose`` each wide
    character with the marks that stick to it (``等级分。`` -> ``等``, ``级``, ``分。``)."""
    parts = [word]
    if paths and "/" in word.rstrip("/"):
        split = word.split("/")
        parts = [p + "/" for p in split[:-1]] + ([split[-1]] if split[-1] else [])
    if prose and any(c >= "\u2e80" for c in word):
        parts = [piece for part in parts for piece in _prose_pieces(part) or [part]]
    return parts


def words(text: str) -> list[str]:
    """The words of ``text``: split at newlines and spaces (not at a :data:`GLUE`), none empty."""
    return [w for line in text.split("\n") for w in line.split(" ") if w]


def widest_piece(text: str, paths: bool = False, prose: bool = False) -> int:
    """The cells of the widest part of ``text`` that no line may break (0 for no text)."""
    return max((cell_len(p) for w in words(text) for p in pieces(w, paths, prose)), default=0)


def wrap(text: str, width: int, paths: bool = False, prose: bool = False) -> list[str]:
    """``text`` as lines of at most ``width`` cells: each of its own lines (split at ``\\n``) filled
    word by word, broken at spaces only (and, with ``paths``, after a ``/`` of a word too wide for a
    line; with ``prose``, between wide characters); a piece wider than ``width`` on a line of its own.
    An empty line stays one empty line; a :data:`GLUE` is written as a plain space."""
    if "\n" not in text and "  " not in text and cell_len(text) <= width:
        return [unglued(text.strip(" "))]  # the common case: one line that fits
    return [unglued(line) for own in text.split("\n") for line in _wrap_line(own, width, paths, prose)]


def _wrap_line(line: str, width: int, paths: bool, prose: bool) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in (w for w in line.split(" ") if w):
        joined = f"{current} {word}" if current else word
        if cell_len(joined) <= width:
            current = joined
            continue
        broken = pieces(word, paths, prose)
        if prose and len(broken) > 1 and current:  # prose fills the line, then breaks inside the word
            current += " "
            for i, piece in enumerate(broken):
                if cell_len(current + piece) > width:
                    broken = broken[i:]
                    break
                current += piece
            else:
                continue
        if current:
            lines.append(current.rstrip(" "))
        current = ""
        for piece in broken if cell_len(word) > width or prose else [word]:
            if current and cell_len(current + piece) > width:
                lines.append(current)
                current = ""
            current += piece
    return [*lines, current] if current or not lines else lines


def hanging(
    text: str, width: int, indent: int, more: int, paths: bool = False, prose: bool = False
) -> list[str]:
    """``text`` wrapped to fit ``width`` cells with its first line indented ``indent`` spaces and the
    lines after it ``indent + more`` (a paragraph that reads as one item)."""
    first, *rest = wrap(text, max(1, width - indent - more), paths, prose) or [""]
    return [" " * indent + first, *(" " * (indent + more) + line for line in rest)]


@functools.cache
def _prose_piece() -> re.Pattern[str]:
    return re.compile(_PROSE_PIECE)


def _prose_pieces(text: str) -> list[str]:
    """The pieces of prose (:data:`_PROSE_PIECE`) of ``text``."""
    return _prose_piece().findall(text)
