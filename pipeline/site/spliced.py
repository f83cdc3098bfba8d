"""site.spliced: a page's table rows written into its file from their Arrow column, not as one string.

A ledger page holds 2,500 rows of HTML, a prolific player's page thousands: rendered as one string,
that text was held four times while the page was written (the rows joined, made Markup, rendered
into the page, encoded), the site's peak of memory (docs/design.md#site-memory). :class:`Rows` keeps
them as the one Arrow array of text they were made as; :func:`write_page` renders the page around
them (each :class:`Rows` of the context a marker) and writes the rows' UTF-8 bytes from the array's
buffer between the text before and after, so that the file is byte for byte what the rendered page
would be. Rendered anywhere else (a template's ``render``), a :class:`Rows` is its rows joined.
Knows nothing of what the rows say.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO

import jinja2
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from markupsafe import Markup

from pipeline.site.rows import joined


class Rows:
    """Rows of HTML (safe) as one Arrow array of text: a template prints them joined (``__html__``, a
    missing row as empty); true when there is at least one row; ``len`` the number of rows."""

    __slots__ = ("values",)

    def __init__(self, values: pa.Array | Sequence[str]) -> None:
        self.values = values if isinstance(values, pa.Array) else pa.array(list(values), pa.string())

    def __len__(self) -> int:
        return len(self.values)

    def __bool__(self) -> bool:
        return len(self.values) > 0

    def __html__(self) -> str:
        return joined(pc.fill_null(self.values.cast(pa.string()), ""))

    def __str__(self) -> str:
        return self.__html__()

    def encoded(self) -> memoryview | bytes:
        """The rows joined, in UTF-8: a view of the array's buffer (no copy) for a string array
        without missing values, else the joined text encoded."""
        values = self.values
        if not len(values):
            return b""
        if values.type != pa.string() or values.null_count:
            return self.__html__().encode("utf-8")
        _, offsets, data = values.buffers()
        if data is None:  # every row empty
            return b""
        ends = np.frombuffer(offsets, dtype=np.int32, count=values.offset + len(values) + 1)
        start, stop = int(ends[values.offset]), int(ends[values.offset + len(values)])
        return memoryview(data)[start:stop]


#: A marker of the rows of a context's entry in the rendered text: NUL, which no page's text holds.
_MARKER = "\x00rows:{}\x00"
_FOUND = re.compile("\x00rows:(.*?)\x00")


def write_page(template: jinja2.Template, context: dict[str, Any], path: Path) -> None:
    """``template`` rendered with ``context`` into the file ``path`` (UTF-8), the :class:`Rows` of the
    context's entries written from their buffers rather than made into the rendered text (where lines
    end in ``\n``; elsewhere the page rendered as one text, as ``write_text`` ends its lines)."""
    given = {key: value for key, value in context.items() if isinstance(value, Rows)}
    if not given or os.linesep != "\n":
        path.write_text(template.render(context), encoding="utf-8")
        return
    spliced = {key: value for key, value in given.items() if value}  # no rows: false, as they were
    marked = context | {key: Markup(_MARKER.format(key)) if key in spliced else Markup("") for key in given}
    with path.open("wb") as file:
        _write(file, template.generate(marked), spliced)


#: The characters of rendered text joined and written at once (a page's text after its rows, a
#: prolific player's derivations, is written in parts of about this size).
PART_CHARS = 1 << 20
#: The rendered chunks taken and joined at once (a template yields a chunk per tag and value: looked
#: at one by one in Python, they cost more than the page).
_CHUNKS = 4096


def _write(file: BinaryIO, chunks: Iterable[str], spliced: dict[str, Rows]) -> None:
    """The rendered ``chunks`` into ``file``, each marker replaced by the bytes of its rows: the text
    between markers joined and encoded about :data:`PART_CHARS` at a time (a marker is in one chunk,
    never split between two)."""
    pending: list[str] = []
    size = 0
    found = iter(chunks)
    while batch := list(islice(found, _CHUNKS)):
        text = "".join(batch)
        parts = _FOUND.split(text) if "\x00" in text else [text]  # text, key, text, key, ..., text
        for i, part in enumerate(parts):
            if i % 2 == 0:
                pending.append(part)
                size += len(part)
                continue
            file.write("".join(pending).encode("utf-8"))
            pending, size = [], 0
            file.write(spliced[part].encoded())
        if size >= PART_CHARS:
            file.write("".join(pending).encode("utf-8"))
            pending, size = [], 0
    file.write("".join(pending).encode("utf-8"))
