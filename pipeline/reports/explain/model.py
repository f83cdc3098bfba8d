"""explain.model: the values an explanation is made of.

:class:`GameLine` (one counted game), :class:`Excluded` (one game not counted), :class:`Explanation`
(the whole derivation) and ``Row`` (one record of an output table, pandas' missing values as None);
:class:`UnknownPlayer` (a name no player has) comes from :mod:`pipeline.reports.explain.names`.
Knows nothing of how they are built: the numbers are formatted in :mod:`pipeline.reports.explain.terms`,
the rule sets' shapes are in :mod:`pipeline.reports.explain.families`, the output folder is read in
:mod:`pipeline.reports.explain`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from pipeline.reports.explain.names import UnknownPlayer

__all__ = ["Excluded", "Explanation", "GameLine", "Row", "UnknownPlayer"]

#: One record of an output table (``ratings/``, ``changes/``, ``awards/``, ``promotions.parquet``).
Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One counted game of the player: ``result`` win, loss or draw (the player's view), ``points`` the
    change it made (bonus included; for ``cga-dan`` the game's points, for ``tga`` its part of the
    Article 8 criterion) and ``points_text`` it written out (signed where it is a rating change),
    ``working`` how the rule set got it, in numbers."""

    date: dt.date
    opponent: str
    opponent_rank: str | None
    color: str
    result: str
    speed: str | None
    event: str | None
    points: float
    points_text: str
    working: str


@dataclass(frozen=True, slots=True)
class Excluded:
    """One game of the player in the period that was not counted: ``reasons`` the codes, ``why`` them
    in words; ``source`` the file (``path#index`` for a later game of a collection)."""

    date: dt.date | None
    opponent: str
    color: str
    result: str
    speed: str | None
    source: str
    reasons: tuple[str, ...]
    why: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """How ``player``'s rating moved in ``period`` under ``rule_set``.

    ``summary`` says it in words; ``equation`` in numbers (the end on the left); ``workings`` adds lines
    (the rule in words, per-event criteria, a note when the terms do not add up, e.g. the rating floor);
    ``games`` the counted games in order, ``not_counted`` the others; ``awards`` and ``promotions`` one
    line each.
    """

    player: str
    period: str
    rule_set: str
    rank_before: str | None
    rank: str | None
    rating_before: float
    rating: float
    summary: str
    equation: str
    workings: tuple[str, ...]
    games: tuple[GameLine, ...]
    not_counted: tuple[Excluded, ...]
    awards: tuple[str, ...]
    promotions: tuple[str, ...]
