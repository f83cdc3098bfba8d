"""backtest_tables: the schemas of the tables ``ratings backtest`` writes into ``backtest/`` (how well
each rule set predicted the games it had not seen yet), with their column descriptions (docs/columns.md
is generated from them). Knows nothing of how the figures are computed.
"""

from __future__ import annotations

import pyarrow as pa

from pipeline.core.schema import described as _f

SUMMARY = pa.schema(
    [
        _f("rules", pa.string(), "the rule set", False),
        _f(
            "predictor",
            pa.string(),
            "se (the rule set's own expected score) or logistic (a fit on ratings)",
            False,
        ),
        _f("games_rated", pa.int64(), "decisive games the rule set rated both players of", False),
        _f("n", pa.int64(), "games it was scored on", False),
        _f("higher_rated_wins", pa.float64(), "share of those won by the higher-rated player (equal: 0.5)"),
        _f("log_loss", pa.float64(), "mean -ln of the probability given to what happened (coin toss 0.693)"),
        _f("brier", pa.float64(), "mean squared error of the predicted probability"),
        _f("too_few", pa.bool_(), "scored on 1 to 199 games: its figures are mostly noise", False),
    ]
)
CALIBRATION = pa.schema(
    [
        _f("rules", pa.string(), "the rule set", False),
        _f("bin", pa.int32(), "the bin of predicted P(Black wins): k for [k/10, (k+1)/10)", False),
        _f("low", pa.float64(), "the bin's lowest probability", False),
        _f("high", pa.float64(), "the bin's highest (excluded, but for the last bin)", False),
        _f("n", pa.int64(), "games in the bin", False),
        _f("mean_predicted", pa.float64(), "their mean predicted P(Black wins)", False),
        _f("observed", pa.float64(), "the share of them Black won", False),
    ]
)
