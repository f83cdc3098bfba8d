"""The real corpora (../shared/corpora, or $SGF_CORPORA): every file accounted for, names decoded right.

Skipped with a reason when the corpora are absent. The ingest runs once per session (about 2 s).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sgfmill import sgf_grammar

from pipeline.ingest import IngestOptions, discover, ingest
from pipeline.ingest.decode import decode
from pipeline.ingest.sgftext import read_collection

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def games(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("corpora-out")
    return ingest(corpora, out, IngestOptions(workers=2)).games.to_pylist()


def by_path(games: list[dict[str, Any]], suffix: str) -> dict[str, Any]:
    [row] = [g for g in games if g["source_path"].endswith(suffix) and g["game_index"] == 0]
    return row


def test_every_file_is_accounted_for(corpora: Path, games: list[dict[str, Any]]) -> None:
    assert {g["source_path"] for g in games} == {e.rel for e in discover(corpora)}


def test_no_internal_error_escapes(games: list[dict[str, Any]]) -> None:
    assert [g["source_path"] for g in games if g["error_kind"] == "internal"] == []


def test_parse_errors_are_the_known_broken_files(games: list[dict[str, Any]]) -> None:
    broken = {g["source_path"].rsplit("/", 1)[-1] for g in games if g["parse_error"]}
    assert {"nightmare.sgf", "not-an-sgf-file.sgf", "owl42.sgf"} <= broken
    assert len(broken) <= 8


@pytest.mark.parametrize(
    ("suffix", "black", "white"),
    [
        ("SabakiHQ__sgf/tests/sgf/chinese.sgf", "古力", "柯洁"),
        ("SabakiHQ__sgf/tests/sgf/japanese.sgf", "井山 裕太", "山下 敬吾"),
        ("SabakiHQ__sgf/tests/sgf/japanese_bad.sgf", "\ufffd\ufffd\ufffdR \ufffdT\ufffd\ufffd", None),
        ("SabakiHQ__sgf/tests/sgf/korean.sgf", "이세돌", "박정환"),
        ("SabakiHQ__sgf/tests/sgf/utf16le.sgf", "Kitani Minoru", "Go Seigen"),
        ("SabakiHQ__sgf/tests/sgf/encoding/nihon-kiin.sgf", "申眞ソ", "党毅飛"),
        ("sanderland__katrain/tests/data/fox sgf works.sgf", "whatiskale", "注号用名"),
    ],
)
def test_names_decode_to_the_right_characters(
    games: list[dict[str, Any]], suffix: str, black: str, white: str | None
) -> None:
    row = by_path(games, suffix)
    assert row["black"] == black
    if white is not None:
        assert row["white"] == white


@pytest.mark.parametrize(
    ("suffix", "codec"),
    [
        ("encoding-chinese-gbk.sgf", "gb18030"),
        ("encoding-simplifiedchinese-gb2312.sgf", "gb18030"),
        ("encoding-traditionalchinese-big5.sgf", "cp950"),
        ("encoding-japanese-shiftjis.sgf", "cp932"),
        ("encoding-korean-macos.sgf", "cp949"),
        ("encoding-japanese-iso2022jp.sgf", "iso2022_jp"),
        ("encoding-utf16-nobom.sgf", "utf-16-be"),
        ("SabakiHQ__sgf/tests/sgf/no-ca.sgf", "gb18030"),
        ("regression/games/9handicap.sgf", "gb18030"),
        ("regression/games/trevor/trevor_42.sgf", "gb18030"),
    ],
)
def test_encoding_fixtures_get_their_codec(games: list[dict[str, Any]], suffix: str, codec: str) -> None:
    assert by_path(games, suffix)["encoding"] == codec


def test_nihon_kiin_layout_reads_result_and_time(games: list[dict[str, Any]]) -> None:
    row = by_path(games, "encoding/nihon-kiin.sgf")
    assert (row["winner"], row["result_how"], row["main_time_s"], row["komi"]) == ("B", "resign", 3600, 6.5)


def test_multi_game_files_give_every_tree(games: list[dict[str, Any]]) -> None:
    counts: dict[str, int] = {}
    for g in games:
        counts[g["source_path"]] = counts.get(g["source_path"], 0) + 1
    assert max(counts.values()) >= 11


def test_main_line_moves_agree_with_sgfmill(corpora: Path) -> None:
    checked = 0
    for path in sorted(corpora.rglob("*.sgf")):
        text = decode(path.read_bytes()).text
        try:
            reference = sgf_grammar.parse_sgf_collection(text.encode("utf-8"))
        except ValueError:
            continue
        ours = [t for t in read_collection(text) if not t.implicit_root]  # sgfmill cannot read those
        for tree, ref in zip(ours, reference, strict=True):
            nodes = list(sgf_grammar.main_sequence_iter(ref))[1:]
            assert tree.moves == sum(1 for n in nodes if "B" in n or "W" in n), path
            checked += 1
    assert checked > 1900
