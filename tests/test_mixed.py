"""mixed: files whose values are in two encodings are decoded value by value, and nothing else changes.

Every file here is made up: SGF syntax in ASCII, and each value given as a Python string with the codec
it is encoded in, so each mix is built byte for byte as a client that saved one value would have.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pipeline.core.charset import ending_in, pair_texts
from pipeline.ingest.decode import decode, decode_whole
from pipeline.ingest.mixed import decode_values
from pipeline.ingest.record import rows_for_bytes

Part = str | tuple[str, str]


def escaped(text: str) -> str:
    """``text`` as an SGF value holds it: ``\\`` and ``]`` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def sgf(*parts: Part) -> bytes:
    """A record's bytes: each str part is ASCII syntax; each (text, codec) a value's text, escaped and
    encoded with that codec."""
    return b"".join(
        part.encode("ascii") if isinstance(part, str) else escaped(part[0]).encode(part[1]) for part in parts
    )


def row_of(data: bytes) -> dict[str, object]:
    [row] = rows_for_bytes(data, "mixed.sgf")
    return row


def test_utf8_file_with_a_cp949_name_reads_both_names_and_what_follows() -> None:
    data = sgf(
        "(;GM[1]FF[4]CA[UTF-8]PB[", ("김철수", "cp949"), "]BR[3d]PW[", ("古力", "utf-8"), "]WR[9p]KM[6.5]",
        ";B[pd];W[dp])",
    )  # fmt: skip
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"], row["white_rank"], row["komi"]) == (
        "김철수",
        "3d",
        "古力",
        "9p",
        6.5,
    )
    assert (row["encoding"], row["encoding_how"], row["encoding_declared"]) == (
        "cp949+utf-8",
        "per-value",
        "UTF-8",
    )


def test_gbk_file_with_a_utf8_comment_keeps_the_property_after_the_comment() -> None:
    # The comment's last UTF-8 byte (0xAD of 中) is a GBK lead byte: read as GBK, it takes the "]".
    data = sgf(
        "(;GM[1]FF[4]PB[", ("陈耀烨", "gbk"), "]BR[9p]PW[", ("常昊", "gbk"),
        "]WR[9p]RE[", ("黑中盘胜", "gbk"), "]C[", ("这一手在中", "utf-8"), "]KM[7.5];B[pd];W[dp])",
    )  # fmt: skip
    assert "]KM[7.5]" not in decode_whole(data).text  # the mix this test is about: KM read into C
    decoded = decode(data)
    assert "C[这一手在中]KM[7.5]" in decoded.text
    assert (decoded.encoding, decoded.how) == ("gb18030+utf-8", "per-value")
    row = row_of(data)
    assert (row["black"], row["white"], row["winner"], row["komi"]) == ("陈耀烨", "常昊", "B", 7.5)


def test_big5_file_with_a_utf8_name_reads_the_name_in_utf8_and_the_rest_in_big5() -> None:
    data = sgf(
        "(;GM[1]FF[4]EV[", ("孫子杯", "big5"), "]PB[", ("許家元", "big5"), "]BR[9p]PW[", ("柯洁", "utf-8"),
        "]WR[9p]RE[", ("白中盤勝", "big5"), "]KM[6.5];B[pd];W[dp])",
    )  # fmt: skip
    row = row_of(data)
    assert (row["event"], row["black"], row["white"], row["winner"], row["komi"]) == (
        "孫子杯",
        "許家元",
        "柯洁",
        "W",
        6.5,
    )
    assert (row["encoding"], row["encoding_how"]) == ("cp950+utf-8", "per-value")


def test_shift_jis_name_whose_trail_bytes_are_backslash_and_bracket_in_a_utf8_file() -> None:
    # 表 and ソ end in 0x5C ("\\"), ゾ in 0x5D ("]"): read byte by byte, the first two escape the byte
    # after them, the third ends the name early.
    name = "表ソゾ"
    assert "表ソゾ".encode("cp932").count(b"\\") == 2 and b"]" in "ゾ".encode("cp932")
    data = sgf(
        "(;GM[1]FF[4]CA[UTF-8]PB[", (name, "cp932"), "]BR[3d]PW[", ("井山裕太", "utf-8"), "]WR[9p]KM[6.5]",
        ";B[pd];W[dp])",
    )  # fmt: skip
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"], row["komi"]) == (name, "3d", "井山裕太", 6.5)
    assert row["encoding_how"] == "per-value"


def test_shift_jis_file_with_a_utf8_comment_keeps_its_names_with_trail_bytes() -> None:
    data = sgf(
        "(;GM[1]FF[4]CA[Shift_JIS]PB[", ("表ソゾ", "cp932"), "]PW[", ("山下", "cp932"),
        "]C[", ("白の悪手", "utf-8"), "]RE[", ("黒中押し勝ち", "cp932"), "]KM[6.5];B[pd];W[dp])",
    )  # fmt: skip
    row = row_of(data)
    assert (row["black"], row["white"], row["winner"], row["komi"]) == ("表ソゾ", "山下", "B", 6.5)
    assert (row["encoding"], row["encoding_how"]) == ("cp932+utf-8", "per-value")


def test_gbk_name_whose_trail_byte_is_a_bracket_in_a_utf8_file() -> None:
    assert "昡".encode("gbk").endswith(b"]")
    data = sgf(
        "(;GM[1]FF[4]CA[UTF-8]PB[", ("王昡", "gbk"), "]BR[5d]PW[", ("柯洁", "utf-8"), "]WR[9p]KM[7.5]",
        ";B[pd];W[dp])",
    )  # fmt: skip
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"], row["komi"]) == ("王昡", "5d", "柯洁", 7.5)
    assert (row["encoding"], row["encoding_how"]) == ("gb18030+utf-8", "per-value")


def test_a_value_no_codec_reads_keeps_its_replacement_characters_and_the_next_property() -> None:
    # A GBK name cut after its last lead byte: no codec reads it whole; the rank after it is kept.
    cut = "王".encode("gbk") + b"\xc1"  # the lead byte of a second character, without its trail byte
    data = b"(;GM[1]FF[4]PB[" + cut + sgf("]BR[3d]PW[", ("李", "gbk"), "]KM[7.5];B[pd])")
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"], row["komi"]) == ("王\ufffd", "3d", "李", 7.5)
    assert row["encoding_how"] == "per-value"


def test_names_that_took_the_closing_bracket_give_back_the_rank_the_opponent_and_the_komi() -> None:
    # A CA[GBK] file whose players were saved in UTF-8: read as GBK, the last byte of each UTF-8 value
    # (桓, 段 and 谞 end in a GBK lead byte) takes the "]" after it, so Black's name runs on to the komi.
    data = sgf(
        "(;GM[1]FF[4]CA[GBK]EV[", ("第十届应氏杯", "gbk"), "]RE[", ("白中盘胜", "gbk"),
        "]PB[", ("朴廷桓", "utf-8"), "]BR[", ("9段", "utf-8"),
        "]PW[", ("申真谞", "utf-8"), "]KM[7.5];B[pd];W[dp])",
    )  # fmt: skip
    whole = decode_whole(data)
    assert (whole.how, whole.replaced) == ("ca", 0)
    assert not any(f"]{prop}[" in whole.text for prop in ("BR", "PW", "KM"))  # PB's value runs to KM's "]"
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"], row["komi"]) == ("朴廷桓", "9d", "申真谞", 7.5)


def test_a_value_is_read_to_its_first_unescaped_bracket() -> None:
    # Black's GBK name holds an escaped "]" and ends in an escaped "\\" (its last "]" ends it), with
    # 昡, whose second byte is "]", between them: the name is one GBK value, the rank after it kept.
    name = "王]昡\\"
    data = sgf("(;GM[1]FF[4]CA[UTF-8]PB[", (name, "gbk"), "]BR[5d]PW[", ("柯洁", "utf-8"), "]KM[7.5];B[pd])")
    assert b"\\]" in data and b"\\\\]BR[" in data  # an escaped "]"; an escaped "\\" before the end
    row = row_of(data)
    assert (row["black"], row["black_rank"], row["white"]) == (name, "5d", "柯洁")


@pytest.mark.parametrize(
    ("name", "reading"),
    [("古力", "古"), ("李四", "李")],  # 李 and the lead byte of 四 read as Shift-JIS 譚主 too
    ids=["no-other-codec-reads-it", "shift-jis-reads-it"],
)
def test_utf8_file_with_a_name_cut_mid_character_stays_a_whole_file_decoding(name: str, reading: str) -> None:
    cut = name.encode()[:-2]  # the second character cut after its first byte
    data = sgf("(;CA[UTF-8]PW[", ("柯洁", "utf-8"), "]PB[") + cut + b"]BR[9p];B[pd])"
    decoded = decode(data)
    assert (decoded.encoding, decoded.how, decoded.replaced) == ("utf-8", "utf-8-broken", 1)
    assert f"PB[{reading}\ufffd]BR[9p]" in decoded.text


def test_a_utf8_name_with_stray_bytes_in_it_is_not_read_as_cyrillic() -> None:
    # 田 split by ")))": read as DOS Cyrillic (cp855) every byte is a letter (тЅЇућ)))░тЂЦтцф), a name
    # that names somebody else; as UTF-8 it keeps U+FFFD where the bytes are broken, and names nobody.
    name = "前".encode() + "田".encode()[:2] + b")))" + "田".encode()[2:] + "健太".encode()
    data = sgf("(;GM[1]FF[4]CA[UTF-8]PB[", ("柯洁", "utf-8"), "]PW[") + name + b"]KM[6.5];B[pd])"
    decoded = decode(data)
    assert (decoded.encoding, decoded.how) == ("utf-8", "utf-8-broken")
    assert "PW[前\ufffd)))\ufffd健太]" in decoded.text


# --- properties: a file in one encoding is never changed ------------------------------------------------

# Each codec's everyday characters (those core.text counts as common in the codec's own script: the
# first level of its national standard, and kana), of which names and results are made, as ranges of
# their two bytes; and its characters of two bytes that end in "\\" or "]" (everyday or not: those a
# per-value reading must keep whole).
_EVERYDAY_CODES = {
    "gb18030": [(0xB0A1, 0xD7F9)],
    "cp950": [(0xA440, 0xC67E)],
    "cp932": [(0x829F, 0x82F1), (0x8340, 0x8396), (0x889F, 0x9872)],
    "cp949": [(0xB0A1, 0xC8FE)],
}
_ANY_TRAIL = ("cp950", "cp932")  # GB2312's and KS X 1001's second bytes are 0xA1-0xFE


def _everyday(codec: str) -> list[str]:
    """The characters of ``codec`` whose codes are in its everyday ranges."""
    found = set()
    for low, high in _EVERYDAY_CODES[codec]:
        leads = range(low >> 8, (high >> 8) + 1)
        pairs, texts = pair_texts(codec, leads, range(0x40, 0xFF))
        found |= {
            t
            for p, t in zip(pairs, texts, strict=True)
            if len(t) == 1 and low <= int.from_bytes(p) <= high and (p[1] >= 0xA1 or codec in _ANY_TRAIL)
        }
    return sorted(found)


_EVERYDAY = {codec: _everyday(codec) for codec in _EVERYDAY_CODES}
_HIDING = {codec: sorted(ending_in(codec, 0x5C) | ending_in(codec, 0x5D)) for codec in _EVERYDAY_CODES}
# The codecs a record is written in, as its CA names them: the codec the decoder reads each with (the
# superset Python has), and the characters of that codec's alphabet above that are the same bytes in
# both. A UTF-8 record holds the characters of every script, and accented Latin, Greek and Cyrillic.
_WRITTEN = {"gbk": "gb18030", "big5": "cp950", "shift_jis": "cp932", "euc_kr": "cp949"}
_ACCENTED = list("éèüößøñçåłŽžΩλЖжЯя")


def _same_bytes(chars: list[str], written: str, codec: str) -> list[str]:
    """Those of ``chars`` that ``written`` encodes, as ``codec`` does."""
    found = []
    for char in chars:
        try:
            if char.encode(written) == char.encode(codec):
                found.append(char)
        except UnicodeEncodeError:
            pass
    return found


_ALPHABETS = {
    written: (_same_bytes(_EVERYDAY[codec], written, codec), _same_bytes(_HIDING[codec], written, codec))
    for written, codec in _WRITTEN.items()
}
_ALPHABETS["utf-8"] = ([char for chars in _EVERYDAY.values() for char in chars] + _ACCENTED, [])
# ASCII in values, without what could read as the start of the next property after a character that
# hides a "]" ("[", ";", "(", ")"), which no clean record has there; "]" and "\\" are written escaped.
_ASCII = string.ascii_letters + string.digits + " .,:-+]\\"
_PROPS = ("PB", "PW", "RE", "EV", "C")


@st.composite
def one_codec_record(draw: st.DrawFn, hiding: bool) -> tuple[str, str]:
    """(written, text) of a record whose values are all in one codec's characters (and ASCII): UTF-8,
    GBK, Big5, Shift-JIS or EUC-KR (``written``, the codec's name in Python and in the record's ``CA``,
    which it has or not); with ``hiding``, also the characters whose second byte is ``\\`` or ``]``."""
    written = draw(st.sampled_from(sorted(_ALPHABETS)))
    everyday, hidden = _ALPHABETS[written]
    alphabet = everyday + list(_ASCII) + (hidden if hiding else [])
    values = draw(
        st.lists(st.text(st.sampled_from(alphabet), min_size=1, max_size=10), min_size=1, max_size=5)
    )
    ca = draw(st.sampled_from(["", f"CA[{written}]"]))
    props = "".join(f"{_PROPS[i]}[{escaped(v)}]" for i, v in enumerate(values))
    return written, f"(;GM[1]FF[4]{ca}{props}KM[6.5];B[pd];W[dp])"


@given(one_codec_record(hiding=False))
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_per_value_decoding_never_changes_a_file_in_one_codec(record: tuple[str, str]) -> None:
    written, text = record
    codec = _WRITTEN.get(written, written)
    assert decode_values(text.encode(written), codec, declared=True)[0] == text


@given(one_codec_record(hiding=True))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@pytest.mark.slow
def test_a_file_that_decodes_cleanly_as_a_whole_is_left_as_it_is(record: tuple[str, str]) -> None:
    written, text = record
    data = text.encode(written)
    whole = decode_whole(data)
    assume(whole.text == text)
    assert decode(data) == whole
