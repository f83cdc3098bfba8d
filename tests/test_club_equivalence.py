"""The club rule set gives exactly the outcomes it gave before its per-game loop
was tightened, on the rule-set benchmark's server-shaped games (bench/rules_bench.py)."""

from __future__ import annotations

import pytest

from bench import rules_bench

#: sha256 of the repr of every period's outcome over rules_bench.games(3000, seed 1, 24 months), computed
#: with the implementation before the per-game loop was tightened (issue 11, item 3).
PINNED = {
    "club": "50bb51727dead63e2d83ce9daee08cdac65ca102dbbae908c894aeb6386e0f68",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_outcomes_equal_the_pinned_ones(name: str) -> None:
    assert rules_bench.digest(name, 3000) == PINNED[name]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_a_run_resumed_from_pickled_standings_gives_the_same_outcomes(name: str) -> None:
    whole = list(
        rules_bench.rate_all(
            rules_bench.build(name), rules_bench.for_rule_set(name, rules_bench.games(3000, 1, 24))
        )
    )
    assert repr(rules_bench.resumed(name, 3000, at=(len(whole) - 1) // 2)) == repr(whole)
