"""values: the odd property values, lying charsets, misplaced BOMs and file names the mutators draw from.

Every draw takes an explicit ``random.Random``, so a seed always gives the same bytes. Knows nothing of
where a value goes (that is :mod:`fuzz.mutate`'s business) nor of what the pipeline makes of it.
"""

from __future__ import annotations

import random

#: The game-information properties issue 10 names, and a few neighbours the normalisers also read.
GAME_INFO = ("HA", "KM", "TM", "OT", "LT", "LC", "TC", "DT", "RE", "BR", "SZ", "GM")
NEIGHBOURS = ("WR", "TT", "KO", "RD", "PB", "PW", "EV", "RO", "GN", "TE", "AP", "CA", "FF", "PC")

NUMBERS = (
    "2147483648", "2147483647", "-2147483649", "4294967296", "9999999999", "99999999999999999999",
    "-1", "-0", "0", "00000000000000000001", "NaN", "nan", "-nan", "inf", "-inf", "Infinity", "1e308",
    "1e309", "-1e308", "1e-400", "0x10", "1_000", "١٢", "１２", "6.5.5", "5。5", "+", "-", ".", "1/0",
    "3.5e", "--5", "7.5e+308", "0.5e-", "750", "-750", "½", "Ⅸ",
)  # fmt: skip
TEXTS = (
    "", " ", "\t", "\n", "黑中盘胜", "白胜2又1/4子", "让先", "九段", "共185手 黑中盘胜", "흑 불계승",
    "黒中押し勝ち", "😀", "\u202e", "\ufeff", "\u3000", "B+", "W+Time", "B+R+R", "?", "Void", "1d?*",
    "99d", "-3k", "P", "P99", "业余99段", "2024-13-45", "0000-00-00", "9999-99-99", "2024-02-30",
    "1e308-01-01", "2024,2025,", "2024-05-01,,,,", "--", "::", "99:99:99", "10000000:00",
    "1 hr/125 moves", "5x30 byo-yomi", "999999999x999999999 byo-yomi", "黑: 08:58  白: 06:21",
    "-5x-30 byo-yomi", "3/0", "1e308x1e308", "19:19", "0:0", "52:52", "-19", "4294967297:2",
)  # fmt: skip
HUGE = ("9" * 200_000, "黑" * 70_000, "1" + "0" * 400, "-" + "9" * 5000, "1e" + "9" * 1000, "a b " * 50_000)

#: CA values that lie: Python codecs that are not text codecs, decoders that raise, names that do not exist.
CHARSETS = (
    "undefined", "rot13", "rot_13", "utf-7", "idna", "base64", "hex", "zlib", "bz2", "uu", "quopri",
    "punycode", "unicode_escape", "raw_unicode_escape", "utf-16", "utf-32", "utf_16_be", "cp65001",
    "mbcs", "oem", "UTF-8\x00", "", " ", "x" * 1000, "../../../etc/passwd", "GB2312", "Shift_JIS",
    "ISO-2022-JP", "EUC-KR", "big5", "latin-1", "ascii", "utf-8-sig", "charmap", "palmos", "cp037",
    "utf-8,gbk", "UTF8 ", "hz", "utf_32_be", "koi8-r", "mac-roman", "string_escape", "None",
)  # fmt: skip

BOMS = (
    b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"+/v8",
    b"\xf7\x64\x4c", b"\x84\x31\x95\x33", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe\xff\xfe",
)  # fmt: skip

#: Codecs a text value may be written in (a file's values then disagree with one another).
CODECS = ("utf-8", "utf-8", "utf-8", "gb18030", "cp932", "cp949", "big5", "utf-16-le", "latin-1")

#: File-name endings: most are plain, some are not UTF-8 at all (issue 10: names the file system allows).
NAME_ENDINGS = (
    b".sgf", b".SGF", b"", b".sgf.bak", b".txt", "-对局.sgf".encode(), "-対局".encode("cp932") + b".sgf",
    "-대국".encode("cp949") + b".sgf", b"-\xff\xfe.sgf", b"-caf\xe9.sgf", b" .sgf", b"-\x80.sgf",
    b"-\x7f.sgf", b"-\xed\xa0\x80.sgf", "-棋譜".encode("gb18030") + b".sgf", b"-\xc3.sgf",
)  # fmt: skip


def odd_value(rng: random.Random) -> str:
    """One odd value: a number out of range or not a number, odd text, or (rarely) a 200 KB value."""
    roll = rng.random()
    if roll < 0.03:
        return rng.choice(HUGE)
    return rng.choice(NUMBERS if roll < 0.5 else TEXTS)


def encode_value(rng: random.Random, value: str, *, escaped: bool = True) -> bytes:
    """``value`` SGF-escaped (or, when ``escaped`` is False, as it is) in a codec drawn from CODECS."""
    text = value.replace("\\", "\\\\").replace("]", "\\]") if escaped else value
    return text.encode(rng.choice(CODECS), errors="replace")


def charset_lie(rng: random.Random) -> bytes:
    """A ``CA`` value that names a charset the bytes are not in, or one that is not a text charset."""
    return rng.choice(CHARSETS).encode()


def file_name(rng: random.Random, index: int, tag: str) -> bytes:
    """The relative path of input ``index``: ``dNN/m<index:07d>-<tag><ending>`` (1 in 8 odd endings).

    The ``m<index:07d>`` stem is ASCII, so the index can be read back from any rendering of the name.
    """
    ending = rng.choice(NAME_ENDINGS) if rng.random() < 0.125 else b".sgf"
    return f"d{index // 1000 % 100:02d}/m{index:07d}-{tag}".encode() + ending
