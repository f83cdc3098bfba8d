"""mutate: seed records -> mutants, one per index, by the fault-injection kinds of issue 10.

Each mutator takes ``(rng, data, other)`` (``other``: a second seed record, for splices) and returns new
bytes; :func:`mutant` applies one to three of them, drawn by weight, to a seed record. Input ``i`` of
seed ``s`` depends only on ``(s, i)`` and the seed pool, so any input can be made again on its own
(``python -m fuzz.driver --replay I``).

Knows nothing of the pipeline, of files or of how the mutants are run (:mod:`fuzz.driver`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fuzz import values as V

Mutator = Callable[[random.Random, bytes, bytes], bytes]

MAX_BYTES = 1_500_000  # a mutant is cut to this size (a splice of two huge ones would be larger)
_SYNTAX = b"();[]\\"
_PROPERTY = re.compile(rb"([A-Z]{1,2})\[((?:[^\\\]]|\\.)*)\]", re.S)
_MOVE = re.compile(rb";([BW])\[([^\]]{0,4})\]")


@dataclass(frozen=True, slots=True)
class Input:
    """One generated input: its ``index``, relative path (``name``, bytes: it may not be UTF-8),
    ``data`` and the names of the mutators applied, in order (``ops``)."""

    index: int
    name: bytes
    data: bytes
    ops: tuple[str, ...]


def _positions(rng: random.Random, data: bytes, count: int) -> list[int]:
    """``count`` insertion points in ``data`` (0 .. len), in descending order (inserting keeps them valid)."""
    return sorted((rng.randint(0, len(data)) for _ in range(count)), reverse=True)


def _insert(data: bytes, at: int, chunk: bytes) -> bytes:
    return data[:at] + chunk + data[at:]


def byte_flips(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """1-8 bytes replaced by random bytes or with one bit flipped."""
    buf = bytearray(data or b"\x00")
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(buf))
        buf[i] = rng.randrange(256) if rng.random() < 0.5 else buf[i] ^ (1 << rng.randrange(8))
    return bytes(buf)


def truncation(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """``data`` cut anywhere, or just after one of its ``[`` (a save that died inside a value)."""
    opens = [m.end() for m in re.finditer(rb"\[", data)]
    if opens and rng.random() < 0.5:
        return data[: rng.choice(opens)]
    return data[: rng.randint(0, len(data))]


def insert_syntax(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """1-10 of ``( ) ; [ ] \\`` inserted, each a run of 1-3 (rarely 50) of one character."""
    for at in _positions(rng, data, rng.randint(1, 10)):
        char = bytes([rng.choice(_SYNTAX)])
        data = _insert(data, at, char * (50 if rng.random() < 0.05 else rng.randint(1, 3)))
    return data


def delete_syntax(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """1-10 of the ``( ) ; [ ] \\`` of ``data`` deleted."""
    found = [i for i, b in enumerate(data) if b in _SYNTAX]
    for at in sorted(rng.sample(found, min(len(found), rng.randint(1, 10))), reverse=True):
        data = data[:at] + data[at + 1 :]
    return data


def duplicate_property(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A property written again (once, or up to 1,000 times) beside itself or elsewhere in the record."""
    props = list(_PROPERTY.finditer(data[:200_000]))
    if not props:
        return data + b"PB[a]PB[b]"
    prop = rng.choice(props)
    copies = prop.group(0) * (rng.choice((1, 1, 2, 1000)))
    at = prop.end() if rng.random() < 0.6 else rng.randint(0, len(data))
    return _insert(data, at, copies)


def odd_value(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """One game-information property (HA KM TM OT LT LC TC DT RE BR SZ GM, or a neighbour) set to an odd
    value (huge number, NaN, inf, empty, CJK, 200 KB ...), replacing the first one or added to the root."""
    ident = rng.choice(V.GAME_INFO if rng.random() < 0.8 else V.NEIGHBOURS).encode()
    value = V.encode_value(rng, V.odd_value(rng), escaped=rng.random() < 0.9)
    found = re.search(rb"(?<![A-Z])" + ident + rb"\[(?:[^\\\]]|\\.)*\]", data[:200_000])
    if found:
        return data[: found.start()] + ident + b"[" + value + b"]" + data[found.end() :]
    return _root_insert(data, ident + b"[" + value + b"]")


def _root_insert(data: bytes, prop: bytes) -> bytes:
    """``prop`` added after the first ``;`` (or the first ``(``, or at the start)."""
    at = data.find(b";")
    at = data.find(b"(") if at < 0 else at
    return _insert(data, at + 1, prop)


def random_bytes(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A file of random bytes (1 B - 64 KiB), or a random chunk inserted into ``data``."""
    chunk = rng.randbytes(rng.choice((1, 7, 100, 1024, 4096, 65536)))
    return chunk if rng.random() < 0.4 else _insert(data, rng.randint(0, len(data)), chunk)


def wrong_bom(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A byte-order mark over bytes of another encoding: before them, over their first bytes, or inside."""
    bom, how = rng.choice(V.BOMS), rng.randrange(3)
    if how == 0:
        return bom + data
    if how == 1:
        return bom + data[len(bom) :]
    return _insert(data, rng.randint(0, len(data)), bom)


def lying_charset(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """``CA`` set to a lie: ``CA[undefined]``, ``CA[rot13]``, ``CA[utf-7]``, ``CA[idna]``, ``CA[base64]``."""
    prop = b"CA[" + V.charset_lie(rng) + b"]"
    found = re.search(rb"CA\[[^\]]*\]", data[:200_000])
    if found and rng.random() < 0.8:
        return data[: found.start()] + prop + data[found.end() :]
    return _root_insert(data, prop)


def nuls(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """NUL bytes: a few inserted, a run of them, or one after every byte (fake UTF-16)."""
    how = rng.randrange(3)
    if how == 0:
        for at in _positions(rng, data, rng.randint(1, 5)):
            data = _insert(data, at, b"\x00")
        return data
    if how == 1:
        return _insert(data, rng.randint(0, len(data)), b"\x00" * rng.choice((2, 100, 5000)))
    return b"".join(bytes([b, 0]) for b in data[:100_000])


_LINE_ENDS: tuple[tuple[bytes, bytes], ...] = (
    (b"\r\n", b"\n"),
    (b"\n", b"\r\n"),
    (b"\n", b"\r"),
    (b"\r\n", b"\r"),
    (b"\n", b"\r\r\n"),
    (b"\n", b"\n\r"),
    (b"\n", "\u2028".encode()),
    (b"\n", b"\x0c"),
)


def line_ends(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """Line ends converted (CRLF -> LF, LF -> CR, LF -> CR CR LF, LF -> U+2028, ...) or one CR inserted."""
    if rng.random() < 0.2:
        return _insert(data, rng.randint(0, len(data)), b"\r")
    old, new = rng.choice(_LINE_ENDS)
    return data.replace(old, new)


_PADS = (b" ", b" ", b"\n", b"\r\n", b"\t", b" \t\n", "\u3000".encode(), b"\x0b", "\u00a0".encode())


def padding(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """Whitespace padding: mostly 1-500 characters, 1 in 5 a run of thousands, placed at the end, at the
    start or anywhere; 1 in 100 is the known cubic case ``(;)`` + 2,000 spaces."""
    if rng.random() < 0.01:
        return b"(;)" + b" " * 2000
    pad = rng.choice(_PADS) * (rng.choice((1000, 2000, 5000)) if rng.random() < 0.2 else rng.randint(1, 500))
    where = rng.randrange(3)
    return (
        data + pad
        if where == 0
        else pad + data
        if where == 1
        else _insert(data, rng.randint(0, len(data)), pad)
    )


def splice(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """Two records joined: the head of one and the tail of the other, one after the other, or one inside."""
    how = rng.randrange(3)
    if how == 0:
        return data[: rng.randint(0, len(data))] + other[rng.randint(0, len(other)) :]
    if how == 1:
        return data + rng.choice((b"", b"\n", b"\x00", b"\xff")) + other
    return _insert(data, rng.randint(0, len(data)), other)


_HUGE_TEXT = (b"x", "黑".encode(), "黑".encode("gb18030"), b"\\\\", b"\\]", b"ab\\\n", b"[", b"(;")


def huge_value(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A value of 200 KB - 1 MB (``C``, ``GC``, ``PB`` ...) of one repeated piece, escapes included."""
    ident = rng.choice((b"C", b"GC", b"PB", b"EV", b"RE", b"DT"))
    piece = rng.choice(_HUGE_TEXT)
    size = rng.choice((200_000, 200_000, 1_000_000))
    return _root_insert(data, ident + b"[" + piece * (size // len(piece)) + b"]")


def deep_nesting(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """Deep nesting: ``(`` * 100,000, ``(;`` * 50,000, 20,000 nested variations, or ``data`` wrapped."""
    how = rng.randrange(5)
    if how == 0:
        return b"(" * 100_000
    if how == 1:
        return b"(;" * 50_000
    if how == 2:
        return b"(;B[aa]" * 20_000 + b")" * 20_000
    if how == 3:
        return b"(" * 10_000 + data + b")" * 10_000
    return rng.choice((b"[", b")", b";", b"\\")) * 100_000


def many_trees(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A collection: ``data`` 2-50 times, or 5,000 empty trees ``(;)``."""
    return b"(;)" * 5000 if rng.random() < 0.1 else data * rng.randint(2, 50)


def tiny(rng: random.Random, _data: bytes, _other: bytes) -> bytes:
    """A file of almost nothing: empty, one space, ``(``, ``(;``, ``()``, ``(;)``, a lone BOM ..."""
    return rng.choice(
        (b"", b" ", b"\n", b"(", b"(;", b";", b"()", b"(;)", b")(", b"\xef\xbb\xbf", b"\xff\xfe")
    )


_REENCODE = (
    "utf-16-le",
    "utf-16-be",
    "utf-16",
    "utf-32",
    "utf-7",
    "cp932",
    "gb18030",
    "big5",
    "cp949",
    "cp037",
)


def re_encode(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """``data`` read as UTF-8 (or GB18030) and written in another encoding, BOM or not."""
    text = data.decode(rng.choice(("utf-8", "gb18030")), errors="replace")
    return text.encode(rng.choice(_REENCODE), errors="replace")


def odd_moves(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """Up to 5 moves given off-board or malformed points (``zz``, ``tt``, empty, ``aaa``, bytes)."""
    moves = list(_MOVE.finditer(data[:500_000]))
    for move in sorted(rng.sample(moves, min(len(moves), 5)), key=lambda m: -m.start()):
        point = rng.choice((b"zz", b"tt", b"", b"aaa", b"Z9", b"\xff\xff", b"a", b"99", "黑".encode()))
        data = data[: move.start(2)] + point + data[move.end(2) :]
    return data


def long_identifier(rng: random.Random, data: bytes, _other: bytes) -> bytes:
    """A property whose identifier is 10,000 letters long (FF1 style), or lower-case only, or odd."""
    ident = rng.choice((b"PlayerBlack" * 1000, b"pb", b"Pb", b"P" * 10_000, b"XX", b"A"))
    return _root_insert(data, ident + b"[" + V.encode_value(rng, V.odd_value(rng)) + b"]")


#: Every mutator with its weight: the cheap byte-level faults most often, the costly shapes rarely.
MUTATORS: tuple[tuple[str, int, Mutator], ...] = (
    ("flip", 14, byte_flips),
    ("trunc", 8, truncation),
    ("insyn", 10, insert_syntax),
    ("delsyn", 8, delete_syntax),
    ("dupprop", 6, duplicate_property),
    ("oddval", 16, odd_value),
    ("random", 3, random_bytes),
    ("bom", 4, wrong_bom),
    ("ca", 6, lying_charset),
    ("nul", 3, nuls),
    ("eol", 4, line_ends),
    ("pad", 4, padding),
    ("splice", 5, splice),
    ("huge", 1, huge_value),
    ("deep", 1, deep_nesting),
    ("trees", 1, many_trees),
    ("tiny", 1, tiny),
    ("reenc", 3, re_encode),
    ("moves", 3, odd_moves),
    ("ident", 2, long_identifier),
)
MUTATOR_NAMES = tuple(name for name, _, _ in MUTATORS)


def mutant(seed: int, index: int, pool: Sequence[bytes]) -> Input:
    """Input ``index`` of run ``seed``: a record of ``pool`` (non-empty) under 1-3 mutators.

    Deterministic: the same ``seed``, ``index`` and ``pool`` always give the same :class:`Input`.
    Raises ValueError if ``pool`` is empty.
    """
    if not pool:
        raise ValueError("empty seed pool: no record to mutate")
    rng = random.Random(f"fuzz/{seed}/{index}")
    data, ops = pool[rng.randrange(len(pool))], []
    names, weights = MUTATOR_NAMES, [w for _, w, _ in MUTATORS]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        name = rng.choices(names, weights)[0]
        data = MUTATORS[names.index(name)][2](rng, data, pool[rng.randrange(len(pool))])[:MAX_BYTES]
        ops.append(name)
    return Input(index, V.file_name(rng, index, ops[0]), data, tuple(ops))
