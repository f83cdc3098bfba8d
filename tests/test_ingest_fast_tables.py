"""The double-byte tables of the detector and of the mojibake repair are decoded in one pass (issue 11).

:func:`pipeline.core.charset.pair_texts` decodes every two-byte sequence of a codec at once; each must
read as it reads alone.
"""

from __future__ import annotations

import pytest

from pipeline.core.charset import pair_texts

CODECS = ("gb18030", "cp950", "big5", "cp949", "cp932")


def alone(pair: bytes, codec: str) -> str:
    try:
        return pair.decode(codec)
    except UnicodeDecodeError:
        return ""


@pytest.mark.parametrize("codec", CODECS)
def test_each_pair_reads_as_it_reads_alone(codec: str) -> None:
    pairs, texts = pair_texts(codec, range(0x81, 0xFF), range(0x40, 0xFF))
    assert pairs == [bytes((lead, trail)) for lead in range(0x81, 0xFF) for trail in range(0x40, 0xFF)]
    assert texts == [alone(pair, codec) for pair in pairs]


def test_pairs_with_ascii_leads_read_as_they_read_alone() -> None:
    pairs, texts = pair_texts("cp932", range(0x20, 0x90), range(0x20, 0x90))
    assert texts == [alone(pair, "cp932") for pair in pairs]


def test_a_line_break_among_the_bytes_is_refused() -> None:
    with pytest.raises(ValueError, match="line break"):
        pair_texts("gb18030", [0x81], [0x0A, 0x40])
