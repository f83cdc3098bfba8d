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

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.reports.explain.families import family_for
from pipeline.reports.explain.model import Excluded, Explanation, Row
from pipeline.reports.explain.terms import award_line, missing, optional_text, promotion_line, summary


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


def explanation(
    rule_set: str,
    name: str,
    rating: Row,
    changes: Sequence[Row],
    awards: Sequence[Row],
    promotions: Sequence[Row],
    not_counted: Sequence[Excluded],
) -> Explanation:
    """How ``name``'s rating moved in ``rating['period']``: ``rating`` their ratings row, ``changes``
    their changes rows in ``seq`` and colour order, ``awards`` and ``promotions`` (by date) their rows of
    the period, ``not_counted`` their games of the period that did not count."""
    equation, workings, lines = family_for(rule_set)(
        rule_set, rating, list(changes), list(awards), list(promotions)
    )
    period = str(rating["period"])
    return Explanation(
        player=name,
        period=period,
        rule_set=rule_set,
        rank_before=optional_text(rating.get("rank_before")),
        rank=optional_text(rating.get("rank")),
        rating_before=float(rating["rating_before"]),
        rating=float(rating["rating"]),
        summary=summary(rule_set, name, period, rating, len(not_counted)),
        equation=equation,
        workings=tuple(workings),
        games=tuple(lines),
        not_counted=tuple(not_counted),
        awards=tuple(award_line(a) for a in awards),
        promotions=tuple(promotion_line(p) for p in promotions),
    )
