"""sgftext: the SGF grammar over decoded text, as lenient as real records need.

Reads every game tree of a collection and keeps, for each, what the later stages use: the root
node's properties (identifiers in FF4 form: ``PlayerBlack`` -> ``PB``; values unescaped), the
number of B/W nodes on the main line (passes included), the colour of its first move and a signature of
the main-line moves.

Leniency, because the archives are as they are:

- game information before the first ``;`` (the TOM server's layout, ``(TE[...]RD[...];B[pd]...)``)
  is the root node;
- FF1/FF3 long and lower-case property names (``PlayerBlack``, ``GaMe``) lose their lower-case letters;
- a tree cut short (truncated file) keeps what was read, with ``error`` saying so;
- junk between trees, or a stray character inside one, is skipped and reported.

Why not sgfmill here: sgfmill's tokeniser loops in Python over every token and builds every node,
rejects the implicit-root layout, and stops a collection at its first bad tree. This reader splits
the text into tokens with one regular expression, a run of move nodes (the bulk of every record) being
one token whose moves a second expression reads, so Python sees a few tokens per record, not a pass
per node, and only the root node's properties are parsed (``bench/ingest_bench.py`` measures both).
Most records are a root and one run of moves: those are not tokenised at all (:func:`_plain_tree`
checks the shape by counting brackets once the moves' comments are cut, and reads the moves with
string methods); anything else goes through the tokens, which give the same tree.
sgfmill stays the reference: the property tests check this reader against it. Reading takes time linear in
the text's length whatever the text (no pattern backtracks; a value left open is not scanned again
for every name after it), so no file can stall the run here.

Knows nothing of Go: what the properties mean is :mod:`pipeline.ingest.normalise`'s business.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from pipeline.ingest.sgfprops import Properties, parse_properties

# Every repeat is possessive (``*+``, ``++``): the grammar never needs to give characters back, and
# without backtracking no match attempt scans more than the text it consumes plus one run of letters
# and spaces (for a property name with no value), so tokenising is linear in the text's length.
_VALUE = r"\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\]"
_PROP = rf"\s*+[A-Za-z]++\s*+(?:{_VALUE}\s*+)++"
_PROPS = rf"(?:{_PROP})++"
# A node whose first property is its move (``;B[pd]``, ``;W[dp]BL[30]C[...]``), with the space after it.
_MOVE_NODE = rf";\s*+([BW])\s*+\[([^\\\]]*+)\](\s*+{_PROPS}|)\s*+"
# Groups: ( ) run-of-moves ; move-colour move-point rest-of-node bare-properties junk. A run of nodes
# that start with their move written plainly (``;B[pd]``, ``;W[]``: no space before ``[``, no ``[`` or
# escape in the point) is one token, its moves read by one more regex (:data:`_RUN_MOVE`), so the hot
# loop sees a token per run, not per node; another node's move, when it is the node's first property,
# is captured apart so the loop needs no second look at the node. Junk takes a whole run of letters at
# once (a name with no value), else one character.
_TOKEN = re.compile(
    rf"\s*+(?:(\()|(\))|((?:;[BW]\[[^\\\]\[]*+\](?:\s*+{_PROPS}|)\s*+)++)"
    rf"|(;)\s*+(?:([BW])\s*+\[([^\\\]]*+)\])?(\s*+{_PROPS}|)|({_PROPS})|([A-Za-z]++|\S))",
    re.S,
)
# The nodes of a run token: (colour, point, rest) each; and colour ``[`` point (``B[pd``) alone, the
# rest of each node skipped value by value (in a run, ``;`` and ``[`` stand only inside values).
_RUN_NODE = re.compile(_MOVE_NODE, re.S)
# The properties after a run node's move, with the space after them: cut before reading the moves.
_RUN_REST = re.compile(rf"\]{_PROP}(?:{_PROP})*+", re.S)  # _PROPS unrolled: a "]" before ";" fails sooner
_RUN_MOVE = re.compile(r";([BW]\[[^\\\]\[]*+)\](?:[^;\[]*+\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])*+", re.S)
# The same tokens after the last ``]`` that can close a value, where no property can be complete: the
# five empty groups stand for the run, the move and properties a node there never has; junk is a whole run of
# anything but space and ( ) ; at once; trailing space is eaten.
_TAIL = re.compile(r"\s*+(?:(\()|(\))|()(;)()()()()|([^\s();]++))|\s++")
# A tree's ``(`` and its root: a node (group 1 its ``;``) or TOM's properties before the first ``;``.
_HEAD = re.compile(rf"\(\s*+(;\s*+)?({_PROPS})", re.S)
_MOVE_FIRST = re.compile(r"[BW]\s*+\[")
_START = re.compile(r"\(\s*+(?:;|[A-Za-z]++\s*+\[)")
_SPACED = bytes.maketrans(b";", b" ")


class SgfSyntaxError(ValueError):
    """Raised when text holds no SGF game tree at all."""


@dataclass(slots=True)
class GameTree:
    """One game tree of a collection.

    ``index`` is its position in the file (0-based); ``root`` maps property identifiers to their
    unescaped values; ``moves`` counts B and W nodes on the main line; ``signature`` is a hex digest
    of the main-line moves (colour and point), equal for two records of the same game;
    ``implicit_root`` is True for the TOM layout; ``error`` says what was wrong, or is None;
    ``first_colour`` is the colour of the main line's first move (``B`` or ``W``), ``""`` when it has none.
    """

    index: int
    root: Properties = field(default_factory=dict)
    moves: int = 0
    signature: str = ""
    implicit_root: bool = False
    error: str | None = None
    first_colour: str = ""


def read_collection(text: str) -> list[GameTree]:
    """Read every game tree in ``text``.

    Returns the trees in file order (at least one). Raises :class:`SgfSyntaxError` if ``text``
    holds no game tree (empty, not SGF).
    """
    found = _START.search(text)
    if found is None:
        raise SgfSyntaxError("no SGF game tree found")
    plain = _plain_tree(text, found.start())
    if plain is not None:
        return [plain]
    tokens = _tokens(text, found.start())
    trees: list[GameTree] = []
    i = 0
    while i < len(tokens):
        if tokens[i][0] and i + 1 < len(tokens) and _starts_tree(tokens[i + 1]):
            tree, i = _read_tree(tokens, i, len(trees))
            trees.append(tree)
        else:
            i += 1  # junk between trees
    return trees


def _plain_tree(text: str, start: int) -> GameTree | None:
    """The one game tree of ``text`` (its ``(`` at ``start``) when it is a root node (or TOM's game
    information before the first ``;``) and one run of move nodes, closed, with nothing after it but
    space; None for any other text. Most records are such a text, and this reads them as the tokens
    would (:func:`_read_tree`), without tokenising the moves: the run is checked by
    :func:`_plain_moves` once its moves' other properties are cut.
    """
    head, end = _HEAD.match(text, start), len(text.rstrip()) - 1
    if head is None or end <= start or text[end] != ")" or not text.startswith((";B[", ";W["), head.end()):
        return None
    semi, props = head.groups()
    if semi and _MOVE_FIRST.match(props):  # the root holds a move: the tokens read it as a run
        return None
    moves = _RUN_REST.sub("]", text[head.end() : end])
    if "(" in moves or ")" in moves:
        return None
    found = _plain_moves(moves)
    if found is None:
        return None
    root = parse_properties(props)
    return GameTree(0, root, found[0], _signature([found[1]]), not semi, None, found[1][:1])


def _starts_tree(token: tuple[str, ...]) -> bool:
    """True when ``token``, after a ``(``, is a node or properties (a run, a ``;``, bare properties)."""
    return bool(token[2] or token[3] or token[7])


def _tokens(text: str, start: int) -> list[tuple[str, ...]]:
    """The tokens of ``text`` from ``start``, as tuples of the groups of :data:`_TOKEN`.

    A value never closed (a truncated file) would make every later property name scan it to the end
    of the text again: the text after the last ``]`` that can close a value is read by :data:`_TAIL`.
    """
    cut = max(start, _closing_end(text))
    return _TOKEN.findall(text, start, cut) + _TAIL.findall(text, cut)


def _closing_end(text: str) -> int:
    """The index after the last ``]`` that closes any value open before it, or 0 when there is none.

    A ``]`` after an odd run of backslashes is escaped, and one after an even run closes, whichever
    ``[`` opened the value (the run lies inside it). So a value opened after this index never closes.
    """
    close = text.rfind("]")
    while close >= 0:
        run = close
        while run and text[run - 1] == "\\":
            run -= 1
        if (close - run) % 2 == 0:
            return close + 1
        close = text.rfind("]", 0, run)
    return 0


class _Walker:
    """State of one game tree being read: which variations are on the main line, the moves seen."""

    def __init__(self, index: int) -> None:
        self.tree = GameTree(index)
        self.children: list[int] = []
        self.on_main: list[bool] = []
        self.moves: list[str] = []  # moves, or runs of moves joined by spaces
        self.count = 0  # the moves in self.moves
        self.junk: str | None = None

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

    def root(self, props: str, *, bare: bool) -> None:
        if bare and not self.on_main[-1]:
            return
        self.tree.root.update(parse_properties(props))
        self.tree.implicit_root = self.tree.implicit_root or bare

    def run(self, run: str, nodes: int) -> int:
        """Read a run token after ``nodes`` nodes of the tree; returns the count of nodes read so far.
        The tree's first node is its root, whatever it holds."""
        if nodes == 0:
            first = _RUN_NODE.match(run)
            assert first is not None  # a run token is made of such nodes
            colour, point, rest = first.groups()
            self.root(f"{colour}[{point}]{rest}", bare=False)
            run, nodes = run[first.end() :], 1
        count, moves = run_moves(run)
        if count and self.on_main[-1]:
            self.moves.append(moves)
            self.count += count
        return nodes + count

    def finish(self, error: str | None) -> GameTree:
        self.tree.moves = self.count
        self.tree.signature = _signature(self.moves)
        self.tree.error = error or self.junk
        self.tree.first_colour = self.moves[0][:1] if self.moves else ""
        return self.tree


def _signature(moves: list[str]) -> str:
    """The signature of a main line whose moves (or runs of them) are ``moves``: 16 hex digits."""
    return hashlib.blake2b(" ".join(moves).encode(), digest_size=8).hexdigest()


def run_moves(run: str) -> tuple[int, str]:
    """The count of the nodes of ``run`` (a run token, or its part after a node) and their moves as
    ``Bpd Wdp``: colour and point of each, joined by spaces.

    Most runs are read without a regular expression per node: their other properties (comments, time
    left) are cut by one substitution, and when then every node is ``;B[..]`` with nothing or a line
    break after it (:func:`_plain_moves`), string methods read the moves. Any other run is read node by
    node (:data:`_RUN_MOVE`); both readings give the same for every run.
    """
    found = _plain_moves(_RUN_REST.sub("]", run))
    if found is not None:
        return found
    moves = _RUN_MOVE.findall(run)  # "B[pd", "W[" -> "Bpd W": each holds one "[", after its colour
    return len(moves), " ".join(moves).replace("[", "")


def _plain_moves(run: str) -> tuple[int, str] | None:
    """:func:`run_moves` of ``run`` when it is move nodes alone, ``;B[pd];W[dp]`` (points without
    ``[ ] ; \\`` or line breaks), a line break allowed between two and space after the last; None
    otherwise (the tokens read the rest, a point with a line break too, the same).

    Counted, not rewritten: when the text starts with ``;``, ends with ``]`` and holds no ``\\``, each of
    its ``;`` but the first comes after ``]`` (or ``]`` and a line break), each before ``B[`` or ``W[``,
    and it holds no ``[``, ``]``, CR or LF but those (one translation to the moves, which drops them,
    counts them), every node is ``;`` colour ``[`` point ``]`` and nothing else.
    """
    text = run.rstrip()
    count = text.count(";")
    if not (text.startswith(";") and text.endswith("]")) or "\\" in text:
        return None
    lf, crlf = text.count("]\n;"), text.count("]\r\n;") if "\r" in text else 0
    if text.count("];") + lf + crlf != count - 1 or text.count(";B[") + text.count(";W[") != count:
        return None
    # ";B[pd]\n;W[dp]" -> " Bpd Wdp" in bytes (one pass; UTF-8 never holds those bytes inside a character)
    data = text.encode("utf-8", "surrogatepass")
    moves = data.translate(_SPACED, b"[]\r\n")
    if len(data) - len(moves) != 2 * count + lf + 2 * crlf:
        return None
    return count, moves[1:].decode("utf-8", "surrogatepass")


def _read_tree(tokens: list[tuple[str, ...]], start: int, index: int) -> tuple[GameTree, int]:
    """Read the tree whose ``(`` is ``tokens[start]``; returns it and the index after its ``)``.

    The loop is the reader's hot path (one pass per token of every record): plain tuple tests only.
    """
    walker, nodes = _Walker(index), 0
    for i in range(start, len(tokens)):
        opening, closing, run, semi, colour, point, rest, bare, junk = tokens[i]
        if run:
            nodes = walker.run(run, nodes)
        elif semi:
            nodes += 1
            if nodes == 1:
                walker.root(colour + (f"[{point}]" if colour else "") + rest, bare=False)
            elif walker.on_main[-1]:
                move = colour + point if colour else _move(rest) if rest else None
                if move is not None:
                    walker.moves.append(move)
                    walker.count += 1
        elif opening:
            walker.open()
        elif closing:
            if walker.close():
                return walker.finish(None), i + 1
        elif bare:
            if nodes <= 1 and not walker.moves:
                walker.root(bare, bare=True)
                nodes = 1
        elif junk and walker.junk is None:
            walker.junk = f"unexpected {junk[0]!r} in game tree {index}"
    return walker.finish(f"truncated: {len(walker.children)} game tree(s) not closed"), len(tokens)


def _move(props: str) -> str | None:
    """The move of a node whose move is not its first property (``BL[30]B[pd]``) as ``Bpd``, or None."""
    if "B" not in props and "W" not in props:
        return None
    found = parse_properties(props)
    for colour in ("B", "W"):
        if colour in found:
            return colour + (found[colour][0] if found[colour] else "")
    return None
