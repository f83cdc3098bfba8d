"""Shared fixtures: where the real corpora are, and small helpers to write SGF files.

The ``slow`` mark (pyproject.toml's markers) is on the end-to-end runs, subprocesses, the browser, fuzz,
many hypothesis examples and anything else over about a second: ``make test-quick`` leaves them out, and
``make test`` runs them first.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """The commands' tables fit ``COLUMNS`` when it is set: the runner's (a terminal's, or the 80 that
    pytest-xdist's workers are given) must not decide what a test sees. A test that wants a width
    sets it."""
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules that hold a test marked slow first, each whole and in its order (its module-scoped
    fixtures made once): pytest-xdist's workers (``make test``) start on the long runs and finish
    together on the short tests, instead of one worker running the last long run alone."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


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
