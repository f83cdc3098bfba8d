"""Tests for pipeline.ingest.normalise.gameinfo: komi, handicap, board size, game type, event and round."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest.normalise.gameinfo import (
    handicap_how,
    parse_board_size,
    parse_event,
    parse_game_type,
    parse_handicap,
    parse_komi,
    parse_round,
)

# --- komi ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("5.5", 5.5),
        ("0.5", 0.5),
        ("6.5", 6.5),
        ("0.50", 0.5),
        ("7.50", 7.5),
        ("6.50", 6.5),
        ("0.0", 0.0),
        ("0", 0.0),
        ("0.00", 0.0),
        ("0.500000", 0.5),
        ("4.5", 4.5),
        ("10.5", 10.5),
        ("5.0", 5.0),
        ("-1.5", -1.5),
        ("-4.5", -4.5),
        ("-5", -5.0),
        ("-59.5", -59.5),
        ("48.5", 48.5),
        (" 6.5 ", 6.5),
        ("+6.5", 6.5),
    ],
)
def test_parse_komi_reads_plain_numbers_as_written(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("5。5", 5.5),
        ("\uff15.\uff15", 5.5),  # full-width digits
        ("\uff16\uff0e\uff15", 6.5),  # full-width digits and full stop
        ("6,5", 6.5),
    ],
)
def test_parse_komi_reads_full_width_and_other_decimal_marks(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("黑贴五目半", 5.5),
        ("黑贴7目半", 7.5),
        ("黒6目半", 6.5),
        ("6目半", 6.5),
        ("六目半", 6.5),
        ("7.5目", 7.5),
        ("贴7.5", 7.5),
        ("半目", 0.5),
        ("コミ6目半", 6.5),
        ("6집반", 6.5),
        ("덤 6집반", 6.5),
        ("6.5집", 6.5),
        ("5 1/2", 5.5),
        ("2½", 2.5),
        ("7.5 points", 7.5),
        ("Komi: 6.5", 6.5),
        ("无贴", 0.0),
        ("コミなし", 0.0),
    ],
)
def test_parse_komi_reads_points_in_words(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("贴3又3/4子", 7.5),
        ("黑贴3又3/4子", 7.5),
        ("黑贴2又3/4子", 5.5),
        ("3.75子", 7.5),
        ("3¾子", 7.5),
        ("贴3又3/4", 7.5),
    ],
)
def test_parse_komi_counts_chinese_stones_as_two_points(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("750", 7.5),
        ("650", 6.5),
        ("550", 5.5),
        ("700", 7.0),
        ("375", 7.5),
        ("325", 6.5),
        ("275", 5.5),
        ("-375", -7.5),
    ],
)
def test_parse_komi_reads_fox_hundredths_without_the_flag(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"), [("750", 7.5), ("375", 7.5), ("50", 0.5), ("0", 0.0), ("6.5", 6.5)]
)
def test_parse_komi_reads_fox_hundredths_with_the_flag(raw: str, expected: float) -> None:
    assert parse_komi(raw, fox=True) == expected


@pytest.mark.parametrize(("raw", "expected"), [("50", 50.0), ("6", 6.0), ("130", 130.0)])
def test_parse_komi_keeps_small_or_odd_integers_without_the_flag(raw: str, expected: float) -> None:
    assert parse_komi(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        " ",
        "abc",
        "nan",
        "inf",
        "1e5",
        "6.5.5",
        "白贴5目半",
        "1/0",
        "目",
        "--6",
        "6.5 7.5",
        "1" + "0" * 400,
        "10000000.5",
    ],
)
def test_parse_komi_gives_none_for_unreadable_text(raw: str | None) -> None:
    assert parse_komi(raw) is None


@pytest.mark.parametrize("raw", ["999999", "-999999", "1000.5", "-1001", "999999.5", "贴九千目", "6000目"])
def test_parse_komi_beyond_a_thousand_points_is_none(raw: str) -> None:
    assert parse_komi(raw) is None


def test_parse_komi_limit_is_a_thousand_points_either_way() -> None:
    assert (parse_komi("1000.0"), parse_komi("-1000.0"), parse_komi("1000.5")) == (1000.0, -1000.0, None)


# --- handicap -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("0", 0), ("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9)],
)
def test_parse_handicap_reads_numbers_as_written(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [("2.0", 2), (" 3 ", 3), ("\uff14", 4), ("13", 13)])
def test_parse_handicap_reads_number_variants(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


@pytest.mark.parametrize("raw", ["让先", "讓先", "譲先", "定先", "정선"])
def test_parse_handicap_reads_no_komi_first_move_as_one(raw: str) -> None:
    assert parse_handicap(raw) == 1


@pytest.mark.parametrize("raw", ["分先", "互先", "호선"])
def test_parse_handicap_reads_even_game_as_zero(raw: str) -> None:
    assert parse_handicap(raw) == 0


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("让2子", 2),
        ("讓二子", 2),
        ("二子", 2),
        ("2子", 2),
        ("让九子", 9),
        ("9子局", 9),
        ("四子局", 4),
        ("2점", 2),
        ("2 stones", 2),
        ("让 3 子", 3),
    ],
)
def test_parse_handicap_reads_stone_counts_in_words(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


@pytest.mark.parametrize("raw", [None, "", "-1", "abc", "2.5", "100", "让子", "先相先", "1e2"])
def test_parse_handicap_gives_none_for_unreadable_text(raw: str | None) -> None:
    assert parse_handicap(raw) is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("二", 2),
        ("九", 9),
        ("十三", 13),
        ("让二", 2),
        ("授三子", 3),
        ("饶三子", 3),
        ("饒五子", 5),
        ("四子棋", 4),
        ("让 五 子局", 5),
    ],
)
def test_parse_handicap_reads_chinese_numerals_with_or_without_zi(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


def test_parse_handicap_cannot_exceed_the_points_of_a_known_board() -> None:
    assert parse_handicap("81", board_size=9) == 81
    assert parse_handicap("82", board_size=9) is None
    assert parse_handicap("99", board_size=19) == 99


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("三子", 3), ("让三", 3), ("讓三子", 3), ("授三子局", 3), ("\uff13", 3), ("\uff13子", 3)],
)
def test_parse_handicap_reads_the_short_text_forms(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("本局为授三子局", 3),
        ("白让黑三子", 3),
        ("讓四子，黑先", 4),
        ("Black takes 3 stones", 3),
        ("handicap: 5", 5),
        ("Handicap 2 (no komi)", 2),
        ("置き石 4점", 4),
        ("让二子 黑贴3又3/4子", 2),
    ],
)
def test_parse_handicap_reads_a_sentence_that_names_the_stones(raw: str, expected: int) -> None:
    assert parse_handicap(raw) == expected


@pytest.mark.parametrize("raw", ["二子或三子", "3 stones, then 4 stones", "handicap 2, 让三子"])
def test_parse_handicap_reads_no_number_from_a_sentence_that_names_two(raw: str) -> None:
    assert parse_handicap(raw) is None


@pytest.mark.parametrize("raw", ["黑贴3又3/4子", "让3目半", "贴 2子", "komi 6.5 points", "让 2.5 子"])
def test_parse_handicap_reads_no_stones_from_a_komi(raw: str) -> None:
    assert parse_handicap(raw) is None


@pytest.mark.parametrize("raw", ["3", " 3 ", "2.0", "0"])
def test_handicap_how_of_a_plain_number_is_ha(raw: str) -> None:
    assert handicap_how(raw) == "HA"


@pytest.mark.parametrize("raw", ["三子", "让先", "分先", "授三子局", "\uff13", "2 stones"])
def test_handicap_how_of_words_or_full_width_digits_is_ha_text(raw: str) -> None:
    assert handicap_how(raw) == "HA text"


# --- board size ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("19", 19),
        ("13", 13),
        ("9", 9),
        ("7", 7),
        ("11", 11),
        ("25", 25),
        ("2", 2),
        ("52", 52),
        ("19:19", 19),
        ("19x19", 19),
        ("19 x 19", 19),
        ("19:019", 19),
        ("\uff11\uff19", 19),
    ],
)
def test_parse_board_size_reads_square_boards(raw: str, expected: int) -> None:
    assert parse_board_size(raw) == expected


@pytest.mark.parametrize("raw", ["19:25", "10:53", "9x13"])
def test_parse_board_size_gives_none_for_non_square_boards(raw: str) -> None:
    assert parse_board_size(raw) is None


@pytest.mark.parametrize("raw", [None, "", "-10", "0", "53", "200", "abc", "19.5", "19:"])
def test_parse_board_size_gives_none_for_impossible_sizes(raw: str | None) -> None:
    assert parse_board_size(raw) is None


# --- game type ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [("1", 1), ("4", 4), (" 1 ", 1), ("19", 19), ("12", 12)])
def test_parse_game_type_reads_the_number(raw: str, expected: int) -> None:
    assert parse_game_type(raw) == expected


@pytest.mark.parametrize("raw", [None, "", "game of go", "Go", "0", "-1", "100", "GM[1]"])
def test_parse_game_type_gives_none_for_text(raw: str | None) -> None:
    assert parse_game_type(raw) is None


# --- event --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ev", "expected"),
    [
        ("CGoT", "CGoT"),
        ("11th Computer Olympiad", "11th Computer Olympiad"),
        ("Meijin,27,Japan,", "Meijin,27,Japan,"),
        ("26th LG Cup朝鮮日報棋王戦Semifinals", "26th LG Cup朝鮮日報棋王戦Semifinals"),
        ("Internet Go Server game: player1 vs player2", "Internet Go Server game: player1 vs player2"),
        ("Famous Blood Vomiting Game", "Famous Blood Vomiting Game"),
        ("  Go   Congress ", "Go Congress"),
        ("第14届\u3000三星杯", "第14届 三星杯"),
    ],
)
def test_parse_event_takes_ev_folded(ev: str, expected: str) -> None:
    assert parse_event(ev, "Round 3", "第1届应氏杯") == expected


@pytest.mark.parametrize("ev", [None, "", "  ", "None", "?", "-"])
def test_parse_event_falls_back_to_te_when_ev_is_empty(ev: str | None) -> None:
    assert parse_event(ev, None, "第14届三星杯32强战第1轮") == "第14届三星杯32强战第1轮"


def test_parse_event_reads_japanese_te_layout() -> None:
    te = "第1回ソパルコサノル世界最高棋士決定戦第9戦"
    assert parse_event(None, None, te) == te


@pytest.mark.parametrize("te", ["1", "2", "1.0"])
def test_parse_event_ignores_te_move_annotation(te: str) -> None:
    assert parse_event(None, "blabla", te) is None


@pytest.mark.parametrize(
    "gn",
    [
        "Gifu Challenge 2006",
        "CGF special meeting 2004",
        "CGF Specail meeting",
        "Russian Women's Championship 2011",
        "WULUEvent No. 1",
        "21st Century Cup",
        "US Open",
        "Eighth KGS Computer Go Tournament - Formal division",
        "2021-2022South KoreaGo League",
        "第3期 名人戦",
        "第1届应氏杯决赛",
        "全国围棋段位赛",
        "제14회 삼성화재배",
        "KB국민은행 바둑리그",
        "Honinbo 60",
    ],
)
def test_parse_event_takes_gn_that_names_an_event(gn: str) -> None:
    assert parse_event(None, gn, None) == gn


@pytest.mark.parametrize(
    "gn",
    [
        "player1-player2(B) IGS",
        "NicklasE-GnuGo(B) NNGS",
        "blabla",
        "A vs B",
        "Anonymous vs. Fuego",
        "Go Intellect (W) vs. GNU Go (B)",
        "Many Faces of Go 9.0  (W) GNU Go 2.7.221 (B)",
        "yuhiko(W) - robot1(B) on WING",
        "White (W) vs. Black (B)",
        "Korea Cup: Lee vs Park",
        "Round 5",
        "Takamoku joseki database",
        "Game supplied by Jessie Annala",
        "GNU Go 3.3.15 load and print",
        "Opening study",
        "31446",
        "배준희 이창호",
        "x",
        "",
    ],
)
def test_parse_event_ignores_gn_that_names_a_game(gn: str) -> None:
    assert parse_event(None, gn, None) is None


def test_parse_event_gives_none_when_all_are_missing() -> None:
    assert parse_event(None, None, None) is None


# --- round --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ro", "expected"),
    [
        ("1", "1"),
        ("4", "4"),
        ("10", "10"),
        ("50", "50"),
        ("2 round", "2 round"),
        ("Round 3", "Round 3"),
        ("3 (final)", "3 (final)"),
        ("11 (playoff)", "11 (playoff)"),
        ("1, final", "1, final"),
        ("决赛", "决赛"),
        ("Final", "Final"),
        ("第3轮", "第3轮"),
        ("  Round \u3000 3 ", "Round 3"),
        ("A very long round information (RO property)", "A very long round information (RO property)"),
    ],
)
def test_parse_round_returns_folded_text(ro: str, expected: str) -> None:
    assert parse_round(ro, 200) == expected


@pytest.mark.parametrize(
    ("ro", "moves"), [("264", 264), ("264", None), ("51", None), ("3", 3), ("123456789012", None)]
)
def test_parse_round_drops_bare_move_counts(ro: str, moves: int | None) -> None:
    assert parse_round(ro, moves) is None


@pytest.mark.parametrize("ro", ["264手", "共264手", "264 moves", None, "", " ", "None"])
def test_parse_round_drops_written_move_counts_and_empty_values(ro: str | None) -> None:
    assert parse_round(ro, None) is None


# --- never raise --------------------------------------------------------------------------------


@given(st.text(), st.booleans())
@pytest.mark.slow
def test_parse_komi_never_raises(raw: str, fox: bool) -> None:
    result = parse_komi(raw, fox=fox)
    assert result is None or isinstance(result, float)


@given(st.text())
def test_integer_parsers_never_raise(raw: str) -> None:
    for parse in (parse_handicap, parse_board_size, parse_game_type):
        result = parse(raw)
        assert result is None or isinstance(result, int)


@given(st.one_of(st.none(), st.text()), st.one_of(st.none(), st.text()), st.one_of(st.none(), st.text()))
@pytest.mark.slow
def test_parse_event_never_raises(ev: str | None, gn: str | None, te: str | None) -> None:
    result = parse_event(ev, gn, te)
    assert result is None or result.strip() == result != ""


@given(st.one_of(st.none(), st.text()), st.one_of(st.none(), st.integers()))
def test_parse_round_never_raises(ro: str | None, moves: int | None) -> None:
    result = parse_round(ro, moves)
    assert result is None or result.strip() == result != ""


# --- the real corpora ---------------------------------------------------------------------------

_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
_needs_corpora = pytest.mark.skipif(
    not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)"
)


def _corpus_values(prop: str) -> set[str]:
    """Return every distinct value of ``prop`` in the corpora's UTF-8 text (others: the decoder's job)."""
    pattern = re.compile(rf"(?<![A-Z]){prop}\[([^]\ufffd]*)\]")
    found: set[str] = set()
    for path in _CORPORA.rglob("*.sgf"):
        found.update(pattern.findall(path.read_bytes().decode("utf-8", "replace")))
    return found


@_needs_corpora
@pytest.mark.slow
def test_every_corpus_komi_is_read() -> None:
    values = _corpus_values("KM")
    assert len(values) > 30
    assert {v for v in values if parse_komi(v) is None} == set()


@_needs_corpora
@pytest.mark.slow
def test_every_corpus_handicap_is_read() -> None:
    values = _corpus_values("HA")
    assert {v for v in values if parse_handicap(v) is None} == set()


@_needs_corpora
@pytest.mark.slow
def test_corpus_board_sizes_are_read_except_impossible_ones() -> None:
    unread = {v for v in _corpus_values("SZ") if parse_board_size(v) is None}
    assert unread == {"-10", "200", "19:25", "10:53"}
