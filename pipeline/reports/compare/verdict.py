"""compare.verdict: which of the two sides predicts the results better, with ``ratings backtest``'s scoring.

Each side's per-game predictions are :func:`pipeline.reports.predicted.predictions` (the ratings before
each decisive game, the rule set's own ``Se`` or the expanding logistic fit); both are scored, with
:func:`pipeline.reports.forecast.scores`, on the games both sides rated for both players (by ``seq``, the
same under both sides), so that they are scored on the same games. The verdict goes by the mean
log-loss (lower is better); with fewer common games than :data:`pipeline.reports.backtest.MIN_SCORED` it
says there are too few to tell, as the backtest warns.

Knows nothing of standings, nor of rendering.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from pipeline.core.i18n import _
from pipeline.reports import forecast
from pipeline.reports.backtest import MIN_SCORED
from pipeline.reports.predicted import Predictions

#: The columns of :attr:`Verdict.scores`, in order.
SCORE_COLUMNS = ("side", "label", "games_rated", "n", "higher_rated_wins", "log_loss", "brier", "too_few")


@dataclass(frozen=True, slots=True)
class Verdict:
    """``scores``: one row per side (:data:`SCORE_COLUMNS`, ``side`` a or b); ``n``: the common games
    scored; ``better``: ``a``, ``b``, ``same`` (equal log-loss) or None (too few games to tell);
    ``text``: the verdict in a sentence."""

    scores: pd.DataFrame
    n: int
    better: str | None
    text: str


def verdict(predicted: dict[str, Predictions], labels: dict[str, str]) -> Verdict:
    """Score ``predicted`` (side ``a`` and ``b`` -> :func:`~pipeline.reports.predicted.predictions`)
    on their common games and decide; ``labels`` name the sides in the text."""
    common = np.intersect1d(predicted["a"].seq, predicted["b"].seq)
    rows = [_scored(s, labels[s], predicted[s], common) for s in ("a", "b")]
    scores = pd.DataFrame(rows, columns=list(SCORE_COLUMNS))
    better, text = _decided(scores, len(common), labels)
    return Verdict(scores, len(common), better, text)


def _scored(side: str, label: str, found: Predictions, common: npt.NDArray[np.int64]) -> dict[str, object]:
    used = np.isin(found.seq, common)
    scored = forecast.scores(found.p[used], found.black_won[used], found.diff[used])
    counts = {"games_rated": len(found), "n": int(used.sum()), "too_few": bool(used.sum() < MIN_SCORED)}
    return {"side": side, "label": label, **counts, **scored}


def _decided(scores: pd.DataFrame, n: int, labels: dict[str, str]) -> tuple[str | None, str]:
    """(better side or None, sentence) from the log-loss of both sides on ``n`` common games."""
    if n == 0:
        return None, _("no decisive game was rated by both sides: cannot tell which predicts better")
    if n < MIN_SCORED:
        return None, _(
            "too few decisive games to tell which predicts better ({n}; at least {least} wanted): "
            "the difference is mostly noise"
        ).format(n=n, least=MIN_SCORED)
    loss = dict(zip(scores["side"], scores["log_loss"], strict=True))
    if np.isclose(loss["a"], loss["b"], rtol=0, atol=1e-12):
        return "same", _("both predict equally well on {n} games (log-loss {loss})").format(
            n=n, loss=f"{loss['a']:.4f}"
        )
    best, other = ("a", "b") if loss["a"] < loss["b"] else ("b", "a")
    return best, _(
        "{better} predicts better on {n} games: log-loss {loss} against {other_loss} ({other})"
    ).format(
        better=labels[best],
        n=n,
        loss=f"{loss[best]:.4f}",
        other_loss=f"{loss[other]:.4f}",
        other=labels[other],
    )
