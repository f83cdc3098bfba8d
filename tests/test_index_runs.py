"""The player index's chunks are runs of blocks (pipeline/output/index_writer.py ``runs``, planned by
pipeline/run/indexing.py): the last block alone, the others in runs of a power of two as a binary
counter's digits; a chunk merged from the previous generation's files and the night's rows is the chunk
written from scratch, and answers as the tables read whole.

A hand-made season of one record a month, with blocks of one record (``CHUNK_RECORDS``): each month a
block of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from index_checks import assert_same_index
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline import reports
from pipeline.cli import app
from pipeline.output import index_writer, player_index, snapshots
from pipeline.reports import player_rows

runner = CliRunner()
PLAYERS = ("羽焰", "凝兰", "牛蛙")


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (0, []),
        (1, [(0, 1)]),
        (2, [(0, 1), (1, 2)]),
        (3, [(0, 2), (2, 3)]),
        (4, [(0, 2), (2, 3), (3, 4)]),
        (5, [(0, 4), (4, 5)]),
        (11, [(0, 8), (8, 10), (10, 11)]),
        (12, [(0, 8), (8, 10), (10, 11), (11, 12)]),
        (13, [(0, 8), (8, 12), (12, 13)]),
    ],
)
def test_chunks_are_a_binary_counter_of_the_blocks_before_the_last(
    count: int, expected: list[tuple[int, int]]
) -> None:
    assert [(r.start, r.stop) for r in index_writer.runs(count)] == expected


def test_a_chunk_holds_at_most_so_many_blocks() -> None:
    assert [len(r) for r in index_writer.runs(41, most=16)] == [16, 16, 8, 1]


def test_a_chunk_once_made_stays_until_it_joins_one_of_its_size() -> None:
    for count in range(1, 200):
        before = {(r.start, r.stop) for r in index_writer.runs(count)}
        after = [(r.start, r.stop) for r in index_writer.runs(count + 1)]
        for start, stop in before - {(count - 1, count)}:
            assert (start, stop) in after or any(a <= start and stop <= b for a, b in after), (count, start)


def _write(root: Path, months: range) -> None:
    for month in months:
        black, white = PLAYERS[month % 3], PLAYERS[(month + 1) % 3]
        path = root / "raw" / f"g{month:02d}.sgf"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            sgf(black, white, "B+R", f"2024-{month:02d}-05", black_rank="1d", white_rank="2d", seed=month)
        )


def _run(root: Path, out: str = "out") -> Path:
    args = ["run", "--raw", str(root / "raw"), "--out", str(root / out), "--workers", "1"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index_writer, "CHUNK_RECORDS", 1)
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return root / out


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, ...]]]:
    """A season of three months rated (its index: a chunk of the blocks 01 and 02, then the block of 03 with
    the months rated after it), then two more months: the chunk of 01-04 is merged from the previous
    generation's chunk 01-02 and the rows of 03 and 04. With the labels of the previous generation's
    chunks the merge took."""
    root = tmp_path_factory.mktemp("grown")
    _write(root, range(1, 4))
    out = _run(root)
    first = player_index.PlayerIndex.of(out)
    assert first is not None and first.chunks[0].labels == ("2024-01", "2024-02")
    _write(root, range(4, 6))
    taken: list[tuple[str, ...]] = []
    held = index_writer.IndexWriter.held
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            index_writer.IndexWriter, "held", lambda self, c: taken.append(c.labels) or held(self, c)
        )
        return _run(root), taken


@pytest.mark.slow
def test_a_grown_season_merges_its_blocks_into_chunks(grown: tuple[Path, list[tuple[str, ...]]]) -> None:
    out, taken = grown
    index = player_index.PlayerIndex.of(out)
    assert index is not None
    assert [c.labels[0] for c in index.chunks] == ["2024-01", "2024-05"]
    assert index.chunks[0].labels == ("2024-01", "2024-02", "2024-03", "2024-04")
    assert taken == [("2024-01", "2024-02")]
    generation = snapshots.current(out)
    assert generation is not None
    assert not (generation / player_index.FOLDER / index_writer.PARTS).exists()


@pytest.mark.slow
def test_a_merged_chunk_is_the_chunk_written_from_scratch(grown: tuple[Path, list[tuple[str, ...]]]) -> None:
    out, _ = grown
    assert_same_index(out, _run(out.parent, "scratch"))


@pytest.mark.slow
@pytest.mark.parametrize("player", PLAYERS)
def test_a_merged_chunk_answers_as_the_tables_read_whole(
    grown: tuple[Path, list[tuple[str, ...]]], player: str
) -> None:
    out, _ = grown
    indexed = reports.audit_games(out, player=player)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(player_rows, "index_of", lambda out: None)
        whole = reports.audit_games(out, player=player)
    assert indexed.equals(whole)
    assert len(indexed) >= 3


@pytest.mark.slow
def test_a_chunk_whose_previous_files_cannot_be_read_is_made_again_from_its_rows(tmp_path: Path) -> None:
    _write(tmp_path, range(1, 4))
    out = _run(tmp_path)
    first = snapshots.current(out)
    assert first is not None
    broken = player_index.path(first, "games", "2024-01")
    broken.write_bytes(broken.read_bytes()[:100])  # (a file of the chunk 01-02 the next run would merge)
    _write(tmp_path, range(4, 6))
    assert_same_index(_run(tmp_path), _run(tmp_path, "scratch"))
