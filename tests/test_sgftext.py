"""sgftext: the lenient grammar, checked on hand-written layouts and against sgfmill."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from re import _constants, _parser  # type: ignore[attr-defined]
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from pipeline.ingest import sgftext
from pipeline.ingest.sgftext import SgfSyntaxError, parse_properties, read_collection


def test_tom_layout_game_info_before_first_semicolon_is_the_root() -> None:
    [tree] = read_collection("(TE[第14届三星杯]RD[2009-8-12]PB[胡耀宇 八段]KO[6.5];B[pd];W[dd];B[pp])")
    assert tree.root["TE"] == ["第14届三星杯"]
    assert tree.root["PB"] == ["胡耀宇 八段"]
    assert (tree.implicit_root, tree.moves, tree.error) == (True, 3, None)


def test_collection_gives_every_tree() -> None:
    trees = read_collection("(;PB[a];B[aa])\n(;PB[b];B[bb];W[cc])\n(;PB[c])")
    assert [(t.index, t.root["PB"][0], t.moves) for t in trees] == [(0, "a", 1), (1, "b", 2), (2, "c", 0)]


def test_long_lower_case_property_names_become_ff4() -> None:
    [tree] = read_collection("(;FileFormat[1]GaMe[1]PlayerBlack[hi]KoMi[-1.5];Black[ff];White[gd])")
    assert (tree.root["PB"], tree.root["GM"], tree.root["KM"], tree.moves) == (["hi"], ["1"], ["-1.5"], 2)


def test_main_line_follows_first_variation_only() -> None:
    [tree] = read_collection("(;GM[1];B[aa](;W[bb];B[cc](;W[dd])(;W[ee];B[ff]))(;W[gg]))")
    assert tree.moves == 4


def test_passes_count_as_moves() -> None:
    assert read_collection("(;GM[1];B[pd];W[];B[tt])")[0].moves == 3


def test_same_moves_give_same_signature_whatever_the_comments() -> None:
    a, b = read_collection("(;PB[x];B[pd]C[hi];W[dd])(;PB[y];B[pd];W[dd]C[)]])")
    assert a.signature == b.signature


def test_different_moves_give_different_signatures() -> None:
    a, b = read_collection("(;B[pd];W[dd])(;B[pd];W[dc])")
    assert a.signature != b.signature


def test_truncated_tree_keeps_what_was_read() -> None:
    [tree] = read_collection("(;PB[Li]RE[B+R];B[pd];W[dd];B[p")
    assert tree.error is not None and tree.error.startswith("truncated")
    assert (tree.root["RE"], tree.moves) == (["B+R"], 2)


def test_junk_between_trees_is_skipped() -> None:
    trees = read_collection("Downloaded from a server\n(;PB[a])\n-- end --\n(;PB[b])trailing")
    assert [t.root["PB"] for t in trees] == [["a"], ["b"]]


def test_escapes_and_soft_line_breaks_are_removed() -> None:
    assert parse_properties("C[a\\]b\\\\c\\\nd]") == {"C": ["a]b\\cd"]}


def test_repeated_identifier_gathers_values() -> None:
    assert parse_properties("AB[aa]AB[bb][cc]") == {"AB": ["aa", "bb", "cc"]}


@pytest.mark.parametrize("text", ["", "hello", "no tree ( here", "[]]]", "(notsgf)"])
def test_text_without_a_game_tree_raises(text: str) -> None:
    with pytest.raises(SgfSyntaxError):
        read_collection(text)


@given(st.text())
@settings(max_examples=300)
@pytest.mark.slow
def test_any_text_reads_or_raises_syntax_error(text: str) -> None:
    try:
        trees = read_collection(text)
    except SgfSyntaxError:
        return
    assert trees and all(t.moves >= 0 for t in trees)


_points = st.tuples(st.integers(0, 18), st.integers(0, 18))
_values = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)


@st.composite
def sgfmill_games(draw: st.DrawFn) -> tuple[bytes, dict[str, str], int]:
    """A game built and serialised by sgfmill, the root values set, and its main-line length."""
    game = sgf.Sgf_game(19)
    root = game.get_root()
    props = draw(st.dictionaries(st.sampled_from(["PB", "PW", "EV", "RE", "DT", "C"]), _values, max_size=5))
    for ident, value in props.items():
        root.set(ident, value)
    node, colour = root, "b"
    for point in draw(st.lists(_points, max_size=30)):
        node = node.new_child()
        node.set_move(colour, point)
        colour = "w" if colour == "b" else "b"
        if draw(st.booleans()) and draw(st.booleans()):
            node.parent.new_child().set_move(colour, point)  # a later sibling: not on the main line
    moves = len(game.get_main_sequence()) - 1
    return game.serialise(), props, moves


@given(sgfmill_games())
@settings(max_examples=200)
@pytest.mark.slow
def test_reader_agrees_with_sgfmill(case: tuple[bytes, dict[str, str], int]) -> None:
    data, props, moves = case
    [tree] = read_collection(data.decode("utf-8"))
    assert tree.moves == moves
    reference = sgf.Sgf_game.from_bytes(data).get_root()
    assert {k: _spaces(tree.root[k][0]) for k in props} == {k: _spaces(reference.get(k)) for k in props}


def _spaces(value: str) -> str:
    """Values compared up to white space (sgfmill turns SimpleText line breaks into spaces)."""
    return " ".join(value.split())


# Adversarial text: each input makes a backtracking tokeniser take minutes (quadratic or worse in its
# length); read in linear time it takes milliseconds. The guard is a hang guard, not a speed assertion.
_ADVERSARIAL = {
    "whitespace after a tree": "(;)" + " " * 131072,
    "unclosed value of letters": "(;C[" + "a" * 131072,
    "unclosed value of names and brackets": "(;C[" + "a[" * 65536,
    "unclosed value of names, brackets and backslashes": "(;C[" + "a[\\" * 43691,
    "nodes with unclosed moves": "(;" + ";B[" * 43691,
    "property name without a value": "(;" + "A" * 131072 + ")",
    "property names without values in an unclosed tree": "(;" + "A" * 131072,
}
_REPEATS = (_constants.MAX_REPEAT, _constants.MIN_REPEAT)


@pytest.fixture
def hang_guard() -> Iterator[None]:
    """Fail the test if it is still running after 20 s (SIGALRM; skipped where there is none)."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("no SIGALRM on this platform")

    def expired(signum: int, frame: object) -> None:
        pytest.fail("hang guard: still running after 20 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("text", list(_ADVERSARIAL.values()), ids=list(_ADVERSARIAL))
def test_adversarial_text_is_read_without_hanging(text: str, hang_guard: None) -> None:
    assert len(read_collection(text)) == 1


@pytest.mark.slow
def test_deep_nesting_is_read_without_recursion(hang_guard: None) -> None:
    [tree] = read_collection("(" * 100_000 + ";PB[x]" + "(;B[aa]" * 100_000)
    assert (tree.root["PB"], tree.moves) == (["x"], 100_000)
    assert tree.error == "truncated: 100001 game tree(s) not closed"


def test_huge_property_name_with_a_value_is_a_property(hang_guard: None) -> None:
    [tree] = read_collection("(;" + "a" * 131072 + "PB[x]" + "b" * 131072 + " )")
    assert (tree.root, tree.error) == ({"PB": ["x"]}, "unexpected 'b' in game tree 0")


def _greedy_unbounded(node: Any) -> int:
    """How many greedy or lazy unbounded repeats a parsed pattern holds (possessive ones pass)."""
    if isinstance(node, _parser.SubPattern):
        return sum(_greedy_unbounded(item) for item in node.data)
    if not isinstance(node, (list, tuple)):
        return 0
    repeat = len(node) == 2 and any(node[0] is r for r in _REPEATS) and node[1][1] == _constants.MAXREPEAT
    return int(repeat) + sum(_greedy_unbounded(x) for x in node)


def test_tokeniser_patterns_cannot_backtrack_into_repeats() -> None:
    patterns = [v for v in vars(sgftext).values() if isinstance(v, re.Pattern)]
    counts = {p.pattern: _greedy_unbounded(_parser.parse(p.pattern, p.flags)) for p in patterns}
    assert len(counts) >= 4
    assert counts == dict.fromkeys(counts, 0)
