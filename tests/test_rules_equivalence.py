"""Every rule set gives exactly the outcomes it gave before its per-game loop was tightened, on the
rule-set benchmark's server-shaped games (bench/rules_bench.py), also when resumed from saved standings."""

from __future__ import annotations

import pytest

from bench import rules_bench

pytestmark = pytest.mark.slow

#: sha256 of the repr of every period's outcome over rules_bench.games(3000, seed 1, 24 months), computed
#: with the implementation before the per-game loops were tightened (issue 11, item 3).
PINNED = {
    "cga": "9f21387d2e246189cc16709cdb86fe33d0bd255c13aaf27648f8fe49b4f35242",
    "cga-dan": "b5267d32bfd5c85cb31bd99ddb593355c18a803d445ed9702e8f2a6fd6cbcd09",
    "club": "50bb51727dead63e2d83ce9daee08cdac65ca102dbbae908c894aeb6386e0f68",
    "egf": "05916b0410f43131a63470caa89952a80e8e49f047a5d385c168634abaee644b",
    "egf2021": "c8d703c683187dd282f7440abe873070f0e57f6c52c4bb46e3ae700e250d22b0",
    "hkga": "5a5e26a298c09726012af74ab00be88b8cdb8e9f93d98203f13c6e251bba6fbb",
    "tga": "011fc3e5c4a26133b13a2df70aa601fda6f30f5505c54080dd8a1ec96c622e5d",
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
