"""Each registered rule set's record (pipeline.rules.family.Family) says what the rule set does, and every
list of rule sets elsewhere in the package is the records' (the scales, the report files and who writes
them, the explanations' shapes and floors, the number formats, the site's sentences)."""

from __future__ import annotations

import math

import pyarrow as pa
import pytest

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.reports import REPORT_FILES, REPORT_RULE_SETS
from pipeline.reports.explain.families import style
from pipeline.reports.numbers import NumberFormat, formats
from pipeline.rules.base import RuleSet
from pipeline.rules.replay import schemas_of
from pipeline.rules.scales import RATING_KEYS, SCALES
from pipeline.site.rules import RULE_SETS


def built(name: str) -> RuleSet:
    return rules.create(name, Roster(), rules.validity(name))


@pytest.mark.parametrize("name", rules.names())
def test_a_record_names_the_rule_set_it_builds(name: str) -> None:
    record = rules.family(name)
    assert (record.name, built(name).name) == (name, name)
    assert record.scale is None or record.scale.name == name


@pytest.mark.parametrize("name", rules.names())
def test_a_records_reports_are_the_files_its_rule_set_writes(name: str) -> None:
    rule_set = built(name)
    empty = {k: s.empty_table() for k, s in schemas_of(rule_set).items()}
    written = rule_set.reports(empty["changes"], empty["promotions"])
    assert sorted(r.file for r in rules.family(name).reports) == sorted(written)
    assert all(isinstance(t, pa.Table) for t in written.values())


@pytest.mark.parametrize("name", rules.names())
def test_a_records_floor_is_the_floor_of_the_formula_it_builds(name: str) -> None:
    formula = getattr(built(name), "formula", None)
    floor = None if formula is None or math.isinf(formula.floor) else formula.floor
    assert rules.family(name).floor == floor


def test_the_report_files_and_their_writers_are_the_records() -> None:
    assert dict(REPORT_FILES) == {
        "certification": "certification.parquet",
        "fees": "fees.parquet",
        "promotions": "promotions.parquet",
    }
    assert dict(REPORT_RULE_SETS) == {
        "certification": ("hkga",),
        "fees": ("hkga", "tga"),
        "promotions": ("cga-dan", "tga"),
    }


def test_the_scales_are_the_records() -> None:
    assert {name: (s.family, s.low, s.high) for name, s in SCALES.items()} == {
        "club": ("club", -1000.0, 5000.0),
        "hkga": ("gor", 100.0, 3000.0),
        "egf": ("gor", 100.0, 3000.0),
        "egf2021": ("gor", -900.0, 3300.0),
        "cga": ("cga", 1000.0, 3500.0),
        "glicko2": ("glicko2", 100.0, 6000.0),
        "whr": ("whr", 0.0, 4000.0),
    }
    assert RATING_KEYS == ("club", "gor", "cga", "glicko2", "whr", "hkga", "egf", "egf2021")


def test_the_explanations_formats_and_sentences_are_the_records() -> None:
    assert {n: style(n) for n in rules.names()} == {
        "cga": "elo",
        "cga-dan": "dan-points",
        "club": "club",
        "egf": "gor",
        "egf2021": "gor-bonus",
        "glicko2": "generic",
        "hkga": "gor",
        "tga": "rank",
        "whr": "generic",
    }
    assert style("unknown") == "generic"
    assert dict(formats()) == {
        n: NumberFormat(0 if n == "tga" else 2, trim=n == "club") for n in rules.names()
    }
    assert set(RULE_SETS) == set(rules.names()) and all(RULE_SETS.values())


def test_only_tga_reads_every_event_as_recognised_without_an_events_file() -> None:
    assert {n: rules.implicit_event_kind(n) for n in rules.names()} == {
        n: ("recognised" if n == "tga" else None) for n in rules.names()
    }
