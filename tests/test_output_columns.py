"""C12: the column dictionary docs/columns.md is generated from the schemas' field descriptions, so that
a column without a description, or a file not regenerated, fails here."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.core import schema, tables
from pipeline.core.tables import LEADERBOARD
from pipeline.reports import columns

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = {
    "ingest.GAMES_INGEST": schema.GAMES_INGEST,
    "ingest.CACHE": schema.CACHE,
    "tables.GAMES": tables.GAMES,
    "tables.RATINGS": tables.RATINGS,
    "tables.CHANGES": tables.CHANGES,
    "tables.AWARDS": tables.AWARDS,
    "tables.PROMOTIONS": tables.PROMOTIONS,
    "leaderboards.LEADERBOARD": LEADERBOARD,
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_field_of_every_output_schema_has_a_description(name: str) -> None:
    assert columns.undescribed(SCHEMAS[name]) == []


def test_docs_columns_md_is_the_generators_output() -> None:
    written = (ROOT / "docs" / "columns.md").read_text(encoding="utf-8")
    assert written == columns.render(), "docs/columns.md is stale: run `make docs`"


def test_the_dictionary_lists_every_column_of_games_parquet() -> None:
    listed = {f.name for o in columns.outputs() if o.path == "games.parquet" for f in o.fields}
    assert listed == set(tables.GAMES.names)


def test_a_field_without_a_description_is_reported() -> None:
    assert columns.undescribed([pa.field("x", pa.int32()), schema.described("y", pa.int32(), "y")]) == ["x"]


@pytest.mark.parametrize("path", [o.path for o in columns.outputs()])
def test_every_column_the_dictionary_lists_has_a_description(path: str) -> None:
    (found,) = [o for o in columns.outputs() if o.path == path]
    assert columns.undescribed(found.fields) == []


@pytest.mark.parametrize("name", rules.names())
def test_the_dictionary_lists_each_rule_sets_own_changes_columns(name: str) -> None:
    rule_set = rules.create(name, Roster(), rules.validity(name))
    listed = [
        o.fields
        for o in columns.outputs()
        if o.path.startswith("changes/") and name in o.path.partition(": ")[2].split(", ")
    ]
    assert [[f.name for f in fields] for fields in listed] == [rule_set.change_fields.names]


def test_the_dictionary_lists_the_report_files_of_hkga_and_tga() -> None:
    paths = {o.path for o in columns.outputs()}
    assert {"fees.parquet: hkga", "certification.parquet: hkga", "fees.parquet: tga"} <= paths


def test_the_dictionary_gives_days_as_the_files_store_them() -> None:
    days = {str(f.type) for o in columns.outputs() for f in o.fields if f.name.endswith("date")}
    assert days == {str(tables.DAY)}
