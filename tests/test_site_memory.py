"""The site's memory helpers (issue 25): the allocator switched for a build, rows made a block at a time."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.site import players
from pipeline.site.build import system_pool


def test_system_pool_is_the_default_inside_and_restored_after_an_error() -> None:
    before = pa.default_memory_pool().backend_name
    with pytest.raises(RuntimeError), system_pool():
        assert pa.default_memory_pool().backend_name == "system"
        raise RuntimeError("inside")
    assert pa.default_memory_pool().backend_name == before


def test_grouped_gives_each_player_their_rows_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "BLOCK_ROWS", 2)
    names = pa.chunked_array([["ann", "ann", "bob", "cy", "cy", "cy"]])
    grouped = players._Grouped(names, lambda start, stop: list(range(start, stop)))
    assert list(grouped) == ["ann", "bob", "cy"]
    assert [grouped.get(n) for n in ("cy", "ann", "bob", "dee")] == [[3, 4, 5], [0, 1], [2], []]
