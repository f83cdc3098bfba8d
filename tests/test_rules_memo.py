"""The rule sets' memo of their last standings (GoR family, cga-dan, tga) is a shortcut, never an input:
rating any period again from standings that are not the memo's, with the same rule-set object, gives
what a fresh rule set gives (a replay from the middle, an incremental run)."""

from __future__ import annotations

import pytest

from bench import rules_bench
from pipeline import rules
from pipeline.core.standings import PlayerState
from pipeline.rules.base import same_standings


def test_same_standings_holds_only_for_the_very_objects_in_order() -> None:
    a, b = PlayerState(100.0, "1d"), PlayerState(200.0, "2d")
    carried = {"a": a, "b": b}
    assert same_standings(dict(carried), carried)
    assert not same_standings({"a": PlayerState(100.0, "1d"), "b": b}, carried)  # equal is not the same
    assert not same_standings({"b": b, "a": a}, carried)
    assert not same_standings({"a": a}, carried)


@pytest.mark.parametrize("name", rules.names())
@pytest.mark.slow
def test_rating_an_earlier_period_again_with_the_same_rule_set_gives_the_fresh_outcome(name: str) -> None:
    periods = list(rules_bench.for_rule_set(name, rules_bench.games(1500, 1, 36)).items())
    rule_set = rules_bench.build(name)
    whole = list(rules_bench.rate_all(rule_set, dict(periods)))
    middle = len(periods) // 2
    label, played = periods[middle]
    again = rule_set.rate_period(label, played, [], whole[middle - 1].end)  # the memo holds the last period
    after = rule_set.rate_period(periods[middle + 1][0], periods[middle + 1][1], [], again.end)
    assert (repr(again), repr(after)) == (repr(whole[middle]), repr(whole[middle + 1]))
