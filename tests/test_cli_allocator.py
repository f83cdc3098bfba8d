"""The command line has Arrow make its tables with the C library's allocator (docs/design.md, "Arrow's
allocator"), unless the environment names another. Each check runs a command in a fresh interpreter:
the choice counts only before pyarrow is first imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

_RUN_THEN_POOL = """
import sys
from pipeline.cli import app
sys.argv = ["ratings", *sys.argv[1:]]
try:
    app()
finally:
    import pyarrow
    print(pyarrow.default_memory_pool().backend_name, file=sys.stderr)
"""


def pool_of_a_run(tmp_path: Path, environ: dict[str, str]) -> str:
    """The backend of Arrow's default pool after ``ratings run`` over an empty folder."""
    (tmp_path / "raw").mkdir()
    args = ["run", "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out"), "--workers", "1"]
    done = subprocess.run(
        [sys.executable, "-c", _RUN_THEN_POOL, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=environ,
    )
    return done.stderr.strip().splitlines()[-1]


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
