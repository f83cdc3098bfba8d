"""Each rule set names the columns of ``changes`` its reports read, and the run reads back only those."""

from __future__ import annotations

import pytest

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.rules.replay import schemas_of


@pytest.mark.parametrize("name", rules.names())
def test_report_columns_are_columns_of_the_rule_sets_changes(name: str) -> None:
    rule_set = rules.create(name, Roster(), rules.validity(name))
    assert set(rule_set.report_columns) <= set(schemas_of(rule_set)["changes"].names)


def test_hkga_reports_read_the_player_date_seq_score_and_note_of_each_change() -> None:
    rule_set = rules.create("hkga", Roster(), rules.validity("hkga"))
    assert rule_set.report_columns == ("player", "date", "seq", "score", "note")
