"""A stop signal between the steps that put a new folder in place of the old leaves the new one in place:
without a hold, the site's swap left no site, the copy's hid the old copy, and the commit of a generation
removed the generation it had just switched the output to."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.output import plain_copy, snapshots
from pipeline.site.build import staging

pytestmark = pytest.mark.usefixtures("ctrl_c_raises")


def ctrl_c_after_first(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    """SIGINT sent to this process just after the first call of ``owner.name``."""
    real: Callable[..., Any] = getattr(owner, name)
    calls = []

    def then_ctrl_c(*args: Any) -> Any:
        result = real(*args)
        calls.append(args)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)
        return result

    monkeypatch.setattr(owner, name, then_ctrl_c)


def test_a_site_swapped_as_ctrl_c_arrives_is_the_new_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "site"
    target.mkdir()
    (target / "index.html").write_text("old")
    ctrl_c_after_first(monkeypatch, os, "replace")
    with pytest.raises(KeyboardInterrupt), staging(target) as new:
        (new / "index.html").write_text("new")
    assert (target / "index.html").read_text() == "new"


def test_a_copy_swapped_as_ctrl_c_arrives_is_the_new_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, temporary = tmp_path / "copy", tmp_path / ".copy.new"
    for folder, text in ((target, "old"), (temporary, "new")):
        folder.mkdir()
        (folder / "manifest.json").write_text(text)
    ctrl_c_after_first(monkeypatch, os, "replace")
    with pytest.raises(KeyboardInterrupt):
        plain_copy._replace(temporary, target)
    assert (target / "manifest.json").read_text() == "new"


def test_a_generation_switched_to_as_ctrl_c_arrives_stays_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctrl_c_after_first(monkeypatch, snapshots, "_switch")
    with pytest.raises(KeyboardInterrupt):
        snapshots.write_generation(tmp_path, {"games.parquet": pa.table({"x": [1]})}, {}, {"run": 1})
    switched = snapshots.current(tmp_path)
    assert switched is not None and (switched / "games.parquet").is_file()
