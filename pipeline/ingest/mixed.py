"""mixed: a file whose values are in more than one encoding, decoded value by value.

A record may hold values in two encodings: a ``CA[UTF-8]`` file with one name saved by a CP949 client, a
GBK file with a UTF-8 comment. Read as one text in one codec, such a file loses more than the odd value:
the last byte of a UTF-8 character, read as the first of a GBK one, takes the ``]`` that ends its value
as its second byte, and the properties after it go with it (the rank, the opponent, the komi). The
grammar's ``[``, ``]`` and ``\\`` are ASCII bytes in every codec records are written in, except as the
second byte of a GBK, Big5 or Shift-JIS character (``許`` is ``B3 5C`` in Big5). So this module splits
the file's *bytes* at its values' brackets, escapes respected and each codec's two-byte characters kept
whole, and decodes each value on its own (:func:`decode_values`); :func:`suspect` says which files need it.

Each value with a byte above 0x7F is read with each codec of :func:`order`, as far as that codec's
characters take it (:func:`_reading`: strict; else, or when that takes the next property, up to the
value's plain end, the first ``]`` that no ``\\`` escapes, with U+FFFD for what does not decode). A
clean reading of the first codec is kept (:func:`read_value`); else the reading kept has the lowest
rank (:func:`_rank`): first one that takes no property (no character that hides a ``]``, nor an
escaped ``]``, followed by the next property; not running to the end of the file where the plain
reading closes), then one that ends where a value can end (the next bracket after its ``]`` is the
``[`` of a value, or there is none: a reading that stops at a trail byte ``]`` has its value's own
``]`` next; bytes the fuzzer or a client left between values do not count), then the fewest unlikely
characters (U+FFFD, or outside the
everyday set of the script that fits the text best); a tie goes to the codec earlier in :func:`order`.
Each value's text reads, by the grammar, as one value (:data:`_WHOLE` checks it), so the text put
together splits as the bytes did.

Knows where SGF values stand in bytes and text (``[``, ``]``, ``\\``, and what may follow a value) and
nothing else of SGF; nothing of byte-order marks or ``CA`` (:mod:`pipeline.ingest.decode` decides which
files come here, with which codec, and whether that codec was declared).
"""

from __future__ import annotations

import codecs
import functools
import re
from collections import Counter
from typing import NamedTuple

from pipeline.core.charset import CANDIDATES, candidates, ending_in, non_ascii_runs, two_byte_leads
from pipeline.core.text import uncommon_chars

_OPEN = ord("[")
# From a position: text outside values (no "["), and values of ASCII bytes only, as far as they go. It
# stops at the end, at a byte above 0x7F outside a value, or at the "[" of a value that has one.
_ASCII = re.compile(rb"(?:[\x00-\x5a\x5c-\x7f]++|\[(?:[\x00-\x5b\x5e-\x7f]++|\\[\x00-\x7f])*+\])*+")
# A value read byte by byte, to the first "]" that no "\" escapes: its plain end, as UTF-8 (whose
# multi-byte characters hold no ASCII byte) and every codec without characters ending in "]" or "\" read it.
_PLAIN = re.compile(rb"(?:[^\\\]]++|\\.)*+", re.S)
# A value's text as the grammar reads it to its end: no "]" but escaped, no "\" left to escape the "]".
_WHOLE = re.compile(r"(?:[^\\\]]++|\\.)*+", re.S)
# What follows the end of a value: space, then another value, a property, a node (with a property, or
# empty), a tree, or the end of a tree (and another, or the end of the text).
_NEXT = r"\s*+(?:\[|[A-Za-z]++\s*+\[|;\s*+(?:[A-Za-z]++\s*+\[|[;()])|\(\s*+;|\)\s*+(?:[();]|\Z))"
# From after a value's "]": the bytes up to the next bracket, when that is a "]" (so the "]" before them
# ended no value: it was a trail byte, or a "]" the value holds).
_CLOSED_NEXT = re.compile(rb"[^\[\]]*+\]")
_ESCAPED_END = re.compile(rf"\\\](?={_NEXT})")
_ASCII_TEXT = re.compile(r"[\x00-\x7f]++")
_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t\r\n"
# The letters everyday in the Greek and Cyrillic alphabets: Greek, and the Cyrillic of Russian and
# Ukrainian (not Serbian Ђ Џ Љ, nor Ў, Ѕ: UTF-8 characters read as cp1251 or cp855 are full of them).
_ALPHABETIC = re.compile(
    "[\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03ce"
    "\u0401\u0404\u0406\u0407\u0410-\u044f\u0451\u0454\u0456\u0457\u0490\u0491]"
)
_RUN_ON = re.compile(r"[\u00c0-\u017f](?=[^\x00-\x7f])|(?<=[^\x00-\x7f])[\u00c0-\u017f]")


class Reading(NamedTuple):
    """One codec's reading of one value: ``end`` (the offset of the value's ``]``, or the end of the
    file), ``text``, ``codec`` (empty for a value of ASCII bytes, which every codec reads alike),
    ``takes`` (it took the next property) and ``misplaced`` (it ends where no value can end). The
    readings of a value are ranked by :func:`_rank`."""

    end: int
    text: str
    codec: str
    takes: bool = False
    misplaced: bool = False


def suspect(data: bytes, text: str, codec: str, replaced: int, utf8_runs: list[bytes] | None = None) -> bool:
    """Whether ``data``, read as one ``text`` with ``codec`` (``replaced`` bytes decoded as U+FFFD), may
    hold values of another codec, so that :func:`decode_values` should read it value by value.

    Yes when some bytes did not decode; when a character that hides a ``]`` (its second byte) is
    followed, in its value, by what follows a value's end (a property, a node: it took the ``]``); or
    when one of ``utf8_runs`` (runs of ``data`` that are valid UTF-8, as the caller found them:
    :func:`pipeline.core.charset.detect_mixed`) reads as UTF-8 with fewer unlikely characters than in
    ``codec``. Costs two counts of ``]``, unless the text has a character that hides one, and then
    counts of ``[`` and ``\\]``, unless a ``[`` is left open (a value that took the next property
    leaves the next one's ``[`` open).
    """
    if replaced or any(_likelier_utf8(run, codec) for run in utf8_runs or ()):
        return True
    if text.count("]") == data.count(b"]") or not reads_ascii(codec):
        return False  # no character hides a "]" (or the codec's "]" is no ASCII byte)
    if text.count("[") <= text.count("]") - text.count("\\]"):
        return False  # every "[" is closed: no "]" was taken (the search below costs more)
    hidden = _hiding(codec)
    return hidden is not None and hidden.search(text) is not None


def decode_values(data: bytes, codec: str, declared: bool) -> tuple[str, list[str]]:
    """The text of ``data`` with each value decoded on its own (see the module's docstring), and the
    codecs that decoded values with a byte above 0x7F, most values first (a tie: the first used first).

    ``codec`` is the one the file as a whole was read with (``declared``: named by the file, and the
    file's bytes fit it): one of each value's candidates (:func:`order`), and what decodes the bytes
    outside values (with U+FFFD for those it cannot), unless it does not read ASCII as ASCII (some
    detected codecs read ``\\`` as ``¥``), when the first of :func:`order` does. Never raises.
    """
    plan = order(data, codec, declared)
    junk = codec if reads_ascii(codec) else plan[0]
    pieces: list[str] = []
    used: Counter[str] = Counter()
    pos, size = 0, len(data)
    while True:
        stop = _matched_end(_ASCII, data, pos)
        pieces.append(data[pos:stop].decode("ascii"))
        if stop == size:
            return "".join(pieces), [name for name, _ in used.most_common()]
        if data[stop] == _OPEN:
            found = read_value(data, stop + 1, plan)
            pieces += ("[", found.text)
            used.update([found.codec] if found.codec else [])
            pos = found.end
        else:  # bytes above 0x7F outside any value: junk, read as the file was
            pos = data.find(b"[", stop)
            pos = size if pos < 0 else pos
            pieces.append(data[stop:pos].decode(junk, errors="replace"))


def order(data: bytes, codec: str, declared: bool) -> list[str]:
    """The codecs each value of ``data`` is read with, a tie going to the first: ``codec`` first when
    ``declared``; else UTF-8 and the likeliest codec of the file's runs of bytes above 0x7F that are not
    valid UTF-8 (:func:`pipeline.core.charset.candidates` of them), the one that reads more of the runs
    first (UTF-8 on a tie, or when ``codec`` is UTF-8: the file was read as UTF-8 with a few broken
    bytes, whose runs are not valid UTF-8 either), then ``codec``; then the other candidates. Codecs
    that read ASCII as ASCII, each once. (The runs, not the values: a value's plain end cuts a character
    that ends in ``]``.)"""
    runs = non_ascii_runs(data)
    foreign = [run for run in runs if not _is_utf8(run)]
    offered = candidates(b" ".join(foreign)) if foreign else list(CANDIDATES)
    if declared:
        names = [codec, "utf-8", *offered]
    elif 2 * len(foreign) <= len(runs) or _name(codec) == "utf-8":
        names = ["utf-8", offered[0], codec, *offered[1:]]
    else:
        names = [offered[0], "utf-8", codec, *offered[1:]]
    return [name for name in dict.fromkeys(map(_name, names)) if reads_ascii(name)]


def read_value(data: bytes, start: int, plan: list[str]) -> Reading:
    """The reading kept of the value whose bytes begin at ``start`` (after its ``[``).

    The first codec of ``plan`` (:func:`order`) reads it, when it does so cleanly (strictly, taking
    nothing, ending in place), unless the value is also valid UTF-8 and reads better so (:func:`_rank`;
    a tie keeps the first codec): so each value of a file in one codec costs one decoding, or two.
    Else a value that is UTF-8 but for a character cut at its end (a name cut to a byte limit) reads
    as UTF-8, with U+FFFD for the cut, when that ends in place: a double-byte codec may read its bytes
    as other characters, a name that names somebody else. Else the codecs of ``plan`` are ranked, the
    first of the best kept. UTF-8 always reads.
    """
    plain_end = _matched_end(_PLAIN, data, start)
    raw = data[start:plain_end]
    if raw.isascii():
        return Reading(plain_end, raw.decode("ascii"), "")
    first = _reading(data, start, plain_end, plan[0])
    if first is not None and not (first.takes or first.misplaced or "\ufffd" in first.text):
        if plan[0] == "utf-8" or not _is_utf8(raw):
            return first
        utf8 = _reading(data, start, plain_end, "utf-8")
        return utf8 if utf8 is not None and _rank(utf8) < _rank(first) else first
    if _cut_utf8(raw):
        utf8 = first if plan[0] == "utf-8" else _reading(data, start, plain_end, "utf-8")
        if utf8 is not None and not (utf8.takes or utf8.misplaced):
            return utf8
    best, best_rank = first, _rank(first) if first is not None else None
    for name in dict.fromkeys([*plan[1:], "utf-8"]):
        found = _reading(data, start, plain_end, name)
        if found is None:
            continue
        rank = _rank(found)
        if best_rank is None or rank < best_rank:
            best, best_rank = found, rank
            if rank == (False, False, 0):
                break
    assert best is not None  # UTF-8 reads any bytes (with U+FFFD), as the grammar splits them
    return best


def _rank(reading: Reading) -> tuple[bool, bool, int]:
    """A reading's rank, the lower the better: one that takes the next property comes last, then one
    that ends where no value can end, then by its unlikely characters (:func:`_unlikely`)."""
    return reading.takes, reading.misplaced, _unlikely(reading.text)


def _reading(data: bytes, start: int, plain_end: int, codec: str) -> Reading | None:
    """``codec``'s reading of the value at ``start``: strict, as far as its characters take it; else (or
    when that takes the next property) to the plain end with U+FFFD. None when neither is text the
    grammar reads as one value (a decoding that takes a ``]`` or ``\\`` into a character, or makes one)."""
    end = _end(data, start, plain_end, codec)
    strict = None
    try:
        text = data[start:end].decode(codec)
    except (UnicodeError, LookupError, ValueError):
        text = None
    if text is not None and _WHOLE.fullmatch(text):
        strict = _placed(data, text, codec, end, plain_end)
        if not strict.takes or end == plain_end:
            return strict
    loose = data[start:plain_end].decode(codec, errors="replace")
    if not _WHOLE.fullmatch(loose):
        return strict
    found = _placed(data, loose, codec, plain_end, plain_end)
    return found if strict is None or _rank(found) < _rank(strict) else strict


def _placed(data: bytes, text: str, codec: str, end: int, plain_end: int) -> Reading:
    """The :class:`Reading` of ``text`` ending at ``end``: one that runs to the end of the file where
    the plain reading closes took the last ``]``."""
    takes = (end == len(data) and plain_end < len(data)) or _takes(text, codec)
    misplaced = end < len(data) and _CLOSED_NEXT.match(data, end + 1) is not None
    return Reading(end, text, codec, takes, misplaced)


def _takes(text: str, codec: str) -> bool:
    """Whether a value's ``text`` holds what follows a value's end (another value, a property, a node)
    right after an escaped ``]`` or after a character of ``codec`` whose second byte is ``]``: the
    reading took the ``]`` that ended the value, and the next property with it."""
    hidden = _hiding(codec)
    return (hidden is not None and hidden.search(text) is not None) or _ESCAPED_END.search(text) is not None


@functools.lru_cache(maxsize=64)
def _hiding(codec: str) -> re.Pattern[str] | None:
    """A character of ``codec`` whose second byte is ``]``, followed by what follows a value's end
    (:data:`_NEXT`); None when ``codec`` has no such character."""
    chars = "".join(sorted(ending_in(codec, 0x5D)))
    return re.compile(rf"[{re.escape(chars)}](?={_NEXT})") if chars else None


def _end(data: bytes, start: int, plain_end: int, codec: str) -> int:
    """Where the value at ``start`` ends when read with ``codec``: its plain end, unless ``codec`` has
    characters whose second byte is ``\\`` or ``]``, which are then read whole (:func:`_value_pattern`)."""
    pattern = _value_pattern(codec)
    return plain_end if pattern is None else _matched_end(pattern, data, start)


@functools.lru_cache(maxsize=64)
def _value_pattern(codec: str) -> re.Pattern[bytes] | None:
    """A value's bytes in ``codec``, its two-byte characters kept whole (a lead byte takes the byte
    after it when that is 0x40-0xFE, a character or not: the strict decoding tells; an escape ``\\``
    takes the character after it, of one byte or two), up to the ``]`` that ends it; None for a codec
    none of whose characters ends in ``\\`` or ``]``."""
    if not (ending_in(codec, 0x5C) or ending_in(codec, 0x5D)):
        return None
    char = b"[" + re.escape(two_byte_leads(codec)) + rb"][\x40-\xfe]"
    return re.compile(b"(?:" + char + rb"|[^\\\]]|\\(?:" + char + b"|.))*+", re.S)


def _matched_end(pattern: re.Pattern[bytes], data: bytes, pos: int) -> int:
    """Where a match of ``pattern`` (one that matches the empty string) from ``pos`` ends."""
    found = pattern.match(data, pos)
    return pos if found is None else found.end()


def _likelier_utf8(run: bytes, codec: str) -> bool:
    """Whether ``run`` (valid UTF-8) has fewer unlikely characters as UTF-8 than in ``codec``."""
    return _unlikely(run.decode("utf-8")) < _unlikely(run.decode(codec, errors="replace"))


def _unlikely(text: str) -> int:
    """How many characters of ``text`` are unlikely in a record: U+FFFD, and those outside the everyday
    set of the script that fits the text best (:func:`pipeline.core.text.uncommon_chars`, or the
    everyday letters of the Greek and Cyrillic alphabets, :data:`_ALPHABETIC`, which that does not
    count), and accented Latin letters next to another character above U+007F (``ÍõÁ``, double-byte
    text read as Latin-1: names put their accents between plain letters, ``Müller``). ASCII is not
    counted: every reading of a value has (nearly) the same."""
    wide = _ASCII_TEXT.sub("", text)
    if not wide:
        return 0
    alphabetic = len(wide) - len(_ALPHABETIC.findall(wide))
    return min(uncommon_chars(wide), alphabetic) + len(_RUN_ON.findall(text))


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _cut_utf8(raw: bytes) -> bool:
    """Whether ``raw`` is valid UTF-8 but for a multi-byte character cut short at its end."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        decoder.decode(raw, final=False)
    except UnicodeDecodeError:
        return False
    return decoder.getstate()[0] != b""


@functools.lru_cache(maxsize=64)
def _name(codec: str) -> str:
    """Python's own name of ``codec`` (``utf8`` -> ``utf-8``), or ``codec`` when Python knows none."""
    try:
        return codecs.lookup(codec).name
    except LookupError:
        return codec


@functools.lru_cache(maxsize=64)
def reads_ascii(codec: str) -> bool:
    """Whether ``codec`` reads every printable ASCII byte, tab and line break as itself (not UTF-16, nor
    the 7-bit ISO-2022 and UTF-7, nor a Shift-JIS that reads ``\\`` as ``¥``): whether a value's
    ``]`` and ``\\`` are the bytes of ASCII in it."""
    try:
        return _PRINTABLE.decode(codec) == _PRINTABLE.decode("ascii")
    except (UnicodeError, LookupError, ValueError):
        return False
