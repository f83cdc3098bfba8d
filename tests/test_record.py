"""record: one file's bytes give one row per game tree, or one row saying why there is none."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.ingest.record import game_id, rows_for_bytes

GAME = "(;GM[1]PB[古力]PW[柯洁]BR[9段]WR[P9]RE[黑中盘胜]DT[2024-05-12]TM[1800]KM[7.5];B[pd];W[dd])"


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b"\x00\x01\x02\x03" * 64, "binary"),
        (b"just some notes", "not_sgf"),
    ],
)
def test_file_without_a_game_gives_one_error_row(data: bytes, kind: str) -> None:
    [row] = rows_for_bytes(data, "x.sgf")
    assert (row["error_kind"], row["source_path"], row["game_index"]) == (kind, "x.sgf", 0)
    assert row["parse_error"]


def test_collection_gives_one_row_per_tree_with_distinct_ids() -> None:
    rows = rows_for_bytes((GAME * 3).encode("gbk"), "c.sgf")
    assert [r["game_index"] for r in rows] == [0, 1, 2]
    assert len({r["game_id"] for r in rows}) == 3


def test_game_id_is_stable() -> None:
    assert game_id("a/b.sgf", 1) == game_id("a/b.sgf", 1) != game_id("a/b.sgf", 2)


def test_row_holds_the_normalised_fields() -> None:
    [row] = rows_for_bytes(GAME.encode("gbk"), "g.sgf")
    got = {k: row[k] for k in ("black", "white", "black_rank", "winner", "main_time_s", "komi", "moves")}
    assert got == {
        "black": "古力",
        "white": "柯洁",
        "black_rank": "9d",
        "winner": "B",
        "main_time_s": 1800,
        "komi": 7.5,
        "moves": 2,
    }
    assert (row["encoding"], row["parse_error"]) == ("gb18030", None)


def test_rank_written_inside_the_name_is_split_off() -> None:
    [row] = rows_for_bytes("(;PB[李昌镐\u3000九段]PW[Lee Sedol 9p];B[pd])".encode(), "n.sgf")
    assert (row["black"], row["black_rank"], row["white"], row["white_rank"]) == (
        "李昌镐",
        "9d",
        "Lee Sedol",
        "9p",
    )


@pytest.mark.parametrize(
    ("br", "rank"),
    [
        ("9p, Meijin", "9p"),
        ("九段 名人", "9d"),
        ("本因坊 七段", "7d"),
        ("三段格", "3d"),
        ("9 Dan Professional", "9p"),
    ],
)
def test_a_rank_with_a_title_is_read_and_the_value_as_written_kept(br: str, rank: str) -> None:
    [row] = rows_for_bytes(f"(;CA[UTF-8]PB[甲]PW[乙]BR[{br}];B[pd])".encode(), "t.sgf")
    assert (row["black_rank"], row["black_rank_raw"]) == (rank, br)


def test_a_korean_rank_and_a_professional_after_it_are_read() -> None:
    [row] = rows_for_bytes("(;CA[UTF-8]PB[갑]PW[을]BR[7급]WR[9단 프로];B[pd])".encode(), "k.sgf")
    assert (row["black_rank"], row["white_rank"], row["white_rank_raw"]) == ("7k", "9p", "9단 프로")


def test_broken_bytes_in_one_name_keep_the_game() -> None:
    data = "(;CA[UTF-8]PW[柯洁]RE[W+R]PB[".encode() + "古力".encode()[:-1] + b"];B[pd])"
    [row] = rows_for_bytes(data, "cut.sgf")
    assert (row["white"], row["winner"], row["parse_error"]) == ("柯洁", "W", None)
    assert "replaced" in row["warning"]


def test_truncated_file_is_a_parse_error_that_keeps_its_fields() -> None:
    [row] = rows_for_bytes(GAME[:-12].encode(), "t.sgf")
    assert (row["error_kind"], row["black"]) == ("truncated", "古力")


@given(st.binary(max_size=2000))
@settings(max_examples=300)
@pytest.mark.slow
def test_arbitrary_bytes_always_give_rows(data: bytes) -> None:
    rows = rows_for_bytes(data, "any.sgf")
    assert rows and all(r["source_path"] == "any.sgf" for r in rows)


@given(st.integers(0, 2**32), st.sampled_from(["gbk", "utf-8", "big5", "utf-16"]))
@settings(max_examples=200)
@pytest.mark.slow
def test_mutated_records_always_give_rows(seed: int, codec: str) -> None:
    rng = random.Random(seed)
    data = bytearray(GAME.replace("黑中盘胜", "B+R").encode(codec, errors="replace"))
    for _ in range(rng.randint(1, 8)):
        op, at = rng.randrange(3), rng.randrange(len(data))
        if op == 0:
            data[at] = rng.randrange(256)
        elif op == 1:
            del data[at:]
            data += b"x"
        else:
            data[at:at] = bytes([rng.choice(b"[]();\\")])
    assert rows_for_bytes(bytes(data), "m.sgf")


def test_ca_naming_no_charset_keeps_the_game() -> None:
    [row] = rows_for_bytes(b"(;CA[undefined]PB[\xff]RE[B+R])", "u.sgf")
    assert (row["error_kind"], row["encoding_declared"], row["winner"]) == (None, "undefined", "B")


def test_a_name_longer_than_any_name_is_not_read_and_the_warning_says_so() -> None:
    huge = "x" * 200_000
    (row,) = rows_for_bytes(f"(;PB[{huge}]PW[Li]RE[B+R]DT[2024-05-01])".encode(), "a.sgf")
    assert (row["black"], row["black_raw"], row["white"]) == (None, None, "Li")
    assert "values over 1024 characters not read: PB" in row["warning"]


def test_a_value_of_the_longest_readable_length_is_read() -> None:
    from pipeline.ingest.record import MAX_VALUE_CHARS

    name = "y" * MAX_VALUE_CHARS
    (row,) = rows_for_bytes(f"(;PB[{name}]PW[Li])".encode(), "a.sgf")
    assert row["black"] == name and row["warning"] is None
