"""Tests for pipeline.core.text: numeral and number bounds, and the repair of mojibake names."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.text import cjk_numeral, repair_mojibake, undecodable, within
from pipeline.ingest.decode import decode
from pipeline.ingest.sgftext import SgfSyntaxError, read_collection

# --- bounds -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e308, -1.0, 1001, 2147483648])
def test_within_rejects_what_is_not_finite_or_is_out_of_range(value: float) -> None:
    assert within(value, 0, 1000) is None


@pytest.mark.parametrize("value", [0, 1000, 0.5, 999.999])
def test_within_keeps_the_value_and_its_type_inside_the_range(value: float) -> None:
    assert within(value, 0, 1000) == value
    assert type(within(value, 0, 1000)) is type(value)


# --- numerals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["10000", "9" * 5000, "九九", "九九九九", "三三"])
def test_cjk_numeral_above_9999_or_digits_in_a_row_is_none(text: str) -> None:
    assert cjk_numeral(text) is None


@pytest.mark.parametrize(("text", "value"), [("9999", 9999), ("一百零五", 105), ("九千九百九十九", 9999)])
def test_cjk_numeral_up_to_9999_and_zero_before_a_digit_are_read(text: str, value: int) -> None:
    assert cjk_numeral(text) == value


# --- mojibake -----------------------------------------------------------------------------------

# Real names: Chinese (simplified and traditional), Japanese, Korean and European players, servers' bots.
_NAME_ROWS = (
    "柯洁 古力 常昊 聂卫平 马晓春 孔杰 朴文垚 陈耀烨 时越 芈昱廷 唐韦星 范廷钰 连笑 杨鼎新",
    "辜梓豪 谢尔豪 党毅飞 檀啸 许嘉阳 李轩豪 丁浩 王星昊 周睿羊 江维杰 於之莹 芮乃伟 华学明",
    "罗洗河 胡耀宇 王磊 刘小光 俞斌 曹大元 钱宇平 邵炜刚 王立诚 陈祖德 吴清源 申真谞 李昌镐",
    "李世石 朴廷桓 崔哲瀚 姜东润 元晟溱 金志锡 卞相壹 申旻埈 羽焰 绝艺 星阵 李昌镐九段 張栩",
    "林海峰 王銘琬 周俊勳 謝依旻 王立誠 趙治勲 林漢傑 蕭正浩 陳詩淵 許皓鋐 賴均輔 王元均",
    "簡靖庭 黑嘉嘉 聶衛平 馬曉春 柯潔 李昌鎬 曹薰鉉 劉昌赫 井山裕太 一力遼 芝野虎丸 山下敬吾",
    "羽根直樹 高尾紳路 河野臨 結城聡 依田紀基 小林光一 武宮正樹 大竹英雄 藤沢秀行 坂田栄男",
    "本因坊秀策 上野愛咲美 藤沢里菜 仲邑菫 許家元 余正麒 村川大介 小松英樹 石田芳夫 加藤正夫",
    "大橋拓文 おかだ さくら ハナコ 申眞ソ 韓国棋院 注号用名 이세돌 박정환 신진서 최정 이창호",
    "조훈현 유창혁 서봉수 김지석 변상일 신민준 원성진 강동윤 박영훈 목진석 최철한 안성준",
    "이지현 김은지 오유진 José Müller François Søren Łukasz Mérő Pál Jürgen Ondřej Réka Zoë",
    "Dvořák Ørjan ＦｉｎｅＡｒｔ AlphaGo",
)
REAL_NAMES = [*" ".join(_NAME_ROWS).split(), "井山 裕太", "古力 九段", "Fine Art 绝艺", "Csaba Mérő"]


@pytest.mark.parametrize(
    ("mojibake", "name"),
    [
        ("鍙ゅ姏", "古力"),  # UTF-8 read as GBK
        ("浜曞北瑁曞お", "井山裕太"),
        ("寮垫牘", "張栩"),
        ("蠑ｵ譬ｩ", "張栩"),  # read as Shift-JIS
        ("譚惹ｸ紋ｹｭ", "李世乭"),
        ("閨ょ梱蟷ｳ", "聂卫平"),
        ("獰썹꽣", "羽焰"),  # read as EUC-KR
        ("ç¾½ç„°", "羽焰"),  # read as Windows-1252
        ("ë°•ì\xa0•í™˜", "박정환"),
        ("æ\x9d\x8eæ\x98\x8cé\x95\x90", "李昌镐"),  # read as Latin-1
        ("MÃ¼ller", "Müller"),
        ("Lee 浜曞北", "Lee 井山"),
    ],
)
def test_repair_mojibake_gives_back_the_utf8_name(mojibake: str, name: str) -> None:
    assert repair_mojibake(mojibake) == name


@pytest.mark.parametrize("name", REAL_NAMES)
def test_repair_mojibake_never_turns_a_real_names_mojibake_into_another_name(name: str) -> None:
    repaired = {}
    for codec in ("gbk", "big5", "cp932", "cp949", "cp1252", "latin-1"):
        try:
            mojibake = name.encode("utf-8").decode(codec)
        except UnicodeDecodeError:
            continue
        repaired[codec] = repair_mojibake(mojibake)
    assert set(repaired.values()) <= {name, None}  # never a wrong name


@pytest.mark.parametrize("name", REAL_NAMES)
def test_repair_mojibake_leaves_real_names_alone(name: str) -> None:
    assert repair_mojibake(name) is None


@pytest.mark.parametrize("lossy", ["鏉庢槍闀?", "鏉庢槍闀\ufffd", "鏌\ufffd娲\ufffd"])
def test_repair_mojibake_cannot_repair_lost_bytes(lossy: str) -> None:
    assert repair_mojibake(lossy) is None


@pytest.mark.parametrize("text", ["", "Lee Sedol", "B+R", "ħ", "\u2229"])
def test_repair_mojibake_of_ascii_or_of_nothing_fixable_is_none(text: str) -> None:
    assert repair_mojibake(text) is None


def _everyday(codec: str, first: int, last: int) -> list[str]:
    """Every character whose double-byte code in ``codec`` lies in first..last (a national level 1)."""
    found = []
    for code in range(first, last + 1):
        try:
            found.append(code.to_bytes(2, "big").decode(codec))
        except UnicodeDecodeError:
            continue
    return found


_SCRIPTS = {
    "simplified": _everyday("gb2312", 0xB0A1, 0xD7FE),
    "traditional": _everyday("big5", 0xA440, 0xC67E),
    "japanese": _everyday("euc_jp", 0xB0A1, 0xCFD3) + [chr(c) for c in range(0x3041, 0x30FB)],
    "korean": _everyday("euc_kr", 0xB0A1, 0xC8FE),
}


@pytest.mark.parametrize("script", sorted(_SCRIPTS))
@given(data=st.data())
@pytest.mark.slow
def test_repair_mojibake_leaves_names_of_everyday_characters_alone(script: str, data: st.DataObject) -> None:
    name = data.draw(st.text(alphabet=st.sampled_from(_SCRIPTS[script]), min_size=1, max_size=4))
    assert repair_mojibake(name) is None


@pytest.mark.parametrize("script", sorted(_SCRIPTS))
@given(data=st.data())
@pytest.mark.slow
def test_repair_mojibake_never_gives_a_wrong_name(script: str, data: st.DataObject) -> None:
    name = data.draw(st.text(alphabet=st.sampled_from(_SCRIPTS[script]), min_size=1, max_size=4))
    codec = data.draw(st.sampled_from(["gb18030", "big5", "cp932", "cp949", "cp1252"]))
    try:
        mojibake = name.encode("utf-8").decode(codec)
    except UnicodeDecodeError:
        return
    assert repair_mojibake(mojibake) in (name, None)


@given(st.text())
def test_repair_mojibake_never_raises_and_never_adds_replacement_characters(text: str) -> None:
    repaired = repair_mojibake(text)
    assert repaired is None or (repaired != text and "\ufffd" not in repaired)


_CORPORA = Path(os.environ.get("SGF_CORPORA", Path(__file__).resolve().parents[3] / "shared" / "corpora"))


def _corpus_names() -> set[str]:
    """Every PB/PW value of the corpora, decoded as the pipeline decodes the files."""
    names: set[str] = set()
    for path in _CORPORA.rglob("*"):
        if not path.is_file():
            continue
        try:
            trees = read_collection(decode(path.read_bytes()).text)
        except SgfSyntaxError:
            continue
        names.update(v for tree in trees for p in ("PB", "PW") for v in tree.root.get(p, []))
    return names


@pytest.mark.skipif(not _CORPORA.is_dir(), reason=f"real corpora not found at {_CORPORA} (set SGF_CORPORA)")
@pytest.mark.slow
def test_repair_mojibake_leaves_every_corpus_name_alone() -> None:
    names = _corpus_names()
    assert len(names) > 100
    assert {n for n in names if repair_mojibake(n) is not None} == set()


# --- names that lost bytes in decoding ----------------------------------------------------------


def _lossy(name: str, codec: str) -> str:
    """``name`` in UTF-8, read with ``codec`` (bytes it cannot read become U+FFFD) and saved again with
    ``codec`` (which writes ``?`` for each U+FFFD): what a wrong guess and a save make of it."""
    return name.encode().decode(codec, errors="replace").encode(codec, errors="replace").decode(codec)


@pytest.mark.parametrize("text", ["李\ufffd", "\ufffd\ufffd\ufffd", "Kim\ufffd"])
def test_undecodable_finds_a_replacement_character(text: str) -> None:
    assert undecodable(text)


@pytest.mark.parametrize("text", ["??", "???", "?????????"])
def test_undecodable_finds_a_name_of_question_marks_only(text: str) -> None:
    assert undecodable(text)


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("张三丰", "gbk"),
        ("李昌镐", "gbk"),
        ("羽焰", "big5"),
        ("古力", "cp932"),
        ("이창호", "cp949"),
        ("柯洁", "cp1252"),
    ],
)
def test_undecodable_finds_mojibake_that_lost_bytes(name: str, codec: str) -> None:
    text = _lossy(name, codec)
    assert "?" in text and repair_mojibake(text) is None and undecodable(text)


@pytest.mark.parametrize(
    "text", ["?", "李?", "?张三", "Lee?", "José?", "Müller?", "이창호?", "井山?裕太", "王 ?"]
)
def test_undecodable_leaves_a_name_with_a_question_mark_in_it(text: str) -> None:
    assert not undecodable(text)


@pytest.mark.parametrize("text", ["羽焰", "Lee Sedol", "鍙ゅ姏", "ç¾½ç„°", "Black", ""])
def test_undecodable_leaves_names_and_repairable_mojibake(text: str) -> None:
    assert not undecodable(text)


@given(st.text())
def test_undecodable_never_raises(text: str) -> None:
    assert undecodable(text) in (True, False)
