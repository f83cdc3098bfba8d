"""Game result (the SGF ``RE`` value) -> who won, how, and by how much.

Reads the SGF forms (``B+R``, ``W+3.5``, ``0``, ``Void``, ``?``), English sentences (``White wins by 3.5
points``, ``Black resigns.``), the Chinese, Japanese and Korean forms (``黑中盘胜``, ``白胜2又1/4子``,
``黒6目半勝ち``, ``흑 불계승``), full-width or not, and the forms of computer and Renju tournaments:
adjudicated wins (``B+Adj``, ``W+Adjudicated``, ``B+, human judge ...``, the UEC Cup's ``黒判定勝ち``,
``흑 판정승``), renju archives' draws (``B+Draw``, ``BW+Draw``, ``満局``, ``引き分け``) and chess-style
``1/2-1/2``, ``½-½``.

This layer does not know player names (``john wins`` names nobody it can place), nor bytes, encodings or the
SGF grammar: it receives the decoded, unescaped text inside ``RE[...]``. It does not decide whether a game
counts for a rating: a forfeit or a suspended game is reported as such and judged later.

Readings chosen where the text is ambiguous:
- ``对局停止!`` (the game was stopped) is ``suspended``, like ``打挂``: nothing says it was annulled.
- ``黒番``/``白番`` before a verdict names the side that won (``黒番中押し勝`` is B); with no verdict
  (``黒番`` alone, ``Black to play``) the text is ``unknown``.
- A losing word makes the other colour win (``黑超时负``, ``白认输``, ``反則負け``, ``White resigns.``).
- ``W+Repetition`` (a referee's ruling on a repeated position) is ``illegal``.
- Two colours each given a win (``B+1.5 ? W+timeout``) is ``unknown``.
- ``B+0.0`` is a B win by 0 points, not a draw; a bare colour (``W``, ``黑``) is a decisive ``win``.
- ``B+Draw`` (the draw of Renju archives: ORC Game Center and Renjubase exports) is a draw, not a win.
- A judge's or referee's decision (``Adj``, ``judge``, 判定, 裁定, 판정) is ``adjudication``: a decisive
  win when a colour is named.
- ``1-0`` and ``0-1`` are not read (``unknown``): chess puts White first, and no Go or Gomoku writer
  says which colour comes first.
- A margin above 4,000 points (more than a 52x52 board holds, plus any komi) or glued to more text
  (``B+1e308``) is no margin: ``Result(B, "points", None)`` or a plain ``win``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from pipeline.core.text import CJK_NUMERAL_CHARS, cjk_numeral, fold, within

Winner = Literal["B", "W", "draw"]


@dataclass(frozen=True, slots=True)
class Result:
    """A readable game result.

    ``winner``: ``"B"``, ``"W"``, ``"draw"``, or None when nobody is known to have won (no result, void,
    suspended, unreadable, or an ending whose colour is not named, such as ``不战胜``).
    ``how``: ``"resign"``, ``"points"``, ``"time"``, ``"forfeit"``, ``"illegal"``, ``"adjudication"`` (a
    judge or referee decided), ``"win"`` (decisive, no detail), ``"draw"``, ``"void"``, ``"suspended"``,
    ``"unknown"`` (RE present but unreadable), or None when RE is absent or empty. With ``winner`` None,
    ``how`` may still name the kind of ending (``時間切れ`` gives ``Result(None, "time", None)``).
    ``margin``: the margin in points when one is given (1 子 = 2 points), else None.
    """

    winner: Winner | None
    how: str | None
    margin: float | None


NO_RE = Result(None, None, None)
UNKNOWN = Result(None, "unknown", None)
DRAW = Result("draw", "draw", None)
VOID = Result(None, "void", None)
SUSPENDED = Result(None, "suspended", None)

_OTHER: dict[str, Winner] = {"B": "W", "W": "B"}
_COLOUR: dict[str, Winner] = {
    "b": "B",
    "black": "B",
    "黑": "B",
    "黒": "B",
    "흑": "B",
    "w": "W",
    "white": "W",
    "白": "W",
    "백": "W",
}
_PLUS_HOW = {
    "r": "resign",
    "res": "resign",
    "resign": "resign",
    "t": "time",
    "time": "time",
    "f": "forfeit",
    "forfeit": "forfeit",
    "illegal": "illegal",
}

_MAX_MARGIN = 4000.0  # points: more than a 52x52 board (2,704 points) plus any komi (1,000)
_FAST = re.compile(r"\s*([BW])\+(R|Res|Resign|T|Time|F|Forfeit|Illegal|\d+(?:\.\d+)?)?\.?\s*", re.IGNORECASE)
_NUM = r"(?<![\d.,a-z])\d{1,5}(?:[.,]\d{1,4})?"
_INT = rf"[\d{CJK_NUMERAL_CHARS}]{{1,8}}"
_PLUS = re.compile(r"(?<![a-z0-9])(black|white|[bw黑黒白흑백])\s*\+\s*(.*)", re.DOTALL)
_OTHER_PLUS = re.compile(r"\b([bw])\s*\+")
_LEADING_NUMBER = re.compile(rf"({_NUM})(?![\d/]|\s*e[+-]?\d)")
_FRACTION = re.compile(
    rf"(?:({_INT})\s*又\s*)?(?:(\d{{1,4}})\s*/\s*(\d{{1,4}})|({_INT})\s*分之\s*({_INT}))\s*子"
)
_UNIT = re.compile(
    rf"(?:({_NUM}|[{CJK_NUMERAL_CHARS}]{{1,8}})|([半반]))\s*(目|子|집|点|點|points?\b|pts?\b|moku\b)\s*([半반])?"
)
_BY_NUMBER = re.compile(rf"\bby\s+({_NUM})\b")
_BY_HALF = re.compile(r"\bby\s+(?:a\s+)?half\b")

_DRAW_WORDS = re.compile(r"和棋|和局|平局|持碁|ジゴ|満局|引き?分け?|무승부|\bdraw|\bdrew\b|\bjigo\b")
_NO_RESULT: tuple[tuple[Result, re.Pattern[str]], ...] = (
    (
        VOID,
        re.compile(
            r"无胜负|無勝負|无胜无负|无效|無効|無效|무효|作废|作廢|\bvoid\b|\bno result|\bannul"
            r"|\bcancell?ed\b|\bno contest\b"
        ),
    ),
    (
        SUSPENDED,
        re.compile(
            r"打挂|打掛|打ち?掛け?|打ちかけ|封手|中断|中斷|暂停|停止|未完|중단|미완"
            r"|\badjourn|\bsuspend|\bunfinished\b|\bincomplete\b|\binterrupted\b"
        ),
    ),
    (DRAW, _DRAW_WORDS),
)
_EXACT_DRAW = frozenset({"0", "0.0", "和", "tie", "d", "=", "1/2-1/2", "0.5-0.5", "1⁄2-1⁄2"})  # NFKC of ½-½
# Ordered: when several apply (黑中盘胜(超时)), the first wins.
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("adjudication", re.compile(r"判定|判[胜勝负負]|裁定|裁[决決]|판정|\badj(?:ud\w*)?\b|\bjudg")),
    ("forfeit", re.compile(r"不战|不戰|不戦|기권|弃权|棄権|棄權|\bforfeit|\bno.?show|\bby default\b")),
    ("illegal", re.compile(r"反则|反則|犯规|犯規|违规|違規|반칙|\billegal|\bsuperko|\brepetition")),
    ("time", re.compile(r"超时|超時|时间|時間|시간|\btime|\btimed\b|\bclock\b|\bflag")),
    ("resign", re.compile(r"中盘|中盤|中押|불계|认输|認輸|投子|投了|认负|認負|\bresign|\bres\b")),
)
_COLOURS = re.compile(r"黑|黒|白|흑|백|\b(?:black|white|b|w)\b")
# Who the nearest colour is: the winner (+1) or the loser (-1).
_VERDICT = re.compile(
    r"(胜|勝|승|\bwins?\b|\bwon\b|\bwinner\b)|(负|負|패|敗|输|輸|投了|\bresign(?:s|ed)?\b"
    r"|\bloses?\b|\blost\b|\bforfeits\b|\bforfeited\b)"
)
# Used only when no verdict is written: 黑超时 (Black ran out of time), 黒中押し (Black won, resignation).
_IMPLIED = re.compile(
    r"(中盘|中盤|中押|불계)|(超时|超時|時間切れ|反则|反則|犯规|犯規|\btime ?out\b|\btimed out\b)"
)


@functools.lru_cache(maxsize=65536)
def parse_result(raw: str | None) -> Result:
    """Read an ``RE`` value; never raises.

    Returns ``NO_RE`` (all None) for None, empty or blank text, ``UNKNOWN`` (``how="unknown"``) for text that
    cannot be read (``?``, ``john wins``, ``B+1.5 ? W+timeout``), otherwise the ``Result`` it states.
    """
    if raw is None:
        return NO_RE
    fast = _fast(raw) if raw.isascii() else None
    if fast is not None:
        return fast
    text = fold(raw).lower()
    return _parse_folded(text) if text else NO_RE


def _fast(raw: str) -> Result | None:
    """The common ASCII SGF forms (``B+R``, ``W+3.5``, ``B+``), or None to take the slow path."""
    m = _FAST.fullmatch(raw)
    if m is None:
        return None
    winner = _COLOUR[m.group(1).lower()]
    detail = m.group(2)
    if detail is None:
        return Result(winner, "win", None)
    if detail[0].isdigit():
        return Result(winner, "points", within(float(detail), 0, _MAX_MARGIN))
    return Result(winner, _PLUS_HOW[detail.lower()], None)


def _parse_folded(text: str) -> Result:
    """Read folded, lower-cased, non-empty text; ``UNKNOWN`` when nothing in it can be read."""
    if text in _EXACT_DRAW:
        return DRAW
    if text in _COLOUR:
        return Result(_COLOUR[text], "win", None)
    plus = _plus_form(text)
    if plus is not None:
        return plus
    for result, pattern in _NO_RESULT:
        if pattern.search(text):
            return result
    return _sentence(text)


def _plus_form(text: str) -> Result | None:
    """``<colour>+<detail>`` anywhere (``b+8.5目``, ``result: w+t``, ``b+, judge``), or None when absent."""
    m = _PLUS.search(text)
    if m is None:
        return None
    winner = _COLOUR[m.group(1)]
    rest = m.group(2).strip().rstrip(".").strip()
    if _DRAW_WORDS.match(rest):
        return DRAW
    if any(_COLOUR[c] != winner for c in _OTHER_PLUS.findall(rest)):
        return UNKNOWN
    how, margin = _plus_detail(rest)
    return Result(winner, how, margin)


def _plus_detail(rest: str) -> tuple[str, float | None]:
    """(how, margin) for what follows ``B+``: a keyword, a margin, or free text (``win``)."""
    if not rest:
        return "win", None
    if rest in _PLUS_HOW:
        return _PLUS_HOW[rest], None
    margin = _margin(rest)
    if margin is None and (m := _LEADING_NUMBER.match(rest)):
        margin = _to_float(m.group(1))
    if margin is not None:
        return "points", within(margin, 0, _MAX_MARGIN)
    return _kind(rest) or "win", None


def _sentence(text: str) -> Result:
    """A sentence in any language: a verdict, the colour nearest before it, the kind and margin."""
    verdict = _verdict(text)
    if verdict is None:
        return UNKNOWN
    sign, pos = verdict
    colour = _colour_near(text, pos)
    margin = within(_margin(text), 0, _MAX_MARGIN)
    kind = _kind(text) or ("points" if margin is not None else None)
    if colour is None:
        return Result(None, kind or "unknown", margin if kind == "points" else None)
    winner = colour if sign > 0 else _OTHER[colour]
    return Result(winner, kind or "win", margin if kind == "points" else None)


def _verdict(text: str) -> tuple[int, int] | None:
    """(+1 names the winner / -1 the loser, where it stands), or None when no verdict is written."""
    m = _VERDICT.search(text) or _IMPLIED.search(text)
    if m is None:
        return None
    return (1 if m.group(1) else -1), m.start()


def _colour_near(text: str, pos: int) -> Winner | None:
    """The last colour named before ``pos``, else the first one after it, else None."""
    before = [m.group(0) for m in _COLOURS.finditer(text, 0, pos)]
    if before:
        return _COLOUR[before[-1]]
    after = _COLOURS.search(text, pos)
    return _COLOUR[after.group(0)] if after else None


def _kind(text: str) -> str | None:
    """The first kind of ending named in ``text`` (forfeit, illegal, time, resign), or None."""
    for kind, pattern in _KINDS:
        if pattern.search(text):
            return kind
    return None


def _margin(text: str) -> float | None:
    """Margin in points written anywhere in ``text`` (子 counted as 2 points), or None."""
    if (m := _FRACTION.search(text)) is not None:
        return _fraction_points(m)
    if (m := _UNIT.search(text)) is not None:
        return _unit_points(m)
    if (m := _BY_NUMBER.search(text)) is not None:
        return _to_float(m.group(1))
    return 0.5 if _BY_HALF.search(text) else None


def _fraction_points(m: re.Match[str]) -> float | None:
    """Points for ``[W又]N/D子`` or ``[W又]D分之N子``; None when a numeral is unreadable or D is 0."""
    whole = cjk_numeral(m.group(1)) if m.group(1) else 0
    num = cjk_numeral(m.group(2) or m.group(5))
    den = cjk_numeral(m.group(3) or m.group(4))
    if whole is None or num is None or not den:
        return None
    return 2 * (whole + num / den)


def _unit_points(m: re.Match[str]) -> float | None:
    """Points for ``N目``, ``N目半``, ``半目``, ``3집반``, ``2.5子`` (x2), ``8.5 points``."""
    number, lead_half, unit, tail_half = m.groups()
    value = _to_float(number) if number else 0.0
    if value is None:
        return None
    value += 0.5 if (lead_half or tail_half) else 0.0
    return 2 * value if unit == "子" else value


def _to_float(text: str) -> float | None:
    """``3.5``, ``3,5`` or a CJK integer (``六``) as a float; None when unreadable."""
    if text[0].isdigit():
        return float(text.replace(",", "."))
    value = cjk_numeral(text)
    return None if value is None else float(value)
