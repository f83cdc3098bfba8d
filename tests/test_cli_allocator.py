"""The command line has Arrow make its tables with the C library's allocator (docs/design.md, "Arrow's
allocator"), unless the environment names another. Each check runs a command in a fresh interpreter:
the choice counts only before pyarrow is first imported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fresh import said_after

pytestmark = pytest.mark.slow


def pool_of_a_run(tmp_path: Path, environ: dict[str, str]) -> str:
    """The backend of Arrow's default pool after ``ratings run`` over an empty folder."""
    (tmp_path / "raw").mkdir()
    args = ["run", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out"), "--workers", "1"]
    return said_after("__import__('pyarrow').default_memory_pool().backend_name", args, environ)[1]


def test_a_command_makes_arrows_tables_with_the_system_allocator(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    assert pool_of_a_run(tmp_path, environ) == "system"


def test_an_allocator_named_in_the_environment_is_kept(tmp_path: Path) -> None:
    environ = os.environ | {"ARROW_DEFAULT_MEMORY_POOL": "jemalloc"}
    import pyarrow as pa

    try:
        pa.jemalloc_memory_pool()
    except NotImplementedError:
        pytest.skip("this pyarrow is built without jemalloc")
    assert pool_of_a_run(tmp_path, environ) == "jemalloc"
