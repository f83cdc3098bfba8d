"""Text helpers shared by the normalisers: width folding, Chinese/Japanese numerals, bounds on numbers read
from records, the repair of names that went through the wrong codec (mojibake), and the names that lost
bytes on the way (:func:`undecodable`).

Knows nothing of what the text means; only how digits and spaces are written, and how UTF-8 looks after a
wrong decoding. Does not know which property a text came from, nor what bounds a field needs (callers pass
them).
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from typing import TypeVar

from pipeline.core.charset import pair_texts

_CJK_DIGITS = {
    "零": 0,
    "〇": 0,
    "○": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
CJK_NUMERAL_CHARS = "".join(_CJK_DIGITS) + "".join(_CJK_UNITS)
_MAX_NUMERAL = 9999
_SPACES = re.compile(r"\s+")

Number = TypeVar("Number", int, float)

# Mojibake: UTF-8 bytes decoded with one of these codecs and saved again. GB18030 (a superset of GBK),
# Big5, Shift-JIS (CP932), EUC-KR (CP949) and Windows-1252 (with Latin-1's C1 controls for its holes).
_WRONG_CODECS = ("gb18030", "big5", "cp932", "cp949", "cp1252")
_C1 = frozenset(map(chr, range(0x80, 0xA0)))
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cn", "Co", "Cs"})
# The everyday characters of each script, as (codec, first code, last code) of its national standard's
# first level: GB2312 level 1 (3,755 hanzi), Big5 level 1 (5,401), JIS X 0208 level 1 (2,965 kanji),
# KS X 1001 hangul (2,350). Kana and Latin letters are counted by code point.
_EVERYDAY = (
    ("gb2312", 0xB0A1, 0xD7FE),
    ("big5", 0xA440, 0xC67E),
    ("euc_jp", 0xB0A1, 0xCFD3),
    ("euc_kr", 0xB0A1, 0xC8FE),
)
_KANA = (0x3041, 0x30FC)
_LATIN = (0xC0, 0x17F)


def fold(text: str) -> str:
    """Return ``text`` in NFKC form with runs of white space collapsed and the ends stripped.

    NFKC turns full-width digits, letters and punctuation (``５。５`` is not touched, but ``５``
    becomes ``5``), and the ideographic space U+3000, into their ASCII forms.
    """
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def within(value: Number | None, low: float, high: float) -> Number | None:
    """Return ``value`` when it is finite and ``low <= value <= high``, else None (None gives None).

    For numbers read from records: one out of its range is no setting at all (``LC[2147483648]``),
    never a clipped or wrapped one.
    """
    if value is None or not math.isfinite(value) or not low <= value <= high:
        return None
    return value


def cjk_numeral(text: str) -> int | None:
    """Return the value of a Chinese/Japanese numeral up to 9999, or None if ``text`` is not one.

    Accepts ``三`` (3), ``十五`` (15), ``二十`` (20), ``一百零五`` (105), ``初`` (1, as in 初段).
    ASCII digits are accepted too (``15`` gives 15). None above 9999 (``10000``, ``九千九千``) and for
    digits in a row (``九九``; a digit may follow only 零).
    """
    if not text:
        return None
    if text.isascii():
        return int(text) if text.isdigit() and len(text) <= 4 else None
    if text == "初":
        return 1
    total, digit = 0, None
    for ch in text:
        if ch in _CJK_DIGITS:
            if digit:  # '九九': two digits in a row (only after 零, as in 一百零五)
                return None
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_UNITS:
            total += (1 if digit is None else digit) * _CJK_UNITS[ch]
            digit = None
        else:
            return None
    return within(total + (digit or 0), 0, _MAX_NUMERAL)


@functools.lru_cache(maxsize=65536)
def repair_mojibake(text: str) -> str | None:
    """Return the text that ``text`` was before UTF-8 bytes were decoded with a wrong codec, or None.

    ``'鍙ゅ姏'`` (古力 read as GBK), ``'蠑ｵ譬ｩ'`` (張栩 read as Shift-JIS), ``'ç¾½ç„°'`` (羽焰 read as
    Windows-1252) come back repaired. A repair is returned only when re-encoding ``text`` with one of
    GB18030, Big5, CP932, CP949 or CP1252 gives valid UTF-8 that (1) uses every ASCII character as it
    stands, (2) holds no control, format, private-use or unassigned character, (3) for the double-byte
    codecs, no character below U+0800 (Latin, Greek, Cyrillic), and (4) has fewer characters outside
    the everyday set of its script (see ``_uncommon``) than ``text`` has. None for ASCII, for text with
    U+FFFD or ``?`` where bytes were lost (nothing can be repaired faithfully), for text with a
    character that several byte sequences decode to (CP932's NEC/IBM duplicates), and, as measured
    (docs/design.md#mojibake-repair), for legitimate names. (ftfy, the usual library, repairs only
    single-byte codecs, not GBK, Big5 or Shift-JIS.)
    """
    if text.isascii() or "\ufffd" in text:
        return None
    for codec in _WRONG_CODECS:
        candidate = _undo(text, codec)
        if candidate is not None and _uncommon(candidate) < _uncommon(text):
            return candidate
    return None


@functools.lru_cache(maxsize=65536)
def undecodable(text: str) -> bool:
    """True when ``text`` lost bytes in decoding, so that no one can tell what was written: it holds
    U+FFFD (bytes no codec read), it is question marks only, two or more (``'???'``: every character
    lost to a codec that could not write it), or it is mojibake with ``?`` where a lossy codec dropped
    bytes, which :func:`repair_mojibake` cannot undo (``'寮犱笁涓?'``: 张三丰 read as GBK, its last
    byte lost, saved again).

    The last: with ``?`` taken as a gap, re-encoding the pieces between the gaps with one of the
    codecs of :func:`repair_mojibake` gives valid UTF-8 but for the characters cut at each gap, with
    every ASCII character as it stands, at least one character beyond ASCII, none in a class names
    never use (control, format, private, unassigned; for the double-byte codecs, none below U+0800),
    and a smaller share of characters outside the everyday set than ``text`` has; so a name all of
    whose characters were cut (``'鏌?娲?'``) is not found. A name with a question mark in it (``'李?'``,
    ``'Lee?'``, ``'José?'``) is not that. Knows nothing of whether a
    name is a placeholder: only whether its bytes were lost.
    """
    if "\ufffd" in text or (len(text) > 1 and not text.strip("?")):
        return True
    if text.isascii() or "?" not in text:
        return False
    pieces = text.split("?")
    return any(_lost_from(pieces, text, codec) for codec in _WRONG_CODECS)


def _lost_from(pieces: list[str], text: str, codec: str) -> bool:
    """True when ``pieces`` (``text`` split at its ``?``) are UTF-8 read as ``codec``, cut at each gap
    (see :func:`undecodable`)."""
    try:
        raws = [_encode(piece, codec) for piece in pieces]
    except UnicodeEncodeError:
        return False
    found = []
    for index, raw in enumerate(raws):
        if sum(byte < 0x80 for byte in raw) != sum(ch.isascii() for ch in pieces[index]):
            return False  # a double-byte character with an ASCII trail byte: UTF-8 never makes one
        head = _CUT_HEAD.match(raw) if index else None  # the gap may have cut a character's start
        try:
            found.append(_cut_tail(raw[head.end() if head else 0 :], index < len(raws) - 1))
        except UnicodeDecodeError:
            return False
    candidate = "".join(found)
    if candidate.isascii() or any(unicodedata.category(ch) in _NOT_IN_NAMES for ch in candidate):
        return False
    if codec != "cp1252" and any(0x80 <= ord(ch) < 0x800 for ch in candidate):
        return False
    plain = text.replace("?", "")
    return _uncommon(candidate) * len(plain) < _uncommon(plain) * len(candidate)


_CUT_HEAD = re.compile(rb"[\x80-\xbf]{1,3}")


def _cut_tail(raw: bytes, cut: bool) -> str:
    """``raw`` as UTF-8; when ``cut``, a character left incomplete at its end (by the gap that follows)
    is dropped. Raises UnicodeDecodeError for bytes that are not UTF-8 otherwise."""
    if not cut:
        return raw.decode("utf-8")
    for drop in range(4):
        try:
            return raw[: len(raw) - drop].decode("utf-8")
        except UnicodeDecodeError as e:
            if drop == 3 or e.start < len(raw) - 3:
                raise
    raise AssertionError("unreachable")


def _undo(text: str, codec: str) -> str | None:
    """The UTF-8 text that decoded as ``codec`` gives ``text``, or None (see :func:`repair_mojibake`)."""
    try:
        raw = _encode(text, codec)
        candidate = raw.decode("utf-8")
    except UnicodeError:
        return None
    if not _ambiguous(codec).isdisjoint(text):  # after the cheap test: most text is no UTF-8 in disguise
        return None
    if sum(byte < 0x80 for byte in raw) != sum(ch.isascii() for ch in text):
        return None  # a double-byte character with an ASCII trail byte: UTF-8 never makes one
    if any(unicodedata.category(ch) in _NOT_IN_NAMES for ch in candidate):
        return None
    if codec != "cp1252" and any(0x80 <= ord(ch) < 0x800 for ch in candidate):
        return None
    return candidate


def _encode(text: str, codec: str) -> bytes:
    """``text`` in ``codec``; for CP1252, C1 controls (Latin-1's reading of its holes) as their byte.

    Raises UnicodeEncodeError if a character has no byte form in ``codec``.
    """
    if codec != "cp1252":
        return text.encode(codec)
    return b"".join(ch.encode("latin-1" if ch in _C1 else "cp1252") for ch in text)


@functools.cache
def _ambiguous(codec: str) -> frozenset[str]:
    """Characters that more than one double-byte sequence of ``codec`` decodes to (empty for CP1252):
    those a sequence decodes to that encode to another. The whole table decoded and encoded at once."""
    if codec == "cp1252":
        return frozenset()
    pairs, texts = pair_texts(codec, range(0x81, 0xFF), range(0x40, 0xFF))
    again = "\n".join(texts).encode(codec, errors="replace").split(b"\n")  # no character encodes to a \n
    found = zip(pairs, texts, again, strict=True)
    return frozenset(ch for raw, ch, back in found if back != raw and len(ch) == 1)


def _uncommon(text: str) -> int:
    """How many characters of ``text`` are outside the everyday set of the script that fits it best.

    Printable ASCII is everyday in every script; see ``_EVERYDAY``, ``_KANA`` and ``_LATIN``.
    """
    counts = [0] * (len(_EVERYDAY) + 1)
    for ch in text:
        for script, everyday in enumerate(_everyday_in(ch)):
            counts[script] += everyday
    return len(text) - max(counts)


@functools.lru_cache(maxsize=65536)
def _everyday_in(ch: str) -> tuple[bool, ...]:
    """For each script (simplified and traditional Chinese, Japanese, Korean, Latin): is ``ch`` everyday?"""
    if ch.isascii():
        return (ch.isprintable(),) * (len(_EVERYDAY) + 1)
    scripts = [low <= _code(ch, codec) <= high for codec, low, high in _EVERYDAY]
    scripts[2] = scripts[2] or _KANA[0] <= ord(ch) <= _KANA[1]
    return (*scripts, _LATIN[0] <= ord(ch) <= _LATIN[1] and ch.isalpha())


def _code(ch: str, codec: str) -> int:
    """The double-byte code of ``ch`` in ``codec`` as an integer; -1 when it has none."""
    try:
        raw = ch.encode(codec)
    except UnicodeEncodeError:
        return -1
    return int.from_bytes(raw, "big") if len(raw) == 2 else -1
