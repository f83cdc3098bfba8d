"""rules.glicko2: the arithmetic of Glicko-2 over a whole rating period at once, and its rank scale.

Source: Mark E. Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf), steps 1 to 8:
a rating ``r`` and deviation ``RD`` are ``μ = (r − 1500)/173.7178`` and ``φ = RD/173.7178`` on the
Glicko-2 scale; for each player of a period, over their games ``j`` against opponents ``μ_j``, ``φ_j``
with scores ``s_j``, ``g(φ) = 1/√(1 + 3φ²/π²)``, ``E = 1/(1 + e^(−g(φ_j)(μ − μ_j)))``,
``v = 1/Σ g(φ_j)² E (1 − E)``, ``Δ = v Σ g(φ_j)(s_j − E)``; the new volatility ``σ'`` is the root of
``f(x) = e^x(Δ² − φ² − v − e^x) / (2(φ² + v + e^x)²) − (x − ln σ²)/τ²`` by the Illinois algorithm (step
5, to ε = 0.000001); ``φ* = √(φ² + σ'²)``, ``φ' = 1/√(1/φ*² + 1/v)``, ``μ' = μ + φ'² Σ g(φ_j)(s_j − E)``.
A player who does not play is moved by step 6 alone, ``φ' = √(φ² + σ²)``; over ``k`` idle periods
``√(φ² + kσ²)`` (the closed form OGS uses, goratings ``glicko2.py``). :func:`update` computes every
player of a period together with numpy (one array a quantity, the Illinois iterations over all
players at once), not a loop per player.

The rank scale (:func:`rating_for_rank`, :func:`rank_for_rating`) is OGS's (online-go.com, the Go server
that rates with Glicko-2): ``rating = 525 e^(n/23.15)``, ``n`` the rank as a number, 0 for 30k, 29 for 1k,
30 for 1d, 38 for 9d (goratings ``analysis/util/RatingMath.py``: ``A = 525``, ``C = 23.15``; 1d there is
rank 30). Decisions (OGS has no professional ranks and the records have no rating): a professional
``p`` dan is read as 7d plus a third of a grade a dan (1p = 7d, 9p ≈ 9.7d), as the GoR scale does
(1p = 7d, +30 a pro dan); a player with no rank starts at 1500, Glickman's (and OGS's) rating of an
unrated player (about 6k on this scale). The handicap is a rank offset, as OGS does it
(``get_handicap_adjustment``): Black's rating is taken ``H − 0.5`` grades higher for ``H`` stones
(``HA[1]``, no komi, half a grade), the half stone the GoR family gives too, that is multiplied by
``e^((H − 0.5)/23.15)``, from at least 100 (OGS's lowest rating), so that a rating near or under zero
still gains.

Knows nothing of games, players' names or files: arrays in, arrays out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipeline.core.ranks import Rank

#: Glicko-2's scale: ``173.7178 = 400/ln 10``, and the rating at ``μ = 0``.
SCALE, CENTRE = 173.7178, 1500.0
#: The convergence tolerance of the volatility iteration (Glickman's step 5).
EPSILON = 0.000001
#: Glickman's values for an unrated player and his example's τ (the defaults of ``[rules]``).
DEVIATION, VOLATILITY, TAU = 350.0, 0.06, 0.5
#: OGS's rank scale: ``rating = A e^(rank/C)``; ranks 0 (30k) .. 38 (9d).
OGS_A, OGS_C = 525.0, 23.15
_DAN_1 = 30  # the rank number of 1d (29 is 1k, 0 is 30k)
#: OGS's lowest rating (goratings ``MIN_RATING``): the handicap offset is computed from at least this.
HANDICAP_FLOOR = 100.0
_STEPS = 100  # at most this many iterations of each loop of step 5 (it converges in a few)

Array = np.ndarray[Any, np.dtype[np.float64]]


def rank_number(rank: Rank) -> float:
    """OGS's number of ``rank``: 30k 0 ... 1k 29, 1d 30 ... 9d 38; a professional ``p`` dan 7d plus a third
    of a grade a dan (1p 36, 9p 38.67)."""
    if rank.kind == "k":
        return float(_DAN_1 - rank.value)
    if rank.kind == "d":
        return float(_DAN_1 - 1 + rank.value)
    return _DAN_1 + 6 + (rank.value - 1) / 3


def rating_for_rank(rank: Rank | None) -> float:
    """The starting rating of ``rank`` on OGS's scale (1d 1918.49, 1k 1837.38, 30k 525, 9d 2710.44); None
    (no rank known): 1500."""
    if rank is None:
        return CENTRE
    return OGS_A * math.exp(rank_number(rank) / OGS_C)


def rank_for_rating(rating: float) -> str:
    """The grade whose rank number is nearest to ``rating``'s (ties upwards), 30k to 9d: 1918.49 -> 1d,
    1500 -> 6k; a rating under 525 (or not positive) is 30k."""
    if not rating > OGS_A:
        return "30k"
    grade = math.floor(OGS_C * math.log(rating / OGS_A) + 0.5)
    return f"{min(grade - _DAN_1 + 1, 9)}d" if grade >= _DAN_1 else f"{_DAN_1 - grade}k"


#: The grade labels by rank number, 0 (30k) to 38 (9d).
_LABELS = (*(f"{_DAN_1 - n}k" for n in range(_DAN_1)), *(f"{n - _DAN_1 + 1}d" for n in range(_DAN_1, 39)))


def rank_labels(ratings: Array) -> list[str]:
    """:func:`rank_for_rating` of each of ``ratings`` at once."""
    safe = np.where(ratings > OGS_A, ratings, OGS_A)  # (NaN and <= 525: 30k)
    grades = np.clip(np.floor(OGS_C * np.log(safe / OGS_A) + 0.5), 0, len(_LABELS) - 1).astype(np.intp)
    return [_LABELS[grade] for grade in grades.tolist()]


def handicap_offset(black_rating: float, handicap: int) -> float:
    """The rating points Black's rating is raised by for ``handicap`` stones (0 for an even game): ``H − 0.5``
    grades on OGS's scale from ``black_rating`` (at least :data:`HANDICAP_FLOOR`)."""
    if handicap < 1:
        return 0.0
    return max(black_rating, HANDICAP_FLOOR) * math.expm1((handicap - 0.5) / OGS_C)


def g(phi: Array) -> Array:
    """Glickman's ``g(φ) = 1/√(1 + 3φ²/π²)``: how much a game against a deviation ``φ`` counts."""
    found: Array = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))
    return found


def expected(gap: Array, phi: Array) -> Array:
    """``1/(1 + e^(−g(φ)·gap))``: the expected score at a rating ``gap`` (Glicko-2 units) with ``g(φ)``."""
    found: Array = 1.0 / (1.0 + np.exp(-g(phi) * gap))
    return found


@dataclass(frozen=True, slots=True)
class Period:
    """One period's outcome on the Glicko-2 scale: per player ``mu``, ``phi``, ``sigma`` after it; per
    game and side (a row) ``g`` (of the opponent's deviation), ``e`` (the expected score the update
    uses) and ``moved`` (the row's part of ``μ' − μ``: ``φ'² g (s − E)``, summing to each player's
    change)."""

    mu: Array
    phi: Array
    sigma: Array
    g: Array
    e: Array
    moved: Array


def update(
    players: tuple[Array, Array, Array],
    own: np.ndarray[Any, np.dtype[np.intp]],
    opponents: tuple[Array, Array],
    score: Array,
    shift: Array,
    tau: float,
) -> Period:
    """Glicko-2 steps 3 to 8 for every player of a period at once.

    ``players``: ``(μ, φ, σ)`` of each player at the period's start (``φ`` already grown over the
    periods they sat out); each row is one game from one rated side: ``own`` the player's index,
    ``opponents`` the opponent's ``(μ_j, φ_j)`` at the period's start, ``score`` 1, 0.5 or 0, ``shift``
    what the handicap adds to the player's side of the gap (Glicko-2 units, negative for White). A
    player with no row keeps their values (step 6 is :func:`grown`'s business).
    """
    mu, phi, sigma = players
    opp_mu, opp_phi = opponents
    weight = g(opp_phi)
    e = 1.0 / (1.0 + np.exp(-weight * (mu[own] + shift - opp_mu)))
    count = len(mu)
    inverse_v = np.bincount(own, weight * weight * e * (1.0 - e), count)
    summed = np.bincount(own, weight * (score - e), count)
    played = np.bincount(own, minlength=count) > 0
    inverse_v = np.where(played, np.maximum(inverse_v, 1e-300), 1.0)  # (no row: any v, unused)
    v = 1.0 / inverse_v
    new_sigma = np.where(played, volatility(sigma, phi, v, v * summed, tau), sigma)
    phi_star = np.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = np.where(played, 1.0 / np.sqrt(1.0 / (phi_star * phi_star) + inverse_v), phi)
    new_mu = np.where(played, mu + new_phi * new_phi * summed, mu)
    moved = (new_phi * new_phi)[own] * weight * (score - e)
    return Period(new_mu, new_phi, new_sigma, weight, e, moved)


def volatility(sigma: Array, phi: Array, v: Array, delta: Array, tau: float) -> Array:
    """Step 5: each player's new volatility ``σ'``, the Illinois algorithm of Glickman's paper run for all
    players together (each stops when its interval is under :data:`EPSILON`)."""
    a = np.log(sigma * sigma)
    fixed = delta * delta - phi * phi - v  # Δ² − φ² − v
    base = phi * phi + v

    def f(x: Array, at: Any) -> Array:
        ex = np.exp(x)
        found: Array = ex * (fixed[at] - ex) / (2.0 * (base[at] + ex) ** 2) - (x - a[at]) / (tau * tau)
        return found

    every = slice(None)
    low = a.copy()
    high = np.where(fixed > 0, np.log(np.where(fixed > 0, fixed, 1.0)), a - tau)
    short = np.flatnonzero(fixed <= 0)  # B = a − kτ for the first k = 1, 2, ... with f(a − kτ) >= 0
    for _ in range(_STEPS):
        if not len(short):
            break
        below = f(high[short], short) < 0
        high[short[below]] -= tau
        short = short[below]
    f_low, f_high = f(low, every), f(high, every)
    active = np.flatnonzero(np.abs(high - low) > EPSILON)
    for _ in range(_STEPS):
        if not len(active):
            break
        lo, hi, f_lo, f_hi = low[active], high[active], f_low[active], f_high[active]
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c, active)
        swap = f_c * f_hi <= 0
        low[active] = np.where(swap, hi, lo)
        f_low[active] = np.where(swap, f_hi, f_lo / 2.0)
        high[active], f_high[active] = c, f_c
        active = active[np.abs(c - low[active]) > EPSILON]
    found: Array = np.exp(low / 2.0)
    return found


def grown(deviation: Array, volatility_: Array, periods: Array, cap: float) -> Array:
    """Deviations (rating points) after ``periods`` idle periods each: ``√(RD² + k (173.7178 σ)²)``
    (step 6, ``k`` times), never above ``cap`` by growing (one already above it stays)."""
    step = SCALE * volatility_
    found: Array = np.where(
        periods > 0,
        np.maximum(deviation, np.minimum(np.sqrt(deviation * deviation + periods * step * step), cap)),
        deviation,
    )
    return found
