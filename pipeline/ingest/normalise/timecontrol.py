"""Time control: TM, OT, LT/LC and TC/TT texts -> main time and byo-yomi in seconds, and the speed class.

Knows the ways servers and people write time settings: FF4 seconds (``TM[1800]``), KGS/OGS overtime
(``OT[5x30 byo-yomi]``, ``OT[25/600 Canadian]``, ``OT[86400 fischer]``), GoGui (``OT[25 moves / 10 min]``),
CGoban 1 clocks (``TM[30:00(5x1:00)]``, ``TM[30:00+30:00/25]``), words (``TM[1 hr/125 moves]``, ``TM[2h]``),
Chinese/Japanese/Korean units (``TM[各1小时]``, ``TM[1時間]``, ``LT[30秒]LC[5回]``, ``30초 3회``), the
TOM layout (``TM[10800]LT[60]LC[3]``) and Fox (``TM[300]TC[3]TT[30]``). Does not know bytes, encodings,
the SGF grammar, which server wrote the record, nor how a rule set uses the speed class.

Decisions:
- A bare number in TM is seconds (FF4), including IGS ``TM[60]`` with an empty ``LT[]``: the IGS records'
  own clocks (``BL[56]`` after Black's first move) show 60 s of main time.
- Except a bare whole number below 60 with no overtime property at all: no game is played in under a
  minute per player with no byo-yomi; such records (CGF tournaments ``TM[40]``, ``TM[50]`` with clocks
  reading ``0:20:20``) give minutes, and ``source`` says ``TM(min)``.
- Clock forms are CGoban's: ``m:ss`` (``10:00`` is ten minutes) and ``h:mm:ss``.
- A Canadian block is stored as ``byoyomi_s`` = the block's length and ``byoyomi_periods`` = its stones.
- Fischer increments and other overtime without periods leave the byo-yomi fields None.
- Time *used* (``TM[黑: 08:58  白: 06:21]``) is not a setting: main time None.
- Numbers are bounded: a length of time above a year (366 days, longer than any correspondence
  server's setting) and a period count above 1,000 are no setting at all (None), as are negative
  numbers and numbers glued to other digits (``OT[2147483648 periods]`` gives no count, never the last
  nine digits). The raw text stays beside the values (``time_raw``), so nothing is lost.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from pipeline.core.text import CJK_NUMERAL_CHARS, cjk_numeral, fold, within

SpeedClass = Literal["slow", "fast", "unknown"]

_OVERTIME_PROPS = ("OT", "LT", "LC", "TC", "TT")
_SMALLEST_SECONDS = 60  # a bare TM below this, with no overtime, is minutes
_MAX_SECONDS = 366 * 86400  # a main time or byo-yomi period above a year is no setting
_MAX_PERIODS = 1000  # nor a period count (or Canadian block's stones) above this
_ALONE = r"(?<![0-9.:-])"  # a number starts here: not glued to digits before it, not negative

_NUM = rf"[0-9]{{1,12}}(?:\.[0-9]{{1,6}})?|[{CJK_NUMERAL_CHARS}]{{1,6}}"
_HOURS = r"(?:hours?|hrs?|h)(?![a-z])|小时|小時|时间|時間|時|时|시간"
_MINUTES = r"(?:minutes?|mins?|m)(?![a-z])|分钟|分鐘|分|분"
_SECONDS = r"(?:seconds?|secs?|s)(?![a-z])|秒钟|秒鐘|秒|초"
_CLOCK_TEXT = r"[0-9]{1,3}:[0-5][0-9](?::[0-5][0-9])?"
_DUR = rf"{_CLOCK_TEXT}|[0-9]{{1,12}}(?:\.[0-9]{{1,6}})?(?:\s*(?:{_HOURS}|{_MINUTES}|{_SECONDS}))?"
_COUNT_UNITS = r"次|回|회|번|(?:periods?|times)(?![a-z])"

_BARE = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,6})?", re.ASCII)
_NUMBER_LIST = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,6})?)(?:\s*,\s*[0-9]{1,12}(?:\.[0-9]{1,6})?)+", re.ASCII)
_CLOCK = re.compile(rf"(?<![0-9])({_CLOCK_TEXT})(?![0-9])", re.ASCII)
_UNIT = re.compile(rf"{_ALONE}({_NUM})\s*(?:({_HOURS})|({_MINUTES})|({_SECONDS}))", re.ASCII)
_COUNT = re.compile(rf"{_ALONE}({_NUM})\s*(?:{_COUNT_UNITS})", re.ASCII)
_USED = re.compile(r"[黑黒白흑백]\s*:|用时|用時|\bused\b|\b[bw]\s*:\s*[0-9]", re.ASCII)
_OVERTIME_START = re.compile(
    r"[(\[{+/;]|读秒|讀秒|秒读|秒讀|秒読|초읽기|byo|overtime|canadian|fischer|加秒"
    rf"|(?<![0-9])[0-9]{{1,4}}\s*[x\u00d7*]\s*[0-9]|(?:{_DUR})\s*[0-9]{{1,4}}\s*(?:{_COUNT_UNITS})",
    re.ASCII,
)
_NO_PERIODS = re.compile(r"fischer|increment|bronstein|加秒|absolute", re.ASCII)
_MULTIPLIED = re.compile(rf"{_ALONE}([0-9]{{1,4}})\s*[x\u00d7*]\s*({_DUR})(?![0-9])", re.ASCII)
_SLASHED = re.compile(
    rf"{_ALONE}({_DUR})\s*(moves|stones|手)?\s*/\s*({_DUR})(?![0-9])\s*(moves|stones|手)?", re.ASCII
)
_SIMPLE = re.compile(rf"{_ALONE}({_DUR})\s*simple", re.ASCII)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time settings, per player.

    ``main_time_s``: main (free) time in seconds before byo-yomi/overtime, None when unknown.
    ``byoyomi_s``: length of one byo-yomi period (or of a Canadian block), None when unknown.
    ``byoyomi_periods``: number of periods (or stones per Canadian block), None when unknown.
    ``source``: the properties that gave these values, joined by ``+`` (``TM``, ``TM+OT``, ``TM+LT+LC``,
    ``TM+TT+TC``, ``OT``; ``TM(min)`` when a bare TM was read as minutes), None when none did.
    """

    main_time_s: float | None
    byoyomi_s: float | None
    byoyomi_periods: int | None
    source: str | None


UNKNOWN_TIME_CONTROL = TimeControl(None, None, None, None)


class _Overtime(NamedTuple):
    seconds: float | None
    periods: int | None


_NOTHING = _Overtime(None, None)


class _Found(NamedTuple):
    overtime: _Overtime
    props: tuple[str, ...]


def parse_time_control(props: Mapping[str, str]) -> TimeControl:
    """Read the time settings from ``props`` (property id -> decoded text; any of TM OT TC TT LT LC).

    Other keys are ignored. Unreadable or missing values give None fields; all None (and source None)
    when nothing reads. Byo-yomi is taken from the first source that gives it: text inside TM, then
    OT, then LT/LC, then TC/TT. Never raises.
    """
    return _time_control(tuple((p, props[p]) for p in ("TM", *_OVERTIME_PROPS) if p in props))


@functools.lru_cache(maxsize=65536)
def _time_control(items: tuple[tuple[str, str], ...]) -> TimeControl:
    """:func:`parse_time_control` of the (property id, text) pairs ``items``, cached."""
    props = dict(items)
    tm_text = _clean(props.get("TM"))
    main, tm_overtime = _read_tm(tm_text)
    found = _find_overtime(tm_overtime, props)
    sources: list[str] = []
    if main is not None:
        if found is None and _bare_minutes(tm_text, props):
            main, sources = main * 60, ["TM(min)"]
        else:
            sources = ["TM"]
    if found is None:
        return TimeControl(main, None, None, "+".join(sources) or None)
    sources += [p for p in found.props if p not in sources]
    return TimeControl(main, found.overtime.seconds, found.overtime.periods, "+".join(sources))


def speed_class(main_time_s: float | None, threshold_s: float = 1800.0) -> SpeedClass:
    """``slow`` when ``main_time_s`` >= ``threshold_s`` (default 30 minutes), else ``fast``.

    ``unknown`` when the main time is None, negative or not finite.
    """
    if main_time_s is None or not math.isfinite(main_time_s) or main_time_s < 0:
        return "unknown"
    return "slow" if main_time_s >= threshold_s else "fast"


def _clean(value: str | None) -> str:
    """``value`` width-folded, space-collapsed and lower-cased; ``""`` for None."""
    return fold(value).lower() if value else ""


def _bare_minutes(tm_text: str, props: Mapping[str, str]) -> bool:
    """Whether a bare TM is a small whole number (1..59) with every overtime property absent or blank."""
    if not (tm_text.isascii() and tm_text.isdigit() and len(tm_text) <= 2):
        return False
    if not 0 < int(tm_text) < _SMALLEST_SECONDS:
        return False
    return not any((props.get(p) or "").strip() for p in _OVERTIME_PROPS)


def _read_tm(text: str) -> tuple[float | None, _Overtime | None]:
    """(main time, overtime written inside TM) of a cleaned TM text; (None, None) when unreadable."""
    if _BARE.fullmatch(text):
        return _seconds(float(text)), None
    if not text or _USED.search(text):
        return None, None
    numbers = _NUMBER_LIST.fullmatch(text)
    if numbers:  # Jago "1800,0,30,5": the first number is the main time
        return _seconds(float(numbers[1])), None
    start = _OVERTIME_START.search(text)
    if start is None:
        return _duration(text), None
    return _duration(text[: start.start()]), _read_overtime(text[start.start() :])


def _find_overtime(tm_overtime: _Overtime | None, props: Mapping[str, str]) -> _Found | None:
    """The first readable byo-yomi: from TM's own text, then OT, then LT/LC, then TC/TT."""
    if tm_overtime is not None:
        return _Found(tm_overtime, ("TM",))
    overtime = _read_overtime(_clean(props.get("OT")))
    if overtime is not None:
        return _Found(overtime, ("OT",))
    return _pair(props, "LT", "LC") or _pair(props, "TT", "TC")


def _pair(props: Mapping[str, str], length_prop: str, count_prop: str) -> _Found | None:
    """Byo-yomi from a (period length, period count) pair of properties, e.g. LT/LC or TT/TC."""
    seconds = _duration(_clean(props.get(length_prop)))
    periods = _count(_clean(props.get(count_prop)))
    used = tuple(p for p, v in ((length_prop, seconds), (count_prop, periods)) if v is not None)
    return _Found(_Overtime(seconds, periods), used) if used else None


def _read_overtime(text: str) -> _Overtime | None:
    """Byo-yomi from a cleaned overtime text; None when it gives no period length nor count."""
    if not text or _NO_PERIODS.search(text):
        return None
    for reader in (_multiplied, _slashed, _simple, _words):
        overtime = reader(text)
        if overtime is not None and overtime != _NOTHING:
            return overtime
    seconds = _seconds(float(text)) if _BARE.fullmatch(text) else None
    return None if seconds is None else _Overtime(seconds, None)


def _multiplied(text: str) -> _Overtime | None:
    """``5x30 byo-yomi``, ``(5x1:00)``, ``3*30秒`` (and the multiplication sign): periods x length."""
    found = _MULTIPLIED.search(text)
    return _Overtime(_duration(found[2]), _periods(int(found[1]))) if found else None


def _slashed(text: str) -> _Overtime | None:
    """Canadian blocks: stones first (``25/600 canadian``, ``25 moves / 10 min``) or length first.

    Length first is CGoban 1's ``+30:00/25``.
    Both sides bare numbers: stones first, as KGS and OGS write them.
    """
    found = _SLASHED.search(text)
    if not found:
        return None
    left, right = found[1], found[3]
    length_first = bool(found[4]) or (not _BARE.fullmatch(left) and bool(_BARE.fullmatch(right)))
    stones, length = (right, left) if length_first else (left, right)
    return _Overtime(_duration(length), _periods(float(stones)) if _BARE.fullmatch(stones) else None)


def _simple(text: str) -> _Overtime | None:
    """OGS ``30 simple``: a fixed time per move, one period."""
    found = _SIMPLE.search(text)
    return _Overtime(_duration(found[1]), 1) if found else None


def _words(text: str) -> _Overtime | None:
    """``读秒3次30秒``, ``秒読み60秒5回``, ``1分钟5次``, ``30초 3회``: a length with a unit and/or a count."""
    clock = _CLOCK.search(text)
    unit = _UNIT.search(text)
    seconds = _seconds(_clock_seconds(clock[1]) if clock else (_unit_seconds(unit) if unit else None))
    periods = _count(text)
    return _Overtime(seconds, periods) if seconds is not None or periods is not None else None


def _seconds(value: float | None) -> float | None:
    """``value`` when it is a plausible length of a main time or period: 0 to a year; else None."""
    return within(value, 0, _MAX_SECONDS)


def _periods(value: float | None) -> int | None:
    """``value`` as a whole number when it is a plausible count of periods or stones (0..1,000); else None."""
    count = within(value, 0, _MAX_PERIODS)
    return None if count is None else int(count)


def _duration(text: str) -> float | None:
    """Seconds in a length of time (see ``_any_duration``); None when unreadable or above a year."""
    return _seconds(_any_duration(text.strip()))


def _any_duration(text: str) -> float | None:
    """Seconds in a stripped length of time: bare seconds, a clock (``m:ss``, ``h:mm:ss``) or summed units."""
    if _BARE.fullmatch(text):
        return float(text)
    clock = _CLOCK.search(text)
    if clock:
        return _clock_seconds(clock[1])
    parts = [_unit_seconds(m) for m in _UNIT.finditer(text)]
    known = [p for p in parts if p is not None]
    return sum(known) if known else None


def _clock_seconds(clock: str) -> float:
    """Seconds in ``m:ss`` or ``h:mm:ss``."""
    total = 0
    for part in clock.split(":"):
        total = total * 60 + int(part)
    return float(total)


def _unit_seconds(found: re.Match[str]) -> float | None:
    """Seconds in one ``_UNIT`` match (``1.5h``, ``三小时``, ``30秒``); None for an unreadable numeral."""
    value = _number(found[1])
    if value is None:
        return None
    factor = 3600 if found[2] else 60 if found[3] else 1
    return value * factor


def _number(text: str) -> float | None:
    """An ASCII decimal or a Chinese numeral; None when neither."""
    if text.isascii():
        return float(text) if _BARE.fullmatch(text) else None
    value = cjk_numeral(text)
    return None if value is None else float(value)


def _count(text: str) -> int | None:
    """A period count: ``5``, ``5回``, ``3次``, ``3회``, ``五``; None when none is written or above 1,000."""
    if text.isdigit() and text.isascii():
        return _periods(int(text)) if len(text) <= 6 else None
    found = _COUNT.search(text)
    value = _number(found[1]) if found else (cjk_numeral(text) if text else None)
    return _periods(value)
