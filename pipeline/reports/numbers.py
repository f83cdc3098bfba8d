"""reports.numbers: how each rule set's ratings and rating changes are written for people to read.

Each rule set's record says it (its ``decimals`` and ``trim``: :class:`pipeline.rules.family.Family`;
docs/rules.md ("Numbers")): :func:`formats` gives each rule set its :class:`NumberFormat`, the decimals of
its ratings and of its changes (a period's delta, a game's
points, bonus points, awards), and whether trailing zeros are dropped. Every table of the command
line writes them so, and the site is meant to (:func:`number_format`, then ``.rating(v)`` and
``.delta(v)``). Why these: club points are exact multiples of 0.25 (coefficient 0.05 × 5 game points
at the least) and mostly whole, so they are written exactly without trailing zeros (``913.5``,
``270``, ``+0.25``); the GoR and Elo rule sets and cga-dan's averages are real numbers, written with
two decimals so that a column lines up (``2454.53``, ``+0.40``, ``0.00``); tga's ratings are dan
numbers (``5``). CSV, JSON and Parquet keep every value in full.

Knows nothing of where the numbers come from, or of tables: it writes one value at a time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

MINUS = "−"  # U+2212, for prose and the site; tables use the ASCII hyphen-minus, as CSV does


@dataclass(frozen=True, slots=True)
class NumberFormat:
    """``places`` decimals; ``trim`` True to drop trailing zeros (and the point) of a value that has
    fewer (``913.5``, ``270``), False to write all of them (``2454.50``)."""

    places: int
    trim: bool = False

    def rating(self, value: float | None, minus: str = "-") -> str:
        """A rating: ``2454.53``, ``913.5``; empty for a missing value; ``minus`` the minus sign."""
        if value is None or math.isnan(value):
            return ""
        text = f"{value:.{self.places}f}"
        if self.trim and "." in text:
            text = text.rstrip("0").rstrip(".")
        if text.lstrip("-").strip("0.") == "":  # -0.00 is 0.00
            text = text.lstrip("-")
        return minus + text[1:] if text.startswith("-") else text

    def delta(self, value: float | None, minus: str = "-") -> str:
        """A change, signed: ``+5.00``, ``-0.42`` (``minus`` the sign), ``0.00`` (``0`` when trimmed)."""
        text = self.rating(value, minus)
        return text if not text or text.startswith(minus) or not text.strip("0.") else f"+{text}"


DEFAULT = NumberFormat(2)


@functools.cache
def formats() -> Mapping[str, NumberFormat]:
    """Each registered rule set's format, from its record (docs/rules.md ("Numbers")); a rule set not
    registered gets :data:`DEFAULT`. Read from the registry when first asked (importing it imports every
    rule set: not for a command that writes no number), read-only."""
    from pipeline.rules import REGISTRY

    return MappingProxyType(
        {name: NumberFormat(record.decimals, record.trim) for name, record in REGISTRY.items()}
    )


def number_format(rule_set: str) -> NumberFormat:
    """The :class:`NumberFormat` of ``rule_set`` (:data:`DEFAULT` for one :func:`formats` does not name,
    such as ``unknown``)."""
    return formats().get(rule_set, DEFAULT)
