"""docs/glossary.md and the traditional catalog's draft agree: every zh-Hans term of the glossary becomes
its zh-Hant term through i18n.catalogs.to_traditional (OpenCC s2twp, then CORRECTIONS), and every
correction is one some glossary term needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18n import catalogs

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


def glossary_terms() -> list[tuple[str, str, str]]:
    """(English, zh-Hans, zh-Hant) of each term of the glossary's tables whose header starts
    ``| English | zh-Hans | zh-Hant |`` (a cell's several terms, split on ``/``, paired in order)."""
    terms: list[tuple[str, str, str]] = []
    in_table = False
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if cells[:3] == ["English", "zh-Hans", "zh-Hant"]:
            in_table = True
            continue
        if not cells:
            in_table = False
            continue
        if not in_table or set(cells[0]) <= set("-: "):
            continue
        hans, hant = cells[1].split("/"), cells[2].split("/")
        assert len(hans) == len(hant), f"{cells[0]}: {cells[1]} vs {cells[2]}"
        terms += [(cells[0], s.strip(), t.strip()) for s, t in zip(hans, hant, strict=True)]
    return terms


TERMS = glossary_terms()


def test_the_glossary_has_its_terms() -> None:
    hans = {s for _e, s, _t in TERMS}
    for term in ("等级分", "积分", "围棋", "五子棋", "连珠", "让子", "贴目", "段位", "升段", "暂定", "快棋"):
        assert term in hans
    assert len(TERMS) > 100


@pytest.mark.parametrize(("english", "hans", "hant"), TERMS, ids=[f"{e}:{s}" for e, s, _t in TERMS])
def test_term_converts_to_the_glossarys_traditional(english: str, hans: str, hant: str) -> None:
    assert catalogs.to_traditional(hans) == hant


def test_every_correction_is_needed_by_a_glossary_term() -> None:
    import opencc

    converter = opencc.OpenCC(catalogs.OPENCC_CONFIG)  # (once: a converter loads its dictionaries)
    raw = [str(converter.convert(s)) for _e, s, _t in TERMS]
    for wrong, right in catalogs.CORRECTIONS.items():
        assert wrong != right
        assert any(wrong in r for r in raw), f"no glossary term needs {wrong} -> {right}"


def test_corrections_apply_inside_sentences() -> None:
    assert catalogs.to_traditional("台湾五子棋协会的循环赛") == "台灣五子棋協會的循環賽"
    assert catalogs.to_traditional("请检查配置文件中的参数") == "請檢查設定檔中的參數"
    assert catalogs.to_traditional("非会员每局的登录费") == "非會員每局的登錄費"
