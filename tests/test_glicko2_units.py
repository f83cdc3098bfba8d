"""Unit tests of the glicko2 rule set (pipeline/rules/glicko2.py, glicko2_rules.py): Glickman's own worked
example, OGS's rank scale, the idle growth of the deviation, the handicap offset and the ``[rules]``
parameters. The example's numbers are the paper's (Mark E. Glickman, "Example of the Glicko-2 system",
glicko.net/glicko/glicko2.pdf), typed in, each to the precision the paper prints; the others are worked by
hand in a comment."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import numpy as np
import pytest

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.config.toml import ConfigError, Table
from pipeline.core.ranks import parse_rank
from pipeline.core.standings import PlayerState
from pipeline.rules import glicko2 as g2
from pipeline.rules.base import Game, PeriodOutcome

# ------------------------------------------------------------------------ Glickman's worked example
# A player rated 1500, RD 200, σ 0.06 (τ 0.5) plays three games in one period: beats 1400 (RD 30), loses
# to 1550 (RD 100) and to 1700 (RD 300). The paper: μ = 0, φ = 1.1513; the opponents' μ_j −0.5756,
# 0.2878, 1.1513 and φ_j 0.1727, 0.5756, 1.7269; g(φ_j) 0.9955, 0.9531, 0.7242; E 0.639, 0.432, 0.303;
# v = 1.7785; Δ = −0.4834; σ' = 0.05999; φ' = 0.8722, μ' = −0.2069: r' = 1464.06, RD' = 151.52.
OPPONENTS = {"a": (1400.0, 30.0), "b": (1550.0, 100.0), "c": (1700.0, 300.0)}
RESULTS = {"a": "B", "b": "W", "c": "W"}  # the player is Black: won, lost, lost


def example_period() -> PeriodOutcome:
    """The example as the rule set rates it: one period, the player and the opponents as their states at
    its start (the deviations as they are: each played the period before)."""
    rule_set = rules.create("glicko2", Roster(), rules.validity("glicko2"))
    state = {
        name: PlayerState(rating, "?", 10, extra={"deviation": rd, "volatility": 0.06, "at": 24_291})
        for name, (rating, rd) in {"p": (1500.0, 200.0), **OPPONENTS}.items()
    }
    games = [
        Game(f"g{i}", i, dt.date(2024, 5, 1 + i), "p", name, RESULTS[name], "slow")
        for i, name in enumerate(OPPONENTS)
    ]
    return rule_set.rate_period("2024-05", games, [], state)  # ordinal 24_292: right after 24_291


def example_update() -> g2.Period:
    """The example through :func:`pipeline.rules.glicko2.update`, on the Glicko-2 scale."""
    ratings = np.array([1500.0, *(r for r, _ in OPPONENTS.values())])
    deviations = np.array([200.0, *(d for _, d in OPPONENTS.values())])
    mu, phi = (ratings - 1500) / g2.SCALE, deviations / g2.SCALE
    own, opp = np.zeros(3, np.intp), np.arange(1, 4)
    sigma = np.full(4, 0.06)
    score = np.array([1.0, 0.0, 0.0])
    return g2.update((mu, phi, sigma), own, (mu[opp], phi[opp]), score, np.zeros(3), 0.5)


def test_glickmans_example_scale_conversion() -> None:
    mu, phi = (1400 - 1500) / g2.SCALE, 300 / g2.SCALE
    assert (mu, phi) == pytest.approx((-0.5756, 1.7269), abs=5e-5)


def test_glickmans_example_g_and_e() -> None:
    found = example_update()
    assert found.g == pytest.approx([0.9955, 0.9531, 0.7242], abs=5e-5)
    assert found.e == pytest.approx([0.639, 0.432, 0.303], abs=5e-4)


def test_glickmans_example_v_and_delta() -> None:
    # the paper computes v and Δ from E rounded to three places (0.639, 0.432, 0.303): they are as close
    # as that rounding allows (exactly 1.77898 and −0.48393)
    found = example_update()
    v = 1 / np.sum(found.g**2 * found.e * (1 - found.e))
    assert v == pytest.approx(1.7785, abs=1e-3)
    assert v * np.sum(found.g * (np.array([1.0, 0, 0]) - found.e)) == pytest.approx(-0.4834, abs=1e-3)


def test_glickmans_example_new_volatility_deviation_and_mu() -> None:
    found = example_update()
    assert found.sigma[0] == pytest.approx(0.05999, abs=1e-5)  # the paper writes 0.05999 for 0.059996
    assert found.phi[0] == pytest.approx(0.8722, abs=5e-5)
    assert found.mu[0] == pytest.approx(-0.2069, abs=5e-5)


def test_glickmans_example_through_the_rule_set_gives_1464_06_and_151_52() -> None:
    # the paper rounds its intermediate values: r' = 1464.06 (exactly 1464.0507), RD' = 151.52
    outcome = example_period()
    player = outcome.end["p"]
    assert player.rating == pytest.approx(1464.06, abs=0.015)
    assert player.extra["deviation"] == pytest.approx(151.52, abs=0.005)
    assert player.extra["volatility"] == pytest.approx(0.05999, abs=1e-5)


def test_glickmans_example_changes_split_the_periods_change() -> None:
    outcome = example_period()
    mine = [c for c in outcome.changes if c.player == "p"]
    assert [c.opponent for c in mine] == ["a", "b", "c"]
    assert sum(c.points for c in mine) == pytest.approx(outcome.end["p"].rating - 1500.0, abs=1e-9)
    assert [c.deviation for c in mine] == [200.0, 200.0, 200.0]
    assert [c.detail["e"] for c in mine] == pytest.approx([0.639, 0.432, 0.303], abs=5e-4)


def test_the_deviation_of_the_outcome_is_each_players_at_the_periods_end() -> None:
    outcome = example_period()
    assert outcome.deviation is not None
    found = dict(zip(outcome.end, outcome.deviation, strict=True))
    assert found["p"] == pytest.approx(151.52, abs=0.005)
    assert found["a"] == outcome.end["a"].extra["deviation"]


def test_the_predicted_scores_of_a_game_sum_to_one() -> None:
    outcome = example_period()
    by_game: dict[str, float] = {}
    for c in outcome.changes:
        by_game[c.game_id] = by_game.get(c.game_id, 0.0) + c.detail["se"]
    assert list(by_game.values()) == pytest.approx([1.0, 1.0, 1.0])


# -------------------------------------------------------------------------------------- rank scale


@pytest.mark.parametrize(
    ("rank", "rating"),
    [
        # OGS: 525 e^(n/23.15), n = 0 for 30k, 29 for 1k, 30 for 1d, 38 for 9d
        ("30k", 525.0),  # e^0 = 1
        ("1k", 1837.38),  # 29/23.15 = 1.25270, e^ = 3.49978
        ("1d", 1918.49),  # 30/23.15 = 1.29590, e^ = 3.65427
        ("9d", 2710.44),  # 38/23.15 = 1.64147, e^ = 5.16275
        ("1p", 2486.11),  # as 7d: 36/23.15 = 1.55508, e^ = 4.73545
    ],
)
def test_rank_scale_is_ogs(rank: str, rating: float) -> None:
    assert g2.rating_for_rank(parse_rank(rank)) == pytest.approx(rating, abs=0.005)


def test_no_rank_starts_at_1500_which_reads_6k() -> None:
    # 23.15 ln(1500/525) = 24.30: nearest rank number 24, 30 − 24 = 6k
    assert (g2.rating_for_rank(None), g2.rank_for_rating(1500.0)) == (1500.0, "6k")


@pytest.mark.parametrize("rank", ["30k", "15k", "1k", "1d", "5d", "9d"])
def test_a_ranks_starting_rating_reads_back_as_the_rank(rank: str) -> None:
    assert g2.rank_for_rating(g2.rating_for_rank(parse_rank(rank))) == rank


def test_ratings_outside_the_scale_read_30k_and_9d() -> None:
    assert [g2.rank_for_rating(r) for r in (-50.0, 0.0, 400.0, 4000.0)] == ["30k", "30k", "30k", "9d"]
    assert g2.rank_labels(np.array([-50.0, 400.0, 1500.0, 4000.0, math.nan])) == [
        "30k",
        "30k",
        "6k",
        "9d",
        "30k",
    ]


# ----------------------------------------------------------------------------- growth and handicap


def test_idle_periods_grow_the_deviation_in_closed_form() -> None:
    # 173.7178 × 0.06 = 10.42307, squared 108.640; RD 100 after 3 idle periods: √(10000 + 325.92) = 101.6165
    found = g2.grown(np.array([100.0]), np.array([0.06]), np.array([3.0]), 350.0)
    assert found[0] == pytest.approx(101.6165, abs=5e-5)


def test_growth_stops_at_the_starting_deviation() -> None:
    found = g2.grown(np.array([340.0, 360.0]), np.array([0.06, 0.06]), np.array([100.0, 5.0]), 350.0)
    assert list(found) == [350.0, 360.0]  # capped; one already above stays where it is


def test_a_handicap_raises_blacks_rating_by_h_minus_a_half_grades() -> None:
    # 3 stones: 1500 (e^(2.5/23.15) − 1) = 1500 × 0.114038 = 171.06; an even game: 0
    assert g2.handicap_offset(1500.0, 3) == pytest.approx(171.06, abs=0.005)
    assert g2.handicap_offset(1500.0, 0) == 0.0
    assert g2.handicap_offset(-20.0, 1) == pytest.approx(100 * math.expm1(0.5 / 23.15))


# -------------------------------------------------------------------------------------- parameters


def table(text: dict[str, object]) -> Table:
    return Table(Path("ratings.toml"), "[rules]", text)


def test_the_parameters_default_to_glickmans_values() -> None:
    built = rules.create("glicko2", Roster(), rules.validity("glicko2"))
    assert built.params.tau == 0.5  # type: ignore[attr-defined]
    assert (built.params.deviation, built.params.volatility) == (350.0, 0.06)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("key", "value"), [("tau", 0), ("deviation", -1), ("volatility", "x"), ("tau", math.inf), ("tau", True)]
)
def test_a_bad_parameter_names_its_key_and_value(key: str, value: object) -> None:
    with pytest.raises(ConfigError) as error:
        rules.create("glicko2", Roster(), rules.validity("glicko2"), table({key: value}))
    assert f"[rules] {key} must be a number > 0" in str(error.value)


def test_a_gor_parameter_is_not_a_glicko2_one() -> None:
    with pytest.raises(ConfigError, match="'epsilon' is not a known key; expected one of: deviation, tau"):
        rules.create("glicko2", Roster(), rules.validity("glicko2"), table({"epsilon": 0.01}))


def test_no_shows_are_not_rated_by_default_and_the_rest_count() -> None:
    valid = rules.validity("glicko2")
    assert [valid.excludes(c) for c in ("no_show", "draw", "handicap", "non_member")] == [
        True,
        False,
        False,
        False,
    ]


# ------------------------------------------------------------------------------- resumed replay


@pytest.mark.slow
def test_a_run_resumed_from_pickled_standings_gives_the_same_outcomes_and_deviations() -> None:
    # the arrays the closed standings carry are lost in the pickle: rebuilt from each player's extra
    from bench import rules_bench

    periods = rules_bench.for_rule_set("glicko2", rules_bench.games(3000, 1, 24))
    whole = list(rules_bench.rate_all(rules_bench.build("glicko2"), periods))
    resumed = rules_bench.resumed("glicko2", 3000, at=(len(whole) - 1) // 2)
    assert repr(resumed) == repr(whole)
    assert [list(o.deviation) for o in resumed] == [list(o.deviation) for o in whole]  # type: ignore[arg-type]
    changed = [[c.deviation for c in o.changes] for o in whole]
    assert [[c.deviation for c in o.changes] for o in resumed] == changed
