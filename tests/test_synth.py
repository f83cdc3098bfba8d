"""Tests for pipeline.synth: the deterministic generator of SGF sample data and benchmark corpora."""

from __future__ import annotations

import datetime
import hashlib
import random
import re
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf, sgf_grammar

from pipeline import synth
from pipeline.config.events import Events, load_events
from pipeline.config.roster import Roster, load_roster
from pipeline.synth import (
    CODECS,
    STYLES,
    Record,
    club,
    club_sample,
    game_record,
    main,
    names,
    synthetic_corpus,
)

NAMES = {
    "tom": ("羽焰", "fish"),
    "fox": ("星空下的棋", "whatiskale"),
    "ogs": ("lazy_fox", "김민준"),
    "kgs": ("BraveOwl12", "sleepy_crane"),
    "big5": ("許淑珮", "孫志明"),
    "sjis": ("曾根圭", "能登江美"),
    "euckr": ("김민준", "이서연"),
}
MOVE_RE = re.compile(r";([BW])\[([a-s]{2})\]")


class _FixedRandom(random.Random):
    """A Random whose random() always returns `value` (to pin the optional '共N手' prefix)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def _record(style: str, seed: int = 7, **overrides: object) -> bytes:
    black, white = NAMES[style]
    kwargs: dict[str, object] = {
        "style": style,
        "black": black,
        "white": white,
        "black_rank": synth.render_rank(style, "3d"),
        "white_rank": synth.render_rank(style, "12k"),
        "result": "W+6.5",
        "date": "2024-05-12",
        "main_time_s": 3600,
        "moves": 120,
    }
    kwargs.update(overrides)
    return game_record(random.Random(seed), **kwargs)  # type: ignore[arg-type]


def _text(style: str, seed: int = 7, **overrides: object) -> str:
    return _record(style, seed, **overrides).decode(CODECS[style])


def _style_of(record: Record) -> str:
    return record.relpath.split("/")[1].split("_")[0]


# --- determinism ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_game_record_same_seed_gives_identical_bytes(style: str) -> None:
    assert _record(style, seed=3) == _record(style, seed=3)


@pytest.mark.parametrize("style", STYLES)
def test_game_record_different_seed_gives_different_moves(style: str) -> None:
    assert _record(style, seed=3) != _record(style, seed=4)


@pytest.mark.slow
def test_club_sample_same_seed_gives_identical_records() -> None:
    assert club_sample(2024) == club_sample(2024)


@pytest.mark.slow
def test_synthetic_corpus_same_seed_gives_identical_records() -> None:
    assert list(synthetic_corpus(300, seed=5)) == list(synthetic_corpus(300, seed=5))


@pytest.mark.slow
def test_synthetic_corpus_bytes_are_pinned() -> None:
    """The benchmarks compare runs on this corpus: its bytes never change (hash of the pre-split output)."""
    digest = hashlib.sha256(
        b"".join(r.relpath.encode() + b"\0" + r.data for r in synthetic_corpus(300, seed=1))
    )
    assert digest.hexdigest() == "f9c762dab7713aaa419fbdbb0ae98146cd06d39b9314af5c237ffabfcc82db5d"


@pytest.mark.slow
def test_synthetic_corpus_different_seed_differs() -> None:
    assert list(synthetic_corpus(50, seed=5)) != list(synthetic_corpus(50, seed=6))


# --- encodings and layouts --------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_style_decodes_strictly_with_its_codec(style: str) -> None:
    text = _record(style).decode(CODECS[style], errors="strict")
    assert NAMES[style][0] in text and NAMES[style][1] in text


@pytest.mark.parametrize("style", ["tom", "big5", "sjis", "euckr"])
def test_legacy_styles_are_not_utf8(style: str) -> None:
    with pytest.raises(UnicodeDecodeError):
        _record(style).decode("utf-8")


@pytest.mark.parametrize(
    ("style", "ca"),
    [
        ("tom", None),
        ("big5", None),
        ("euckr", None),
        ("sjis", "CA[Shift_JIS]"),
        ("ogs", "CA[UTF-8]"),
        ("kgs", "CA[UTF-8]"),
    ],
)
def test_style_declares_charset_as_its_server_does(style: str, ca: str | None) -> None:
    text = _text(style)
    assert (ca in text) if ca else ("CA[" not in text)


def test_fox_declares_utf8_only_sometimes() -> None:
    seen = {"CA[UTF-8]" in _text("fox", seed=seed) for seed in range(20)}
    assert seen == {True, False}


def test_tom_puts_game_info_before_the_first_semicolon() -> None:
    text = _text("tom", event="飞扬杯月赛")
    head = text[: text.index(";")]
    assert text.startswith("(TE[飞扬杯月赛]RD[2024-5-12]PC[TOM]PB[羽焰]")
    assert all(f"{ident}[" in head for ident in ("PB", "PW", "BR", "WR", "KO", "TM", "LT", "LC", "RE"))


def test_tom_uses_crlf_line_ends() -> None:
    assert "\r\n" in _text("tom") and "\n" not in _text("tom").replace("\r\n", "")


@pytest.mark.parametrize(
    ("style", "fragment"),
    [
        ("tom", "KO[7.5]TM[3600]"),
        ("fox", "KM[750]"),
        ("fox", "TM[3600]  TC[3]"),
        ("ogs", "OT[3x30 byo-yomi]"),
        ("kgs", "KM[7.50]"),
        ("big5", "DT[2024-05-12]"),
        ("euckr", "TM[3600]"),
        ("fox", "AP[foxwq]"),
    ],
)
def test_style_writes_server_specific_properties(style: str, fragment: str) -> None:
    assert fragment in _text(style)


def test_sjis_writes_main_time_in_hours_or_seconds() -> None:
    forms = {re.search(r"TM\[([^\]]*)\]", _text("sjis", seed=seed))[1] for seed in range(30)}  # type: ignore[index]
    assert forms >= {"1時間", "3600"}


@pytest.mark.parametrize("style", [s for s in STYLES if s != "tom"])
def test_style_parses_with_sgfmill_after_reencoding_as_utf8(style: str) -> None:
    game = sgf.Sgf_game.from_bytes(_text(style).encode("utf-8"), override_encoding="utf-8")
    root = game.get_root()
    assert (root.get("PB"), root.get("PW")) == NAMES[style]
    assert len(game.get_main_sequence()) == 121


def test_tom_style_is_rejected_by_sgfmill() -> None:
    with pytest.raises(ValueError, match="no SGF data found"):
        sgf_grammar.parse_sgf_collection(_text("tom").encode("utf-8"))


# --- awkward bytes and escaping ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "raw"),
    [
        ("big5", b"PB[\xb3\\\xb2Q\xaf\\]"),  # 許淑珮: 許 and 珮 end in 0x5C, written unescaped
        ("big5", b"PW[\xae]\xa7\xd3\xa9\xfa]"),  # 孫志明: 孫 ends in 0x5D
        ("sjis", b"PB[\x91\\\x8d\xaa\x8c\\]"),  # 曾根圭: 曾 and 圭 end in 0x5C
        ("sjis", b"PW[\x94\\\x93o\x8d]\x94\xfc]"),  # 能登江美: 江 ends in 0x5D
    ],
)
def test_legacy_bytes_equal_to_backslash_or_bracket_are_not_escaped(style: str, raw: bytes) -> None:
    assert raw in _record(style)


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Spring Cup [Open]", "Spring Cup [Open\\]"),
        ("C:\\go", "C:\\\\go"),
        ("a]\\b", "a\\]\\\\b"),
        ("", ""),
    ],
)
def test_escape_backslash_and_closing_bracket(text: str, escaped: str) -> None:
    assert synth.escape(text) == escaped


def test_ascii_event_is_escaped_in_the_record() -> None:
    assert "EV[Spring Cup [Open\\]]" in _text("kgs", event="Spring Cup [Open]")


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=30))
@pytest.mark.slow
def test_any_name_round_trips_through_sgfmill(name: str) -> None:
    data = _record("ogs", black=name, moves=5)
    assert sgf.Sgf_game.from_bytes(data, override_encoding="utf-8").get_root().get("PB") == name


# --- results and ranks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "result", "expected"),
    [
        ("tom", "B+R", "黑中盘胜"),
        ("tom", "W+4.5", "白胜2又1/4子"),
        ("tom", "B+1.5", "黑胜3/4子"),
        ("tom", "W+6.5", "白胜3又1/4子"),
        ("tom", "B+4", "黑胜2子"),
        ("tom", "B+0", "黑胜0子"),
        ("tom", "0", "和棋"),
        ("tom", "Void", "打挂"),
        ("tom", "W+T", "白超时胜"),
        ("tom", "B+F", "黑不战胜"),
        ("tom", "共99手 打挂", "共99手 打挂"),
        ("big5", "W+R", "白中盤勝"),
        ("big5", "B+3.5", "黑勝3目半"),
        ("sjis", "B+R", "黒中押し勝ち"),
        ("sjis", "W+6.5", "白6目半勝ち"),
        ("sjis", "B+0.5", "黒半目勝ち"),
        ("sjis", "0", "持碁"),
        ("euckr", "B+R", "흑 불계승"),
        ("euckr", "W+3.5", "백 3집반승"),
        ("euckr", "B+0.5", "흑 반집승"),
        ("kgs", "B+R", "B+Resign"),
        ("kgs", "W+T", "W+Time"),
        ("kgs", "W+12.5", "W+12.5"),
        ("ogs", "W+3.5", "W+3.5"),
        ("fox", "B+R", "B+R"),
        ("fox", "0", "Draw"),
        ("ogs", "?", "?"),
    ],
)
def test_result_is_written_in_the_style_wording(style: str, result: str, expected: str) -> None:
    assert synth.render_result(_FixedRandom(0.99), style, result, 120) == expected


def test_tom_result_sometimes_carries_the_move_count() -> None:
    assert synth.render_result(_FixedRandom(0.0), "tom", "B+R", 185) == "共185手 黑中盘胜"


@pytest.mark.parametrize("style", STYLES)
def test_empty_result_leaves_re_out(style: str) -> None:
    assert "RE[" not in _text(style, result="")


@pytest.mark.parametrize("style", STYLES)
def test_empty_date_leaves_dt_and_rd_out(style: str) -> None:
    text = _text(style, date="")
    assert "DT[" not in text and "RD[" not in text


@pytest.mark.parametrize(
    ("style", "rank", "expected"),
    [
        ("tom", "3d", "3段"),
        ("tom", "12k", "12级"),
        ("tom", "9p", "职业9段"),
        ("fox", "9p", "P9"),
        ("fox", "15k", "15级"),
        ("ogs", "3d", "3d"),
        ("kgs", "12k", "12k"),
        ("big5", "2k", "2級"),
        ("sjis", "1d", "初段"),
        ("sjis", "9p", "九段"),
        ("sjis", "5k", "5級"),
        ("euckr", "5d", "5단"),
        ("euckr", "3k", "3급"),
    ],
)
def test_rank_is_written_in_the_style_wording(style: str, rank: str, expected: str) -> None:
    assert synth.render_rank(style, rank) == expected


# --- moves ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_moves_are_distinct_and_alternate_from_black(style: str) -> None:
    moves = MOVE_RE.findall(_text(style, moves=250))
    assert len(moves) == 250
    assert len({point for _, point in moves}) == 250
    assert "".join(colour for colour, _ in moves) == "BW" * 125


def test_handicap_puts_ab_stones_in_root_and_white_moves_first() -> None:
    text = _text("kgs", handicap=4, komi=0.5)
    moves = MOVE_RE.findall(text)
    assert "HA[4]" in text and "AB[pd][dp][pp][dd]" in text[: text.index(";B[") if ";B[" in text else None]
    assert moves[0][0] == "W" and not {"pd", "dp", "pp", "dd"} & {point for _, point in moves}


def test_handicap_tom_stones_stand_before_the_first_semicolon() -> None:
    text = _text("tom", handicap=2, komi=0.5)
    assert re.search(r"HA\[2\].*AB\[pd\]\[dp\];W\[", text)


@pytest.mark.parametrize("style", [s for s in STYLES if s != "fox"])
def test_moves_are_broken_into_lines_of_about_ten_nodes(style: str) -> None:
    lines = [line for line in _text(style, moves=200).splitlines() if MOVE_RE.search(line)]
    assert 16 <= len(lines) <= 26 and max(len(MOVE_RE.findall(line)) for line in lines) <= 13


def test_fox_main_line_is_one_line() -> None:
    assert _text("fox", moves=200).count("\n") == 1


def test_gomoku_game_type_uses_a_15_board() -> None:
    text = _text("ogs", game_type=4, moves=60)
    assert "GM[4]" in text and "SZ[15]" in text and all(p[0] <= "o" >= p[1] for _, p in MOVE_RE.findall(text))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 400), st.sampled_from([9, 13, 19]))
def test_move_points_are_distinct_and_on_the_board(seed: int, count: int, size: int) -> None:
    points = synth.move_points(random.Random(seed), count, size)
    assert len(points) == min(count, size * size) == len(set(points))
    assert all(0 <= ord(c) - 97 < size for point in points for c in point)


# --- the club's sample season -----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
PROP_RE = re.compile(r"([A-Z]{1,2})\[((?:\\.|[^\\\]])*)\]")
SAMPLE_CODECS = {"tom": "gb18030", "fox": "utf-8"}
# Club coefficients (docs/rules.md ("club")) of the declared ranks met in the worked example.
COEFFICIENTS = {"5k": 0.1, "1d": 1.0, "2d": 2.0, "3d": 3.0, "4d": 4.0}


@dataclass(frozen=True)
class Tree:
    """One game tree of the sample, read with regular expressions: its root properties and main line."""

    path: str
    props: dict[str, str]
    moves: int
    complete: bool

    @property
    def black(self) -> str:
        return _canonical(self.props["PB"])

    @property
    def white(self) -> str:
        return _canonical(self.props["PW"])

    @property
    def result(self) -> str:
        return self.props.get("RE", "")

    @property
    def winner(self) -> str | None:
        """The winner's canonical name from a TOM (`黑中盘胜`, `白胜3/4子`) or Fox (`B+R`) result."""
        found = re.search(r"([黑白])(?:中盘|超时|不战)?胜|([BW])\+", self.result)
        if found is None:
            return None
        return self.black if (found[1] or found[2]) in ("黑", "B") else self.white

    @property
    def slow(self) -> bool:
        return int(self.props["TM"]) >= 1800

    @property
    def event(self) -> str | None:
        return self.props.get("TE") or self.props.get("GN") or None


def _canonical(written: str) -> str:
    """A written name's canonical form by the club tables: alias, or roster/guest name in any case."""
    names = {name.casefold(): name for name in club.MEMBERS | club.NON_MEMBERS | club.GUESTS}
    written = club.ALIASES.get(written, written)
    return names.get(written.casefold(), written)


def _sample_style(path: str) -> str:
    return path.rsplit("_", 1)[1].removesuffix(".sgf")


@pytest.fixture(scope="module")
def sample() -> dict[str, bytes]:
    return {record.relpath: record.data for record in club_sample()}


def _decoded(sample: dict[str, bytes]) -> dict[str, str]:
    """The non-empty SGF files of the sample, decoded."""
    sgf_files = {path: data for path, data in sample.items() if data and path.endswith(".sgf")}
    return {path: data.decode(SAMPLE_CODECS[_sample_style(path)]) for path, data in sgf_files.items()}


@pytest.fixture(scope="module")
def trees(sample: dict[str, bytes]) -> list[Tree]:
    """Every game tree of the sample except the backup copy, in path order (= date order in a month)."""
    found = []
    for path, text in sorted(_decoded(sample).items()):
        for tree in re.split(r"\)\r?\n(?=\()", text) if "/backup/" not in path else ():
            first = MOVE_RE.search(tree)
            props = dict(PROP_RE.findall(tree[: first.start()] if first else tree))
            found.append(Tree(path, props, len(MOVE_RE.findall(tree)), tree.rstrip().endswith(")")))
    return found


def _of(trees: list[Tree], player: str, month: int) -> list[Tree]:
    return [t for t in trees if t.path.startswith(f"2024-{month:02d}/") and player in (t.black, t.white)]


def _club_points(games: list[Tree], player: str, coefficients: dict[str, float]) -> float:
    """Seed 001's points of `player` in `games`: a win earns the opponent's coefficient x game points
    (slow 10, fast 5), a loss costs the player's own."""
    total = 0.0
    for game in games:
        opponent = game.white if game.black == player else game.black
        points = 10 if game.slow else 5
        total += coefficients[opponent] * points if game.winner == player else -coefficients[player] * points
    return total


def _declared_coefficients() -> dict[str, float]:
    return {name: COEFFICIENTS.get(rank, 0.0) for name, rank in club.MEMBERS.items()}


def test_club_sample_spans_may_to_august(sample: dict[str, bytes]) -> None:
    assert {path[:8] for path in sample} == {"2024-05/", "2024-06/", "2024-07/", "2024-08/"}


def test_club_sample_is_compact(sample: dict[str, bytes]) -> None:
    assert 100 <= len(sample) <= 150


def test_club_sample_files_are_numbered_in_date_order(trees: list[Tree]) -> None:
    for month in ("05", "06", "07", "08"):
        dates = [t.props["RD"] for t in trees if t.path.startswith(f"2024-{month}/") and "RD" in t.props]
        assert dates == sorted(dates, key=lambda d: int(d.rsplit("-", 1)[1]))


def test_club_sample_has_one_empty_sgf_file(sample: dict[str, bytes]) -> None:
    empty = [path for path, data in sample.items() if not data]
    assert len(empty) == 1 and empty[0].startswith("2024-05/") and empty[0].endswith(".sgf")


def test_club_sample_has_one_non_sgf_text_file(sample: dict[str, bytes]) -> None:
    others = {path: data for path, data in sample.items() if not path.endswith(".sgf")}
    assert list(others) == ["2024-05/notes.txt"] and b"(" not in others["2024-05/notes.txt"]


def test_club_sample_has_one_file_truncated_inside_a_value(sample: dict[str, bytes]) -> None:
    broken = [text for text in _decoded(sample).values() if not text.rstrip().endswith(")")]
    assert len(broken) == 1 and re.search(r";[BW]\[[a-s]\Z", broken[0])


def test_club_sample_has_one_two_game_collection(trees: list[Tree]) -> None:
    assert [n for n in Counter(t.path for t in trees).values() if n > 1] == [2]


def test_club_sample_mixes_tom_and_fox_files(sample: dict[str, bytes]) -> None:
    kinds = Counter(_sample_style(path) for path in sample if path.endswith(".sgf"))
    assert kinds["tom"] > 3 * kinds["fox"] > 0 and set(kinds) == {"tom", "fox"}


def test_club_sample_tom_files_declare_no_charset(sample: dict[str, bytes]) -> None:
    assert not any("CA[" in text for path, text in _decoded(sample).items() if _sample_style(path) == "tom")


def test_club_sample_has_slow_and_fast_games(trees: list[Tree]) -> None:
    assert {t.slow for t in trees} == {True, False}


def test_club_sample_yuyan_may_games_are_the_worked_example(trees: list[Tree]) -> None:
    games = [
        (t.white if t.black == "羽焰" else t.black, t.winner == "羽焰", t.slow) for t in _of(trees, "羽焰", 5)
    ]
    assert sorted(games) == sorted(club.GOLDEN_GAMES)


def test_club_sample_yuyan_june_is_one_fast_win_over_erhei(trees: list[Tree]) -> None:
    games = _of(trees, "羽焰", 6)
    assert [({g.black, g.white}, g.winner, g.slow) for g in games] == [({"羽焰", "二黑"}, "羽焰", False)]


def test_club_sample_yuyan_plays_only_in_may_and_june(trees: list[Tree]) -> None:
    assert _of(trees, "羽焰", 7) == _of(trees, "羽焰", 8) == []


def test_club_sample_erhei_ends_may_at_310(trees: list[Tree]) -> None:
    assert 200 + _club_points(_of(trees, "二黑", 5), "二黑", _declared_coefficients()) == 310


def test_club_sample_yuyan_ends_may_at_128(trees: list[Tree]) -> None:
    assert 100 + _club_points(_of(trees, "羽焰", 5), "羽焰", _declared_coefficients()) == 128


def test_club_sample_yuyan_ends_june_at_143_with_erhei_3d(trees: list[Tree]) -> None:
    coefficients = _declared_coefficients() | {"二黑": 3.0}
    assert 128 + _club_points(_of(trees, "羽焰", 6), "羽焰", coefficients) == 143


def test_club_sample_erhei_plays_only_scripted_games(trees: list[Tree]) -> None:
    assert [len(_of(trees, "二黑", month)) for month in (5, 6, 7, 8)] == [6, 1, 0, 0]


@pytest.mark.parametrize("written", ["Fish", "FishGo", "SunBear", "piggy", "niuwa"])
def test_club_sample_writes_some_players_by_alias(trees: list[Tree], written: str) -> None:
    assert any(written in (t.props["PB"], t.props["PW"]) for t in trees)


@pytest.mark.parametrize(
    ("reason", "count", "test"),
    [
        ("wrong_game_type", 1, lambda t: t.props.get("GM") == "4"),
        ("missing_date", 1, lambda t: "DT" not in t.props and "RD" not in t.props),
        ("no_result: no RE", 1, lambda t: "RE" not in t.props),
        ("no_result: void", 1, lambda t: t.result.endswith(("打挂", "Void"))),
        ("no_result: unknown", 1, lambda t: t.result == "?"),
        ("draw", 2, lambda t: t.result.endswith(("和棋", "Draw"))),
        ("no_show: forfeit", 1, lambda t: "不战胜" in t.result or "+F" in t.result),
        ("no_show: 0-1 moves", 1, lambda t: t.moves < 2 and t.winner and "不战" not in t.result),
        ("handicap", 2, lambda t: int(t.props.get("HA", "0")) >= 2),
        ("handicap draw", 1, lambda t: "HA" in t.props and t.result.endswith("和棋")),
        ("non_member: on the roster", 1, lambda t: "天狼星" in (t.black, t.white)),
        ("non_member: outsider", 1, lambda t: t.event is None and {t.black, t.white} & set(club.GUESTS)),
        ("self_play", 1, lambda t: t.black == t.white),
    ],
)
def test_club_sample_has_games_each_validity_rule_excludes(
    trees: list[Tree], reason: str, count: int, test: Callable[[Tree], object]
) -> None:
    assert sum(bool(test(t)) for t in trees) == count, reason


def test_club_sample_has_a_backup_copy_identical_to_a_june_file(sample: dict[str, bytes]) -> None:
    copies = [path for path in sample if "/backup/" in path]
    assert len(copies) == 1 and copies[0].startswith("2024-06/backup/")
    assert sample[copies[0]] == sample[copies[0].replace("backup/", "")]


def test_club_sample_cap_pair_plays_twelve_june_games_on_distinct_days(trees: list[Tree]) -> None:
    games = [t for t in _of(trees, club.CAP_PAIR[0], 6) if club.CAP_PAIR[1] in (t.black, t.white)]
    assert len(games) == 12 == len({g.props["RD"] for g in games}) and all(g.winner for g in games)


def test_club_sample_other_pairs_stay_under_the_cap(trees: list[Tree]) -> None:
    pairs = Counter((t.path[:7], frozenset((t.black, t.white))) for t in trees)
    assert [n for n in pairs.values() if n > 10] == [12]


def _event_games(trees: list[Tree], event: str) -> list[Tree]:
    return [t for t in trees if t.event == event]


def test_club_sample_team_match_is_four_june_boards_members_against_guests(trees: list[Tree]) -> None:
    games = _event_games(trees, club.TEAM_MATCH)
    assert len(games) == 4 and {g.path[:7] for g in games} == {"2024-06"}
    assert all(len({g.black, g.white} & set(club.MEMBERS)) == 1 for g in games)
    assert all(g.props["BR"] and g.props["WR"] for g in games)


def test_club_sample_team_match_members_win_two_boards(trees: list[Tree]) -> None:
    assert sum(g.winner in club.MEMBERS for g in _event_games(trees, club.TEAM_MATCH)) == 2


def test_club_sample_arena_streaks(trees: list[Tree]) -> None:
    games = _event_games(trees, club.ARENA)
    members = [
        (next(p for p in (g.black, g.white) if p in club.MEMBERS), g.winner in club.MEMBERS) for g in games
    ]
    assert {g.path[:7] for g in games} == {"2024-07"}
    assert members == [("小猪乐乐", True)] * 3 + [("小猪乐乐", False), ("宜城老僧", True)]


def test_club_sample_cup_qualifiers_in_july_main_stage_in_august(trees: list[Tree]) -> None:
    stages = {(g.path[:7], g.props["RO"]) for g in _event_games(trees, club.CUP)}
    assert stages == {("2024-07", "外围赛第1轮"), ("2024-08", "本赛第1轮"), ("2024-08", "决赛")}


def test_club_sample_open_event_is_in_august_without_qualifiers(trees: list[Tree]) -> None:
    games = _event_games(trees, club.OPEN)
    assert {g.path[:7] for g in games} == {"2024-08"} and not any("外围" in g.props["RO"] for g in games)


def test_club_sample_event_games_are_between_known_players(trees: list[Tree]) -> None:
    known = set(club.MEMBERS) | set(club.GUESTS)
    assert all({g.black, g.white} <= known for g in trees if g.event)


# --- the club's configuration files (read with the pipeline's loaders) ------------------------------------


@pytest.fixture(scope="module")
def roster() -> Roster:
    return load_roster(ROOT / "config" / "roster.toml")


@pytest.fixture(scope="module")
def events() -> Events:
    return load_events(ROOT / "config" / "events.toml")


def test_roster_lists_the_club_tables(roster: Roster) -> None:
    assert {p.name: p.rank for p in roster.players} == club.MEMBERS | club.NON_MEMBERS


def test_roster_marks_only_the_non_members(roster: Roster) -> None:
    assert {p.name for p in roster.players if not p.member} == set(club.NON_MEMBERS)


def test_roster_resolves_every_alias_of_the_club_tables(roster: Roster) -> None:
    assert {alias: roster.resolve(alias) for alias in club.ALIASES} == club.ALIASES


def test_roster_resolves_every_written_member_name(roster: Roster, trees: list[Tree]) -> None:
    written = {name for t in trees for name in (t.props["PB"], t.props["PW"])}
    assert {roster.resolve(w) for w in written} - set(club.GUESTS) == set(club.MEMBERS) | set(
        club.NON_MEMBERS
    )


def test_roster_starts_yuyan_at_100_club_points(roster: Roster) -> None:
    player = roster.get("羽焰")
    assert player is not None and player.rating_under(("club",)) == (100.0, False)


def test_roster_leaves_guests_off(roster: Roster) -> None:
    assert not any(roster.get(guest) for guest in club.GUESTS)


@pytest.mark.parametrize(
    ("event", "kind"),
    [
        (club.TEAM_MATCH, "team_match"),
        (club.ARENA, "arena"),
        (club.CUP, "server_qualifiers"),
        (club.OPEN, "server_open"),
    ],
)
def test_events_match_the_sample_event_names(events: Events, event: str, kind: str) -> None:
    found = events.match(event)
    assert found is not None and found.kind == kind


def test_events_match_no_other_record(events: Events, trees: list[Tree]) -> None:
    scripted = {club.TEAM_MATCH, club.ARENA, club.CUP, club.OPEN}
    assert not any(events.match(t.event) for t in trees if t.event not in scripted)


def test_events_cup_stages_follow_the_rounds(events: Events, trees: list[Tree]) -> None:
    cup = events.match(club.CUP)
    assert cup is not None
    stages = {(g.path[:7], events.stage(cup, g.props["RO"])) for g in _event_games(trees, club.CUP)}
    assert stages == {("2024-07", "qualifier"), ("2024-08", "main")}


@pytest.mark.parametrize("event", [club.CUP, club.OPEN])
def test_events_champion_and_runner_up_played_the_final(
    events: Events, trees: list[Tree], event: str
) -> None:
    found = events.match(event)
    final = [g for g in _event_games(trees, event) if g.props["RO"] == "决赛"]
    assert found is not None and len(final) == 1
    loser = final[0].white if final[0].winner == final[0].black else final[0].black
    assert (found.champion, found.runner_up) == (final[0].winner, loser)


def test_events_cup_ends_on_the_day_of_its_final(events: Events, trees: list[Tree]) -> None:
    found = events.match(club.CUP)
    final = next(g for g in _event_games(trees, club.CUP) if g.props["RO"] == "决赛")
    assert found is not None and found.ends == datetime.date(
        2024, 8, int(final.props["RD"].rsplit("-", 1)[1])
    )


# --- the synthetic corpus ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[Record]:
    return list(synthetic_corpus(2000, seed=1))


@pytest.mark.slow
def test_corpus_yields_n_records_with_unique_relpaths(corpus: list[Record]) -> None:
    assert len(corpus) == 2000 == len({record.relpath for record in corpus})


@pytest.mark.slow
def test_corpus_spreads_over_twelve_month_folders(corpus: list[Record]) -> None:
    assert {record.relpath[:8] for record in corpus} == {f"2024-{m:02d}/" for m in range(1, 13)}


@pytest.mark.parametrize(
    ("style", "share"),
    [
        ("tom", 0.40),
        ("fox", 0.20),
        ("ogs", 0.15),
        ("kgs", 0.10),
        ("big5", 0.05),
        ("sjis", 0.05),
        ("euckr", 0.05),
    ],
)
@pytest.mark.slow
def test_corpus_mixes_styles_in_the_planned_shares(corpus: list[Record], style: str, share: float) -> None:
    assert abs(Counter(map(_style_of, corpus))[style] / 2000 - share) < 0.03


@pytest.mark.slow
def test_corpus_records_decode_with_their_style_codec(corpus: list[Record]) -> None:
    for record in corpus:
        record.data.decode(CODECS[_style_of(record)], errors="strict")


@pytest.mark.slow
def test_corpus_has_collections_and_truncated_files(corpus: list[Record]) -> None:
    trees = [len(re.findall(rb"\)\r?\n\(", r.data)) + 1 for r in corpus]
    broken = [r for r in corpus if not r.data.rstrip().endswith(b")")]
    assert 5 <= sum(n > 1 for n in trees) <= 40 and 2 <= len(broken) <= 25


@pytest.mark.slow
def test_corpus_games_have_realistic_lengths(corpus: list[Record]) -> None:
    lengths = [len(MOVE_RE.findall(r.data.decode(CODECS[_style_of(r)]))) for r in corpus]
    short = sum(50 <= n <= 120 for n in lengths) / len(lengths)
    assert 150 <= statistics.median(lengths) <= 300 and 0.1 < short < 0.35


def test_player_pool_has_about_300_encodable_names() -> None:
    pool = synth.player_pool(random.Random(1))
    codecs = {"zh": "gb18030", "tw": "big5", "ja": "shift_jis", "ko": "euc-kr", "en": "ascii"}
    assert 280 <= sum(map(len, pool.values())) <= 340
    for lang, players in pool.items():
        assert len({name for name, _ in players}) == len(players)
        assert all(name.encode(codecs[lang]) for name, _ in players)


@pytest.mark.parametrize(
    ("table", "codec"),
    [
        (names.COMMENTS["tw"], "big5"),
        (names.COMMENTS["ja"], "shift_jis"),
        (names.COMMENTS["ko"], "euc-kr"),
        (names.EVENTS["tw"], "big5"),
        (names.EVENTS["ja"], "shift_jis"),
        (names.EVENTS["ko"], "euc-kr"),
    ],
)
def test_word_tables_exist_in_their_codec(table: tuple[str, ...], codec: str) -> None:
    assert all(word.encode(codec) for word in table)


# --- files and command line -------------------------------------------------------------------------------


def test_write_records_creates_folders_and_counts(tmp_path: Path) -> None:
    records = [Record("a/b/x.sgf", b"(;)"), Record("y.txt", b"")]
    assert synth.write_records(records, tmp_path) == 2
    assert (tmp_path / "a/b/x.sgf").read_bytes() == b"(;)" and (tmp_path / "y.txt").exists()


@pytest.mark.slow
def test_main_sample_writes_the_club_season(tmp_path: Path) -> None:
    assert main(["sample", str(tmp_path)]) == 0
    written = {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {r.relpath: r.data for r in synth.sample()}


@pytest.mark.slow
def test_main_gomoku_writes_the_gomoku_sample(tmp_path: Path) -> None:
    assert main(["gomoku", str(tmp_path)]) == 0
    written = {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {r.relpath: r.data for r in synth.gomoku_sample()}


@pytest.mark.slow
def test_the_go_sample_holds_no_gomoku_record_but_the_one_its_script_plants() -> None:
    assert sum(b"GM[4]" in r.data for r in synth.sample()) == 1


@pytest.mark.slow
def test_module_entry_point_writes_the_sample(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.synth", "sample", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith(f"wrote {len(synth.sample())} files") and not done.stderr


def test_main_corpus_writes_n_files(tmp_path: Path) -> None:
    assert main(["corpus", str(tmp_path), "--n", "25", "--seed", "3"]) == 0
    assert sum(p.is_file() for p in tmp_path.rglob("*.sgf")) == 25


def test_main_rejects_unknown_command() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bogus"])
    assert exc.value.code == 2
