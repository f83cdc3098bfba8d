"""pieces: a run audits and prepares one period at a time, and that equals doing the whole table at once."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import rules
from pipeline.audit import audit
from pipeline.audit.pieces import UNDATED, TableSource, by_period
from pipeline.config.events import load_events
from pipeline.config.roster import load_roster
from pipeline.ingest import IngestOptions, ingest
from pipeline.rules.prepare import Preparer, prepare
from pipeline.rules.scales import RATING_KEYS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    out = tmp_path_factory.mktemp("pieces")
    return ingest(ROOT / "data" / "raw", out, IngestOptions(workers=1)).games


def _configured(name: str, period: str | None = None):  # type: ignore[no-untyped-def]
    roster = load_roster(ROOT / "config" / "roster.toml", RATING_KEYS)
    events = load_events(ROOT / "config" / "events.toml")
    valid = rules.validity(name, None, period)
    return roster, events, valid, rules.create(name, roster, valid)


def _pieces(games: pa.Table, name: str, period: str | None = None) -> list[pa.Table]:
    roster, events, valid, _ = _configured(name, period)
    found, seq = [], 0
    for piece in by_period(TableSource(games), valid.period):
        found.append(audit(piece, roster, events, valid, seq))
        seq += found[-1].num_rows
    return found


def test_periods_come_in_date_order_then_the_undated() -> None:
    days = [dt.date(2024, 7, 1), None, dt.date(2023, 12, 31), dt.date(2024, 1, 5), dt.date(2024, 6, 30)]
    table = pa.table({"date": pa.array(days, pa.date32()), "n": range(5)})
    assert [p["n"].to_pylist() for p in by_period(TableSource(table), "half")] == [[2], [3, 4], [0], [1]]
    assert sorted(TableSource(table).months()) == ["2023-12", "2024-01", "2024-06", "2024-07", UNDATED]


@pytest.mark.parametrize(("name", "period"), [("club", None), ("club", "quarter"), ("cga", None)])
def test_auditing_period_by_period_equals_auditing_the_whole_table(
    sample: pa.Table, name: str, period: str | None
) -> None:
    roster, events, valid, _ = _configured(name, period)
    assert pa.concat_tables(_pieces(sample, name, period)).equals(audit(sample, roster, events, valid))


@pytest.mark.parametrize("name", ["club", "cga", "tga"])
def test_preparing_period_by_period_equals_preparing_the_whole_table(sample: pa.Table, name: str) -> None:
    roster, events, _, rule_set = _configured(name)
    whole = prepare(pa.concat_tables(_pieces(sample, name)), rule_set, roster, events)
    preparer = Preparer({})
    for piece in _pieces(sample, name):
        preparer.add(piece)
    piecewise = preparer.finish(rule_set, roster, events)
    assert (piecewise.labels, piecewise.due, piecewise.warnings) == (whole.labels, whole.due, whole.warnings)
    assert all(piecewise.rows(label).equals(whole.rows(label)) for label in whole.labels)
    assert sorted(piecewise.events) == sorted(whole.events) and piecewise.closing.equals(whole.closing)


def test_a_period_in_two_pieces_is_refused(sample: pa.Table) -> None:
    _, _, _, _ = _configured("club")
    piece = next(p for p in _pieces(sample, "club") if p["counted"].to_pylist().count(True))
    preparer = Preparer({})
    preparer.add(piece)
    with pytest.raises(ValueError, match="in two pieces"):
        preparer.add(piece)
