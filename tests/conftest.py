"""Shared fixtures: where the real corpora are, and small helpers to write SGF files.

The ``slow`` mark (pyproject.toml's markers) is on the end-to-end runs, subprocesses, the browser, fuzz,
many hypothesis examples and anything else over about a second: ``make test-quick`` leaves them out, and
``make test`` runs them first.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import runpy
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The output contract's checker (DESIGN.md), beside the repository.
CHECKER = ROOT.parent / "shared" / "tools" / "check_output.py"


def pytest_configure(config: pytest.Config) -> None:
    """The commands' tables fit ``COLUMNS`` when it is set: the runner's (a terminal's, or the 80 that
    pytest-xdist's workers are given) must not decide what a test sees. A test that wants a width
    sets it. Nor may the runner's locale choose the language: the tests speak English unless they
    ask for another (``--lang``, or a locale of their own)."""
    for name in ("COLUMNS", "LINES", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(name, None)
    os.environ["LANG"] = "C.UTF-8"
    _no_hypothesis_deadline()


def _no_hypothesis_deadline() -> None:
    """No example of a hypothesis test fails for taking over 200 ms on a busy machine: CI=true loads
    hypothesis's own "ci" profile (no deadline, examples derandomised); elsewhere, this one."""
    if os.environ.get("CI"):
        return
    from hypothesis import settings

    settings.register_profile("sgf-ratings", deadline=None)
    settings.load_profile("sgf-ratings")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that read the real corpora first (the longest), then the modules that hold a test
    marked slow, each whole and in its order (its module-scoped fixtures made once), then the rest:
    pytest-xdist's workers (``make test``) start on the long runs and finish together on the short
    tests, instead of one worker running the last long run alone."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: ("corpora" not in getattr(item, "fixturenames", ()), item.path not in slow))


def corpora_dir() -> Path:
    """The real corpora: $SGF_CORPORA, else ../shared/corpora beside the repository."""
    return Path(os.environ.get("SGF_CORPORA", ROOT.parent / "shared" / "corpora"))


@pytest.fixture(scope="session")
def corpora() -> Path:
    path = corpora_dir()
    if not path.is_dir():
        pytest.skip(f"real corpora not found at {path} (set SGF_CORPORA to their folder)")
    return path


@pytest.fixture
def write(tmp_path: Path):
    """write(relpath, bytes) -> Path: a file under tmp_path/raw."""
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)

    def _write(rel: str, data: bytes) -> Path:
        path = raw / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    return _write


@functools.cache
def _checker_main() -> Callable[[str], int]:
    main: Callable[[str], int] = runpy.run_path(str(CHECKER))["main"]
    return main


#: The checker's complaint about reason codes it does not list, which it says are "fine if documented".
_EXTRA_CODES = re.compile(
    r"- reason codes not in RULES\.md: \[([^]]*)\] \(extra codes are fine if documented\)"
)


def check_output(out: Path) -> tuple[int, str]:
    """:data:`CHECKER` on the output folder ``out``, run in this process (its ``main``, loaded once a
    process: no interpreter and pandas started for each folder checked): its exit code (0: the contract
    holds) and what it printed. The checker lists only the contract's reason codes, and says of others
    that they are "fine if documented": when that is all it says, and every such code is one of
    :data:`pipeline.core.reasons.REASONS` with a row in docs/rules.md ("Reason codes"), as
    ``unknown_player``, the contract holds (0)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = _checker_main()(str(out))
    said = printed.getvalue()
    problems = [line for line in said.splitlines() if line.startswith("- ")]
    extra = [_EXTRA_CODES.fullmatch(line) for line in problems]
    if code and problems and all(extra):
        codes = {c.strip().strip("'") for m in extra if m for c in m[1].split(",")}
        return (0 if codes <= _documented_codes() else code), said
    return code, said


@functools.cache
def _documented_codes() -> set[str]:
    """The reason codes of :data:`pipeline.core.reasons.REASONS` that docs/rules.md's table describes."""
    from pipeline.core.reasons import REASONS

    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return {code for code in REASONS if f"| `{code}` |" in rules}


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT handled as in a terminal (KeyboardInterrupt), whatever the test runner set; restored after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
