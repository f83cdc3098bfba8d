"""Game-information fields other than players, results, dates and times: komi, handicap, board size,
game type, event and round.

Knows how servers write these (Fox ``KM[750]``, Chinese ``KM[黑贴五目半]``, ``HA[让先]``,
``SZ[19:19]``, the event in ``TE`` or ``GN``, a move count in ``RO``). Knows nothing of bytes,
encodings or the SGF grammar (values arrive decoded and unescaped) and nothing of ratings: it does
not judge whether a komi or handicap is allowed, only what was written.

Numbers are bounded so that each fits its column and is plausible; one outside its range is no value
(None), never a clipped one (the raw text is kept beside it): komi within ±1,000 points, handicap
0..99 stones (and no more than the board's points when its size is known), board size 1..52, game
type 1..99.
"""

from __future__ import annotations

import functools
import re

from pipeline.core.text import CJK_NUMERAL_CHARS, cjk_numeral, fold, within

_PLAIN_NUMBER = re.compile(r"[+-]?\d{1,6}(?:\.\d{1,12})?")
_DECIMAL_MARK = re.compile(r"。|(?<=\d),(?=\d)")  # '5。5', '6,5'
_SMALL_INT = re.compile(r"\d{1,2}")
_NUMERAL = rf"(?:\d{{1,2}}|[{CJK_NUMERAL_CHARS}]+)"

# Komi in words: '黑贴五目半', '黒6目半', '6目半', '贴3又3/4子', '7.5目', '5 1/2', 'コミ6目半',
# '덤 6집반', '半目'. The prefix names who gives it: 黑贴 (Chinese), 黒 (Japanese KO[黒6目半]).
_KOMI_PREFIX = re.compile(r"^(?:(?i:komi)|コミ|덤|[黑黒]\s*[贴貼]?|[贴貼])\s*:?\s*")
_KOMI_WORDS = re.compile(
    rf"(?P<sign>[+-])?(?P<int>\d{{1,6}}(?:\.\d{{1,12}})?|[{CJK_NUMERAL_CHARS}]+)?"
    r"(?:(?:\s*又\s*|\s+and\s+|\s+|(?<![\d.]))(?P<num>\d{1,4})/(?P<den>\d{1,4}))?"
    r"\s*(?P<half1>半|반)?\s*(?P<unit>子|目|点|點|집|(?i:points?|pts?))?\s*(?P<half2>半|반)?"
)
_VULGAR_FRACTIONS = str.maketrans({"\u00bc": " 1/4", "\u00bd": " 1/2", "\u00be": " 3/4"})
_NO_KOMI = frozenset({"无贴", "無貼", "不贴", "不貼", "コミなし", "ノーコミ", "덤없음", "덤 없음", "no komi"})
_STONE_UNIT = "子"  # Chinese counting: one stone (子) is two points
_MAX_KOMI = 1000.0  # points, either way: a larger komi is no komi

# Handicap in words: '让2子', '讓二子', '授三子', '饶三子', '二子', '二', '9子局', '四子棋', '2점'.
_HANDICAP_WORDS = re.compile(
    rf"(?:[让讓譲授饶饒]\s*)?(?P<n>{_NUMERAL})\s*(?:子|点|點|점|(?i:stones?))?\s*(?:局|棋)?"
)
# A sentence that names the stones: '本局为授三子局', '白让黑三子', 'Black takes 3 stones', 'handicap: 3'.
# Not a komi ('贴3又3/4子', '让3目半'): no number after 贴, a fraction or a decimal point, nor before 目/半.
_STONES_IN_TEXT = re.compile(
    rf"(?<![\d./又贴貼])(?<![\d./又贴貼]\s)"
    rf"(?:[让讓譲授饶饒]\s*(?:[黑黒]\s*)?(?P<given>{_NUMERAL})(?![\d.]|\s*(?:目|半|点|點|又|/))"
    rf"|(?P<count>{_NUMERAL})(?!\d)\s*(?:子|점|(?i:stones?\b)))"
    r"|(?i:\bhandicap\s*[:=]?\s*(?P<named>\d{1,2})(?![\d.]))"
)
_NO_KOMI_HANDICAP = frozenset({"让先", "讓先", "譲先", "定先", "정선"})  # black moves first, no komi: 1
_EVEN_HANDICAP = frozenset({"分先", "互先", "호선"})  # even game with komi: 0
_HANDICAP_NUMBER = re.compile(r"(\d{1,2})(?:\.0+)?")
_MAX_HANDICAP = 99

_SIZE = re.compile(r"(?P<cols>\d{1,3})\s*(?:[:x\u00d7*]\s*(?P<rows>\d{1,3}))?", re.IGNORECASE)
_MAX_SIZE = 52  # SGF FF[4]: a board has 1..52 lines (one letter per line)

_PLACEHOLDERS = frozenset({"", "none", "null", "nil", "?", "-", "unknown", "n/a", "untitled"})
_ANNOTATION = re.compile(r"[\d.]+")  # TE[1], TE[2]: the FF[4] 'tesuji' move annotation, not an event
_EVENT_WORDS = re.compile(
    r"[杯赛賽戦戰战届屆期]|リーグ|選手権|대회|리그|선수권|기전|배(?!\w)|제\s*\d+\s*회"
    r"|(?i:(?<![a-z])(?:cup|tournament|championship|league|open|meijin|kisei|hon'?inbo|tengen|oza"
    r"|judan|gosei|olympiad|congress|challenge|trophy|invitational|festival|masters|qualif\w*"
    r"|grand prix|meeting|series)(?![a-z])|event)"
)
_GAME_NAME = re.compile(r"(?i:(?<![a-z])(?:vs|versus)(?![a-z])|\s+v\s+)|\((?:[BW]|黑|白|黒)\)")

_MOVE_COUNT = re.compile(r"(?i:共?\s*\d+\s*(?:手|moves?))")
_BARE_INT = re.compile(r"\d+")
_MAX_ROUND = 50  # a bare RO number above this is a move count (RO[264]), not a round


def _fox_komi(value: float) -> float:
    """Turn a Fox komi (points or Chinese stones, times 100) into points.

    Fox writes ``KM[650]`` (6.5 points), ``KM[750]``, ``KM[50]`` (0.5, handicap games) and, under
    Chinese rules, the komi in stones: ``KM[375]`` is 3¾ 子 = 7.5 points (``275``, ``325``, ``350``
    likewise). A hundredth between 2.5 and 4 is read as stones, as KataGo reads Fox files.
    """
    komi = value / 100
    return komi * 2 if 2.5 <= abs(komi) <= 4 else komi


def _is_fox_scaled(text: str, value: float, fox: bool) -> bool:
    """Return True when a plain number is a Fox komi times 100.

    It is one when it is an integer written without a decimal point, a multiple of 25 (Fox komi are
    in quarters), and either ``fox`` is set or its size (100 or more) is no plausible komi.
    """
    if "." in text or value % 25:
        return False
    return fox or abs(value) >= 100


def _words_amount(match: re.Match[str]) -> float | None:
    """Return the unsigned amount a ``_KOMI_WORDS`` match spells, in its own unit, or None."""
    whole = match["int"] or "0"
    amount = float(whole) if whole[0].isdigit() else cjk_numeral(whole)
    if amount is None or (match["den"] and int(match["den"]) == 0):
        return None
    fraction = int(match["num"]) / int(match["den"]) if match["den"] else 0.0
    half = 0.5 if match["half1"] or match["half2"] else 0.0
    return amount + fraction + half


def _in_stones(match: re.Match[str]) -> bool:
    """Return True when a ``_KOMI_WORDS`` amount is in Chinese stones: unit 子, or quarters with no unit.

    Only Chinese counting gives quarter komi (``贴3又3/4`` is 3¾ 子 = 7.5 points).
    """
    return match["unit"] == _STONE_UNIT or (match["unit"] is None and match["den"] == "4")


def _komi_from_words(text: str) -> float | None:
    """Read a komi written in words (see ``_KOMI_WORDS``); stones (子) count two points; else None."""
    if text in _NO_KOMI:
        return 0.0
    match = _KOMI_WORDS.fullmatch(_KOMI_PREFIX.sub("", text, count=1))
    if match is None or not (match["int"] or match["num"] or match["half1"] or match["half2"]):
        return None
    amount = _words_amount(match)
    if amount is None:
        return None
    amount *= 2 if _in_stones(match) else 1
    return -amount if match["sign"] == "-" else amount


@functools.lru_cache(maxsize=65536)
def parse_komi(raw: str | None, *, fox: bool = False) -> float | None:
    """Return the komi in points, or None when ``raw`` is empty or unreadable.

    Plain numbers as written (``6.5``, ``7.50``, ``0.500000``, ``-1.5``, ``5。5``, full-width digits);
    Fox komi times 100 (see ``_is_fox_scaled``: set ``fox`` for files with ``AP[foxwq]``, and an
    integer of 100 or more in quarters is read so anyway): ``750`` and ``375`` give 7.5.
    Words: ``黑贴五目半`` 5.5, ``6目半`` 6.5, ``贴3又3/4子`` 7.5, ``7.5目``, ``5 1/2``, ``6집반``,
    ``无贴`` 0. Reverse komi in words (``白贴``) is not read (None). None beyond ±1,000 points
    (``KM[999999]``, ``KM[-5000]``; a Fox ``KM[75000]`` is 750 and kept). Never raises.
    """
    if not raw:
        return None
    return within(_komi(raw, fox), -_MAX_KOMI, _MAX_KOMI)


def _komi(raw: str, fox: bool) -> float | None:
    """The komi ``raw`` spells, in points, unbounded (see :func:`parse_komi`); None when unreadable."""
    text = raw.strip()
    if not (text.isascii() and _PLAIN_NUMBER.fullmatch(text)):
        text = _DECIMAL_MARK.sub(".", fold(raw.translate(_VULGAR_FRACTIONS)))
        if not _PLAIN_NUMBER.fullmatch(text):
            return _komi_from_words(text)
    value = float(text)
    return _fox_komi(value) if _is_fox_scaled(text, value, fox) else value


@functools.lru_cache(maxsize=65536)
def parse_handicap(raw: str | None, board_size: int | None = None) -> int | None:
    """Return the number of handicap stones, or None when ``raw`` is empty or unreadable.

    ``0``..``99`` as written (``HA[1]``, which servers write for a no-komi game, stays 1; ``2.0``
    gives 2); ``让先``/``讓先``/``定先``/``정선`` (no komi) give 1; ``分先``/``互先``/``호선`` give 0;
    a number of stones in words, with or without 子 and 让/讓/授/饶 (``让2子``, ``讓二子``,
    ``授三子``, ``二子``, ``二``, ``9子局``, ``四子棋``, ``2점``, ``2 stones``) gives it, and so does a
    sentence that names one number of stones (``本局为授三子局``, ``白让黑三子``, ``Black takes 3 stones``,
    ``handicap: 3``; two different numbers name none). With ``board_size`` (lines), more stones than the
    board has points is None (``HA[99]`` on 9x9).
    """
    count = _handicap(raw) if raw else None
    limit = _MAX_HANDICAP if board_size is None else min(_MAX_HANDICAP, board_size * board_size)
    return within(count, 0, limit)


def _handicap(raw: str) -> int | None:
    """The stone count ``raw`` spells (see :func:`parse_handicap`), unbounded; None when unreadable."""
    text = raw.strip() if raw.isascii() else fold(raw)
    if text in _NO_KOMI_HANDICAP:
        return 1
    if text in _EVEN_HANDICAP:
        return 0
    number = _HANDICAP_NUMBER.fullmatch(text)
    if number is not None:
        return int(number[1])
    match = _HANDICAP_WORDS.fullmatch(text)
    if match is not None:
        return cjk_numeral(match["n"])
    named = {_numeral(m["given"] or m["count"] or m["named"]) for m in _STONES_IN_TEXT.finditer(text)}
    return named.pop() if len(named) == 1 else None


def _numeral(text: str) -> int | None:
    """ASCII digits or a Chinese numeral as a number; None for neither."""
    return int(text) if text.isascii() else cjk_numeral(text)


def handicap_how(raw: str) -> str:
    """How a handicap that :func:`parse_handicap` read from ``raw`` was written: ``HA`` for a plain ASCII
    number (``3``, `` 2.0 ``), ``HA text`` for words, a sentence or full-width digits (``三子``, ``３``)."""
    return "HA" if raw.isascii() and _HANDICAP_NUMBER.fullmatch(raw.strip()) else "HA text"


@functools.lru_cache(maxsize=65536)
def parse_board_size(raw: str | None) -> int | None:
    """Return the number of lines of a square board (1..52), or None.

    ``19``, ``19:19`` and ``19x19`` give 19. None for empty or unreadable text, negative sizes
    (``-10``), sizes above 52, and non-square boards (``19:25``): the pipeline rates square boards
    only, and one number cannot describe the others.
    """
    if not raw:
        return None
    match = _SIZE.fullmatch(raw.strip() if raw.isascii() else fold(raw))
    if match is None or (match["rows"] is not None and int(match["rows"]) != int(match["cols"])):
        return None
    size = int(match["cols"])
    return size if 1 <= size <= _MAX_SIZE else None


@functools.lru_cache(maxsize=65536)
def parse_game_type(raw: str | None) -> int | None:
    """Return the ``GM`` number (1 Go, 4 Gomoku, ...) as written, or None.

    A positive integer below 100 comes back as is (``1``, ``4``, even an odd ``19``); text such as
    ``game of go``, zero, negative numbers and empty values give None.
    """
    if not raw:
        return None
    text = raw.strip() if raw.isascii() else fold(raw)
    return int(text) if _SMALL_INT.fullmatch(text) and int(text) > 0 else None


def _present(value: str | None) -> str | None:
    """Return ``value`` folded, or None when it is missing, empty or a placeholder (``None``, ``?``)."""
    if value is None:
        return None
    text = fold(value)
    return None if text.lower() in _PLACEHOLDERS else text


def _names_event(gn: str) -> bool:
    """Return True when a folded ``GN`` names an event (``Gifu Challenge 2006``, ``第3期名人戦``).

    A game name pairing players (``A vs B``, ``player1-player2(B) IGS``) never does.
    """
    return _EVENT_WORDS.search(gn) is not None and _GAME_NAME.search(gn) is None


@functools.lru_cache(maxsize=65536)
def parse_event(ev: str | None, gn: str | None, te: str | None) -> str | None:
    """Return the event's name, folded (NFKC, white space collapsed), or None.

    ``EV`` when present and not a placeholder (``EV[None]``, ``EV[?]``); else ``TE``, where the
    Chinese/TOM layout puts the event (``第14届三星杯32强战第1轮``), unless it is a bare number (the
    FF[4] ``TE[1]`` move annotation); else ``GN`` when it names an event (see ``_names_event``).
    """
    event = _present(ev)
    if event is not None:
        return event
    te_text = _present(te)
    if te_text is not None and not _ANNOTATION.fullmatch(te_text):
        return te_text
    game = _present(gn)
    return game if game is not None and _names_event(game) else None


def _is_move_count(text: str, moves: int | None) -> bool:
    """Return True when a folded ``RO`` value is a move count: see :func:`parse_round`."""
    if _MOVE_COUNT.fullmatch(text):
        return True
    if not _BARE_INT.fullmatch(text):
        return False
    return len(text) > 4 or int(text) > _MAX_ROUND or int(text) == moves


def parse_round(ro: str | None, moves: int | None) -> str | None:
    """Return the round as folded text (``3``, ``Round 3``, ``3 (final)``, ``决赛``), or None.

    None when ``RO`` is empty or holds a move count rather than a round: a bare integer equal to
    ``moves`` (the main line's move count, when known), a bare integer above 50 (``RO[264]``; no
    event has that many rounds, few games that few moves), or ``264手``/``共264手``/``264 moves``.
    """
    text = _present(ro)
    return None if text is None or _is_move_count(text, moves) else text
