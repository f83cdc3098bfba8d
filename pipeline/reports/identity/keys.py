"""identity.keys: the keys a player's name is bucketed by, one kind of evidence each.

A spelling gives rows ``(kind, key, note)`` (:func:`name_keys`); two players whose spellings share a key
of a kind are a candidate pair with that kind of evidence. The kinds, strongest first (:data:`KINDS`):

- ``case_width``: :func:`pipeline.config.roster.name_key` (NFKC, white space, casefold): ``Ｆｉｓｈ`` and
  ``fish``.
- ``script``: that key converted from traditional to simplified Chinese by OpenCC (``t2s``): ``李昌鎬``
  and ``李昌镐``.
- ``tail``: the script key without what is appended to a name: a country code in brackets or as the last
  word (``Lee Sedol (KOR)``, ``Lee Sedol KOR``: ISO 3166 codes from pycountry), and the Latin part of a
  name that mixes a CJK run with a Latin one (``李昌镐leechanghoo`` gives ``李昌镐`` and ``leechanghoo``);
  spaces and ``-._'`` are dropped (``Lee Chang-ho`` = ``leechangho``).
- ``romanisation``: a Chinese name in pinyin without tones (pypinyin; every reading of a character with
  several, up to :data:`MAX_READINGS` keys), met by a Latin name reduced as for ``tail``: ``牛蛙`` and
  ``niuwa``, ``聶衛平`` and ``Nie Weiping`` (a pinyin key's note is ``in pinyin``: two Chinese names
  that sound alike, 莹莹 and 盈盈, are no pair; :func:`pipeline.reports.identity.evidence.name_pairs`
  pairs a Chinese name with a Latin one only). Mandarin only: the Korean or Japanese reading of a name
  (``李昌镐``, Lee Changho) is not known, and the given-name-first order is not tried.
- ``nickname``: each part of a name with brackets (``name[nick]``, ``nick (name)``, ``名（昵称）``):
  the text outside the brackets and each bracketed text, reduced as for ``tail``; a name without
  brackets is its own part, so that ``GnuGo`` meets ``GnuGo (GNU Go 3.1.27)``.

A pair's name evidence is the strongest kind its spellings share. Parts of fewer than two characters,
all digits, or a rank (``(9p)``) make no key. Knows nothing of games, players or scores; only how names
are written.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

import opencc
import pandas as pd
import pycountry

from pipeline.config.roster import name_key
from pipeline.core.i18n import _
from pipeline.core.ranks import parse_rank
from pipeline.core.text import fold

#: The kinds of name evidence, strongest first.
KINDS = ("case_width", "script", "tail", "nickname", "romanisation")
#: The most pinyin keys one name gives (the readings of characters with several multiply).
MAX_READINGS = 8
#: The columns of :func:`name_keys`.
KEY_COLUMNS = ("spelling", "kind", "key", "note")

# Hangul jamo, CJK radicals, 々〆〇, kana, Hangul compatibility jamo, CJK ideographs (A and basic),
# Hangul syllables, CJK compatibility ideographs.
_CJK = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3040-\u30ff\u3130-\u318f"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
)
_MIXED = re.compile(rf"(?P<cjk>[{_CJK}]+)\s*[-_·.]?\s*(?P<latin>[A-Za-z][A-Za-z0-9 .'_-]*)")
_MIXED_REVERSED = re.compile(rf"(?P<latin>[A-Za-z][A-Za-z0-9 .'_-]*?)\s*[-_·.]?\s*(?P<cjk>[{_CJK}]+)")
_OPEN, _CLOSE = "([（【「《<", ")]）】」》>"
_BRACKETED = re.compile(
    rf"[{re.escape(_OPEN)}](?P<inner>[^{re.escape(_OPEN + _CLOSE)}]*)[{re.escape(_CLOSE)}]"
)
_LAST_WORD = re.compile(r"^(?P<head>.+?)[\s_-]+(?P<code>[A-Z]{3})$")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9 .'_-]*")
_DROPPED = re.compile(r"[\s\-._'·]+")


def country_codes() -> frozenset[str]:
    """The ISO 3166 alpha-2 and alpha-3 codes (pycountry), upper case."""
    return frozenset(code for c in pycountry.countries for code in (c.alpha_2, c.alpha_3))


def name_keys(spellings: Iterable[str]) -> pd.DataFrame:
    """Every key of every one of ``spellings`` (names as the records or the roster write them).

    Returns:
        Columns :data:`KEY_COLUMNS`, one row per (spelling, kind, key), no duplicates: ``kind`` one of
        :data:`KINDS`, ``note`` what the reduction removed (``without the country code KOR``, ``without
        the Latin part``, ``without the CJK part``; ``in pinyin`` for a Chinese name's ``romanisation``
        keys; empty when nothing).
    """
    names = sorted({fold(s) for s in spellings if isinstance(s, str) and fold(s)})
    codes = country_codes()
    rows = pd.DataFrame([row for name in names for row in _rows(name, codes)], columns=list(KEY_COLUMNS))
    converted = rows["kind"] != "case_width"
    rows.loc[converted, "key"] = rows.loc[converted, "key"].map(_simplified(rows.loc[converted, "key"]))
    return rows.drop_duplicates(ignore_index=True)


def _simplified(keys: Iterable[str]) -> dict[str, str]:
    """Each of ``keys`` -> itself in simplified Chinese (OpenCC ``t2s``), converted in one call (keys
    hold no newline: :func:`~pipeline.config.roster.name_key` collapses white space)."""
    unique = sorted(set(keys))
    if not unique:
        return {}
    converted = str(opencc.OpenCC("t2s").convert("\n".join(unique))).split("\n")
    return dict(zip(unique, converted, strict=True))


def _rows(name: str, codes: frozenset[str]) -> Iterator[tuple[str, str, str, str]]:
    """The (spelling, kind, key before the script conversion, note) rows of ``name`` (NFKC-folded)."""
    yield name, "case_width", name_key(name), ""
    yield name, "script", name_key(name), ""
    for text, note in tail_keys(name, codes):
        yield name, "tail", reduced(text), note
    for part in nickname_parts(name, codes):
        yield name, "nickname", reduced(part), ""
    note = "" if _LATIN.fullmatch(name) else _("in pinyin")
    for key in romanised(name):
        yield name, "romanisation", key, note


def reduced(text: str) -> str:
    """``text`` as :func:`~pipeline.config.roster.name_key` compares it, without spaces and ``-._'·``."""
    return _DROPPED.sub("", name_key(text))


def tail_keys(name: str, codes: frozenset[str]) -> list[tuple[str, str]]:
    """The reductions of ``name`` (NFKC-folded) for the ``tail`` kind: (text, what was removed).

    ``Lee Sedol (KOR)`` and ``Lee Sedol KOR`` give ``[("Lee Sedol", "without the country code KOR")]``;
    ``李昌镐leechanghoo`` gives the CJK and the Latin part; any other name gives itself, note empty.
    """
    stripped, code = _without_country(name, codes)
    if code:
        return [(stripped, _("without the country code {code}").format(code=code))]
    mixed = _MIXED.fullmatch(name) or _MIXED_REVERSED.fullmatch(name)
    if mixed is None:
        return [(name, "")]
    return [(mixed["cjk"], _("without the Latin part")), (mixed["latin"].strip(), _("without the CJK part"))]


def _without_country(name: str, codes: frozenset[str]) -> tuple[str, str]:
    """``name`` without a bracketed country code or an upper-case alpha-3 last word, and the code
    (empty when there is none)."""
    for found in _BRACKETED.finditer(name):
        inner = found["inner"].strip()
        if inner.upper() in codes and inner.isascii():
            return fold(name[: found.start()] + " " + name[found.end() :]), inner.upper()
    last = _LAST_WORD.fullmatch(name)
    if last is not None and last["code"] in codes:
        return last["head"], last["code"]
    return name, ""


def romanised(name: str) -> list[str]:
    """The ``romanisation`` keys of ``name`` (NFKC-folded): its pinyin readings when it is Chinese
    characters only (spaces aside), itself :func:`reduced` when it is Latin, else none."""
    if _LATIN.fullmatch(name):
        return [reduced(name)]
    han = name.replace(" ", "")
    if not _HAN.fullmatch(han):
        return []
    from pypinyin import Style, pinyin  # here: its dictionaries load slowly (docs/design.md#lazy-imports)

    readings = pinyin(han, style=Style.NORMAL, heteronym=True)
    return ["".join(combo) for combo in itertools.islice(itertools.product(*readings), MAX_READINGS)]


def nickname_parts(name: str, codes: frozenset[str]) -> list[str]:
    """The parts of ``name`` (NFKC-folded) for the ``nickname`` kind: the text outside brackets, then
    each bracketed text (a country code, a rank, a part under two characters or of digits only left
    out); ``name`` itself when it has no brackets."""
    inner = [m["inner"].strip() for m in _BRACKETED.finditer(name)]
    if not inner:
        return [name]
    outside = fold(_BRACKETED.sub(" ", name))
    parts = [outside, *(p for p in inner if p.upper() not in codes)]
    return [p for p in parts if len(p) >= 2 and not p.isdigit() and parse_rank(p) is None]
