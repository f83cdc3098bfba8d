"""rules.whr_fit: the mathematics of Whole-History Rating (Rémi Coulom, "Whole-History Rating: A Bayesian
Rating System for Players of Time-Varying Strength", Computers and Games 2008), as pure functions over numpy
arrays, vectorised over every player at once.

The model (the paper's §2): a player's strength on each day they played is a natural rating ``r = ln γ``
(Elo ``R = r · 400 / ln 10``); Black wins a game with the Bradley–Terry probability ``σ(r_B + a − r_W)``
(``σ`` the logistic function, ``a`` Black's advantage, 0 in an even game); a player's rating drifts as a
Wiener process, ``r(t2) − r(t1) ~ N(0, |t2 − t1| w²)``; the prior of each player's first day is one virtual
win and one virtual loss against a virtual opponent of fixed rating ``c`` (§4.1: a virtual player of rating
zero; here each player's own ``c``, see :class:`Problem`). A draw, where a rule set counts one, is half a
win and half a loss. The estimate is the maximum a posteriori of every rating of every player together.

The method (§3.1, appendices A and B): Newton's method on the log-posterior. Its Hessian is the paper's
tridiagonal block of each player (the games of each day, the Wiener links between consecutive days) plus
the couplings of the games between players. The paper applies one player's tridiagonal Newton step at a time
(and iterates over the players); taken for every player at once, those steps overshoot wherever players meet
(two players who only play each other take the same step twice, and oscillate). So here the players'
tridiagonal Newton steps, all at once (one LDLᵀ factorisation of every block: :func:`tridiagonal_step`), are
the preconditioner of a conjugate-gradient solution of the whole Newton system: its first iterate is the
paper's step for every player, scaled to the best length, and the next ones correct for the couplings. The
log-posterior is concave, so the maximum is the paper's (one maximum), whichever way it is reached. A step
that would lower the log-posterior is halved until it does not (the start can be far for a newcomer).

Uncertainty (§3.3, appendix B.2): the variance of a player's rating on a day is the diagonal of the inverse
of minus their own tridiagonal Hessian at the maximum, the opponents held at their estimates
(:func:`variances`).

Sums are numpy's pairwise sums, never BLAS: equal inputs give equal bits, whatever the threads (a resumed
run must equal one from scratch). Knows nothing of names, games, dates or periods: indices, day gaps and
numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Array = np.ndarray[Any, np.dtype[Any]]

#: Elo points per natural unit: ``R = r · ELO`` (the paper's §2.1).
ELO = 400.0 / math.log(10.0)
#: Newton stops after a step that moved no rating by more than this (natural units: 0.017 Elo). The
#: convergence is superlinear, so the ratings are then much closer to the maximum: within 2e-4 Elo on
#: 3×10^4 games of bench/rules_bench.py (against a tolerance of 1e-10).
TOLERANCE = 1e-4
MAX_NEWTON = 100
MAX_CG = 500
_HALVINGS = 60
_FLOOR = 1e-9


@dataclass(frozen=True, slots=True)
class Problem:
    """``n`` rating variables (each player's days in order, the players one after another, then any
    variable held fixed) and the games between them.

    ``black``, ``white``: each game's variables (int64); ``score``: Black's score (1, 0, 0.5 a draw);
    ``advantage``: Black's advantage in natural units; ``link`` (``n − 1``): the precision ``1/σ²`` of the
    Wiener link between variables ``k`` and ``k + 1`` (``σ² = w² ×`` the days between them), 0 where
    ``k + 1`` is not the same player's next day (:func:`links`); ``first``: the variables with the prior
    (each free player's first day), ``center`` the rating of the virtual opponent of each; ``free``: False
    for the variables held at their value (a fixed rating, a visitor's), which carry no link.
    """

    black: Array
    white: Array
    score: Array
    advantage: Array
    link: Array
    first: Array
    center: Array
    free: Array

    @property
    def size(self) -> int:
        """The number of rating variables."""
        return len(self.free)


def natural(w2_elo: float) -> float:
    """A variance in Elo² (the rule set's ``w2``, per day) in natural units²."""
    return w2_elo / (ELO * ELO)


def links(player: Array, day: Array, w2: float) -> Array:
    """The Wiener precisions :attr:`Problem.link` of variables sorted by (``player``, ``day``): ``1 / (w2 ×
    gap)`` between a player's consecutive days (``w2`` in natural units² per day), 0 between players."""
    same = player[1:] == player[:-1]
    gap = (day[1:] - day[:-1]).astype(np.float64)
    found = np.zeros(len(gap), dtype=np.float64)
    found[same] = 1.0 / (w2 * gap[same])
    return found


def log_posterior(problem: Problem, r: Array) -> float:
    """The log-posterior of the ratings ``r``, up to a constant: the games' Bradley–Terry log-likelihood, the
    first days' virtual win and loss, and the Wiener links' Gaussian log-densities."""
    return _evaluate(problem, r).value


def gradient(problem: Problem, r: Array) -> Array:
    """The gradient of :func:`log_posterior` at ``r`` (0 for the variables held fixed)."""
    return _evaluate(problem, r).gradient


@dataclass(frozen=True, slots=True)
class _Point:
    """The log-posterior at ``r``: its ``value``, ``gradient``, and minus its Hessian: each game's
    ``weight`` ``p(1 − p)``, the prior's curvature at each first day (``prior``) and the ``diagonal`` of the
    players' tridiagonal blocks (their off-diagonal is minus the links)."""

    r: Array
    value: float
    gradient: Array
    weight: Array
    prior: Array
    diagonal: Array


def _evaluate(problem: Problem, r: Array) -> _Point:
    from scipy.special import expit  # (lazily: docs/design.md#lazy-imports)

    n, black, white, first = problem.size, problem.black, problem.white, problem.first
    x = r[black] + problem.advantage - r[white]
    log_win = -np.logaddexp(0.0, -x)  # log σ(x); log σ(−x) = log σ(x) − x
    s = problem.score
    p = np.exp(log_win)
    y = r[first] - problem.center
    q = expit(y)
    step = r[1:] - r[:-1]
    pull = problem.link * step
    value = (
        (log_win - (1.0 - s) * x).sum()  # s log σ(x) + (1 − s) log σ(−x)
        - (2.0 * np.logaddexp(0.0, -y) + y).sum()  # log σ(y) + log σ(−y)
        - 0.5 * (pull * step).sum()
    )
    residue, weight = s - p, p * (1.0 - p)
    found: Array = np.bincount(black, residue, n) - np.bincount(white, residue, n)
    found[first] += 1.0 - 2.0 * q
    found[:-1] += pull
    found[1:] -= pull
    found[~problem.free] = 0.0
    prior = 2.0 * q * (1.0 - q)
    diagonal: Array = np.bincount(black, weight, n) + np.bincount(white, weight, n)
    diagonal[first] += prior
    diagonal[:-1] += problem.link
    diagonal[1:] += problem.link
    diagonal[~problem.free] = 1.0
    return _Point(r, float(value), found, weight, prior, diagonal)


@dataclass(frozen=True, slots=True)
class _Factor:
    """The LDLᵀ factors (``d``, ``e``: LAPACK's ``dpttrf``) of the players' tridiagonal blocks, one symmetric
    positive-definite tridiagonal matrix (the links between players are 0)."""

    d: Array
    e: Array


def _factor(problem: Problem, point: _Point) -> _Factor:
    """The blocks' factors, :data:`_FLOOR` added to their diagonal: every block stays positive definite
    (strictly diagonally dominant) however far a rating strays, where a game's or the prior's curvature
    underflows to 0; next to a day's curvature (0.1 and more) it changes nothing that shows."""
    from scipy.linalg import lapack  # (lazily: docs/design.md#lazy-imports)

    d, e, info = lapack.dpttrf(point.diagonal + _FLOOR, -problem.link)
    if info != 0:  # (cannot be: every block has the prior or is held fixed)
        raise ArithmeticError(f"the tridiagonal blocks are not positive definite (dpttrf info {info})")
    return _Factor(d, e)


def _times(problem: Problem, point: _Point, v: Array) -> Array:
    """Minus the Hessian at ``point`` times ``v`` (rows of the variables held fixed: 0)."""
    n = problem.size
    u = point.weight * (v[problem.black] - v[problem.white])
    found = np.bincount(problem.black, u, n) - np.bincount(problem.white, u, n)
    found[problem.first] += point.prior * v[problem.first]
    pull = problem.link * (v[1:] - v[:-1])
    found[:-1] -= pull
    found[1:] += pull
    found[~problem.free] = 0.0
    return found


def _blocks(factor: _Factor, v: Array) -> Array:
    """The players' tridiagonal blocks solved for ``v``: every player's own Newton step."""
    from scipy.linalg import lapack  # (lazily: docs/design.md#lazy-imports)

    solved, info = lapack.dpttrs(factor.d, factor.e, v)
    if info != 0:
        raise ArithmeticError(f"dpttrs info {info}")
    found: Array = solved
    return found


def tridiagonal_step(problem: Problem, r: Array) -> Array:
    """The paper's Newton step of every player at once, each from their own tridiagonal Hessian with the
    opponents held fixed (§3.1): what :func:`newton_step` starts from."""
    point = _evaluate(problem, r)
    return _blocks(_factor(problem, point), point.gradient)


def newton_step(problem: Problem, r: Array, tolerance: float) -> tuple[Array, int]:
    """The Newton step at ``r``: minus the Hessian solved for the gradient by conjugate gradients
    preconditioned by the players' tridiagonal blocks, to a residual of ``tolerance`` times the gradient's;
    and the iterations it took."""
    return _solve(problem, _evaluate(problem, r), tolerance)


def _solve(problem: Problem, point: _Point, tolerance: float) -> tuple[Array, int]:
    factor = _factor(problem, point)
    return _conjugate_gradients(
        lambda v: _times(problem, point, v), lambda v: _blocks(factor, v), point.gradient, tolerance
    )


def _conjugate_gradients(
    times: Callable[[Array], Array], precondition: Callable[[Array], Array], b: Array, tolerance: float
) -> tuple[Array, int]:
    x = np.zeros_like(b)
    residue = b.copy()
    z = precondition(residue)
    direction = z.copy()
    rz = float((residue * z).sum())
    goal = tolerance * tolerance * float((b * b).sum())
    for iteration in range(1, MAX_CG + 1):
        if float((residue * residue).sum()) <= goal or rz == 0.0:
            return x, iteration - 1
        product = times(direction)
        curve = float((direction * product).sum())
        if curve <= 0.0:
            break
        alpha = rz / curve
        x += alpha * direction
        residue -= alpha * product
        z = precondition(residue)
        rz, previous = float((residue * z).sum()), rz
        direction = z + (rz / previous) * direction
    return x, MAX_CG


def fit(problem: Problem, start: Array, tolerance: float = TOLERANCE) -> tuple[Array, int]:
    """The maximum a posteriori of ``problem`` from the ratings ``start`` (the variables held fixed keep
    their value), and the Newton steps it took: steps until none moves a rating by more than
    ``tolerance`` (at most :data:`MAX_NEWTON`)."""
    r = start.astype(np.float64, copy=True)
    if not problem.free.any():
        return r, 0
    point = _evaluate(problem, r)
    for step in range(1, MAX_NEWTON + 1):
        largest = float(np.abs(point.gradient).max())
        if largest == 0.0:
            return point.r, step - 1
        delta, _ = _solve(problem, point, min(0.1, max(1e-12, math.sqrt(largest))))
        point, moved = _ascend(problem, point, delta)
        if moved <= tolerance:
            return point.r, step
    return point.r, MAX_NEWTON


def _ascend(problem: Problem, point: _Point, delta: Array) -> tuple[_Point, float]:
    """``point`` moved by ``delta``, halved until the log-posterior does not fall, and the largest move."""
    for _ in range(_HALVINGS):
        moved = _evaluate(problem, point.r + delta)
        if moved.value >= point.value - 1e-12 * abs(point.value):
            return moved, float(np.abs(delta).max())
        delta = delta * 0.5
    return point, 0.0


def variances(problem: Problem, r: Array, at: Array) -> Array:
    """The variance (natural units²) of the ratings ``at`` (at most one variable per player: their last day,
    say), each from the inverse of minus their player's tridiagonal Hessian at ``r``, the opponents fixed."""
    unit = np.zeros(problem.size, dtype=np.float64)
    unit[at] = 1.0
    return _blocks(_factor(problem, _evaluate(problem, r)), unit)[at]


def expected(own: Array, other: Array, advantage: Array) -> Array:
    """The Bradley–Terry probability that a player of rating ``own`` with ``advantage`` beats ``other``
    (natural units)."""
    from scipy.special import expit  # (lazily: docs/design.md#lazy-imports)

    found: Array = expit(own + advantage - other)
    return found
