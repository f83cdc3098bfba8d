"""decode and charset: which codec each real-world byte layout gets, and the text that comes out."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.charset import detect
from pipeline.ingest.decode import codec_for, decode


def sgf(body: str, codec: str, ca: str | None = None) -> bytes:
    head = f"CA[{ca}]" if ca else ""
    return f"(;GM[1]FF[4]{head}{body};B[pd];W[dp])".encode(codec)


@pytest.mark.parametrize(
    ("names", "codec", "expected"),
    [
        ("PB[古力]PW[柯洁]RE[黑中盘胜]", "gbk", "gb18030"),
        ("PB[古力]PW[柯洁]", "gbk", "gb18030"),
        ("PB[陈耀烨 九段]PW[常昊]RE[白胜2又1/4子]", "gbk", "gb18030"),
        ("PB[周俊勳]PW[林至涵]RE[白中盤勝]", "big5", "cp950"),
        ("PB[許家元]PW[王立誠]", "big5", "cp950"),
        ("PB[井山裕太]PW[山下敬吾]RE[黒中押し勝ち]", "shift_jis", "cp932"),
        ("PB[表 ひろし]PW[山下敬吾]", "shift_jis", "cp932"),
        ("PB[이세돌]PW[박정환]RE[흑 불계승]", "euc-kr", "cp949"),
        ("PB[이세돌]PW[박정환]", "euc-kr", "cp949"),
        ("PB[Jürgen Müller]PW[Søren]", "latin-1", "cp1252"),
    ],
)
def test_records_without_ca_are_detected(names: str, codec: str, expected: str) -> None:
    decoded = decode(sgf(names, codec))
    assert (decoded.encoding, decoded.how) == (expected, "detected")
    assert names in decoded.text


def test_second_byte_backslash_survives_decoding() -> None:
    data = sgf("PB[表]PW[許]", "shift_jis", ca="Shift_JIS")
    assert b"\x95\\" in data
    assert "PB[表]" in decode(data).text


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")],
)
def test_byte_order_marks_decide(bom: bytes, codec: str) -> None:
    decoded = decode(bom + sgf("PB[古力]", codec))
    assert decoded.how == "bom"
    assert decoded.text.lstrip("\ufeff").startswith("(;GM[1]")
    assert "古力" in decoded.text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_recognised(codec: str) -> None:
    decoded = decode(sgf("PB[古力]", codec))
    assert (decoded.encoding, "古力" in decoded.text) == (codec, True)


def test_ca_naming_shift_jis_over_utf8_bytes_is_a_lie() -> None:
    decoded = decode(sgf("PB[井山裕太]", "utf-8", ca="MS_KANJI"))
    assert (decoded.encoding, decoded.declared) == ("utf-8", "MS_KANJI")
    assert "井山裕太" in decoded.text


def test_doubled_ca_is_read() -> None:
    data = b"(;CA[UTF-8][UTF-8]PB[" + "古力".encode() + b"])"
    assert decode(data).encoding == "utf-8"


def test_unknown_ca_falls_back_to_detection() -> None:
    decoded = decode(sgf("PB[古力]PW[柯洁]RE[黑中盘胜]", "gbk", ca="foo"))
    assert (decoded.encoding, decoded.how, decoded.declared) == ("gb18030", "detected", "foo")


def test_ca_is_used_when_the_bytes_fit_it() -> None:
    decoded = decode(sgf("PB[이세돌]", "euc-kr", ca="EUC-KR"))
    assert (decoded.encoding, decoded.how) == ("cp949", "ca")


def test_seven_bit_ca_is_honoured_over_ascii() -> None:
    data = sgf("C[囲碁]", "iso2022_jp", ca="ISO-2022-JP")
    assert data.isascii()
    assert "囲碁" in decode(data).text


def test_utf8_name_cut_mid_character_keeps_the_rest() -> None:
    good = "PW[柯洁]RE[B+R]PB[".encode() + "古力".encode()[:-1] + b"]"
    decoded = decode(b"(;CA[UTF-8]" + good + b";B[pd])")
    assert (decoded.encoding, decoded.replaced) == ("utf-8", 1)
    assert "PW[柯洁]" in decoded.text


@pytest.mark.parametrize(
    ("spelling", "codec"),
    [
        ("UTF-8", "utf-8"),
        ("utf8", "utf-8"),
        ("GB2312", "gb18030"),
        ("GBK", "gb18030"),
        ("Big5", "cp950"),
        ("Shift_JIS", "cp932"),
        ("MS_KANJI", "cp932"),
        ("EUC-KR", "cp949"),
        ("ISO-8859-1", "cp1252"),
        ("Windows-1251", "cp1251"),
        ("foo", None),
        ("", None),
        ("undefined", None),
        ("unicode_escape", None),
        ("raw-unicode-escape", None),
        ("idna", None),
        ("punycode", None),
    ],
)
def test_ca_spellings_map_to_codecs(spelling: str, codec: str | None) -> None:
    assert codec_for(spelling) == codec


def test_detect_never_fails_on_noise() -> None:
    assert detect(bytes(range(128, 256)) * 3)


def test_ca_naming_a_codec_that_fails_on_every_byte_falls_back_to_detection() -> None:
    decoded = decode(b"(;CA[undefined]PB[\xff])")
    assert (decoded.how, decoded.declared) == ("detected", "undefined")


# Codec names a CA may hold that are no charset, or that raise more than UnicodeDecodeError.
_TRICKY_CA = [
    "undefined",
    "rot13",
    "idna",
    "punycode",
    "base64",
    "hex",
    "zlib",
    "bz2",
    "uu",
    "quopri",
    "utf-7",
    "unicode_escape",
    "raw_unicode_escape",
    "utf-32",
    "utf-16",
    "utf-8-sig",
    "cp65001",
    "mbcs",
    "charmap",
    "hz",
    "iso2022_jp",
    "ascii",
    "big5",
    "",
    "\x00",
    "x" * 40,
    "../../etc",
    "utf-8\\",
]


@given(st.sampled_from(_TRICKY_CA), st.binary(max_size=200), st.booleans())
@settings(max_examples=500)
@pytest.mark.slow
def test_decode_never_raises_whatever_the_ca(ca: str, body: bytes, ascii_only: bool) -> None:
    data = b"(;CA[" + ca.encode() + b"]" + (bytes(b & 0x7F for b in body) if ascii_only else body)
    assert isinstance(decode(data).text, str)


_LONG_COMMENTS = {
    "gbk": "好棋，黑棋的形势不错。",
    "big5": "好棋，黑棋的形勢不錯。",
    "shift_jis": "黒の好手、白の悪手。",
    "euc-kr": "흑의 좋은 수, 백의 나쁜 수.",
}


@pytest.mark.parametrize("codec", sorted(_LONG_COMMENTS))
def test_a_file_whose_detection_sample_ends_within_a_character_is_detected(codec: str) -> None:
    comment = _LONG_COMMENTS[codec]
    body = "".join(f";B[pd]C[{comment * (n % 3 + 1)}]" for n in range(3000))
    data = next(d for pad in range(4) if _cut_within_a_character(d := sgf(" " * pad + body, codec), codec))
    decoded = decode(data)
    assert (decoded.how, comment in decoded.text) == ("detected", True)


def _cut_within_a_character(data: bytes, codec: str) -> bool:
    """Whether the first 64 KiB of ``data`` end within a character of ``codec``."""
    try:
        data[:65536].decode(codec)
    except UnicodeDecodeError:
        return True
    return False
