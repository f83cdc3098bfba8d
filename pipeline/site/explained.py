"""site.explained: a player's derivation in a period, from rows already read, as ``ratings explain`` gives it.

:func:`pipeline.reports.explain.explain` reads the output folder for one player and one period (the
games table, every ratings partition); a site explains every active period of every player, so it
hands the rows it read once (the player's ratings row, changes, awards, promotions and games not
counted) to the same rule-set families (:func:`pipeline.reports.explain.families.family_for`) and
sentences (:mod:`pipeline.reports.explain.terms`). ``tests/test_site.py`` checks that both give the same
equation. This could move into :mod:`pipeline.reports.explain` as the builder ``explain`` calls. Knows
nothing of reading files or of pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.reports.explain.model import Excluded, Row
from pipeline.reports.explain.terms import missing


def clean(row: Mapping[Any, Any]) -> Row:
    """A record with pandas' missing values as None."""
    return {str(k): None if missing(v) else v for k, v in row.items()}


def excluded(side: Mapping[str, Any]) -> Excluded:
    """A player's side of a game not counted (:data:`pipeline.site.pages.SIDE_COLUMNS`) as explain's
    :class:`Excluded`."""
    reasons = tuple(c for c in str(side["reasons"]).split(", ") if c)
    return Excluded(
        date=side["date"] or None,
        opponent=str(side["opponent"]),
        color=str(side["colour"]),
        result=str(side["outcome"]),
        speed=side["speed"] or None,
        source=str(side["source"]),
        reasons=reasons,
        why=str(side["why"]),
    )
