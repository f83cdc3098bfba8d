"""forecast: probabilities of Black winning from ratings, and how good they were (the backtest's arithmetic).

Pure numpy/pandas over arrays or a frame of games; knows nothing of rule sets, SGF, files or periods
beyond the month label each game carries. Two predictors:

- :func:`from_expected`: a rule set's own expected scores of both sides, normalised to sum to one
  (``se_black / (se_black + se_white)``: removes the GoR ε, which both sides' ``se`` lose);
- :func:`expanding_logistic`: ``p = 1 / (1 + exp(−(α + β (r_black − r_white))))`` for rating systems
  without an expectation formula, refitted for every month on the games of earlier months only
  (games of the first month: 0.5). The fit is maximum likelihood with two imaginary games at equal
  ratings, one won by each colour (so α exists when one colour won every earlier game), and a ridge
  ``½ b²`` on the slope ``b`` of the rating difference divided by its standard deviation in the
  training games (so β exists when the higher-rated player won every earlier game).

Every probability is clipped to [1e-6, 1 − 1e-6] before it is scored.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pandas as pd

Array = npt.NDArray[np.float64]
EPSILON = 1e-6
COIN_LOG_LOSS = math.log(2)
COIN_BRIER = 0.25
BINS = 10


def from_expected(se_black: Array, se_white: Array) -> Array:
    """P(Black wins) from both sides' expected scores, clipped (see the module docstring)."""
    return clip(se_black / (se_black + se_white))


def clip(p: Array) -> Array:
    """``p`` clipped to [:data:`EPSILON`, 1 − :data:`EPSILON`]."""
    return np.clip(np.asarray(p, dtype=np.float64), EPSILON, 1 - EPSILON)


def fit_logistic(
    diff: Array,
    black_won: Array,
    ridge: float = 1.0,
    weights: Array | None = None,
) -> tuple[float, float]:
    """(α, β) of ``P(Black wins) = σ(α + β diff)`` fitted to the outcomes ``black_won`` (1 or 0) of games
    with rating differences ``diff`` (Black − White), each counted ``weights`` times (default once),
    with the two imaginary games and the ridge of the module docstring. Newton's method on a concave
    objective from (0, 0): at most 50 steps, stops below 1e-10."""
    d, y = np.asarray(diff, dtype=np.float64), np.asarray(black_won, dtype=np.float64)
    n = np.ones(len(d)) if weights is None else np.asarray(weights, dtype=np.float64)
    scale = _spread(d, n) or 1.0
    x = np.column_stack([np.ones(len(d) + 2), np.concatenate([d / scale, [0.0, 0.0]])])
    y, n = np.concatenate([y, [1.0, 0.0]]), np.concatenate([n, [1.0, 1.0]])
    penalty = np.diag([0.0, ridge])
    w = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (n * (y - p)) - penalty @ w
        hessian = (x * (n * p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w += step
        if float(np.abs(step).max()) < 1e-10:
            break
    return float(w[0]), float(w[1] / scale)


def _spread(d: Array, n: Array) -> float:
    """The standard deviation of ``d`` counted ``n`` times each (that of the games it stands for)."""
    if not len(d):
        return 0.0
    if (n == 1).all():
        return float(d.std())
    mean = float((n * d).sum() / n.sum())
    return math.sqrt(float((n * (d - mean) ** 2).sum() / n.sum()))


class LogisticWindow:
    """The expanding window of :func:`expanding_logistic`, fed a month at a time: :meth:`predict` the
    games of the next month from every game :meth:`add`-ed before, then add them. Holds one row per
    distinct rating difference (with its wins and losses by Black), not one per game; the fit is the
    same as :func:`fit_logistic` over every game added."""

    def __init__(self) -> None:
        self.diffs: Array = np.zeros(0)
        self.wins: Array = np.zeros(0)
        self.losses: Array = np.zeros(0)

    def predict(self, diff: Array) -> Array:
        """P(Black wins) at each of ``diff`` from the games added so far (0.5 when there are none),
        clipped."""
        d = np.asarray(diff, dtype=np.float64)
        if not len(self.diffs):
            return clip(np.full(len(d), 0.5))
        won, lost = self.wins > 0, self.losses > 0
        x = np.concatenate([self.diffs[won], self.diffs[lost]])
        y = np.concatenate([np.ones(int(won.sum())), np.zeros(int(lost.sum()))])
        n = np.concatenate([self.wins[won], self.losses[lost]])
        alpha, beta = fit_logistic(x, y, weights=n)
        return clip(1 / (1 + np.exp(-(alpha + beta * d))))

    def add(self, diff: Array, black_won: Array) -> None:
        """Add games with rating differences ``diff`` and outcomes ``black_won`` (1 or 0)."""
        d, y = np.asarray(diff, dtype=np.float64), np.asarray(black_won, dtype=np.float64)
        values, at = np.unique(np.concatenate([self.diffs, d]), return_inverse=True)
        wins: Array = np.bincount(at, np.concatenate([self.wins, y]), len(values)).astype(np.float64)
        losses: Array = np.bincount(at, np.concatenate([self.losses, 1 - y]), len(values)).astype(np.float64)
        self.diffs, self.wins, self.losses = values, wins, losses


def expanding_logistic(month: pd.Series[str], diff: Array, black_won: Array) -> Array:
    """P(Black wins) for each game: the logistic fitted on the games of strictly earlier ``month`` labels
    (``YYYY-MM``, which sort in time), 0.5 where there are none; clipped."""
    months = np.asarray(month, dtype=object)
    d, y = np.asarray(diff, dtype=np.float64), np.asarray(black_won, dtype=np.float64)
    p, window = np.full(len(d), 0.5), LogisticWindow()
    for label in sorted(set(months)):
        now = months == label
        p[now] = window.predict(d[now])
        window.add(d[now], y[now])
    return clip(p)


def scores(p: Array, black_won: Array, diff: Array) -> dict[str, float]:
    """``higher_rated_wins`` (share of games won by the higher-rated side, equal ratings 0.5),
    ``log_loss`` (mean −ln of the probability given to what happened) and ``brier`` (mean squared
    error of ``p``); NaN for no games."""
    p, y, d = clip(p), np.asarray(black_won, dtype=np.float64), np.asarray(diff, dtype=np.float64)
    if not len(p):
        return {"higher_rated_wins": math.nan, "log_loss": math.nan, "brier": math.nan}
    higher = np.where(d > 0, y, np.where(d < 0, 1 - y, 0.5))
    return {
        "higher_rated_wins": float(higher.mean()),
        "log_loss": float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()),
        "brier": float(((p - y) ** 2).mean()),
    }


def calibration(p: Array, black_won: Array) -> pd.DataFrame:
    """The non-empty bins of :data:`BINS` equal bins of ``p`` (bin k: [k/10, (k+1)/10), the last closed):
    columns ``bin low high n mean_predicted observed`` (observed: the share Black won)."""
    p, y = clip(p), np.asarray(black_won, dtype=np.float64)
    index = np.minimum((p * BINS).astype(np.int64), BINS - 1)
    frame = pd.DataFrame({"bin": index, "p": p, "y": y})
    grouped = frame.groupby("bin").agg(n=("p", "size"), mean_predicted=("p", "mean"), observed=("y", "mean"))
    grouped = grouped.reset_index()
    grouped.insert(1, "low", grouped["bin"] / BINS)
    grouped.insert(2, "high", (grouped["bin"] + 1) / BINS)
    return grouped
