"""Text helpers shared by the normalisers: width folding and Chinese/Japanese numerals.

Knows nothing of what the text means; only how digits and spaces are written.
"""

from __future__ import annotations

import re
import unicodedata

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
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Return ``text`` in NFKC form with runs of white space collapsed and the ends stripped.

    NFKC turns full-width digits, letters and punctuation (``５。５`` is not touched, but ``５``
    becomes ``5``), and the ideographic space U+3000, into their ASCII forms.
    """
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def cjk_numeral(text: str) -> int | None:
    """Return the value of a Chinese/Japanese numeral up to 9999, or None if ``text`` is not one.

    Accepts ``三`` (3), ``十五`` (15), ``二十`` (20), ``一百零五`` (105), ``初`` (1, as in 初段).
    ASCII digits are accepted too (``15`` gives 15).
    """
    if not text:
        return None
    if text.isascii():
        return int(text) if text.isdigit() else None
    if text == "初":
        return 1
    total, digit = 0, None
    for ch in text:
        if ch in _CJK_DIGITS:
            digit = _CJK_DIGITS[ch]
        elif ch in _CJK_UNITS:
            total += (1 if digit is None else digit) * _CJK_UNITS[ch]
            digit = None
        else:
            return None
    return total + (digit or 0)
