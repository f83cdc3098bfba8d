"""Kept standings are written a chunk of players at a time and read back whole, in order."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from pipeline.core.standings import PlayerState
from pipeline.output import state


def _standings(n: int) -> dict[str, PlayerState]:
    return {
        f"p{i:03d}": PlayerState(100.0 + i, "1d", i, i % 7 == 0, {"arena": {"e": i % 3}}) for i in range(n)
    }


@pytest.mark.parametrize("players", [0, 1, 3, 10])
def test_standings_over_several_chunks_read_back_equal_and_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    monkeypatch.setattr(state, "CHUNK", 3)
    saved = _standings(players)
    state.save_standings(tmp_path, "2024-05", saved)
    loaded = state.load_standings(tmp_path, "2024-05")
    assert (loaded, list(loaded)) == (saved, list(saved))


def test_a_file_of_three_chunks_holds_three_pickles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "CHUNK", 4)
    state.save_standings(tmp_path, "2024-05", _standings(10))
    sizes = []
    with state.standings_path(tmp_path, "2024-05").open("rb") as file:
        while file.peek(1):
            sizes.append(len(pickle.load(file)[0]))
    assert sizes == [4, 4, 2]


def test_state_fields_are_the_player_states_fields_in_order() -> None:
    assert tuple(f.name for f in dataclasses.fields(PlayerState)) == state.STATE_FIELDS


def test_shared_carry_over_is_read_back_shared_within_a_chunk(tmp_path: Path) -> None:
    shared = {"arena": {}}
    saved = {n: PlayerState(100.0, "1d", 0, False, shared) for n in ("a", "b")}
    state.save_standings(tmp_path, "2024-05", saved)
    loaded = state.load_standings(tmp_path, "2024-05")
    assert loaded["a"].extra is loaded["b"].extra


def test_missing_standings_raise_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        state.load_standings(tmp_path, "2024-05")
