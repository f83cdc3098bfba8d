"""pipeline/rules/whr_fit.py against the paper's definitions (Coulom 2008, docs/rules.md ("whr")): small cases
whose maximum a posteriori is found again by a direct optimiser (scipy.optimize.minimize) on the paper's
log-posterior, written here from the paper and not from the module: the Bradley–Terry likelihood of each
game, one virtual win and one virtual loss on each player's first day, and the Wiener process between a
player's consecutive days. The uncertainty (§3.3) against the inverse of a finite-difference Hessian."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from pipeline.rules import whr_fit as F

ELO = 400 / math.log(10)  # §2.1: R = r * 400 / ln 10


def paper_log_posterior(r, games, players, days, w2, centers):  # type: ignore[no-untyped-def]
    """The log-posterior of §2 (up to a constant): ``games`` as (black var, white var, Black's score,
    Black's advantage), variables' ``players`` and ``days``, ``w2`` per day, each player's prior centre."""
    total = 0.0
    for b, w, s, a in games:
        p = 1 / (1 + math.exp(-(r[b] + a - r[w])))  # P(Black wins) = γ_B / (γ_B + γ_W)
        total += s * math.log(p) + (1 - s) * math.log(1 - p)
    seen: set[int] = set()
    for k, player in enumerate(players):
        if player not in seen:  # the first day: one virtual win and one virtual loss against c
            seen.add(player)
            q = 1 / (1 + math.exp(-(r[k] - centers[player])))
            total += math.log(q) + math.log(1 - q)
        else:  # r(t2) - r(t1) ~ N(0, |t2 - t1| w²)
            variance = (days[k] - days[k - 1]) * w2
            total += -((r[k] - r[k - 1]) ** 2) / (2 * variance)
    return total


def problem_of(games, players, days, w2, centers, free=None):  # type: ignore[no-untyped-def]
    players_a, days_a = np.array(players), np.array(days)
    first = np.flatnonzero(np.r_[True, players_a[1:] != players_a[:-1]])
    return F.Problem(
        np.array([g[0] for g in games]),
        np.array([g[1] for g in games]),
        np.array([float(g[2]) for g in games]),
        np.array([float(g[3]) for g in games]),
        F.links(players_a, days_a, w2),
        first,
        np.array([centers[players[k]] for k in first], float),
        np.ones(len(players), bool) if free is None else np.array(free),
    )


def direct(games, players, days, w2, centers):  # type: ignore[no-untyped-def]
    found = minimize(
        lambda r: -paper_log_posterior(r, games, players, days, w2, centers),
        np.zeros(len(players)),
        method="BFGS",
        options={"gtol": 1e-10},
    )
    return found.x


def test_two_players_one_day_match_the_direct_optimiser() -> None:
    # A (variable 0) beats B (variable 1) twice and loses once, all on day 0; priors at 0
    games = [(0, 1, 1, 0.0), (1, 0, 1, 0.0), (0, 1, 1, 0.0)]
    r, _ = F.fit(problem_of(games, [0, 1], [0, 0], 1.0, [0.0, 0.0]), np.zeros(2), 1e-12)
    assert r == pytest.approx(direct(games, [0, 1], [0, 0], 1.0, [0.0, 0.0]), abs=1e-6)
    assert r[0] > 0 > r[1] and r[0] == pytest.approx(-r[1])  # symmetric priors: symmetric ratings


def test_by_hand_one_win_against_a_fixed_opponent() -> None:
    # A wins once against B held at 0, one day: d/dr [log σ(r) + log σ(r) + log σ(-r)] = 0
    # -> 2(1 - σ) - σ = 0 -> σ(r) = 2/3 -> r = ln 2 (120.4 Elo)
    problem = problem_of([(0, 1, 1, 0.0)], [0, 1], [0, 0], 1.0, [0.0, 0.0], free=[True, False])
    r, _ = F.fit(problem, np.zeros(2), 1e-12)
    assert r[0] == pytest.approx(math.log(2), abs=1e-9)
    assert r[1] == 0.0


def test_a_history_over_several_days_matches_the_direct_optimiser() -> None:
    # A: days 0, 3, 10 (variables 0-2); B: days 0, 10 (3, 4); C: day 3 (5); w² = 300 Elo² per day
    players, days = [0, 0, 0, 1, 1, 2], [0, 3, 10, 0, 10, 3]
    games = [(0, 3, 1, 0.0), (3, 0, 0, 0.0), (1, 5, 1, 0.0), (5, 1, 1, 0.0), (2, 4, 0, 0.0), (4, 2, 0, 0.0)]
    w2, centers = 300 / ELO**2, [0.0, 0.3, -0.2]
    r, _ = F.fit(problem_of(games, players, days, w2, centers), np.zeros(6), 1e-12)
    assert r == pytest.approx(direct(games, players, days, w2, centers), abs=1e-6)


def test_a_draw_is_half_a_win_and_half_a_loss() -> None:
    # a draw against an equal opponent, priors at 0: the maximum stays at 0 for both
    r, _ = F.fit(problem_of([(0, 1, 0.5, 0.0)], [0, 1], [0, 0], 1.0, [0.0, 0.0]), np.ones(2), 1e-12)
    assert r == pytest.approx([0.0, 0.0], abs=1e-9)


def test_an_advantage_shifts_the_estimate() -> None:
    # Black receives 0.4: Black winning against White held at 0 is less of a surprise than without it
    games = [(0, 1, 1, 0.4), (0, 1, 0, 0.4), (0, 1, 1, 0.4)]
    players, days = [0, 1], [0, 0]
    problem = problem_of(games, players, days, 1.0, [0.0, 0.0])
    r, _ = F.fit(problem, np.zeros(2), 1e-12)
    assert r == pytest.approx(direct(games, players, days, 1.0, [0.0, 0.0]), abs=1e-6)
    plain, _ = F.fit(problem_of([(a, b, s, 0.0) for a, b, s, _ in games], players, days, 1.0, [0.0, 0.0]),
                     np.zeros(2), 1e-12)  # fmt: skip
    assert r[0] - r[1] < plain[0] - plain[1]


def test_a_variable_held_fixed_keeps_its_value() -> None:
    problem = problem_of(
        [(0, 1, 1, 0.0), (0, 1, 1, 0.0)], [0, 1], [0, 0], 1.0, [0.0, 0.0], free=[True, False]
    )
    r, _ = F.fit(problem, np.array([0.0, 1.5]), 1e-12)
    assert r[1] == 1.5 and r[0] > 1.5


def test_the_gradient_is_zero_at_the_maximum() -> None:
    players, days = [0, 0, 1, 1], [0, 5, 0, 5]
    games = [(0, 2, 1, 0.0), (1, 3, 0, 0.0), (3, 1, 0, 0.0)]
    problem = problem_of(games, players, days, 60 / ELO**2, [0.0, 0.0])
    r, _ = F.fit(problem, np.zeros(4), 1e-12)
    assert np.abs(F.gradient(problem, r)).max() < 1e-9


def test_the_log_posterior_is_the_papers_up_to_a_constant() -> None:
    players, days = [0, 0, 1, 2], [0, 4, 4, 0]
    games = [(0, 3, 1, 0.2), (1, 2, 0, 0.0), (2, 1, 0.5, 0.0)]
    w2, centers = 0.01, [0.1, -0.3, 0.0]
    problem = problem_of(games, players, days, w2, centers)
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=4), rng.normal(size=4)
    mine = F.log_posterior(problem, a) - F.log_posterior(problem, b)
    paper = paper_log_posterior(a, games, players, days, w2, centers) - paper_log_posterior(
        b, games, players, days, w2, centers
    )
    assert mine == pytest.approx(paper, abs=1e-9)


def _block_hessian(games, players, days, w2, centers, r, of):  # type: ignore[no-untyped-def]
    """The Hessian of the paper's log-posterior in ``of`` (one player's variables), by finite differences."""
    h, k = 1e-4, len(of)
    found = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            total = 0.0
            for si, sj, sign in ((1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)):
                x = np.array(r, float)
                x[of[i]] += si * h
                x[of[j]] += sj * h
                total += sign * paper_log_posterior(x, games, players, days, w2, centers)
            found[i, j] = total / (4 * h * h)
    return found


def test_the_variance_is_the_inverse_of_the_players_own_hessian() -> None:
    # §3.3: the opponents held at their estimates, Σ = -H⁻¹ of the player's ratings; at the last day
    players, days = [0, 0, 0, 1, 1], [0, 2, 7, 0, 7]
    games = [(0, 3, 1, 0.0), (1, 3, 0, 0.0), (2, 4, 1, 0.0), (4, 2, 1, 0.0), (2, 4, 1, 0.0)]
    w2, centers = 100 / ELO**2, [0.0, 0.0]
    problem = problem_of(games, players, days, w2, centers)
    r, _ = F.fit(problem, np.zeros(5), 1e-12)
    found = F.variances(problem, r, np.array([2, 4]))
    for at, of in ((0, [0, 1, 2]), (1, [3, 4])):
        inverse = np.linalg.inv(-_block_hessian(games, players, days, w2, centers, r, of))
        assert found[at] == pytest.approx(inverse[-1, -1], rel=1e-4)


def test_the_tridiagonal_step_is_each_players_own_newton_step() -> None:
    # §3.1: r <- r - H⁻¹ g with H the player's own (tridiagonal) Hessian, the opponents fixed
    players, days = [0, 0, 1, 1, 1], [0, 3, 0, 1, 3]
    games = [(0, 2, 1, 0.0), (1, 4, 0, 0.0), (3, 0, 1, 0.0)]
    w2, centers = 50 / ELO**2, [0.2, -0.1]
    problem = problem_of(games, players, days, w2, centers)
    r = np.array([0.1, 0.3, -0.2, 0.0, 0.4])
    step = F.tridiagonal_step(problem, r)
    g = F.gradient(problem, r)
    for of in ([0, 1], [2, 3, 4]):
        hessian = _block_hessian(games, players, days, w2, centers, r, of)
        assert step[of] == pytest.approx(-np.linalg.solve(hessian, g[of]), rel=1e-4, abs=1e-8)


def test_a_warm_start_reaches_the_same_maximum() -> None:
    rng = np.random.default_rng(5)
    players = np.repeat(np.arange(6), 4)
    days = np.tile([0, 5, 9, 30], 6)
    black, white = rng.integers(0, 24, 60), rng.integers(0, 24, 60)
    keep = players[black] != players[white]
    games = [
        (int(b), int(w), float(rng.random() < 0.5), 0.0)
        for b, w in zip(black[keep], white[keep], strict=True)
    ]
    problem = problem_of(games, list(players), list(days), 14 / ELO**2, [0.0] * 6)
    cold, _ = F.fit(problem, np.zeros(24), 1e-12)
    warm, _ = F.fit(problem, rng.normal(size=24), 1e-12)
    assert warm == pytest.approx(cold, abs=1e-8)


def test_links_join_a_players_consecutive_days_only() -> None:
    # 1 / (w² × gap) within a player, 0 where the next variable is another player's first day
    found = F.links(np.array([0, 0, 0, 1, 1]), np.array([1, 3, 4, 2, 12]), 0.5)
    assert found == pytest.approx([1 / (0.5 * 2), 1 / (0.5 * 1), 0.0, 1 / (0.5 * 10)])
