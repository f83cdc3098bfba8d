"""standings: a rated player between two periods, as a rule set hands it on and a generation keeps it.

Knows nothing of how a rule set computes the rating, nor of how the standings are stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A rated player between periods: rating, the rule set's rank label, games so far, and any
    rule-set-specific carry-over in ``extra`` (treated as immutable: copy to change)."""

    rating: float
    rank: str
    games_total: int = 0
    fixed: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)
