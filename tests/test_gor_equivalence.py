"""The GoR family (hkga, egf, egf2021, cga) gives exactly the outcomes it gave before its per-game loop
was tightened, on the rule-set benchmark's server-shaped games (bench/rules_bench.py)."""

from __future__ import annotations

import pytest

from bench import rules_bench

#: sha256 of the repr of every period's outcome over rules_bench.games(3000, seed 1, 24 months), computed
#: with the implementation before the per-game loop was tightened (issue 11, item 3).
PINNED = {
    "hkga": "5a5e26a298c09726012af74ab00be88b8cdb8e9f93d98203f13c6e251bba6fbb",
    "egf": "05916b0410f43131a63470caa89952a80e8e49f047a5d385c168634abaee644b",
    "egf2021": "c8d703c683187dd282f7440abe873070f0e57f6c52c4bb46e3ae700e250d22b0",
    "cga": "9f21387d2e246189cc16709cdb86fe33d0bd255c13aaf27648f8fe49b4f35242",
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
