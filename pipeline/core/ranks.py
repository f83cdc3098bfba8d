"""Player ranks: ``BR``/``WR`` text, and ranks written inside ``PB``/``PW`` names, -> :class:`Rank`.

Knows how servers and people write kyu, dan and professional ranks in English, Chinese, Japanese
and Korean (``5k``, ``3 dan``, ``P9``, ``十五级``, ``業餘5段``, ``アマ五段``, ``프로9단``) and which
decorations they add (``3d?``, ``18k*``, ``2d (AGA)``). Knows nothing of bytes, encodings or the SGF
grammar (values arrive decoded and unescaped), nor of ratings: whether a bare ``九段`` is an
amateur or a professional dan is for the rule set to decide (it comes back as kind ``d``).
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
    r"(?i:(?:(?P<pre>pro|professional|amateur|ama)\s*)?"
    r"(?:(?P<num>\d{1,2})(?P<frac>\.\d+)?\s*-?\s*(?P<unit>kyu|dan|pro|k|d|p)|p\s*(?P<pnum>\d{1,2}))"
    r"(?:\s+(?P<post>pro|professional))?)"
    r"\s*(?P<deco>[?*+]*)(?:\s*(?:\([^()]*\)|[A-Z]{2,5}))?"
)
# CJK forms: '3段', '初段', '十五级', '5級', '职业九段', 'P9段', '業餘5段', 'アマ五段', '아마5단',
# '초단', '3급'.
_CJK_RANK = re.compile(
    r"(?P<pre>[Pp]|职业|職業|プロ|프로|业余|業餘|業余|业馀|アマチュア|アマ|아마추어|아마)?\s*"
    rf"(?P<num>\d{{1,2}}|[{CJK_NUMERAL_CHARS}初]+|초)\s*(?P<unit>[段级級단급])"
    r"\s*(?P<deco>[?*+]*)(?:\s*\([^()]*\))?"
)


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
