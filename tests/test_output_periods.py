"""B2: a dataset's ``period`` reads back as text in pandas, pyarrow, DuckDB and polars, for every period
kind, the all-digit years (``period=2024``) included, with each reader called as pipeline.output.folder
documents (its defaults, ``hive_partitioning`` named where the reader needs it).

The outputs are written by pipeline.output.snapshots itself: a ``ratings`` dataset of two periods and a
``games.parquet`` whose ``period`` column holds the same labels.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from pipeline.output import snapshots

KINDS = {
    "month": ("2024-05", "2024-06"),
    "quarter": ("2024-Q2", "2024-Q3"),
    "half": ("2024-H1", "2024-H2"),
    "year": ("2023", "2024"),
}


@pytest.fixture(params=sorted(KINDS))
def written(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, tuple[str, str]]:
    """An output folder with ``ratings/`` of two periods of one kind (two players each) and games."""
    labels = KINDS[request.param]
    ratings = pa.table(
        {
            "player": ["a", "b", "a", "b"],
            "rating": [1.0, 2.0, 3.0, 4.0],
            "period": [labels[0], labels[0], labels[1], labels[1]],
        }
    )
    games = pa.table({"game_id": ["g1", "g2"], "period": list(labels)})
    out = tmp_path / "out"
    snapshots.write_generation(out, {"games.parquet": games}, {"ratings": ratings}, {})
    return out, labels


def is_text(arrow_type: pa.DataType) -> bool:
    """A string, or a dictionary of strings."""
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)


def test_pandas_reads_every_period_as_its_label(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    ratings = pd.read_parquet(out / "ratings")
    assert sorted(ratings["period"].tolist()) == sorted([*labels, *labels])


def test_pandas_merge_of_ratings_and_games_on_period_finds_every_row(
    written: tuple[Path, tuple[str, str]],
) -> None:
    out, _ = written
    merged = pd.read_parquet(out / "ratings").merge(pd.read_parquet(out / "games.parquet"), on="period")
    assert len(merged) == 4


def test_a_pandas_filter_on_a_period_label_keeps_its_rows(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    ratings = pd.read_parquet(out / "ratings", filters=[("period", "=", labels[1])])
    assert sorted(ratings["rating"]) == [3.0, 4.0]


def test_pq_read_table_types_period_as_text(written: tuple[Path, tuple[str, str]]) -> None:
    out, _ = written
    assert is_text(pq.read_table(out / "ratings").schema.field("period").type)


def test_pyarrow_dataset_with_hive_partitioning_types_period_as_text(
    written: tuple[Path, tuple[str, str]],
) -> None:
    out, _ = written
    dataset = ds.dataset(out / "ratings", partitioning="hive")
    assert is_text(dataset.schema.field("period").type)
    assert dataset.to_table(filter=ds.field("period") == written[1][0]).num_rows == 2


def test_duckdb_hive_partitioning_types_period_as_varchar(written: tuple[Path, tuple[str, str]]) -> None:
    duckdb = pytest.importorskip("duckdb")
    out, labels = written
    source = f"read_parquet('{out}/ratings/**/*.parquet', hive_partitioning=true)"
    query = f"select typeof(period), count(*) from {source} where period = '{labels[1]}' group by 1"
    assert duckdb.sql(query).fetchall() == [("VARCHAR", 2)]


@pytest.mark.slow
def test_polars_read_parquet_types_period_as_string(written: tuple[Path, tuple[str, str]]) -> None:
    pl = pytest.importorskip("polars")
    out, labels = written
    ratings = pl.read_parquet(out / "ratings")
    assert ratings.schema["period"] == pl.String
    assert sorted(ratings["period"].to_list()) == sorted([*labels, *labels])


def test_polars_scan_parquet_with_hive_joins_games_on_period(written: tuple[Path, tuple[str, str]]) -> None:
    pl = pytest.importorskip("polars")
    out, _ = written
    ratings = pl.scan_parquet(out / "ratings", hive_partitioning=True)
    games = pl.scan_parquet(out / "games.parquet")
    assert ratings.join(games, on="period").collect().height == 4


def test_pandas_max_of_period_is_the_latest_period(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    assert pd.read_parquet(out / "ratings")["period"].max() == labels[1]


def test_pandas_sorts_periods_latest_last(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    ratings = pd.read_parquet(out / "ratings").sort_values("period", ascending=False, kind="stable")
    assert ratings["period"].tolist() == [labels[1], labels[1], labels[0], labels[0]]


def test_pandas_compares_periods_with_a_label(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    ratings = pd.read_parquet(out / "ratings")
    assert sorted(ratings.loc[ratings["period"] >= labels[1], "rating"]) == [3.0, 4.0]


def test_pandas_shows_no_placeholder_period(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    counts = pd.read_parquet(out / "ratings")["period"].value_counts()
    assert sorted(counts.index) == list(labels)


def test_pyarrow_dataset_max_of_period_is_the_latest_period(written: tuple[Path, tuple[str, str]]) -> None:
    out, labels = written
    table = ds.dataset(out / "ratings", partitioning="hive").to_table()
    assert pc.max(table["period"]).as_py() == labels[1]
    assert table.sort_by([("period", "descending")])["period"][0].as_py() == labels[1]


def test_pq_read_table_to_pandas_max_of_period_is_the_latest_period(
    written: tuple[Path, tuple[str, str]],
) -> None:
    out, labels = written
    assert pq.read_table(out / "ratings").to_pandas()["period"].max() == labels[1]


def test_duckdb_max_of_period_is_the_latest_period(written: tuple[Path, tuple[str, str]]) -> None:
    duckdb = pytest.importorskip("duckdb")
    out, labels = written
    source = f"read_parquet('{out}/ratings/**/*.parquet', hive_partitioning=true)"
    latest = duckdb.sql(
        f"select max(period), (select period from {source} order by period desc limit 1) from {source}"
    )
    assert latest.fetchall() == [(labels[1], labels[1])]


def test_polars_max_of_period_is_the_latest_period(written: tuple[Path, tuple[str, str]]) -> None:
    pl = pytest.importorskip("polars")
    out, labels = written
    ratings = pl.read_parquet(out / "ratings")
    assert (ratings["period"].max(), ratings.sort("period")["period"][-1]) == (labels[1], labels[1])
