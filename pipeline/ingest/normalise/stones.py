"""The handicap a Go record shows by its setup stones, when its ``HA`` says nothing readable.

A handicap game puts Black's N stones on the board before White's first move: most servers and editors
write them as the root node's ``AB`` (``AB[pd][dp][pp]``) and ``HA[3]`` beside them, but some leave ``HA``
out or write it unreadably. Decisions (docs/rules.md, "Handicap"):

- Only the root's black stones, and only when the root places no white stone (``AW``: a position set up,
  a problem, not a handicap) and holds at least two (one stone is no handicap: ``HA[1]`` is a no-komi game).
- A **fixed placement**, the star points the handicap uses on 19x19, 13x13 and 9x9 (a size absent is 19),
  in a pattern of 2 to 9 stones (two opposite corners, three or four corners, four corners and the
  centre, the sides in pairs), counts when White moves first or the record has no move.
- A **free placement** (any points: Chinese rules and some servers let Black choose) counts only when the
  main line's first move is White's: that is what makes the stones a handicap and not a position.
- A point that cannot be read (not two letters on the board) makes the stones say nothing; so do more
  than 99 stones (the most ``HA`` may say).

Knows nothing of the SGF grammar (values arrive unescaped, ``AB`` as its list of values), of ``HA`` (the
caller asks only when it says nothing) or of what the handicap is used for.
"""

from __future__ import annotations

import functools
import string

Point = tuple[int, int]

_LETTERS = string.ascii_lowercase + string.ascii_uppercase  # SGF FF[4]: a..z then A..Z, 52 lines
_COORD = {letter: i for i, letter in enumerate(_LETTERS)}
_DEFAULT_SIZE = 19  # FF[4]: a Go record without SZ is 19x19
_FIXED_SIZES = frozenset({9, 13, 19})
_MAX_STONES = 99


@functools.lru_cache(maxsize=4096)
def stones_handicap(ab: tuple[str, ...], board_size: int | None, first_colour: str) -> int | None:
    """The handicap the black setup stones ``ab`` (the root's ``AB`` values) give, or None.

    ``board_size`` is the board's lines (None: absent, read as 19); ``first_colour`` the colour of the
    main line's first move (``B``, ``W``, ``""`` for none). The caller has checked that the record is Go,
    its ``HA`` unreadable or absent and its root without ``AW``. See the module for the decisions.
    """
    size = board_size or _DEFAULT_SIZE
    points = _points(ab, size)
    if points is None or not 2 <= len(points) <= _MAX_STONES or first_colour == "B":
        return None
    if first_colour == "W" or _fixed_placement(points, size):
        return len(points)
    return None


def _points(values: tuple[str, ...], size: int) -> frozenset[Point] | None:
    """The points of ``values`` (``pd``, or a rectangle ``dd:pp``) on a board of ``size`` lines; None
    when one of them is no point of that board."""
    found: set[Point] = set()
    for value in values:
        parts = value.split(":")
        first, last = _point(parts[0].strip(), size), _point(parts[-1].strip(), size)
        if first is None or last is None or len(parts) > 2:
            return None
        xs = range(min(first[0], last[0]), max(first[0], last[0]) + 1)
        ys = range(min(first[1], last[1]), max(first[1], last[1]) + 1)
        found.update((x, y) for x in xs for y in ys)
    return frozenset(found)


def _point(text: str, size: int) -> Point | None:
    """The point ``text`` (two letters) names on a board of ``size`` lines, or None."""
    if len(text) != 2 or text[0] not in _COORD or text[1] not in _COORD:
        return None
    x, y = _COORD[text[0]], _COORD[text[1]]
    return (x, y) if x < size and y < size else None


@functools.cache
def _star_points(size: int) -> tuple[frozenset[Point], frozenset[Point], Point]:
    """The handicap points of a board of ``size`` lines: its four corners' (the 4-4 points, 3-3 on
    9x9), its four sides' and its centre."""
    near = 2 if size < 13 else 3
    far, mid = size - 1 - near, size // 2
    corners = frozenset({(near, near), (near, far), (far, near), (far, far)})
    sides = frozenset({(near, mid), (far, mid), (mid, near), (mid, far)})
    return corners, sides, (mid, mid)


def _fixed_placement(points: frozenset[Point], size: int) -> bool:
    """True when ``points`` is the fixed handicap placement of their number on a board of ``size``
    lines (19, 13 or 9), in any orientation: 2 opposite corners; 3 or 4 corners; 4 corners and the
    centre; 4 corners and 2 opposite sides (6), with the centre (7); 4 corners and 4 sides (8), with
    the centre (9)."""
    if size not in _FIXED_SIZES or not 2 <= len(points) <= 9:
        return False
    corners, sides, centre = _star_points(size)
    on_corners, on_sides = points & corners, points & sides
    if len(on_corners) + len(on_sides) + (centre in points) != len(points):
        return False  # a stone off the handicap points
    if len(points) <= 4:
        return not on_sides and centre not in points and (len(points) > 2 or _opposite(on_corners, size))
    with_centre = len(points) % 2 == 1
    if len(on_corners) != 4 or (centre in points) != with_centre:
        return False
    return len(on_sides) in (0, 4) or (len(on_sides) == 2 and _opposite(on_sides, size))


def _opposite(pair: frozenset[Point], size: int) -> bool:
    """True when the two points of ``pair`` are symmetric through the centre of a board of ``size``."""
    (x1, y1), (x2, y2) = pair
    return x1 + x2 == y1 + y2 == size - 1
