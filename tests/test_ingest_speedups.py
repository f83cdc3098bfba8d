"""The shortcuts of the ingest hot path read what the long way reads (issue 11, item 3: speed).

- :func:`pipeline.ingest.sgftext._plain_tree` reads a record that is a root and one run of moves
  without tokenising it: the same tree as the tokens give, or None (then the tokens are read).
- :func:`pipeline.ingest.sgftext.run_moves` reads the moves of a run of move nodes with string methods
  when it can, and node by node otherwise: both give every node's colour and point.
- :func:`pipeline.core.charset._counts` counts a file's non-ASCII runs one by one (cached): the
  scores, and whether some run is UTF-8 or holds a "]", equal those of the runs read as one text.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import charset
from pipeline.ingest import sgftext
from pipeline.ingest.sgftext import _TOKEN, run_moves

pytestmark = pytest.mark.slow

SPACE = st.sampled_from(["", "", " ", "\n", "\r\n", "\t", "\r"])
POINT = st.text(alphabet="abcdrs ;\nBW(", max_size=3)
PIECE = st.sampled_from(["a", ";", "B[", "W[x", "\\]", "\\\\", "(", ")", "\n", " ", "中"])
VALUE = st.lists(PIECE, max_size=6).map("".join)
PROPERTY = st.builds(
    lambda ident, values, space: f"{space}{ident}{space}" + "".join(f"[{v}]{space}" for v in values),
    st.sampled_from(["C", "BL", "WL", "OB", "N", "TimeLeft", "B", "W"]),
    st.lists(VALUE, min_size=1, max_size=2),
    SPACE,
)
NODE = st.tuples(st.sampled_from("BW"), POINT, st.lists(PROPERTY, max_size=2), SPACE)


def run_text(nodes: list[tuple[str, str, list[str], str]]) -> str:
    return "".join(f";{colour}[{point}]{''.join(props)}{space}" for colour, point, props, space in nodes)


@settings(max_examples=400, deadline=None)
@given(st.lists(NODE, min_size=1, max_size=8))
def test_run_moves_gives_each_nodes_colour_and_point(nodes: list[tuple[str, str, list[str], str]]) -> None:
    run = run_text(nodes)
    token = _TOKEN.match(run)
    assert token is not None and token.group(3) == run  # the grammar reads it as one run token
    assert run_moves(run) == (len(nodes), " ".join(colour + point for colour, point, _, _ in nodes))


@pytest.mark.parametrize(
    "run",
    [
        ";B[pd];W[dp]\n;B[pp]",
        ";B[pd]C[a ;B[qq\\] ;W[x\\]]\r\n;W[dp]BL[30];B[pp]\n",
        ";B[pd] ;W[dp];B[pp]",
        ";B[pd]\r;W[dp];B[pp]",
    ],
    ids=["plain", "comments-holding-moves", "space-between-nodes", "cr-between-nodes"],
)
def test_run_moves_reads_only_the_moves(run: str) -> None:
    assert run_moves(run) == (3, "Bpd Wdp Bpp")


JUNK = st.sampled_from(
    ["", "", "(", ")", "(;W[aa])", ")(;", ";", "x", "]", "\\", "[", ";B", "AB[cc]", " ", "\r"]
)
ROOT = st.sampled_from(
    ["(;GM[1]PB[Li]", "(;PB[a\\]b]RE[B+R]\n", "(PB[tom]RD[2024-5-1]", "(; B[pd]PB[x]", "(;B[pd]"]
)


@settings(max_examples=600, deadline=None)
@given(
    ROOT, st.lists(st.tuples(NODE, JUNK), min_size=1, max_size=6), st.sampled_from([")", ")\n", "", ") x"])
)
def test_a_plain_record_read_without_tokens_is_the_tree_the_tokens_give(
    root: str, nodes: list[tuple[tuple[str, str, list[str], str], str]], end: str
) -> None:
    text = root + "".join(run_text([node]) + junk for node, junk in nodes) + end
    plain = sgftext._plain_tree(text, 0)
    if plain is not None:
        assert plain == sgftext._read_tree(sgftext._tokens(text, 0), 0, 0)[0]


def test_a_record_with_a_comment_is_read_without_tokens() -> None:
    text = "(;GM[1]PB[Li]\n;B[pd]C[(;W[dd\\]) a];W[dp]BL[30]\r\n;B[pp])\n"
    plain = sgftext._plain_tree(text, 0)
    assert plain is not None and (plain.root["PB"], plain.moves, plain.error) == (["Li"], 3, None)
    assert plain.signature == sgftext._read_tree(sgftext._tokens(text, 0), 0, 0)[0].signature


HIGH = st.one_of(
    st.builds(
        lambda text, codec: text.encode(codec, errors="ignore"),
        st.text(alphabet="黑白胜負中盤段級目흑백승단黒勝半持碁王李金éü", min_size=1, max_size=4),
        st.sampled_from(["gb18030", "cp950", "cp949", "cp932", "cp1252"]),
    ),
    st.binary(min_size=1, max_size=4).map(lambda b: bytes(c | 0x80 for c in b)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(HIGH, max_size=12))
def test_runs_scored_one_by_one_score_as_the_runs_read_as_one_text(runs: list[bytes]) -> None:
    found = charset.non_ascii_runs(b"(;PB[" + b"]C[".join(runs) + b"])")

    def read(counts: list[int]) -> tuple[dict[str, float], list[bool]]:
        return charset._scores(counts), [count > 0 for count in counts[-2:]]

    one_by_one = read(charset._counts(found))
    with mock.patch.object(charset, "_FEW_RUNS", -1):  # every file read as one text
        assert read(charset._counts(found)) == one_by_one
