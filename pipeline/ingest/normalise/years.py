"""Corrupt years: the years that a year with a digit written twice, or one left out, may have been.

``201919`` is 2019 with its last two digits written twice, ``20199`` 2019 with its 9 written twice
(:func:`readings` gives the years such a year may be: one here); ``201`` is a year with a digit left
out, and could be 2001, 2010 to 2019, 2021 ... 2091 (the record must say which: :func:`named_years`
finds the years its other texts name). Only years of 1600..2100 are readings, as everywhere in dates.

Knows nothing of months, days, date forms or records: a year's digits in, years out.
"""

from __future__ import annotations

import re
from typing import Literal

Kind = Literal["repeated", "dropped"]

MIN_YEAR = 1600
MAX_YEAR = 2100
_NAMED_YEAR = re.compile(r"(?<![0-9])(1[6-9][0-9][0-9]|20[0-9][0-9]|2100)(?![0-9])", re.ASCII)


def readings(digits: str) -> tuple[Kind, tuple[int, ...]] | None:
    """The kind of corruption of the year ``digits`` and the years (1600..2100, ascending) it may be;
    None when it is no corrupt year of these kinds.

    ``repeated``: five digits with one written twice (``20199``, ``22019``), six with a pair written twice
    (``201919``, ``202020``). ``dropped``: three digits that start with 2 (``201``), one digit left out
    anywhere. Three digits that start with 1 are years since 1900 (``124``: 2024) and no corrupt year;
    nor are digits with no reading.
    """
    if len(digits) in (5, 6):
        width = len(digits) - 4
        found = {
            digits[:i] + digits[i + width :]
            for i in range(len(digits) - 2 * width + 1)
            if digits[i : i + width] == digits[i + width : i + 2 * width]
        }
        years = _years(found)
        return ("repeated", years) if years else None
    if len(digits) == 3 and digits[0] == "2":
        return "dropped", _years({digits[:i] + d + digits[i:] for i in range(4) for d in "0123456789"})
    return None


def _years(texts: set[str]) -> tuple[int, ...]:
    """The four-digit years of 1600..2100 among ``texts``, ascending."""
    return tuple(sorted(int(t) for t in texts if len(t) == 4 and MIN_YEAR <= int(t) <= MAX_YEAR))


def named_years(text: str) -> frozenset[int]:
    """The years of 1600..2100 written with four digits in ``text`` (``2011 Cup``, ``2011-05-04``)."""
    return frozenset(int(year) for year in _NAMED_YEAR.findall(text))


def described(years: tuple[int, ...]) -> str:
    """``years`` (ascending, at least two) in a few words: ``2009 or 2099``, ``one of 19 years from
    2001 to 2091``."""
    if len(years) == 2:
        return f"{years[0]} or {years[1]}"
    return f"one of {len(years)} years from {years[0]} to {years[-1]}"
