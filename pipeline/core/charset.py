"""charset: guess the encoding of bytes that are not UTF-8 and carry no usable ``CA``.

Off-the-shelf detectors (charset-normalizer, chardet) mislabel short East-Asian records: a player
name or two and a result are too little text for their statistics (``bench/charset_survey.py``
measures it). Game records are a narrow domain, so this module scores each East-Asian candidate
codec by what such text is made of: the characters of each script's common level (GB2312 level 1,
Big5 level 1, KS X 1001 Hangul, JIS level 1 and kana) and the vocabulary of game records (黑 白 胜
段 级 目 / 흑 백 승 단 / 黒 勝 段 ...). charset-normalizer decides only when no East-Asian codec
reads the bytes well (Cyrillic, Greek and other single-byte text).

Knows nothing of SGF: it sees bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import NamedTuple

#: Candidates in order of preference on a tie (the club's archive is Chinese first).
CANDIDATES = ("gb18030", "cp950", "cp949", "cp932", "cp1252")
_VOCABULARY = {
    "gb18030": "黑白胜负中盘段级目子和棋时间秒分钟共手贴届杯赛第轮决围业余职业让先半又局超认输"
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛常古聂檀柯羋",
    "cp950": "黑白勝負中盤段級目子和棋時間秒分鐘共手貼屆杯賽第輪決圍業餘職讓先半又局超認輸"
    "王李張劉陳楊黃趙吳周徐孫馬朱胡郭何高林羅鄭梁謝宋唐許韓馮鄧曹彭曾蕭田董袁潘蔣蔡余杜葉程蘇魏呂丁",
    "cp949": "흑백승패불계단급집반시간초분기권무부대국회배전결"
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배허유남심노하곽성차주우구민진나지엄채원천방공현"
    "세돌창호준혁영수민석훈재동상진용태규원희경",
    "cp932": "黒白勝負中押段級目半持碁時間秒分回手番戦期名人本因坊棋聖",
    "cp1252": "",
}
# A non-ASCII run with the ASCII before it, or the ASCII after the last run: the ASCII is skipped in one
# step, not searched a byte at a time; possessive, as nothing after a run could make it give bytes back.
_RUNS = re.compile(rb"[\x00-\x7f]*+((?:[\x80-\xff][\x40-\x7e\x80-\xff]?+)++)|[\x00-\x7f]++")
_SAMPLE = 65536
_FEW_RUNS = 64  # a file with more non-ASCII runs is scored as one text, not run by run (see _scores)
_ENOUGH = 0.6  # below this every East-Asian reading is doubtful: ask charset-normalizer
_FIELD_BITS = 32  # of each count in the sum of a file's runs (_run_hits): 3 x 64 KiB x 64 runs < 2**32
_FIELD_MASK = (1 << _FIELD_BITS) - 1
_COUNTS = 3 * len(CANDIDATES) + 2  # of a run (_run_hits): each candidate's three, UTF-8 or not, "]" or not


def detect(data: bytes) -> str:
    """Return the codec name that best reads ``data`` (bytes that are not valid UTF-8).

    Returns one of :data:`CANDIDATES`, or a codec chosen by charset-normalizer, or ``cp1252``
    when nothing fits (single-byte: every byte decodes, no file is lost).
    """
    return _detected(_scores(_counts(non_ascii_runs(data))), data)


class Detected(NamedTuple):
    """:func:`detect_mixed`'s answer: ``codec`` as :func:`detect` chooses it; ``utf8_runs``, the runs of
    bytes above 0x7F (in the first 64 KiB) that are valid UTF-8 of at least two multi-byte characters,
    the sign of UTF-8 text beside text in another codec, which a run of GBK, Big5 or Shift-JIS text
    seldom is (usually none); ``bracket_trail``, whether a byte above 0x7F is followed by ``]`` (0x5D),
    the second byte of some GBK, Big5 and Shift-JIS characters."""

    codec: str
    utf8_runs: list[bytes]
    bracket_trail: bool


def detect_mixed(data: bytes) -> Detected:
    """:func:`detect`, and what else its reading of the runs tells (:class:`Detected`), at no cost beyond
    :func:`detect`'s: each run's answers are kept with its counts (:func:`_run_hits`)."""
    runs = non_ascii_runs(data)
    counts = _counts(runs)
    utf8_runs = [run for run in runs if _utf8_run(run)] if counts[-2] else []
    return Detected(_detected(_scores(counts), data), utf8_runs, counts[-1] > 0)


@functools.lru_cache(maxsize=65536)
def _utf8_run(run: bytes) -> bool:
    """Whether ``run`` is valid UTF-8 whose multi-byte characters have four continuation bytes or more."""
    try:
        text = run.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return len(run) - len(text) >= 4


def candidates(data: bytes) -> list[str]:
    """The codecs that may read ``data``, likeliest first: :func:`detect`'s choice, then the rest of
    :data:`CANDIDATES` by their score (those that fail to decode some of ``data`` last; a tie in the
    order of :data:`CANDIDATES`). For bytes that hold text in more than one codec, where the runner-up
    may read a part that the first does not."""
    scores = _scores(_counts(non_ascii_runs(data)))
    first = _detected(scores, data)
    return [first, *sorted((c for c in CANDIDATES if c != first), key=lambda c: -scores[c])]


def _detected(scores: dict[str, float], data: bytes) -> str:
    """:func:`detect`'s choice from the candidates' ``scores`` of ``data``."""
    best = max(CANDIDATES, key=scores.__getitem__)
    if scores[best] >= _ENOUGH:
        return best
    from charset_normalizer import from_bytes  # (imported here: names need the pairs, not the guesser)

    guess = from_bytes(data[:_SAMPLE]).best()
    return guess.encoding if guess is not None else "cp1252"


@functools.lru_cache(maxsize=64)
def two_byte_leads(codec: str) -> bytes:
    """The bytes 0x81-0xFE that begin a character of two bytes in ``codec`` (a name Python knows): those
    that make one character with ``@`` (0x40) or with 0xA1 after them, a trail byte of every double-byte
    codec (GBK, Big5, Shift-JIS, EUC-KR, EUC-JP); empty for a single-byte codec. One decoding of the
    pairs (:func:`pair_texts`)."""
    leads = range(0x81, 0xFF)
    texts = pair_texts(codec, leads, (0x40, 0xA1))[1]
    return bytes(lead for i, lead in enumerate(leads) if len(texts[2 * i]) == 1 or len(texts[2 * i + 1]) == 1)


@functools.lru_cache(maxsize=64)
def ending_in(codec: str, trail: int) -> frozenset[str]:
    """The characters of ``codec`` written as two bytes whose second is ``trail`` (such as the GBK,
    Big5 and Shift-JIS characters that end in the byte of ``\\`` or ``]``); empty for a codec that
    has none. Leads 0x81-0xFE, decoded at once; ValueError for the line break byte."""
    texts = pair_texts(codec, range(0x81, 0xFF), [trail])[1]
    return frozenset(text for text in texts if len(text) == 1)


def non_ascii_runs(data: bytes) -> list[bytes]:
    """The non-ASCII runs of the first 64 KiB of ``data``, each high byte with its trail byte
    (which may be ASCII ``@``-``~`` in Big5, GBK and Shift_JIS). A run that the 64 KiB cut is left
    out: cut within a character, it would decode in no double-byte codec."""
    runs: list[bytes] = _RUNS.findall(data, 0, _SAMPLE)
    if runs and (not runs[-1] or (len(data) > _SAMPLE and data[_SAMPLE - 1] > 0x7F)):
        runs.pop()  # the ASCII after the last run, or a run the sample cut
    return runs


def _counts(runs: list[bytes]) -> list[int]:
    """The counts of the runs: each candidate's three (:func:`_hits`), then how many runs are UTF-8
    (:func:`_utf8_run`) and how many hold a ``]`` (after a byte above 0x7F: no run begins with ASCII).

    The runs of a record repeat across a server's records (names, ranks, results, comments), so each
    is counted once (:func:`_run_hits`) and the file's counts are their sums, column by column. The sums
    equal the counts of the runs read as one text joined by spaces (which every candidate reads as
    itself, and none as a trail byte), which is how a file of more than :data:`_FEW_RUNS` runs is read
    (its runs seldom repeat: they would only fill the cache).
    """
    if len(runs) > _FEW_RUNS:
        joined = b" ".join(runs)
        hits = [count for codec in CANDIDATES for count in _hits(joined, codec)]
        return [*hits, sum(map(_utf8_run, runs)), sum(b"]" in run for run in runs)]
    total = sum(map(_run_hits, runs))  # every count of every run summed at once: see _run_hits
    return [(total >> shift) & _FIELD_MASK for shift in range(0, _COUNTS * _FIELD_BITS, _FIELD_BITS)]


def _scores(counts: list[int]) -> dict[str, float]:
    """Each candidate's score of the runs whose :func:`_counts` these are: the share of characters
    common in its script, plus twice the share of record vocabulary, over every run; -1 when a run
    does not decode (:func:`_score`)."""
    return {codec: _score(*counts[3 * i : 3 * i + 3]) for i, codec in enumerate(CANDIDATES)}


def _score(weighted: int, chars: int, failed: int) -> float:
    """The score of one candidate from its counts (:func:`_hits`): -1 when some run failed to decode."""
    if failed:
        return -1.0
    return weighted / chars if chars else 0.0


@functools.lru_cache(maxsize=65536)
def _run_hits(run: bytes) -> int:
    """The :func:`_hits` of ``run`` for each of :data:`CANDIDATES`, one after another (15 counts), then
    1 if it is UTF-8 (:func:`_utf8_run`) and 1 if it holds a ``]``, as one integer of :data:`_COUNTS`
    fields of :data:`_FIELD_BITS` bits, the first count lowest.

    So a file's counts are one sum of integers. A count of a run is at most 3 a byte of it (a
    vocabulary character is lengthened by 3), a run at most :data:`_SAMPLE` bytes, and at most
    :data:`_FEW_RUNS` runs are summed so: no sum overflows its field.
    """
    counts = [count for codec in CANDIDATES for count in _hits(run, codec)]
    counts += (_utf8_run(run), b"]" in run)
    return sum(count << (i * _FIELD_BITS) for i, count in enumerate(counts))


def _hits(run: bytes, codec: str) -> tuple[int, int, int]:
    """(common hits + 2 x vocabulary hits, characters above U+007F, 0) of ``run`` read in ``codec``;
    (0, 0, 1) when it does not decode."""
    try:
        text = run.decode(codec)
    except UnicodeDecodeError:
        return 0, 0, 1
    chars = len(text) - len(text.encode("ascii", errors="ignore"))  # the characters above U+007F
    return len(text.translate(_weights(codec))) - len(text), chars, 0


@functools.cache
def _weights(codec: str) -> dict[int, str]:
    """A :meth:`str.translate` table that lengthens each character of ``codec``'s common set by one and
    each of its vocabulary by two more, so a text grows by (common hits + 2 x vocabulary hits)."""
    common, vocabulary = _common(codec), frozenset(_VOCABULARY[codec])
    return {ord(c): c * (1 + (c in common) + 2 * (c in vocabulary)) for c in common | vocabulary}


@functools.cache
def _common(codec: str) -> frozenset[str]:
    """The everyday characters of ``codec``'s script, read off the codec's own tables (built once)."""
    if codec == "cp1252":
        return frozenset(bytes(range(0xC0, 0x100)).decode("cp1252"))
    rows = {
        "gb18030": (range(0xB0, 0xD8), range(0xA1, 0xFF)),
        "cp950": (range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)]),
        "cp949": (range(0xB0, 0xC9), range(0xA1, 0xFF)),
        "cp932": (range(0x88, 0x99), range(0x40, 0xFD)),
    }[codec]
    chars = set(pair_texts(codec, *rows)[1])
    if codec == "cp932":
        chars |= {chr(c) for c in range(0x3041, 0x30FF)}
    chars |= set("、。，．・：；？！「」『』（）【】　")
    chars.discard("")
    return frozenset(chars)


def pair_texts(codec: str, leads: Iterable[int], trails: Iterable[int]) -> tuple[list[bytes], list[str]]:
    """Every two bytes ``lead trail`` (leads outer, trails inner), and each one's text in ``codec``, ``""``
    when they do not decode: ``(pairs, texts)``, two lists of one length.

    One decoding of them all, each pair between line breaks (which no double-byte codec takes for a trail
    byte), not one per pair (docs/design.md#charset-pairs); pair by pair only if an error took a line
    break with it. Raises ValueError if a lead or trail is a line break byte.
    """
    lead_bytes, trail_bytes = bytes(leads), bytes(trails)
    if b"\n" in lead_bytes + trail_bytes:
        raise ValueError(f"a line break among the bytes of the pairs: {lead_bytes + trail_bytes!r}")
    joined = _joined_pairs(lead_bytes, trail_bytes)
    pairs = joined.split(b"\n")
    texts = joined.decode(codec, errors="replace").split("\n")
    if len(texts) != len(pairs):
        texts = [_char(pair, codec) for pair in pairs]
    return pairs, [text if "\ufffd" not in text else "" for text in texts]


def _joined_pairs(leads: bytes, trails: bytes) -> bytes:
    """``lead trail`` for each lead and trail (leads outer), joined by line breaks, built row by row."""
    row = bytearray(b"\n" * (3 * len(trails)))
    row[1::3] = trails
    out = bytearray()
    for lead in leads:
        row[0::3] = bytes((lead,)) * len(trails)
        out += row
    return bytes(out[:-1])


def _char(pair: bytes, codec: str) -> str:
    try:
        text = pair.decode(codec)
    except UnicodeDecodeError:
        return ""
    return text if "\ufffd" not in text else ""
