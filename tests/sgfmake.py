"""Hand-made SGF records for tests: one small function, every property spelled out by the caller.

Not the project's generator (pipeline.synth): tests that pin rules write records they can read at a glance.
"""

from __future__ import annotations

import itertools


def _points(size: int) -> list[str]:
    """Every point of a board of ``size`` lines, column by column."""
    return ["".join(p) for p in itertools.product("abcdefghijklmnopqrs"[:size], repeat=2)]


def sgf(
    black: str,
    white: str,
    result: str | None,
    date: str | None = "2024-05-01",
    *,
    slow: bool = True,
    black_rank: str | None = None,
    white_rank: str | None = None,
    moves: int = 40,
    event: str | None = None,
    round_: str | None = None,
    handicap: int = 0,
    game_type: int | None = None,
    tm: int | None = None,
    seed: int = 0,
    setup: str = "",
    first: str = "B",
    size: int = 19,
) -> str:
    """One game as SGF text (UTF-8 with CA). ``slow`` sets TM to 3600 s, else 600 s (``tm`` overrides;
    ``tm=-1`` leaves TM out); ``result`` None leaves RE out, ``date`` None leaves DT out; ``moves``
    distinct points on the main line, starting at a point chosen by ``seed`` (so two games with the
    same players, date and ``seed`` have the same moves: a duplicate). ``setup`` is added to the root as
    written (``AB[pd][dp]``); ``first`` is the colour of the first move (``W`` after handicap stones);
    ``size`` the board's lines (SZ; at most 19)."""
    time_s = tm if tm is not None else (3600 if slow else 600)
    props = {
        "GM": None if game_type is None else str(game_type),
        "CA": "UTF-8",
        "SZ": str(size),
        "PB": black,
        "PW": white,
        "BR": black_rank,
        "WR": white_rank,
        "DT": date,
        "RE": result,
        "TM": None if time_s < 0 else str(time_s),
        "EV": event,
        "RO": round_,
        "HA": str(handicap) if handicap else None,
    }
    root = "".join(f"{k}[{v}]" for k, v in props.items() if v is not None) + setup
    points = _points(size)
    start = (seed * 37) % (len(points) - moves)
    colours = first + ("W" if first == "B" else "B")
    body = "".join(f";{colours[i % 2]}[{points[start + i]}]" for i in range(moves))
    return f"(;{root}{body})\n"
