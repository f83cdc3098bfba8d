"""Player ranks: ``BR``/``WR`` text, and ranks written inside ``PB``/``PW`` names, -> :class:`Rank`.

Knows how servers and people write kyu, dan and professional ranks in English, Chinese, Japanese
and Korean (``5k``, ``3 dan``, ``P9``, ``十五级``, ``業餘5段``, ``アマ五段``, ``프로9단``, ``7급``), which
decorations they add (``3d?``, ``18k*``, ``2d (AGA)``), "equivalent" ranks (``三段格``: of 3-dan
standing, read as 3d), and, in a ``BR``/``WR`` value (:func:`read_rank`), a title or note written beside
the rank (``9p, Meijin``, ``九段 名人``, ``名人 九段``, ``9단 프로``). Knows nothing of bytes, encodings or
the SGF grammar (values arrive decoded and unescaped), nor of ratings: whether a bare ``九段`` is an
amateur or a professional dan is for the rule set to decide (it comes back as kind ``d``). The text
beside a rank is not kept here: the caller keeps the value as written (``black_rank_raw``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from pipeline.core.text import CJK_NUMERAL_CHARS, cjk_numeral, fold

RankKind = Literal["k", "d", "p"]

_MAX_VALUE: dict[str, int] = {"k": 30, "d": 9, "p": 9}
_UNIT_KIND: dict[str, RankKind] = {
    "k": "k",
    "kyu": "k",
    "d": "d",
    "dan": "d",
    "p": "p",
    "pro": "p",
    "级": "k",
    "級": "k",
    "급": "k",
    "段": "d",
    "단": "d",
}
_PRO_WORDS = frozenset({"p", "P", "pro", "professional", "职业", "職業", "プロ", "프로"})
# Decorations that mean "not sure": KGS '?' (uncertain rank), IGS '+' (no meaning documented).
# IGS/NNGS '*' means the opposite (rank established by 20 rated games), so it is not uncertain.
_UNCERTAIN_MARKS = frozenset("?+")

# ASCII forms: '5k', '3 dan', '9-dan pro', 'P9', '16.1k' (CGOS decimal), '18k*', '2d (AGA)', '15k* IGS'.
_ASCII_RANK = re.compile(
    r"(?i:(?:(?P<pre>professional|pro|amateur|ama)\s*)?"
    r"(?:(?P<num>\d{1,2})(?P<frac>\.\d+)?\s*-?\s*(?P<unit>kyu|dan|pro|k|d|p)|p\s*(?P<pnum>\d{1,2}))"
    r"(?:\s+(?P<post>professional|pro))?)"
    r"\s*(?P<deco>[?*+]*)(?:\s*(?:\([^()]*\)|[A-Z]{2,5}))?"
)
# CJK forms: '3段', '初段', '十五级', '5級', '职业九段', 'P9段', '業餘5段', 'アマ五段', '아마5단',
# '초단', '3급'.
_CJK_RANK = re.compile(
    r"(?P<pre>[Pp]|职业|職業|プロ|프로|业余|業餘|業余|业馀|アマチュア|アマ|아마추어|아마)?\s*"
    rf"(?P<num>\d{{1,2}}|[{CJK_NUMERAL_CHARS}初]+|초)\s*(?P<unit>[段级級단급])格?"
    r"\s*(?P<deco>[?*+]*)(?:\s*\([^()]*\))?"
)
# What may stand between a rank and a title or note beside it in a BR/WR value: white space, commas,
# semicolons, the Japanese and Chinese list marks and middle dots, an opening parenthesis or bracket.
_NOTE_MARK = r"[\s,;、・·(\[]"
_NOTE_SPLIT = re.compile(rf"{_NOTE_MARK}+")
_ENDS_IN_MARK = re.compile(rf"{_NOTE_MARK}$")
# The longest BR/WR value searched for a rank beside a note (the search is quadratic in the length): a
# rank with its titles is far shorter, and a longer value is no rank.
_MAX_NOTED = 64


@dataclass(frozen=True, slots=True)
class Rank:
    """A player's grade: ``kind`` k (kyu, value 1..30), d (dan, 1..9) or p (professional dan, 1..9).

    ``uncertain`` is True when the server marked the rank as a guess (``3d?``) or wrote it as a
    decimal estimate (CGOS ``16.1k``); it plays no part in :meth:`__str__`.
    """

    kind: RankKind
    value: int
    uncertain: bool = False

    def __str__(self) -> str:
        """Return the canonical form, e.g. ``5k``, ``3d``, ``9p`` (no decoration)."""
        return f"{self.value}{self.kind}"


def _make(kind: RankKind, value: int | None, uncertain: bool) -> Rank | None:
    """Return the rank, or None when ``value`` is missing or outside its kind's range."""
    if value is None or not 1 <= value <= _MAX_VALUE[kind]:
        return None
    return Rank(kind, value, uncertain)


def _is_uncertain(decoration: str) -> bool:
    """Return True when the decoration (``?``, ``*``, ``+``, ...) marks the rank as a guess."""
    return any(mark in _UNCERTAIN_MARKS for mark in decoration)


def _from_ascii(match: re.Match[str]) -> Rank | None:
    """Build a rank from a match of ``_ASCII_RANK``; the unit ``pro`` or a pro word makes kind p."""
    if match["pnum"] is not None:
        return _make("p", int(match["pnum"]), _is_uncertain(match["deco"]))
    kind = _UNIT_KIND[match["unit"].lower()]
    words = {(match["pre"] or "").lower(), (match["post"] or "").lower()}
    if kind == "d" and words & _PRO_WORDS:
        kind = "p"
    uncertain = _is_uncertain(match["deco"]) or match["frac"] is not None
    return _make(kind, int(match["num"]), uncertain)


def _from_cjk(match: re.Match[str]) -> Rank | None:
    """Build a rank from a match of ``_CJK_RANK``; a pro prefix makes a 段/단 rank kind p."""
    kind = _UNIT_KIND[match["unit"]]
    if kind == "d" and match["pre"] in _PRO_WORDS:
        kind = "p"
    value = 1 if match["num"] == "초" else cjk_numeral(match["num"])
    return _make(kind, value, _is_uncertain(match["deco"]))


@functools.lru_cache(maxsize=65536)
def parse_rank(raw: str | None) -> Rank | None:
    """Return the rank written in ``raw`` (a ``BR``/``WR`` value, or a token of a name), or None.

    None for no rank (``NR``, ``UR``, ``-``, ``?``, ``???``, empty), for Elo numbers used as ranks
    (CGOS ``1850``, ``2100?``), for titles (``名人``), for values out of range (``35k``, ``10d``)
    and for anything unreadable. Never raises.
    """
    if not raw:
        return None
    text = raw.strip() if raw.isascii() else fold(raw)
    match = _ASCII_RANK.fullmatch(text)
    if match is not None:
        return _from_ascii(match)
    match = _CJK_RANK.fullmatch(text)
    return _from_cjk(match) if match is not None else None


@functools.lru_cache(maxsize=65536)
def read_rank(raw: str | None) -> Rank | None:
    """Return the rank of a ``BR``/``WR`` value: :func:`parse_rank` of the whole value, else the one
    rank written beside a title or note, or None.

    The rank may come first, the note after a mark (``9p, Meijin``, ``九段 名人``, ``9段、名人``,
    ``9d [Kisei]``) or, after a CJK rank, none (``九段名人``); or last, after a mark (``Meijin 9p``,
    ``名人 九段``) or, for a CJK rank, after other CJK text (``名誉九段``, honorary 9-dan). A note that
    names the professionals (``9단 프로``, ``9 dan (professional)``) makes a dan kind p. None when the
    note holds a rank too (``3d 4d``: which one?), for a value of more than 64 characters that is not
    a rank as a whole, and for everything :func:`parse_rank` gives None. Never raises.
    """
    if not raw:
        return None
    text = raw.strip() if raw.isascii() else fold(raw)
    whole = parse_rank(raw)
    if whole is None and len(text) > _MAX_NOTED:
        return None
    found = (whole, text) if whole is not None else _rank_first(text) or _rank_last(text)
    if found is None:
        return None
    rank, note = found
    words = [w.strip(")]") for w in _NOTE_SPLIT.split(note)]
    if whole is None and any(parse_rank(w) is not None for w in words if w):
        return None
    if rank.kind == "d" and any(w.lower() in _PRO_WORDS for w in words):
        return Rank("p", rank.value, rank.uncertain)
    return rank


def _rank_first(text: str) -> tuple[Rank, str] | None:
    """(the rank at the start of ``text``, the note after it), or None (see :func:`read_rank`)."""
    match = _CJK_RANK.match(text)
    if match is not None and match.end() < len(text):
        rank = _from_cjk(match)
        return (rank, text[match.end() :]) if rank is not None else None
    match = _ASCII_RANK.match(text)
    if match is not None and (text[match.end() - 1].isspace() or re.match(_NOTE_MARK, text[match.end() :])):
        rank = _from_ascii(match)
        return (rank, text[match.end() :]) if rank is not None else None
    first = _NOTE_SPLIT.split(text, maxsplit=1)[0]  # '9p MEIJIN': the rank pattern took 'MEIJI' for a server
    rank = parse_rank(first) if first != text else None
    return (rank, text[len(first) :]) if rank is not None else None


def _rank_last(text: str) -> tuple[Rank, str] | None:
    """(the rank at the end of ``text``, the note before it), or None (see :func:`read_rank`)."""
    words = _NOTE_SPLIT.split(text)
    if len(words) > 1:
        rank = parse_rank(words[-1])
        if rank is not None:
            return rank, text[: -len(words[-1])]
    for match in _CJK_RANK.finditer(text):
        before = text[: match.start()]
        if match.end() == len(text) and before and (_is_cjk(before[-1]) or _ENDS_IN_MARK.search(before)):
            rank = _from_cjk(match)
            return (rank, before) if rank is not None else None
    return None


def _is_cjk(ch: str) -> bool:
    """True for a CJK ideograph, kana or hangul: text that a CJK rank may follow without a space."""
    return ch >= "\u3040" and ch.isalpha()


def _rank_token(token: str) -> Rank | None:
    """Return the rank a name's trailing token spells, unwrapping ``(9p)`` and ``[9p]``, or None."""
    if token[:1] in "([" and token[-1:] in ")]":
        token = token[1:-1]
    return parse_rank(token)


@functools.lru_cache(maxsize=65536)
def split_name_rank(name: str) -> tuple[str, Rank | None]:
    """Split a rank written at the end of a player name, after an ASCII or full-width space.

    ``'井上一郎 四段'`` gives ``('井上一郎', Rank('d', 4))``; ``'Lee Sedol 9p'`` gives
    ``('Lee Sedol', Rank('p', 9))``; two-word ranks (``'Kim 3 dan'``, ``'Sato アマ 五段'``) are read.
    The name comes back stripped, with every run of white space (U+3000 included) made one ASCII
    space, and otherwise as written. A name without a rank, a name with no space (``'AlphaGo'``,
    ``'李昌镐九段'``) and a name that is only a rank (``'5k'``) come back so with None.
    """
    words = name.split()
    for count in (2, 1):
        if len(words) > count:
            rank = _rank_token(" ".join(words[-count:]))
            if rank is not None:
                return " ".join(words[:-count]), rank
    return " ".join(words), None
