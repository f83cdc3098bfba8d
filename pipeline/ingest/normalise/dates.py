"""Game dates: the text of ``DT`` (or of ``RD`` in the Chinese/TOM layout) -> day, precision, time of day.

Knows how people and servers write dates: FF4 ``YYYY-MM-DD`` with lists and ranges (``1977-05-23,24``,
``1934.03.28-29``), times of day (``2017.06.21 19:43``, ISO ``2017-06-21T19:43:05Z``), partial dates
(``1989-04``, ``1968``), Chinese/Japanese/Korean forms (``2009年8月12日``, ``昭和10年``, ``2009년 8월``),
compact ``20090829``, European ``29.08.2009``, English ``August 1, 2001`` / ``Sun Jan 16 2000``, spaces as
separators (``2024 5 12``, Korean ``2024. 5. 12.``), two-digit years (``24-05-12``) and buggy years.
Does not know bytes, encodings, the SGF grammar, which property the text came from beyond DT/RD, time
zones (``UT``/``Z`` suffixes are dropped: the time is the one written) nor what the date is used for.

Decisions:
- A list or range gives its first day. ``00`` as month or day means "not known": ``1999-00-00`` is 1999.
- Year last (``01.08.2001``, ``9-09-2000``): day first, as European servers and tournaments write it;
  month first only when day first is impossible (``08/29/2009``).
- Year first with a month above 12 and a day up to 12: month and day swapped (``2024-13-05`` is 13 May).
- Two-digit years: 00-49 are 20xx, 50-99 19xx (``_PIVOT``). Beside an English month (``13th march 94``),
  or in ``a-b-c`` (one separator twice) when no other form reads: year first when ``a`` has two digits
  and is above 31 (``99.12.31``) or the separator is ``-`` (``24-05-12``, ISO order); else year last
  when ``c`` has two digits (``12.05.24`` is 12 May 2024; ``05/13/24`` 13 May). ``1.2.3`` is no date.
- Buggy software's years, in full dates only: a two-digit year zero-padded (``0024`` by the pivot;
  ``0000`` stays unknown), years since 1900 as they are (``124`` is 2024) or after a literal ``19``
  (``19124``; ``19100`` is 2000). A letter O between the digits of a year is a zero (``2O24``).
- Any other year outside 1600..2100 (``1024-05-12``) and impossible dates (30 February) are no date.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pipeline.core.text import cjk_numeral, fold

Precision = Literal["day", "month", "year"]

MIN_YEAR = 1600
MAX_YEAR = 2100
_PIVOT = 50  # two-digit years below this are 20xx, the others 19xx

_ERAS = {"明治": 1868, "大正": 1912, "昭和": 1926, "平成": 1989, "令和": 2019}
_MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {name: number for number, name in enumerate(_MONTH_ABBREVIATIONS, 1)}

_FAST = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
_SEP = r"(?:\s?[-./]\s?|\s)"  # '-', '.', '/' (a space around them, as Korean '2024. 5. 12.'), or a space
_YMD = re.compile(rf"(?<![0-9])([0-9]{{3,5}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})(?![0-9])", re.ASCII)
_SHORT = re.compile(r"(?<![0-9])([0-9]{1,2})([-./])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])", re.ASCII)
_O_YEAR = re.compile(r"(?<![0-9A-Za-z])[0-9][0-9Oo]{3}(?![0-9A-Za-z])", re.ASCII)  # '2O24': O for 0
_CJK_N = r"[0-9]{1,2}|[一二三四五六七八九十]{1,3}"
_CJK_DATE = re.compile(
    rf"(?:({'|'.join(_ERAS)})\s*(元|{_CJK_N})|(?<![0-9])([0-9]{{4}}|[〇零○一二三四五六七八九]{{4}}))\s*[年년]"
    rf"(?:\s*({_CJK_N})\s*[月월](?:\s*({_CJK_N})\s*[日일号號])?)?",
    re.ASCII,
)
_COMPACT = re.compile(
    r"(?<![0-9])([0-9]{4})([0-9]{2})([0-9]{2})(?:[0-9]{4}(?:[0-9]{2})?)?(?![0-9])", re.ASCII
)
_YEAR_LAST = re.compile(rf"(?<![0-9])([0-9]{{1,2}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{4}})(?![0-9])", re.ASCII)
_MONTH_NAME = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b",
    re.ASCII | re.IGNORECASE,
)
_NUMBER = re.compile(r"(?<![0-9])([0-9]{1,4})(st|nd|rd|th)?(?![0-9])", re.ASCII | re.IGNORECASE)
_YM = re.compile(r"(?<![0-9])([0-9]{4})[-./]([0-9]{1,2})(?![0-9])", re.ASCII)
_YEAR = re.compile(r"(?<![0-9])([0-9]{4})(?![0-9])", re.ASCII)
_TIME = re.compile(
    r"(?<![0-9:])([01]?[0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9]))?(?![0-9])(?:\s*([ap])\.?m\b)?",
    re.ASCII | re.IGNORECASE,
)
_CJK_TIME = re.compile(r"(?<![0-9])([01]?[0-9]|2[0-3])\s*[時时点點시]\s*([0-5]?[0-9])\s*[分분]", re.ASCII)


@dataclass(frozen=True, slots=True)
class GameDate:
    """When a game was played.

    ``date`` is the game's (first) day; a partial date gives the first day of its month or year, and
    ``precision`` says which. ``time`` is the time of day when the record gives one with a full day.
    All three are None when no date could be read.
    """

    date: datetime.date | None
    precision: Precision | None
    time: datetime.time | None


UNKNOWN_DATE = GameDate(None, None, None)


@functools.lru_cache(maxsize=65536)
def parse_date(dt: str | None, rd: str | None = None) -> GameDate:
    """Read the game's date from ``dt`` (the DT text), falling back to ``rd`` (RD, Chinese/TOM layout).

    ``rd`` is used only when ``dt`` is None, empty or unreadable. Returns ``UNKNOWN_DATE``
    (all fields None) when neither reads. Never raises.
    """
    found = _parse_value(dt)
    if found.date is None:
        found = _parse_value(rd)
    return found


def _parse_value(value: str | None) -> GameDate:
    """Read one date text; ``UNKNOWN_DATE`` when it holds no valid date."""
    if not value:
        return UNKNOWN_DATE
    fast = _FAST.fullmatch(value)
    plain = _build(int(fast[1]), int(fast[2]), int(fast[3])) if fast else UNKNOWN_DATE
    if plain.date is not None:
        return plain
    text = _O_YEAR.sub(lambda m: m[0].replace("O", "0").replace("o", "0"), fold(value).replace("\\", ""))
    for reader in _READERS:
        found = reader(text)
        if found is not None:
            return found
    return UNKNOWN_DATE


def _build(year: int, month: int | None = None, day: int | None = None, text: str = "") -> GameDate:
    """Make a GameDate from numbers; a missing or zero month/day lowers the precision.

    ``text`` is searched for a time of day when the date is a full day. ``UNKNOWN_DATE`` when the
    year is out of range or the date impossible.
    """
    if not MIN_YEAR <= year <= MAX_YEAR:
        return UNKNOWN_DATE
    if not month:
        return GameDate(datetime.date(year, 1, 1), "year", None)
    if not 1 <= month <= 12:
        return UNKNOWN_DATE
    if not day:
        return GameDate(datetime.date(year, month, 1), "month", None)
    try:
        return GameDate(datetime.date(year, month, day), "day", _time_of_day(text))
    except ValueError:
        return UNKNOWN_DATE


def _time_of_day(text: str) -> datetime.time | None:
    """The first time of day written in ``text`` (``19:43``, ``19:43:05``, ``7:05 pm``, ``19時43分``)."""
    if ":" in text:
        found = _TIME.search(text)
        if found:
            hour = _twenty_four_hour(int(found[1]), (found[4] or "").lower())
            return datetime.time(hour, int(found[2]), int(found[3] or 0))
    cjk = _CJK_TIME.search(text)
    return datetime.time(int(cjk[1]), int(cjk[2])) if cjk else None


def _twenty_four_hour(hour: int, half: str) -> int:
    """``hour`` on the 24-hour clock; ``half`` is ``"a"`` (am), ``"p"`` (pm) or ``""`` (24-hour already)."""
    if half == "p" and hour < 12:
        return hour + 12
    return 0 if half == "a" and hour == 12 else hour


# Each reader returns None when its form is absent, UNKNOWN_DATE when present but invalid.


def _read_ymd(text: str) -> GameDate | None:
    """``2016-03-13``, ``2017.06.21 19:43``, ``2009/08/29``, ``2024 5 12``, ``0024-05-12``, ``2024-13-05``."""
    for found in _YMD.finditer(text):
        year = _full_year(found[1])
        if year is not None:
            return _build(year, *_month_day(int(found[2]), int(found[3])), text=text)
    return None


def _full_year(digits: str) -> int | None:
    """A year-first date's year: ``2024`` as written; ``0024``, ``124``, ``19124`` are 2024; else None."""
    value = int(digits)
    if len(digits) == 4:
        return _short_year(value) if digits.startswith("00") and value else value
    if len(digits) == 5 and digits.startswith("19"):
        value = int(digits[2:])
    return 1900 + value if 100 <= value <= 199 else None


def _short_year(year: int) -> int:
    """A two-digit year in full, by the pivot: below 50 is 20xx, else 19xx."""
    return year + (2000 if year < _PIVOT else 1900)


def _month_day(month: int, day: int) -> tuple[int, int]:
    """(month, day), swapped when the month is above 12 and the day could be a month."""
    return (day, month) if month > 12 and 1 <= day <= 12 else (month, day)


def _read_short_year(text: str) -> GameDate | None:
    """``24-05-12``, ``99.12.31``, ``12.05.24``, ``05/13/24``: a two-digit year (``1.2.3`` has none)."""
    found = _SHORT.search(text)
    if not found:
        return None
    first, second, last = int(found[1]), int(found[3]), int(found[4])
    if len(found[1]) == 2 and (first > 31 or (last <= 31 and found[2] == "-")):
        return _build(_short_year(first), *_month_day(second, last), text=text)
    return _day_first(_short_year(last), first, second, text) if len(found[4]) == 2 else None


def _day_first(year: int, first: int, second: int, text: str) -> GameDate:
    """``first``/``second`` of ``year``, day first; month first only when day first is impossible."""
    day_first = _build(year, second, first, text)
    return day_first if day_first.date is not None else _build(year, first, second, text)


def _read_cjk(text: str) -> GameDate | None:
    """``2009年8月12日``, ``2009年8月``, ``1935年``, ``二〇〇九年八月十二日``, ``昭和10年``, ``2009년 8월``.

    A Japanese era year counts from the era's first year (``昭和元年`` is 1926).
    """
    found = _CJK_DATE.search(text)
    if not found:
        return None
    if found[1]:
        era_year = 1 if found[2] == "元" else _cjk_int(found[2])
        year = None if era_year is None else _ERAS[found[1]] + era_year - 1
    else:
        year = _cjk_int(found[3])
    if year is None:
        return UNKNOWN_DATE
    return _build(year, _cjk_int(found[4]), _cjk_int(found[5]), text)


def _cjk_int(text: str | None) -> int | None:
    """ASCII digits, a Chinese numeral (``十二``) or a digit-by-digit year (``二〇〇九``); None if neither."""
    if not text:
        return None
    if text.isascii():
        return int(text)
    if len(text) == 4:
        digits = [cjk_numeral(ch) for ch in text]
        if all(d is not None and d < 10 for d in digits):
            return int("".join(str(d) for d in digits))
    return cjk_numeral(text)


def _read_compact(text: str) -> GameDate | None:
    """``20090829`` (optionally followed by ``hhmm`` or ``hhmmss``)."""
    found = _COMPACT.search(text)
    return _build(int(found[1]), int(found[2]), int(found[3])) if found else None


def _read_year_last(text: str) -> GameDate | None:
    """``29.08.2009``, ``9-09-2000``: day first, month first only when day first is impossible."""
    found = _YEAR_LAST.search(text)
    if not found:
        return None
    return _day_first(int(found[3]), int(found[1]), int(found[2]), text)


def _read_english(text: str) -> GameDate | None:
    """``August 1, 2001``, ``Sun Jan 16 2000``, ``16 Jan 2000 10:20``, ``12th and 13th march 94``."""
    blanked = _TIME.sub(lambda m: " " * len(m[0]), text)
    month = _MONTH_NAME.search(blanked)
    if not month:
        return None
    numbers = [(m.start(), m[1], m[2]) for m in _NUMBER.finditer(blanked)]
    year = _english_year(numbers, month.start())
    if year is None:
        return None
    day = next((int(num[1]) for i, num in enumerate(numbers) if i != year[0] and len(num[1]) <= 2), None)
    return _build(year[1], _MONTHS[month[1][:3].lower()], day if day and day <= 31 else None, text)


def _english_year(numbers: list[tuple[int, str, str | None]], month_at: int) -> tuple[int, int] | None:
    """(index in ``numbers``, year) of the year beside an English month name, or None.

    A four-digit number wins; otherwise the last two-digit number after the month without an
    ordinal suffix (``94`` in ``13th march 94``), by the two-digit pivot.
    """
    for index, number in enumerate(numbers):
        if len(number[1]) == 4:
            return index, int(number[1])
    for index in range(len(numbers) - 1, -1, -1):
        at, digits, suffix = numbers[index]
        if at > month_at and not suffix and len(digits) == 2:
            return index, _short_year(int(digits))
    return None


def _read_year_month(text: str) -> GameDate | None:
    """``1989-04``, ``2009/08``: month precision."""
    found = _YM.search(text)
    return _build(int(found[1]), int(found[2])) if found else None


def _read_year(text: str) -> GameDate | None:
    """A lone four-digit year, ``1968``: year precision."""
    found = _YEAR.search(text)
    return _build(int(found[1])) if found else None


_READERS: tuple[Callable[[str], GameDate | None], ...] = (
    _read_ymd,
    _read_cjk,
    _read_compact,
    _read_year_last,
    _read_english,
    _read_year_month,
    _read_year,
    _read_short_year,
)
