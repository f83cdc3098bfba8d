"""The run gives freed memory back: Arrow's pool always, the C heap's where glibc can trim it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline.output import memory


@pytest.fixture(autouse=True)
def _fresh_lookup() -> Iterator[None]:
    memory._malloc_trim.cache_clear()
    yield
    memory._malloc_trim.cache_clear()


def test_without_a_c_library_to_trim_only_arrows_memory_is_released(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise OSError(f"no {name}")

    monkeypatch.setattr(memory.ctypes, "CDLL", missing)
    memory.release_unused_memory()
    assert memory._malloc_trim() is None


def test_a_c_library_without_malloc_trim_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: object())
    memory.release_unused_memory()
    assert memory._malloc_trim() is None


def test_a_c_library_with_malloc_trim_is_called_with_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    class Libc:
        def malloc_trim(self, pad: int) -> int:
            calls.append(pad)
            return 1

    monkeypatch.setattr(memory.ctypes, "CDLL", lambda name: Libc())
    memory.release_unused_memory()
    assert calls == [0]
