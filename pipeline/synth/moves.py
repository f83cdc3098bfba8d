"""Plausible main lines: distinct points near recent moves, corners and sides first, rare first-line points.

It knows nothing of SGF text, styles or players; randomness comes only from the `random.Random` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

# Offsets to a recent move: those within two lines twice as likely as the farther ones (up to 3 lines).
_OFFSETS = tuple(
    (dx, dy)
    for dx in range(-3, 4)
    for dy in range(-3, 4)
    for near in (0, 1)
    if 0 < abs(dx) + abs(dy) <= 4 and (near == 0 or max(abs(dx), abs(dy)) <= 2)
)


def _point(x: int, y: int) -> str:
    """SGF coordinates of column x, row y (0-based): `(15, 3)` -> `'pd'`."""
    return chr(97 + x) + chr(97 + y)


def _candidate(rng: random.Random, played: Sequence[tuple[int, int]], size: int) -> tuple[int, int] | None:
    """A plausible next point, or None (rejected: try again): a corner or side point early and for a rare
    tenuki, else a point near one of the last three moves; first-line points are rare."""
    if len(played) < 4 or rng.random() < 0.08:
        a, b = rng.choice((3, 3, 3, 2, 4, 5)), rng.choice((3, 3, 2, 4, 2, size // 2))
        a, b = (b, a) if rng.random() < 0.5 else (a, b)
        return (a if rng.random() < 0.5 else size - 1 - a), (b if rng.random() < 0.5 else size - 1 - b)
    bx, by = played[-rng.randint(1, min(3, len(played)))]
    dx, dy = rng.choice(_OFFSETS)
    x, y = bx + dx, by + dy
    line = min(x, y, size - 1 - x, size - 1 - y)
    return (x, y) if line > 0 or (line == 0 and rng.random() < 0.15) else None


def _free_point(rng: random.Random, occupied: set[tuple[int, int]], size: int) -> tuple[int, int]:
    """The first free point from a random start (callers never ask on a full board)."""
    start = rng.randrange(size * size)
    for k in range(size * size):
        p = divmod((start + k) % (size * size), size)
        if p not in occupied:
            return p
    raise ValueError("board full")


def move_points(rng: random.Random, count: int, size: int = 19, taken: Iterable[str] = ()) -> list[str]:
    """`count` distinct plausible points (`'pd'` form) avoiding `taken`; fewer only if the board fills up."""
    occupied = {(ord(p[0]) - 97, ord(p[1]) - 97) for p in taken}
    played: list[tuple[int, int]] = []
    for _ in range(min(count, size * size - len(occupied))):
        tries = (_candidate(rng, played, size) for _ in range(12))
        p = next((c for c in tries if c is not None and c not in occupied), None)
        p = p or _free_point(rng, occupied, size)
        occupied.add(p)
        played.append(p)
    return [_point(x, y) for x, y in played]
