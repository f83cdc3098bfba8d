"""decode: the bytes of one file -> text, and which encoding was used and why.

Order of trust: a byte-order mark; then valid UTF-8 (a ``CA`` that names another charset over valid
UTF-8 bytes is a lie: servers re-save records as UTF-8 and keep the old ``CA``); then the charset the
``CA`` property names, when the bytes decode with it; then detection (:mod:`pipeline.core.charset`).
UTF-8 with a few broken sequences (a Fox name cut mid-character) stays UTF-8, with U+FFFD in place
of the broken bytes, so one bad name never loses a game.

A file that holds values in two encodings does not decode as one text: what the decoding above leaves
suspect (U+FFFD, a value that took the next property, UTF-8 characters in a file that is not UTF-8:
:func:`pipeline.ingest.mixed.suspect`) is decoded again value by value (:mod:`pipeline.ingest.mixed`),
and that text is kept when it differs (``how`` ``per-value``). A file that decodes cleanly as a whole
never pays for it beyond the test.

This layer knows where ``CA[...]`` stands in the bytes and nothing else of SGF (:mod:`~pipeline.ingest.mixed`
knows where values stand).
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import NamedTuple

from pipeline.core.charset import detect_mixed
from pipeline.ingest import mixed

_CA = re.compile(rb"CA\s*\[([^\]]{0,40})\]")
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# Spellings seen in CA[] -> the codec we decode with (supersets where the declared set is too narrow).
_ALIASES = {
    "utf8": "utf-8",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "euccn": "gb18030",
    "cp936": "gb18030",
    "big5": "cp950",
    "big5hkscs": "big5hkscs",
    "cp950": "cp950",
    "shiftjis": "cp932",
    "sjis": "cp932",
    "mskanji": "cp932",
    "cp932": "cp932",
    "windows31j": "cp932",
    "euckr": "cp949",
    "ksc56011987": "cp949",
    "cp949": "cp949",
    "uhc": "cp949",
    "eucjp": "euc_jp",
    "iso88591": "cp1252",
    "latin1": "cp1252",
    "l1": "cp1252",
    "utf16le": "utf-16-le",
    "utf16be": "utf-16-be",
}
_SEVEN_BIT = ("iso2022", "utf_7", "hz")
# Codecs Python registers as text encodings that are no charset: they fail on every byte (undefined),
# or read escapes and domain names, not characters (``\\]`` would lose its backslash).
_NOT_CHARSETS = frozenset({"undefined", "unicode-escape", "raw-unicode-escape", "idna", "punycode"})
#: Most replaced sequences a UTF-8 file may have and still be read as UTF-8 (cut names, mixed saves).
UTF8_MAX_BROKEN = 3
_HEAD_BYTES = 1024  # what _by_utf8_mostly decodes first
_MAY_MIX = frozenset({"bom", "ca", "utf-8-broken"})  # the decodings before detection that may mix codecs


class Decoded(NamedTuple):
    """The text of one file and how it was obtained.

    ``encoding`` is the codec name used; ``how`` is one of ``bom``, ``utf-16-pattern``, ``ascii``,
    ``utf-8``, ``ca``, ``utf-8-broken`` (UTF-8 with a few bytes replaced), ``detected`` (each: the whole
    file with one codec), or ``per-value`` (each value decoded on its own: ``encoding`` then names the
    codecs that decoded values, most values first, joined by ``+``, such as ``utf-8+cp949``);
    ``declared`` is the raw ``CA`` value or None; ``replaced`` counts the bytes that could not be
    decoded (shown as U+FFFD).
    """

    text: str
    encoding: str
    how: str
    declared: str | None
    replaced: int = 0


@functools.lru_cache(maxsize=4096)
def codec_for(declared: str) -> str | None:
    """Return the Python codec for a ``CA`` spelling (``UTF-8``, ``GB2312``, ``MS_KANJI``, ``foo``...).

    Returns None when the name is unknown or is not a charset (``base64``, ``rot13``, ``idna``,
    ``undefined``, ``unicode_escape``...).
    """
    key = re.sub(r"[^a-z0-9]", "", declared.lower())
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        info = codecs.lookup(declared.strip())
    except (LookupError, ValueError):
        return None
    charset = getattr(info, "_is_text_encoding", True) and info.name not in _NOT_CHARSETS
    return info.name if charset else None


def decode(data: bytes) -> Decoded:
    """Decode the bytes of an SGF file; never raises.

    Returns a :class:`Decoded`. Every input gives text: when nothing fits, cp1252 with replacement.
    A file that the whole-file decoding (:func:`decode_whole`) leaves suspect (U+FFFD; a value that
    took the next property; detected as another codec yet holding UTF-8 text) is decoded value by
    value (:mod:`pipeline.ingest.mixed`); when that gives another text, ``how`` is ``per-value``.
    """
    declared = _declared(data)
    for attempt in (_by_bom, _by_ascii_or_utf8, _by_declared, _by_utf8_mostly):
        found = attempt(data, declared)
        if found is None:
            continue
        suspect = found.how in _MAY_MIX and _may_mix(found)  # valid UTF-8 or UTF-16 is no mix
        if suspect and mixed.suspect(data, found.text, found.encoding, found.replaced):
            return _by_value(data, found)
        return found
    detected = detect_mixed(data)
    text = data.decode(detected.codec, errors="replace")
    whole = Decoded(text, detected.codec, "detected", declared, text.count("\ufffd"))
    if not (whole.replaced or detected.utf8_runs or detected.bracket_trail):
        return whole  # the common case of a detected codec, at no cost: nothing to suspect
    if not mixed.suspect(data, text, detected.codec, whole.replaced, detected.utf8_runs):
        return whole
    return _by_value(data, whole)


def decode_whole(data: bytes) -> Decoded:
    """The bytes of an SGF file decoded as one text with one codec: :func:`decode` without its
    value-by-value decoding of a suspect file. Never raises."""
    declared = _declared(data)
    for attempt in (_by_bom, _by_ascii_or_utf8, _by_declared, _by_utf8_mostly):
        found = attempt(data, declared)
        if found is not None:
            return found
    encoding = detect_mixed(data).codec
    text = data.decode(encoding, errors="replace")
    return Decoded(text, encoding, "detected", declared, text.count("\ufffd"))


def _may_mix(found: Decoded) -> bool:
    """Whether a decoding by BOM, ``CA`` or broken UTF-8 may have read values of two codecs as one: not
    UTF-16 or valid UTF-8 after a BOM, which no other codec's bytes pass for, nor a declared codec that
    does not read ASCII as ASCII."""
    if found.how == "bom":
        return found.encoding == "utf-8" and found.replaced > 0
    return found.how != "ca" or mixed.reads_ascii(found.encoding)


def _by_value(data: bytes, whole: Decoded) -> Decoded:
    """The file decoded value by value (:func:`pipeline.ingest.mixed.decode_values`), or ``whole`` when
    that gives the same text."""
    body = data[len(codecs.BOM_UTF8) :] if whole.how == "bom" else data
    text, used = mixed.decode_values(body, whole.encoding, declared=whole.how == "ca")
    if text == whole.text:
        return whole
    return Decoded(text, "+".join(used) or whole.encoding, "per-value", whole.declared, text.count("\ufffd"))


def _declared(data: bytes) -> str | None:
    head = data[:4096] if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else b""
    m = _CA.search(head)
    return m.group(1).decode("ascii", errors="replace").strip() if m else None


def _by_bom(data: bytes, declared: str | None) -> Decoded | None:
    for bom, codec in _BOMS:
        if data.startswith(bom):
            text = data.decode(codec, errors="replace")
            ca = _CA.search(text.encode("utf-8", errors="replace")[:4096])
            declared = ca.group(1).decode("ascii", errors="replace") if ca else None
            return Decoded(text, codec.replace("-sig", ""), "bom", declared, text.count("\ufffd"))
    pattern = utf16_codec(data)
    if pattern is not None:
        text = data.decode(pattern, errors="replace")
        return Decoded(text, pattern, "utf-16-pattern", declared, text.count("\ufffd"))
    return None


def utf16_codec(data: bytes) -> str | None:
    """``utf-16-le``/``utf-16-be`` when ``data`` (without a BOM) starts like UTF-16 SGF, else None."""
    start = data.lstrip(b"\x00 \t\r\n")[:1]
    if start != b"(" or len(data) < 8:
        return None
    if data[1:8:2] == b"\x00" * 4:
        return "utf-16-le"
    if data[0:8:2] == b"\x00" * 4:
        return "utf-16-be"
    return None


def _by_ascii_or_utf8(data: bytes, declared: str | None) -> Decoded | None:
    if data.isascii() and declared and (codec_for(declared) or "").startswith(_SEVEN_BIT):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return Decoded(text, "utf-8", "ascii" if data.isascii() else "utf-8", declared)


def _by_declared(data: bytes, declared: str | None) -> Decoded | None:
    codec = codec_for(declared) if declared else None
    if codec is None:
        return None
    try:
        return Decoded(data.decode(codec), codec, "ca", declared)
    except (ValueError, LookupError):  # UnicodeDecodeError, or a codec's own UnicodeError or ValueError
        return None


def _by_utf8_mostly(data: bytes, declared: str | None) -> Decoded | None:
    # The first KiB alone, decoded, has at most one replaced sequence more than in the whole (a character
    # cut at its end): more than that many there, and the whole is no UTF-8 with a few broken bytes.
    if data[:_HEAD_BYTES].decode("utf-8", errors="replace").count("\ufffd") > UTF8_MAX_BROKEN + 1:
        return None
    text = data.decode("utf-8", errors="replace")
    broken = text.count("\ufffd")
    multibyte = len(data) - len(text.encode("ascii", errors="ignore")) - broken
    if broken <= UTF8_MAX_BROKEN and multibyte > 4 * broken:
        return Decoded(text, "utf-8", "utf-8-broken", declared, broken)
    return None
