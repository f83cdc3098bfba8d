"""provisional: who is provisional at a period's end, under ``[output] provisional_games`` and
``provisional_deviation``.

A player is provisional while they have fewer counted games (all periods, ``games_total``) than
``provisional_games``, or, under a rule set whose ratings carry a deviation (``ratings``' ``deviation``
not null: glicko2, whr), while their deviation is above ``provisional_deviation``; 0 turns either test
off. The leaderboards leave them off, the standings mark them. One rule for every reader, from the
columns of the ``ratings`` rows: knows nothing of rule sets, files or rendering.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Provisional:
    """The thresholds: ``games`` (counted games a player needs, 0: off) and ``deviation`` (the largest
    deviation an established player has, 0: off)."""

    games: int = 0
    deviation: float = 0.0

    @property
    def on(self) -> bool:
        """True if either test is on."""
        return self.games > 0 or self.deviation > 0

    def marks(self, games_total: Any, deviation: Any = None) -> npt.NDArray[np.bool_]:
        """Whether each row is provisional, from its ``games_total`` and ``deviation`` (array-likes; a
        missing deviation, or None for the whole column, passes the deviation test)."""
        import numpy as np

        games = np.asarray(games_total, np.float64)
        found: npt.NDArray[np.bool_] = (
            games < self.games if self.games > 0 else np.zeros(len(games), np.bool_)
        )
        if self.deviation > 0 and deviation is not None:
            values = np.asarray(deviation, np.float64)
            found |= np.nan_to_num(values, nan=-math.inf) > self.deviation
        return found

    @staticmethod
    def of(settings: Mapping[str, Any] | None) -> Provisional:
        """The thresholds a run's manifest ``settings`` recorded (0, off, for one it does not record or
        records as something no configuration gives)."""
        settings = settings if isinstance(settings, Mapping) else {}
        games = settings.get("provisional_games", 0)
        deviation = settings.get("provisional_deviation", 0.0)
        games = games if isinstance(games, int) and not isinstance(games, bool) and games >= 0 else 0
        fine = isinstance(deviation, int | float) and not isinstance(deviation, bool)
        return Provisional(
            games, float(deviation) if fine and math.isfinite(deviation) and deviation > 0 else 0.0
        )
