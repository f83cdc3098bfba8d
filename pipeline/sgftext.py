"""sgftext: the SGF grammar over decoded text, as lenient as real records need.

Reads every game tree of a collection and keeps, for each, what the later stages use: the root
node's properties (identifiers in FF4 form: ``PlayerBlack`` -> ``PB``; values unescaped), the
number of B/W nodes on the main line (passes included) and a signature of the main-line moves.

Leniency, because the archives are as they are:

- game information before the first ``;`` (the TOM server's layout, ``(TE[...]RD[...];B[pd]...)``)
  is the root node;
- FF1/FF3 long and lower-case property names (``PlayerBlack``, ``GaMe``) lose their lower-case letters;
- a tree cut short (truncated file) keeps what was read, with ``error`` saying so;
- junk between trees, or a stray character inside one, is skipped and reported.

Why not sgfmill here: sgfmill's tokeniser loops in Python over every token and builds every node,
rejects the implicit-root layout, and stops a collection at its first bad tree. This reader works
a node at a time with one regular expression (``bench/ingest_bench.py`` measures both). sgfmill
stays the reference: the property tests check this reader against it.

Knows nothing of Go: what the properties mean is :mod:`pipeline.normalise`'s business.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

_VALUE = r"\[[^\\\]]*(?:\\.[^\\\]]*)*\]"
_PROPS = rf"(?:\s*[A-Za-z]+\s*(?:{_VALUE}\s*)+)+"
_TOKEN = re.compile(rf"\s*(?:(\()|(\))|(;)\s*({_PROPS})?|({_PROPS})|(\S))", re.S)
_PROP = re.compile(rf"([A-Za-z]+)\s*((?:{_VALUE}\s*)+)", re.S)
_VALUES = re.compile(r"\[([^\\\]]*(?:\\.[^\\\]]*)*)\]", re.S)
_START = re.compile(r"\(\s*(?:;|[A-Za-z]+\s*\[)")
_SOFT_BREAK = re.compile(r"\\(?:\r\n|\n\r|\n|\r)")
_ESCAPE = re.compile(r"\\(.)", re.S)
_OPEN, _CLOSE, _SEMI, _NODE, _BARE, _JUNK = 1, 2, 3, 4, 5, 6

Properties = dict[str, list[str]]


class SgfSyntaxError(ValueError):
    """Raised when text holds no SGF game tree at all."""


@dataclass(slots=True)
class GameTree:
    """One game tree of a collection.

    ``index`` is its position in the file (0-based); ``root`` maps property identifiers to their
    unescaped values; ``moves`` counts B and W nodes on the main line; ``signature`` is a hex digest
    of the main-line moves (colour and point), equal for two records of the same game;
    ``implicit_root`` is True for the TOM layout; ``error`` says what was wrong, or is None.
    """

    index: int
    root: Properties = field(default_factory=dict)
    moves: int = 0
    signature: str = ""
    implicit_root: bool = False
    error: str | None = None


def read_collection(text: str) -> list[GameTree]:
    """Read every game tree in ``text``.

    Returns the trees in file order (at least one). Raises :class:`SgfSyntaxError` if ``text``
    holds no game tree (empty, not SGF).
    """
    start = _START.search(text)
    if start is None:
        raise SgfSyntaxError("no SGF game tree found")
    trees: list[GameTree] = []
    pos = start.start()
    while pos < len(text):
        tree, pos = _read_tree(text, pos, len(trees))
        trees.append(tree)
        nxt = _START.search(text, pos)
        if nxt is None:
            break
        pos = nxt.start()
    return trees


class _Walker:
    """State of one game tree being read: depth, which variations are on the main line."""

    def __init__(self, index: int) -> None:
        self.tree = GameTree(index)
        self.children: list[int] = []
        self.on_main: list[bool] = []
        self.moves: list[str] = []
        self.has_root = False

    def open(self) -> None:
        first = not self.children or self.children[-1] == 0
        if self.children:
            self.children[-1] += 1
        self.on_main.append((not self.on_main or self.on_main[-1]) and first)
        self.children.append(0)

    def close(self) -> bool:
        """Close one variation; True when the whole tree is closed."""
        self.children.pop()
        self.on_main.pop()
        return not self.children

    def node(self, props: str, *, bare: bool) -> None:
        if not self.has_root:
            self.tree.root, self.tree.implicit_root, self.has_root = parse_properties(props), bare, True
        elif bare and not self.moves:
            self.tree.root.update(parse_properties(props))
        elif self.on_main and self.on_main[-1]:
            move = _move(props)
            if move is not None:
                self.moves.append(move)

    def finish(self, error: str | None) -> GameTree:
        self.tree.moves = len(self.moves)
        self.tree.signature = hashlib.blake2b(" ".join(self.moves).encode(), digest_size=8).hexdigest()
        self.tree.error = error
        return self.tree


def _read_tree(text: str, pos: int, index: int) -> tuple[GameTree, int]:
    walker, junk = _Walker(index), None
    for m in _TOKEN.finditer(text, pos):
        kind = m.lastindex
        if kind == _OPEN:
            walker.open()
        elif kind == _CLOSE:
            if walker.close():
                return walker.finish(junk), m.end()
        elif kind in (_SEMI, _NODE):
            walker.node(m.group(_NODE) or "", bare=False)
        elif kind == _BARE:
            walker.node(m.group(_BARE), bare=True)
        elif kind == _JUNK and junk is None:
            junk = f"unexpected {m.group(_JUNK)!r} at offset {m.start(_JUNK)}"
    return walker.finish(f"truncated: {len(walker.children)} game tree(s) not closed"), len(text)


def parse_properties(props: str) -> Properties:
    """Parse the properties of one node (``PB[Li]BR[3d]AB[dd][pp]``) into identifier -> values.

    Identifiers lose their lower-case letters (FF1/FF3 ``PlayerBlack`` -> ``PB``); values are
    unescaped (soft line breaks removed, ``\\]`` -> ``]``). A repeated identifier gathers its values.
    """
    out: Properties = {}
    for ident, block in _PROP.findall(props):
        out.setdefault(_ident(ident), []).extend(unescape(v) for v in _VALUES.findall(block))
    return out


def unescape(value: str) -> str:
    """Remove SGF escapes: soft line breaks vanish, ``\\x`` becomes ``x``."""
    if "\\" not in value:
        return value
    return _ESCAPE.sub(r"\1", _SOFT_BREAK.sub("", value))


def _ident(ident: str) -> str:
    upper = "".join(c for c in ident if c.isupper())
    return upper or ident.upper()


def _move(props: str) -> str | None:
    """The move of a node as ``B pd`` / ``W `` (pass), or None when the node has no move."""
    if props[:2] in ("B[", "W[") and (end := props.find("]")) > 0:
        return f"{props[0]} {props[2:end]}"
    found = parse_properties(props)
    for colour in ("B", "W"):
        if colour in found:
            return f"{colour} {found[colour][0] if found[colour] else ''}"
    return None
