"""strings: Arrow string arrays and scalars made from Python text without importing pandas.

pyarrow (26) imports pandas the first time a process converts a Python object to Arrow (``pa.array``,
``pa.scalar``, or a ``str`` handed to a compute function, which converts it with ``pa.scalar``): it
checks whether the object is a pandas one. A command that answers about one player needs no pandas,
and its import is a fifth of such a command's second (docs/design.md, "Per-player commands without
pandas"). :func:`texts` and :func:`text` build the same values from their buffers (the offsets and
the UTF-8 bytes), which pyarrow takes as they are: equal to ``pa.array(values, pa.string())`` and
``pa.scalar(value, pa.string())`` (``tests/test_strings.py``).

Knows nothing of what the text is.
"""

from __future__ import annotations

import array
import itertools
from collections.abc import Sequence

import pyarrow as pa

#: The largest number of bytes a ``string`` array holds (its offsets are 32-bit).
_MOST_BYTES = 2**31 - 1


def texts(values: Sequence[str]) -> pa.StringArray:
    """``values`` as an Arrow ``string`` array (no nulls), as ``pa.array(values, pa.string())`` gives it.

    Raises ValueError if the text comes to more than 2 GiB of UTF-8 (a ``string`` array's limit).
    """
    data = [value.encode("utf-8") for value in values]
    offsets = array.array("i", itertools.accumulate(map(len, data), initial=0))
    if offsets[-1] > _MOST_BYTES or offsets.itemsize != 4:
        raise ValueError(f"{len(values)} texts of {offsets[-1]} bytes do not fit a string array")
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))]
    made: pa.StringArray = pa.Array.from_buffers(pa.string(), len(values), buffers)
    return made


def text(value: str) -> pa.StringScalar:
    """``value`` as an Arrow ``string`` scalar, as ``pa.scalar(value, pa.string())`` gives it."""
    made: pa.StringScalar = texts([value])[0]
    return made
