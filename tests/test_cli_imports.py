"""The ratings command imports a command's heavy libraries only when that command runs.

Every command pays for what ``import pipeline.cli`` imports (the nightly ``ratings run`` too), so the
command modules import the library's report, chart, workbook, site and identity code inside their
functions. Each check runs in a fresh interpreter: the test process has imported everything already.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

#: Libraries no command needs merely to be found (top-level module names).
HEAVY = (
    "pandas",
    "openpyxl",
    "scipy",
    "matplotlib",
    "jinja2",
    "opencc",
    "pypinyin",
    "pycountry",
    "dask",
    "distributed",
    "selenium",
    "PIL",
)
_RESOLVE = """
import json, sys
import click, typer
import pipeline.cli
group = typer.main.get_command(pipeline.cli.app)
assert group.get_command(click.Context(group), sys.argv[1]) is not None
print(json.dumps(sorted({name.partition(".")[0] for name in sys.modules})))
"""


def imported_by_resolving(command: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after importing pipeline.cli and resolving
    ``command`` (its click command, options and help built; nothing run)."""
    done = subprocess.run(
        [sys.executable, "-c", _RESOLVE, command], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


@pytest.mark.parametrize(
    "command",
    [
        "run",
        "ingest",
        "audit",
        "show",
        "export",
        "plot",
        "explain",
        "backtest",
        "site",
        "compare",
        "players",
        "diff",
    ],
)
def test_resolving_a_command_imports_no_heavy_library(command: str) -> None:
    found = imported_by_resolving(command) & set(HEAVY)
    assert not found, f"resolving `ratings {command}` imported {', '.join(sorted(found))}"


def test_the_pipeline_of_a_run_imports_no_heavy_library() -> None:
    code = "import json, sys, pipeline.run; print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = set(json.loads(done.stdout)) & set(HEAVY)
    assert not found, f"importing pipeline.run imported {', '.join(sorted(found))}"


def test_resolving_a_command_imports_neither_arrow_nor_numpy() -> None:
    """The configuration, the options and the help need no array: a command that reads no output (and
    ``--help``) pays nothing for them."""
    found = imported_by_resolving("explain") & {"pyarrow", "numpy"}
    assert not found, f"resolving `ratings explain` imported {', '.join(sorted(found))}"
