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
- Corrupt years, in year-first numeric dates that read no other way (:mod:`.years`): a digit or a pair
  of digits written twice (``201919-05-03``, ``20199-05-03``) or a digit left out (``201-5-3``). Such a
  year is read when one of the years it may be (of 1600..2100, the day possible) is the only one, or
  the only one that the record's other dates (the rest of ``DT``, ``RD``) or its event (``EV``, ``GN``,
  ``TE``) name: ``201-5-3`` with ``EV[2011 Cup]`` is 2011-05-03. Otherwise it is no date, and the
  note says which years it may be. Either way :attr:`GameDate.note` says what was done.
- Any other year outside 1600..2100 (``1024-05-12``) and impossible dates (30 February) are no date.
- A date after the file's modification time (:func:`not_after`; one day's grace, for time zones) is
  not believed: its year alone is kept when the file was modified that year, else it is no date.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pipeline.core.text import cjk_numeral, fold
from pipeline.ingest.normalise.years import MAX_YEAR, MIN_YEAR, described, named_years, readings

__all__ = ["MAX_YEAR", "MIN_YEAR", "UNKNOWN_DATE", "GameDate", "not_after", "parse_date"]

Precision = Literal["day", "month", "year"]
_PIVOT = 50  # two-digit years below this are 20xx, the others 19xx

_ERAS = {"明治": 1868, "大正": 1912, "昭和": 1926, "平成": 1989, "令和": 2019}
_MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {name: number for number, name in enumerate(_MONTH_ABBREVIATIONS, 1)}

_FAST = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
_SEP = r"(?:\s?[-./]\s?|\s)"  # '-', '.', '/' (a space around them, as Korean '2024. 5. 12.'), or a space
_MONTH_DAY = rf"{_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})(?![0-9])"  # after a year
_YMD = re.compile(rf"(?<![0-9])([0-9]{{3,5}}){_MONTH_DAY}", re.ASCII)
_CORRUPT_YMD = re.compile(rf"(?<![0-9])([0-9]{{3,6}}){_MONTH_DAY}", re.ASCII)  # a year of 6 digits too
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
    All three are None when no date could be read. ``note`` says, in English (a row's ``warning``), what
    was done to a corrupt year or a date not believed, and why; None for the others.
    """

    date: datetime.date | None
    precision: Precision | None
    time: datetime.time | None
    note: str | None = None


UNKNOWN_DATE = GameDate(None, None, None)


def parse_date(dt: str | None, rd: str | None = None, event: str | None = None) -> GameDate:
    """Read the game's date from ``dt`` (the DT text), falling back to ``rd`` (RD, Chinese/TOM layout).

    ``rd`` is used only when ``dt`` is None, empty or unreadable. A corrupt year of either (see the
    module; ``event``, the record's EV, GN and TE, helps choose between its readings) gives the date
    when neither reads otherwise, or when what they read is a month or a year that holds it
    (``201-5-3`` beside ``RD[2011]`` is 3 May 2011). Returns ``UNKNOWN_DATE`` (all fields None) when
    nothing reads, with a ``note`` for a corrupt year left unread. Never raises.
    """
    found = _parse_date(dt, rd)
    if found.precision == "day" or not (dt or rd):
        return found
    repaired = _repaired(dt, rd, event)
    if found.date is None or (repaired.date is not None and _holds(found, repaired.date)):
        return repaired
    return found


@functools.lru_cache(maxsize=65536)
def _parse_date(dt: str | None, rd: str | None) -> GameDate:
    """:func:`parse_date` without the corrupt years: ``dt``, else ``rd``."""
    found = _parse_value(dt)
    if found.date is None:
        found = _parse_value(rd)
    return found


def _holds(found: GameDate, day: datetime.date) -> bool:
    """True when ``day`` is in the month or year that ``found`` (of month or year precision) names."""
    assert found.date is not None
    return found.date.year == day.year and (found.precision == "year" or found.date.month == day.month)


def not_after(found: GameDate, last_day: datetime.date) -> GameDate:
    """``found``, unless its (first) day is after ``last_day`` (the day the file was last modified, and
    one more for time zones): then its year alone (first of January, precision ``year``) when that year
    is ``last_day``'s, else no date; with a ``note`` that says why."""
    if found.date is None or found.date <= last_day:
        return found
    why = f"date {found.date.isoformat()} is after the file was last modified ({last_day.isoformat()})"
    if found.date.year == last_day.year:
        return GameDate(datetime.date(found.date.year, 1, 1), "year", None, f"{why}: only its year is kept")
    return GameDate(None, None, None, f"{why}: not read")


@functools.lru_cache(maxsize=4096)
def _repaired(dt: str | None, rd: str | None, event: str | None) -> GameDate:
    """The date of ``dt``'s corrupt year, else of ``rd``'s (see the module), each with the other and
    ``event`` as the record's other texts; else ``UNKNOWN_DATE`` with the first one's note, if any."""
    notes: list[str] = []
    for prop, value, other in (("DT", dt, rd), ("RD", rd, dt)):
        found = _corrupt_year(prop, value, " ".join(filter(None, (other, event)))) if value else None
        if found is not None and found.date is not None:
            return found
        if found is not None and found.note:
            notes.append(found.note)
    return GameDate(None, None, None, notes[0]) if notes else UNKNOWN_DATE


def _corrupt_year(prop: str, value: str, others: str) -> GameDate | None:
    """The date of the first year-first numeric date of ``value`` whose year is corrupt (:mod:`.years`),
    ``prop`` (DT or RD) naming it in the note; ``others`` (and the rest of ``value``) name the years
    that choose between its readings. None when ``value`` has no such date."""
    text = _cleaned(value)
    for found in _CORRUPT_YMD.finditer(text):
        kind, years = readings(found[1]) or ("", ())
        month, day = _month_day(int(found[2]), int(found[3]))
        possible = tuple(year for year in years if _build(year, month, day).date)
        if not possible:
            continue
        year, why = _chosen(possible, named_years(f"{text[: found.start()]} {text[found.end() :]} {others}"))
        note = f"{prop}: year {found[1]} has {_KINDS[kind]}: {why}"
        if year is None:
            return GameDate(None, None, None, note)
        date = _build(year, month, day, text)
        return GameDate(date.date, date.precision, date.time, note)
    return None


def _chosen(possible: tuple[int, ...], named: frozenset[int]) -> tuple[int | None, str]:
    """The year to read of ``possible`` (a corrupt year's readings, ascending), and why: the only one,
    or the only one of them the record names (``named``); None when neither."""
    if len(possible) == 1:
        return possible[0], f"read as {possible[0]}, the only year it can be"
    chosen = [year for year in possible if year in named]
    if len(chosen) == 1:
        return chosen[0], f"read as {chosen[0]}, the one the record names of {described(possible)}"
    return None, f"{described(possible)}; no date read"


_KINDS = {"repeated": "digits written twice", "dropped": "a digit missing"}


def _cleaned(value: str) -> str:
    """``value`` folded, without backslashes, a letter O between a year's digits read as a zero."""
    return _O_YEAR.sub(lambda m: m[0].replace("O", "0").replace("o", "0"), fold(value).replace("\\", ""))


def _parse_value(value: str | None) -> GameDate:
    """Read one date text; ``UNKNOWN_DATE`` when it holds no valid date."""
    if not value:
        return UNKNOWN_DATE
    fast = _FAST.fullmatch(value)
    plain = _build(int(fast[1]), int(fast[2]), int(fast[3])) if fast else UNKNOWN_DATE
    if plain.date is not None:
        return plain
    text = _cleaned(value)
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
