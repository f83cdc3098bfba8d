"""run.stream: a plan's replay without a writer, and ``seq`` as an index shared by every plan's replay."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.audit import audit
from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions, ingest
from pipeline.rules.replay import rate
from pipeline.run import plan
from pipeline.run.stream import replayed
from pipeline.synth.records import write_records
from pipeline.synth.server import server_archive


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stream")
    write_records(server_archive(600, seed=3, months=14), folder / "raw")
    return folder


def seqs(folder: Path, rule_set: str, period: str | None = None) -> dict[str, int]:
    config = RunConfig(raw=folder / "raw", out=folder / "out", period=period)
    checked = plan(config, rule_set)
    source = ingest(checked.raw, checked.out, IngestOptions(workers=1)).source
    found: dict[str, int] = {}

    def seen(games: pa.Table) -> None:
        found.update(zip(games["game_id"].to_pylist(), games["seq"].to_pylist(), strict=True))

    with replayed(checked, source, seen) as replay:
        for _ in replay.periods:
            pass
        assert sorted(found.values()) == list(range(replay.rows))
    return found


@pytest.mark.slow
def test_a_game_has_the_same_seq_whatever_the_period_kind_and_validity(archive: Path) -> None:
    by_month = seqs(archive, "club")
    assert seqs(archive, "cga") == by_month  # half-year periods, another validity
    assert seqs(archive, "club", "year") == by_month


@pytest.mark.slow
def test_the_streamed_replay_gives_the_changes_of_the_replay_in_memory(archive: Path) -> None:
    config = RunConfig(raw=archive / "raw", out=archive / "out")
    checked = plan(config, "egf2021")
    ingested = ingest(checked.raw, checked.out, IngestOptions(workers=1))
    with replayed(checked, ingested.source) as replay:
        streamed = pa.concat_tables([period.tables["changes"] for period in replay.periods])
    audited = audit(ingested.games, checked.roster, checked.events, checked.validity)
    whole = rate(audited, checked.rules, checked.roster, checked.events).changes
    assert streamed.equals(whole.cast(streamed.schema))
