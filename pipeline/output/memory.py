"""memory: giving back to the system the memory that freed tables leave with the allocators.

Arrow's allocator (mimalloc) keeps freed memory for reuse, and glibc's heap keeps freed pages until it
is trimmed; a run that builds and drops a period's tables 120 times would otherwise hold the largest
of them for good. Knows nothing of tables, periods or runs: it is called between them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable

import pyarrow as pa


def release_unused_memory() -> None:
    """Give back to the system the memory that freed tables leave with the allocators: Arrow's
    (mimalloc keeps it for reuse) and, on glibc, the C heap's (``malloc_trim``). Elsewhere only
    Arrow's. What each gives back: docs/design.md#memory-release."""
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (macOS, musl)."""
    try:
        found: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    return found
