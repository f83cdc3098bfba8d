"""The streak resets of the prepared rows (rules/prepare.py): columnar where no run can end, the same as
reading every event row in order (the reference below, the loop the columnar version replaced)."""

from __future__ import annotations

import random

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.rules.prepare import _streak_resets

EVENTS = [None, "", "cup", "arena", "league"]
PLAYERS = ["ann", "bo", "cy", "di"]
WINNERS = ["B", "W", "draw", None, "?"]
REASONS = [[], [], ["opponent_cap"], ["duplicate"], ["parse_error"], ["no_show"]]
SCHEMA = pa.schema(
    [("event_name", pa.string()), ("black_player", pa.string()), ("white_player", pa.string()),
     ("counted", pa.bool_()), ("winner", pa.string()), ("reasons", pa.list_(pa.string()))]
)  # fmt: skip


def _games(rng: random.Random, rows: int) -> pa.Table:
    black = [rng.choice(PLAYERS) for _ in range(rows)]
    return pa.table(
        {
            "event_name": [rng.choice(EVENTS) for _ in range(rows)],
            "black_player": black,
            "white_player": [rng.choice([p for p in PLAYERS if p != b]) for b in black],
            "counted": [rng.choice([True, True, False, None]) for _ in range(rows)],
            "winner": [rng.choice(WINNERS) for _ in range(rows)],
            "reasons": [rng.choice(REASONS) for _ in range(rows)],
        },
        schema=SCHEMA,
    )


def _reference(games: pa.Table, pending: set[tuple[str, str]]) -> list[list[str]]:
    """Every event row in order: a counted one resets its players' pending runs, an uncounted decided
    game that happened ends the loser's (both players' for a draw)."""
    found = []
    for row in games.to_pylist():
        event, names = row["event_name"], (row["black_player"], row["white_player"])
        if row["counted"]:
            found.append(sorted(n for n in names if event and (event, n) in pending))
            pending.difference_update((event, n) for n in names)
        elif (
            event
            and row["winner"] in ("B", "W", "draw")
            and not {"duplicate", "parse_error"} & set(row["reasons"])
        ):
            pending.update({(event, n) for n, c in zip(names, "BW", strict=True) if row["winner"] != c})
    return found


@pytest.mark.parametrize("seed", range(40))
def test_resets_equal_the_reading_of_every_event_row(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [_games(rng, rng.randrange(0, 60)) for _ in range(3)]
    pending: set[tuple[str, str]] = set()
    expected_pending: set[tuple[str, str]] = set()
    for games in pieces:
        mask = pc.fill_null(games["counted"], False)
        found = _streak_resets(games, mask, pending).to_pylist()
        assert found == _reference(games, expected_pending)
        assert pending == expected_pending


def test_a_piece_without_an_ending_game_resets_a_run_pending_from_before() -> None:
    games = pa.table(
        {
            "event_name": ["cup"],
            "black_player": ["ann"],
            "white_player": ["bo"],
            "counted": [True],
            "winner": ["B"],
            "reasons": pa.array([[]], pa.list_(pa.string())),
        }
    )
    pending = {("cup", "bo")}
    assert _streak_resets(games, games["counted"], pending).to_pylist() == [["bo"]]
    assert pending == set()
