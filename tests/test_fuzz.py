"""fuzz (issue 10): the mutators and the driver's bookkeeping, then a bounded sample of ``make fuzz``:
300 mutants in one batch through the whole ``ratings run`` must exit 0, leave no ``internal`` row and
account for every input. The sample seeds from the corpora when present, else from generated records."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz import values
from fuzz.batch import account
from fuzz.culprits import bisect
from fuzz.driver import BatchResult, Settings, run_batch
from fuzz.minimise import ddmin
from fuzz.mutate import MUTATORS, mutant
from fuzz.probe import _follow
from fuzz.report import failures
from fuzz.seeds import generated_records, pool

SAMPLE = 300
RECORD = b"(;GM[1]CA[UTF-8]SZ[19]PB[Li]PW[Wang]BR[3d]KM[6.5]RE[B+R]DT[2024-05-01]TM[600]\n;B[pd];W[dd])\n"


@pytest.fixture(scope="module")
def seeds() -> tuple[bytes, ...]:
    return pool(1).records


@pytest.fixture(scope="module")
def sample(seeds: tuple[bytes, ...]) -> BatchResult:
    """One batch of SAMPLE mutants of seed 1 through ``ratings run`` (2 workers, killed at 120 s: about
    20 s at a load of 5 on 2 cores, over 40 s at 8; the limit catches a hang, not a busy machine)."""
    run = Settings(seed=1, workers=2, limit_s=120.0, file_budget_s=5.0, bisect=False, recheck=False)
    return run_batch(0, range(SAMPLE), seeds, run)


def _described(result: BatchResult, kinds: tuple[str, ...]) -> list[str]:
    return [
        f"input {f.index} {f.name!r} ops {'+'.join(f.ops)}: {f.detail[-1500:]}"
        for f in failures(result, 5.0)
        if f.kind in kinds
    ]


@pytest.mark.slow
def test_a_mutant_depends_only_on_its_seed_and_index(seeds: tuple[bytes, ...]) -> None:
    assert mutant(1, 42, seeds) == mutant(1, 42, seeds)
    assert mutant(1, 42, seeds) != mutant(2, 42, seeds)


@given(st.integers(0, 9_999_999), st.integers(0, 2**32))
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_a_file_name_keeps_its_index_readable(index: int, state: int) -> None:
    name = values.file_name(random.Random(state), index, "flip")
    table = pa.table(
        {
            "source_path": [name.decode("utf-8", "backslashreplace")],  # as the pipeline escapes it
            "error_kind": [None],
            "parse_error": [None],
        }
    )
    assert account(table, {index: name}).missing == []


@pytest.mark.parametrize("name", [m[0] for m in MUTATORS])
def test_each_mutator_changes_a_record(name: str) -> None:
    mutate = next(m[2] for m in MUTATORS if m[0] == name)
    outputs = {mutate(random.Random(k), RECORD, RECORD[::-1]) for k in range(8)}
    assert outputs - {RECORD}


@pytest.mark.slow
def test_the_generated_seeds_serve_without_the_corpora(tmp_path: Path) -> None:
    assert pool(1, tmp_path / "absent").records == tuple(generated_records(1))


def test_account_finds_an_input_without_a_row() -> None:
    table = pa.table({"source_path": ["d00/m0000001-a.sgf"], "error_kind": [None], "parse_error": [None]})
    assert account(table, {1: b"d00/m0000001-a.sgf", 2: b"d00/m0000002-b.sgf"}).missing == [2]


def test_account_finds_internal_rows() -> None:
    table = pa.table(
        {
            "source_path": ["d00/m0000001-a.sgf"],
            "error_kind": ["internal"],
            "parse_error": ["internal error: X"],
        }
    )
    assert account(table, {1: b"d00/m0000001-a.sgf"}).internal == {1: "internal error: X"}


def test_account_sees_a_non_utf8_name_through_its_raw_bytes() -> None:
    name = b"d00/m0000001-caf\xe9.sgf"
    table = pa.table(
        {
            "source_path": ["d00/m0000001-caf\\xe9.sgf", "d00/m0000001-caf\\xe9.sgf"],
            "source_path_bytes": [name, b"d00/m0000001-cafe.sgf"],
            "error_kind": [None, None],
            "parse_error": [None, None],
        }
    )
    assert account(table.slice(0, 1), {1: name}).renamed == {}
    assert account(table.slice(1, 1), {1: name}).renamed == {1: "d00/m0000001-caf\\xe9.sgf"}


def test_bisect_finds_each_culprit_alone() -> None:
    found = bisect(list(range(64)), lambda group: bool({5, 40} & set(group)), max_found=5, max_tests=100)
    assert sorted(found) == [[5], [40]]


def test_bisect_keeps_a_pair_that_fails_only_together() -> None:
    found = bisect(list(range(4)), lambda group: {0, 3} <= set(group), max_found=5, max_tests=100)
    assert found == [[0, 1, 2, 3]]


def test_ddmin_cuts_an_input_to_what_fails() -> None:
    assert ddmin(b"abcdefXghijk" * 3, lambda d: b"X" in d, 500, lambda _: None) == b"X"


def test_probe_names_the_file_that_overran_its_budget() -> None:
    script = (
        'import time; print(\'{"position": 0, "seconds": 0.1, "error": null}\', flush=True); time.sleep(60)'
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, start_new_session=True)
    timings: list = []
    assert _follow(child, 0, 1.0, float("inf"), timings) == 2
    assert [t.hung for t in timings] == [False, True]


@pytest.mark.slow
def test_the_sample_run_exits_0_without_a_traceback(sample: BatchResult) -> None:
    assert (sample.first.exit, sample.first.crashed) == (0, False), sample.first.stderr[-4000:]


@pytest.mark.slow
def test_the_sample_run_finishes_within_its_limit(sample: BatchResult) -> None:
    assert not sample.first.hung, _described(sample, ("hang",))


@pytest.mark.slow
def test_the_sample_has_no_internal_row(sample: BatchResult) -> None:
    assert sample.accounting is not None and sample.accounting.internal == {}, _described(
        sample, ("internal",)
    )


@pytest.mark.slow
def test_every_sample_input_has_a_row(sample: BatchResult) -> None:
    assert sample.accounting is not None and sample.accounting.missing == [], _described(sample, ("missing",))


@pytest.mark.slow
def test_every_sample_row_names_its_input_as_written(sample: BatchResult) -> None:
    assert sample.accounting is not None
    assert (sample.accounting.stray, sample.accounting.renamed) == ([], {})


@pytest.mark.slow
def test_the_reader_never_raises_on_the_sample(sample: BatchResult) -> None:
    assert _described(sample, ("reader",)) == []
