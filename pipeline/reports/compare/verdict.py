"""compare.verdict: which of the two sides predicts the results better, with ``ratings backtest``'s scoring.

Each side's per-game predictions are :func:`pipeline.reports.backtest.predictions` (the ratings before
each decisive game, the rule set's own ``Se`` or the expanding logistic fit); both are scored, with
:func:`pipeline.reports.forecast.scores`, on the games both sides rated for both players, so that they are
scored on the same games. The verdict goes by the mean log-loss (lower is better); with fewer common games
than :data:`pipeline.reports.backtest.MIN_SCORED` it says there are too few to tell, as the backtest warns.

Knows nothing of standings, nor of rendering.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.core.i18n import _
from pipeline.reports import forecast
from pipeline.reports.backtest import MIN_SCORED

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


def verdict(predicted: dict[str, pd.DataFrame], labels: dict[str, str]) -> Verdict:
    """Score ``predicted`` (side ``a`` and ``b`` -> :func:`~pipeline.reports.backtest.predictions` frame)
    on their common games and decide; ``labels`` name the sides in the text."""
    common = set(predicted["a"]["game_id"]) & set(predicted["b"]["game_id"])
    rows = [_scored(s, labels[s], predicted[s], common) for s in ("a", "b")]
    scores = pd.DataFrame(rows, columns=list(SCORE_COLUMNS))
    better, text = _decided(scores, len(common), labels)
    return Verdict(scores, len(common), better, text)


def _scored(side: str, label: str, frame: pd.DataFrame, common: set[str]) -> dict[str, object]:
    used = frame[frame["game_id"].isin(common)]
    diff = (used["rating_black"] - used["rating_white"]).to_numpy(dtype=np.float64)
    found = forecast.scores(used["p"].to_numpy(), used["black_won"].to_numpy(), diff)
    counts = {"games_rated": len(frame), "n": len(used), "too_few": len(used) < MIN_SCORED}
    return {"side": side, "label": label, **counts, **found}


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
