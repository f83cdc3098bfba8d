"""Tests for pipeline.ingest.normalise.result: every RE form seen in the corpora and on CJK servers."""

from __future__ import annotations

import os
import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest.normalise.result import DRAW, NO_RE, SUSPENDED, UNKNOWN, VOID, Result, parse_result

DECISIVE = {"resign", "points", "time", "forfeit", "illegal", "adjudication", "win"}
ALL_HOWS = DECISIVE | {"draw", "void", "suspended", "unknown", None}


@pytest.mark.parametrize("raw", [None, "", "   ", "\u3000", "\n"])
def test_absent_or_blank_re_gives_all_none(raw: str | None) -> None:
    assert parse_result(raw) == NO_RE == Result(None, None, None)


@pytest.mark.parametrize(
    ("raw", "winner"),
    [
        ("B+R", "B"),
        ("W+R", "W"),
        ("B+Resign", "B"),
        ("W+Resign", "W"),
        ("W+Res.", "W"),
        ("b+r", "B"),
        ("B+R.", "B"),
        (" W+R ", "W"),
        ("B+Resignation", "B"),
        ("Black+Resign", "B"),
        ("W + R", "W"),
        ("Result: B+R", "B"),
        ("共185手 B+R", "B"),
    ],
)
def test_sgf_resignation(raw: str, winner: str) -> None:
    assert parse_result(raw) == Result(winner, "resign", None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("W+3.5", Result("W", "points", 3.5)),
        ("W+34.5", Result("W", "points", 34.5)),
        ("B+0.5", Result("B", "points", 0.5)),
        ("B+0.0", Result("B", "points", 0.0)),
        ("B+7.50", Result("B", "points", 7.5)),
        ("B+161.50", Result("B", "points", 161.5)),
        ("W+371.5", Result("W", "points", 371.5)),
        ("B+4", Result("B", "points", 4.0)),
        ("W+24", Result("W", "points", 24.0)),
        ("W+11.0", Result("W", "points", 11.0)),
        ("B+8.5目", Result("B", "points", 8.5)),
        ("W+3,5", Result("W", "points", 3.5)),
        ("W+0.5目", Result("W", "points", 0.5)),
        ("B+12.5 points", Result("B", "points", 12.5)),
    ],
)
def test_sgf_score_gives_margin_in_points(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("W+T", Result("W", "time", None)),
        ("B+T", Result("B", "time", None)),
        ("W+Time", Result("W", "time", None)),
        ("B+time", Result("B", "time", None)),
        ("W+Time Over", Result("W", "time", None)),
        ("W+Timeout", Result("W", "time", None)),
        ("B+F", Result("B", "forfeit", None)),
        ("W+F", Result("W", "forfeit", None)),
        ("W+Forfeit", Result("W", "forfeit", None)),
        ("B+Illegal", Result("B", "illegal", None)),
        ("W+Illegal", Result("W", "illegal", None)),
        ("W+Repetition", Result("W", "illegal", None)),
    ],
)
def test_sgf_time_forfeit_and_illegal(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "winner"),
    [
        ("B+", "B"),
        ("W+", "W"),
        ("W", "W"),
        ("B", "B"),
        ("Black", "B"),
        ("white", "W"),
        ("黑", "B"),
        ("B+, Goro crushed in his 126th move, and could not continue.", "B"),
        ("B+Disconnect", "B"),
        ("W wins", "W"),
        ("黑胜", "B"),
        ("白勝", "W"),
    ],
)
def test_decisive_without_detail_gives_win(raw: str, winner: str) -> None:
    assert parse_result(raw) == Result(winner, "win", None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "raw",
    [
        "0",
        "Draw",
        "draw",
        "DRAW",
        "Jigo",
        "jigo",
        "Game drawn",
        "Draw (triple ko)",
        "和",
        "和棋",
        "共310手 和棋",
        "和局",
        "平局",
        "持碁",
        "ジゴ",
        "무승부",
    ],
)
def test_draw_forms(raw: str) -> None:
    assert parse_result(raw) == DRAW == Result("draw", "draw", None)


@pytest.mark.parametrize("raw", ["Void", "void", "No result", "Annulled", "无胜负", "無勝負", "无效", "무효"])
def test_void_forms_have_no_winner(raw: str) -> None:
    assert parse_result(raw) == VOID == Result(None, "void", None)


@pytest.mark.parametrize(
    "raw",
    [
        "共99手 打挂",
        "打挂",
        "打ち掛け",
        "打掛",
        "对局停止!",
        "has adjourned.",
        "Adjourned",
        "unfinished",
        "中断",
    ],
)
def test_suspended_forms_have_no_winner(raw: str) -> None:
    assert parse_result(raw) == SUSPENDED == Result(None, "suspended", None)


@pytest.mark.parametrize(
    "raw",
    ["?", "Unknown", "john wins", "B+1.5 ? W+timeout", "黒番", "Black to play", "withdrawn", "c++", "---"],
)
def test_unreadable_result_gives_unknown(raw: str) -> None:
    assert parse_result(raw) == UNKNOWN == Result(None, "unknown", None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Black wins by resignation", Result("B", "resign", None)),
        ("White wins by 3.5 points", Result("W", "points", 3.5)),
        ("Black wins by 12 points", Result("B", "points", 12.0)),
        ("W wins by 0.5", Result("W", "points", 0.5)),
        ("Black wins by half a point", Result("B", "points", 0.5)),
        ("B wins on time", Result("B", "time", None)),
        ("Black won by forfeit", Result("B", "forfeit", None)),
        ("White resigns.", Result("B", "resign", None)),
        ("Black resigns. W 133.5 B 81.0", Result("W", "resign", None)),
        ("White lost on time", Result("B", "time", None)),
        ("Black wins (white timed out)", Result("B", "time", None)),
    ],
)
def test_english_sentences(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("黑中盘胜", Result("B", "resign", None)),
        ("白中盘胜", Result("W", "resign", None)),
        ("共185手 黑中盘胜", Result("B", "resign", None)),
        ("黑中盤勝", Result("B", "resign", None)),
        ("黑胜1目半", Result("B", "points", 1.5)),
        ("黑胜6.5目", Result("B", "points", 6.5)),
        ("黑胜半目", Result("B", "points", 0.5)),
        ("白超时胜", Result("W", "time", None)),
        ("黑不战胜", Result("B", "forfeit", None)),
        ("黑中盘胜(超时)", Result("B", "time", None)),
        ("白方超时\uff0c黑胜", Result("B", "time", None)),
        ("黑超时", Result("W", "time", None)),
    ],
)
def test_chinese_forms(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "points"),
    [
        (" 白胜2又1/4子", 4.5),
        ("黑胜3/4子", 1.5),
        ("黑胜3又3/4子", 7.5),
        ("白胜半子", 1.0),
        ("黑胜1/4子", 0.5),
        ("黑胜四分之三子", 1.5),
        ("黑胜三又四分之一子", 6.5),
        ("白胜1又4分之3子", 3.5),
        ("白胜 3.75子", 7.5),
        ("黑胜2子", 4.0),
    ],
)
def test_chinese_zi_counts_two_points(raw: str, points: float) -> None:
    assert parse_result(raw).margin == points
    assert parse_result(raw).how == "points"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("黑超时负", Result("W", "time", None)),
        ("白认输", Result("B", "resign", None)),
        ("黑投子认负", Result("W", "resign", None)),
        ("黑反則負け", Result("W", "illegal", None)),
        ("黒反則負け", Result("W", "illegal", None)),
        ("黒の時間切れ負け", Result("W", "time", None)),
        ("黒投了", Result("W", "resign", None)),
        ("백 불계패", Result("B", "resign", None)),
    ],
)
def test_losing_colour_makes_the_other_win(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("黒中押し勝ち", Result("B", "resign", None)),
        ("257手完, 黒中押し勝ち", Result("B", "resign", None)),
        ("白中押勝", Result("W", "resign", None)),
        ("黒6目半勝ち", Result("B", "points", 6.5)),
        ("白半目勝", Result("W", "points", 0.5)),
        ("黒六目半勝ち", Result("B", "points", 6.5)),
        ("黒の3目半勝ち", Result("B", "points", 3.5)),
        ("黒1目勝", Result("B", "points", 1.0)),
        ("黒番中押し勝", Result("B", "resign", None)),
        ("白番中押し勝ち", Result("W", "resign", None)),
        ("白不戦勝", Result("W", "forfeit", None)),
        ("時間切れにより白勝ち", Result("W", "time", None)),
        ("白反則勝ち", Result("W", "illegal", None)),
    ],
)
def test_japanese_forms(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("흑 불계승", Result("B", "resign", None)),
        ("흑불계승", Result("B", "resign", None)),
        ("백 3집반승", Result("W", "points", 3.5)),
        ("백 반집승", Result("W", "points", 0.5)),
        ("흑 1집반 승", Result("B", "points", 1.5)),
        ("흑 반집 승", Result("B", "points", 0.5)),
        ("흑 시간승", Result("B", "time", None)),
        ("흑 기권승", Result("B", "forfeit", None)),
        ("흑 반칙승", Result("B", "illegal", None)),
    ],
)
def test_korean_forms(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("\uff22\uff0b\uff32", Result("B", "resign", None)),  # full-width B+R
        ("\uff37\uff0b\uff13.\uff15", Result("W", "points", 3.5)),  # full-width W+3.5
        ("黒\uff16目半勝ち", Result("B", "points", 6.5)),
        ("\u3000白胜2又1/4子", Result("W", "points", 4.5)),
        ("\uff24\uff52\uff41\uff57", DRAW),  # full-width Draw
    ],
)
def test_full_width_forms_read_like_ascii(raw: str, expected: Result) -> None:
    assert parse_result(raw) == expected


@pytest.mark.parametrize(
    ("raw", "how"),
    [("不战胜", "forfeit"), ("時間切れ", "time"), ("反則負け", "illegal"), ("中盘胜", "resign")],
)
def test_ending_without_colour_keeps_kind_but_no_winner(raw: str, how: str) -> None:
    assert parse_result(raw) == Result(None, how, None)


@pytest.mark.parametrize(
    ("raw", "winner"),
    [
        ("B+Adj", "B"),
        ("W+Adj", "W"),
        ("W+adj.", "W"),
        ("B+Adjudicated", "B"),
        ("W+Adjudication", "W"),
        ("B+, human judge for communication error ", "B"),  # in the corpora
        ("B wins by adjudication", "B"),
        ("Adjudicated: white wins", "W"),
        ("黒判定勝ち", "B"),  # the UEC Cup's win by judgement
        ("白判定勝", "W"),
        ("黑判胜", "B"),
        ("裁定白胜", "W"),
        ("흑 판정승", "B"),
    ],
)
def test_adjudicated_result_is_a_win_by_adjudication(raw: str, winner: str) -> None:
    assert parse_result(raw) == Result(winner, "adjudication", None)  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["B+Draw", "W+Draw", "W+draw", "B+Jigo", "満局", "引き分け", "引分", "½-½"])
def test_renju_and_chess_draw_forms_are_draws(raw: str) -> None:
    assert parse_result(raw) == DRAW


@pytest.mark.parametrize("raw", ["B+99999", "W+4000.5", "B+" + "9" * 400, "B+1e308", "W+2E10", "黑胜9999目"])
def test_implausible_or_glued_margin_is_no_margin(raw: str) -> None:
    result = parse_result(raw)
    assert result.winner in ("B", "W")
    assert result.margin is None


def test_margin_limit_is_four_thousand_points() -> None:
    assert (parse_result("B+4000").margin, parse_result("B+4000.5").margin) == (4000.0, None)


def test_result_is_frozen() -> None:
    result = parse_result("B+R")
    with pytest.raises(FrozenInstanceError):
        result.winner = "W"  # type: ignore[misc]


def _check_invariants(result: Result) -> None:
    assert result.how in ALL_HOWS
    if result.winner in ("B", "W"):
        assert result.how in DECISIVE
    if result.winner == "draw":
        assert result.how == "draw"
    if result.margin is not None:
        assert result.how == "points"
        assert 0 <= result.margin <= 4000


@given(st.text())
def test_arbitrary_text_never_raises(raw: str) -> None:
    _check_invariants(parse_result(raw))


_RELEVANT = (
    "BWbw+RTFr.,/0123456789 ?黑黒白흑백胜勝승负負패又子目집半반分之中盘押し超时和棋打挂三四一十百"
    "\uff22\uff37\uff0b\u3000"
)


@given(st.text(alphabet=_RELEVANT, max_size=30))
def test_result_like_text_never_raises(raw: str) -> None:
    _check_invariants(parse_result(raw))


_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).resolve().parents[3] / "shared" / "corpora"))
_RE_VALUE = re.compile(rb"RE\s*\[((?:\\.|[^\]\\])*)\]", re.DOTALL)
_EXPECTED_UNKNOWN = {"?", "john wins", "B+1.5 ? W+timeout"}


def _corpus_re_values() -> set[str]:
    values: set[str] = set()
    for path in _CORPORA.rglob("*"):
        if path.is_file() and path.suffix.lower() != ".md":
            for m in _RE_VALUE.finditer(path.read_bytes()):
                try:
                    values.add(m.group(1).decode("utf-8"))
                except UnicodeDecodeError:
                    continue
    return values


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"corpora folder {_CORPORA} absent (set SGF_CORPORA)")
def test_every_corpus_result_is_read() -> None:
    values = _corpus_re_values()
    assert len(values) > 200
    unknown = {v for v in values if parse_result(v).how == "unknown"}
    assert unknown == _EXPECTED_UNKNOWN
    assert all(parse_result(v).how is not None for v in values if v.strip())
