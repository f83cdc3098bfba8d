"""Tests for pipeline.core.ranks: BR/WR values and ranks inside player names."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.ranks import Rank, RankKind, parse_rank, read_rank, split_name_rank

K: RankKind = "k"
D: RankKind = "d"
P: RankKind = "p"


@pytest.mark.parametrize(
    ("raw", "kind", "value"),
    [
        # Western servers (KGS, IGS, NNGS, OGS), as found in the corpora
        ("3d", D, 3),
        ("3D", D, 3),
        ("1d", D, 1),
        ("8d", D, 8),
        ("5k", K, 5),
        ("5K", K, 5),
        ("14k", K, 14),
        ("30k", K, 30),
        ("9p", P, 9),
        ("9P", P, 9),
        ("1p", P, 1),
        ("7p", P, 7),
        ("12k ", K, 12),
        ("17k ", K, 17),
        ("3 dan", D, 3),
        ("3 Dan", D, 3),
        ("5 kyu", K, 5),
        ("1 kyu", K, 1),
        ("9-dan", D, 9),
        ("2d (AGA)", D, 2),
        ("15k* IGS", K, 15),
        ("\uff19\uff50", P, 9),  # full-width 9p
        # professional forms
        ("P9", P, 9),
        ("p9", P, 9),
        ("P 9", P, 9),
        ("9 pro", P, 9),
        ("9d pro", P, 9),
        ("9-dan pro", P, 9),
        ("pro 9d", P, 9),
        ("Pro 9 dan", P, 9),
        ("amateur 5d", D, 5),
        # Chinese
        ("3段", D, 3),
        ("三段", D, 3),
        ("初段", D, 1),
        ("九段", D, 9),
        ("9段", D, 9),
        ("5级", K, 5),
        ("五级", K, 5),
        ("十五级", K, 15),
        ("15级", K, 15),
        ("14级", K, 14),
        ("职业九段", P, 9),
        ("职业初段", P, 1),
        ("职业9段", P, 9),
        ("职业 九段", P, 9),
        ("P9段", P, 9),
        ("p5段", P, 5),
        ("业余5段", D, 5),
        ("業餘5段", D, 5),
        ("业余1级", K, 1),
        # Japanese and traditional Chinese
        ("5級", K, 5),
        ("五級", K, 5),
        ("四段", D, 4),
        ("職業九段", P, 9),
        ("プロ九段", P, 9),
        ("アマ五段", D, 5),
        ("アマ5段", D, 5),
        ("３段", D, 3),
        ("二段(アマ)", D, 2),
        # Korean
        ("5단", D, 5),
        ("9단", D, 9),
        ("초단", D, 1),
        ("3급", K, 3),
        ("18급", K, 18),
        ("아마5단", D, 5),
        ("아마 5단", D, 5),
        ("프로9단", P, 9),
    ],
)
def test_parse_rank_reads_kind_and_value(raw: str, kind: RankKind, value: int) -> None:
    assert parse_rank(raw) == Rank(kind, value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("3d?", Rank("d", 3, uncertain=True)),
        ("13k?", Rank("k", 13, uncertain=True)),
        ("25k?", Rank("k", 25, uncertain=True)),
        ("11k+", Rank("k", 11, uncertain=True)),
        ("2d? (AGA)", Rank("d", 2, uncertain=True)),
        ("3段?", Rank("d", 3, uncertain=True)),
        ("16.1k", Rank("k", 16, uncertain=True)),
        ("13.0k", Rank("k", 13, uncertain=True)),
        ("11.6k", Rank("k", 11, uncertain=True)),
    ],
)
def test_parse_rank_marks_guesses_uncertain(raw: str, expected: Rank) -> None:
    assert parse_rank(raw) == expected


@pytest.mark.parametrize(
    ("raw", "kind", "value"), [("18k*", K, 18), ("1d*", D, 1), ("7d*", D, 7), ("14k*", K, 14)]
)
def test_parse_rank_reads_igs_star_as_established_not_uncertain(raw: str, kind: RankKind, value: int) -> None:
    assert parse_rank(raw) == Rank(kind, value, uncertain=False)


@pytest.mark.parametrize(
    "raw",
    [None, "", " ", "NR", "NR ", "nr", "UR ", "-", "?", "???", "名人", "本因坊", "棋聖", "insei", "AlphaGo"],
)
def test_parse_rank_gives_none_for_no_rank_and_titles(raw: str | None) -> None:
    assert parse_rank(raw) is None


@pytest.mark.parametrize("raw", ["1850", "2100", "2100?", "1500*", "1660?", "2042", "1105*"])
def test_parse_rank_gives_none_for_elo_numbers(raw: str) -> None:
    assert parse_rank(raw) is None


@pytest.mark.parametrize("raw", ["0k", "31k", "35k", "0d", "10d", "10p", "p10", "十段", "四十级", "0段"])
def test_parse_rank_gives_none_out_of_range(raw: str) -> None:
    assert parse_rank(raw) is None


@pytest.mark.parametrize("raw", ["3x", "k5", "d3", "5 kyu dan", "3d 4d", "dan", "段", "9p9", "3.d"])
def test_parse_rank_gives_none_for_unreadable_text(raw: str) -> None:
    assert parse_rank(raw) is None


@pytest.mark.parametrize(
    ("rank", "text"),
    [(Rank("k", 5), "5k"), (Rank("d", 3, uncertain=True), "3d"), (Rank("p", 9), "9p")],
)
def test_rank_str_is_canonical_without_decoration(rank: Rank, text: str) -> None:
    assert str(rank) == text


@pytest.mark.parametrize("raw", ["三段", "3 dan", "3D", "3段", "3단", "3d"])
def test_parse_rank_forms_share_canonical_text(raw: str) -> None:
    assert str(parse_rank(raw)) == "3d"


def test_rank_is_frozen() -> None:
    rank = Rank("d", 3)
    with pytest.raises(AttributeError):
        rank.value = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "expected_name", "expected_rank"),
    [
        ("井上一郎 四段", "井上一郎", Rank("d", 4)),
        ("李昌镐\u3000九段", "李昌镐", Rank("d", 9)),
        ("胡耀宇 八段", "胡耀宇", Rank("d", 8)),
        ("古力 九段", "古力", Rank("d", 9)),
        ("Lee Sedol 9p", "Lee Sedol", Rank("p", 9)),
        ("Lee Sedol (9p)", "Lee Sedol", Rank("p", 9)),
        ("古力 P9", "古力", Rank("p", 9)),
        ("Kim 3 dan", "Kim", Rank("d", 3)),
        ("Sato アマ 五段", "Sato", Rank("d", 5)),
        ("이창호 9단", "이창호", Rank("d", 9)),
        ("이세돌 프로9단", "이세돌", Rank("p", 9)),
        ("Bot 1d?", "Bot", Rank("d", 1, uncertain=True)),
        ("  Lee   Sedol   9p ", "Lee Sedol", Rank("p", 9)),
        ("常昊 职业九段", "常昊", Rank("p", 9)),
    ],
)
def test_split_name_rank_splits_trailing_rank(name: str, expected_name: str, expected_rank: Rank) -> None:
    assert split_name_rank(name) == (expected_name, expected_rank)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("AlphaGo", "AlphaGo"),
        ("5k", "5k"),
        ("九段", "九段"),
        ("3 dan", "3 dan"),
        ("李昌镐九段", "李昌镐九段"),
        ("GNU Go 3.8", "GNU Go 3.8"),
        ("Many Faces of Go 9.0", "Many Faces of Go 9.0"),
        ("gnugo 94", "gnugo 94"),
        ("  Lee \u3000 Sedol ", "Lee Sedol"),
        ("Go Seigen", "Go Seigen"),
        ("井山 裕太", "井山 裕太"),
        ("山下 敬吾", "山下 敬吾"),
        ("本因坊 秀策", "本因坊 秀策"),
        ("\uff21\uff4c\uff50\uff48\uff41\uff27\uff4f", "\uff21\uff4c\uff50\uff48\uff41\uff27\uff4f"),
        ("", ""),
    ],
)
def test_split_name_rank_leaves_names_without_rank(name: str, expected: str) -> None:
    assert split_name_rank(name) == (expected, None)


@given(st.text())
def test_parse_rank_never_raises(raw: str) -> None:
    result = parse_rank(raw)
    assert result is None or isinstance(result, Rank)


@given(st.text())
def test_split_name_rank_never_raises_and_keeps_a_name(name: str) -> None:
    rest, rank = split_name_rank(name)
    assert isinstance(rest, str)
    assert rank is None or rest


# --- read_rank: a BR/WR value, where a title or note may stand beside the rank --------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("7급", "7k"), ("25급", "25k"), ("3단", "3d"), ("초단", "1d"), ("아마 6단", "6d"), ("프로 3단", "3p")],
)
def test_read_rank_reads_korean_ranks(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("8級", "8k"), ("十級", "10k"), ("初段", "1d"), ("六段", "6d"), ("アマ初段", "1d"), ("プロ初段", "1p")],
)
def test_read_rank_reads_japanese_ranks(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("9p, Meijin", "9p"),
        ("8p Kisei", "8p"),
        ("7p KISEI", "7p"),
        ("九段 名人", "9d"),
        ("八段名人", "8d"),
        ("9段、棋聖", "9d"),
        ("六段・本因坊", "6d"),
        ("9d (Honinbo)", "9d"),
        ("4d [Tengen]", "4d"),
        ("五段（王座）", "5d"),
        ("3d?, KGS", "3d"),
    ],
)
def test_read_rank_reads_a_rank_with_a_title_or_note_after_it(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Meijin 9p", "9p"),
        ("名人 九段", "9d"),
        ("本因坊　七段", "7d"),
        ("名誉九段", "9d"),
        ("국수 9단", "9d"),
    ],
)
def test_read_rank_reads_a_rank_with_a_title_before_it(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


@pytest.mark.parametrize(
    "raw", ["9 Dan Professional", "9 dan professional, Kisei", "9 dan (professional)", "9단 프로", "9d (pro)"]
)
def test_read_rank_reads_professional_written_beside_a_dan(raw: str) -> None:
    assert read_rank(raw) == Rank("p", 9)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("三段格", "3d"), ("初段格", "1d"), ("业余2段格", "2d"), ("五級格", "5k"), ("7단格", "7d")],
)
def test_read_rank_reads_an_equivalent_rank_as_that_rank(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("业余5段", "5d"), ("业余 3段", "3d"), ("業餘初段", "1d"), ("職業九段", "9p"), ("职业二段 名人", "2p")],
)
def test_read_rank_reads_chinese_amateur_and_professional_prefixes(raw: str, expected: str) -> None:
    assert str(read_rank(raw)) == expected


def test_read_rank_keeps_the_uncertain_mark_of_a_rank_with_a_note() -> None:
    assert read_rank("2k? (KGS)") == Rank("k", 2, uncertain=True)


@pytest.mark.parametrize("raw", ["3d 4d", "5k, 3d", "初段 二段", "Meijin 9p 8p"])
def test_read_rank_gives_none_when_the_note_holds_another_rank(raw: str) -> None:
    assert read_rank(raw) is None


@pytest.mark.parametrize(
    "raw", [None, "", "名人", "Meijin", "Honinbo Shusaku", "NR", "1850", "2015级", "5k-3d"]
)
def test_read_rank_gives_none_for_a_value_without_one_readable_rank(raw: str | None) -> None:
    assert read_rank(raw) is None


def test_read_rank_reads_no_note_into_a_value_longer_than_a_rank_and_its_titles() -> None:
    assert (read_rank("9p, " + "Meijin " * 10), read_rank("9p, Meijin")) == (None, Rank("p", 9))


@given(st.text())
def test_read_rank_agrees_with_parse_rank_wherever_parse_rank_reads_a_rank(raw: str) -> None:
    whole = parse_rank(raw)
    assert whole is None or read_rank(raw) in (whole, Rank("p", whole.value, whole.uncertain))


@given(st.text())
def test_read_rank_never_raises(raw: str) -> None:
    result = read_rank(raw)
    assert result is None or isinstance(result, Rank)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Go Seigen 9p", ("Go Seigen", Rank("p", 9))), ("名人 秀策", ("名人 秀策", None))],
)
def test_split_name_rank_reads_no_title_into_a_name(name: str, expected: tuple[str, Rank | None]) -> None:
    assert split_name_rank(name) == expected


_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).parents[3] / "shared" / "corpora"))
_NOT_RANKS = re.compile(r"|NR|UR|\d{3,4}[*?]?")  # empty, not ranked, unrated, CGOS Elo numbers


def _corpus_rank_values() -> set[str]:
    """Return every distinct BR/WR value of the corpora's UTF-8 text (other encodings: the decoder's job)."""
    found: set[str] = set()
    for path in _CORPORA.rglob("*.sgf"):
        text = path.read_bytes().decode("utf-8", "replace")
        found.update(re.findall(r"(?<![A-Z])[BW]R\[([^]\ufffd]*)\]", text))
    return found


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)")
@pytest.mark.slow
def test_every_corpus_rank_is_read_or_is_a_known_non_rank() -> None:
    values = _corpus_rank_values()
    unread = {v for v in values if parse_rank(v) is None and not _NOT_RANKS.fullmatch(v.strip())}
    assert len(values) > 50
    assert unread == set()
