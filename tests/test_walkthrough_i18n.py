"""The walkthrough in simplified and traditional Chinese: the same commands, paths and configuration as the
English one (the comments and the commands' output aside; the Chinese ones add `[output] language`), its
links and anchors resolve, and the traditional one has no simplified character left in its prose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
CHINESE = {"zh-Hans": DOCS / "walkthrough.zh-Hans.md", "zh-Hant": DOCS / "walkthrough.zh-Hant.md"}
_FENCE = re.compile(r"```([a-z]*)\n(.*?)```", re.S)


def code(text: str) -> list[str]:
    """The lines of the code blocks, comments and blank lines dropped; a command's output (a ``text``
    block) is in the language of its document and is left out."""
    lines = []
    for kind, block in _FENCE.findall(text):
        if kind == "text":
            continue
        for line in block.splitlines():
            line = re.split(r"\s#\s|^#\s", line)[0].strip()
            if line:
                lines.append(line)
    return lines


def prose(text: str) -> str:
    """``text`` without its code blocks and inline code."""
    return re.sub(r"`[^`]*`", "", _FENCE.sub("", text))


@pytest.mark.parametrize("language", CHINESE)
def test_same_commands_as_the_english(language: str) -> None:
    english = code((DOCS / "walkthrough.md").read_text(encoding="utf-8"))
    chinese = code(CHINESE[language].read_text(encoding="utf-8"))
    added = ["[output]", f'language = "{language}"']
    assert [line for line in chinese if line not in added] == english
    assert chinese.count(f'language = "{language}"') == 2


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("language", CHINESE)
def test_links_and_anchors_resolve(language: str) -> None:
    text = CHINESE[language].read_text(encoding="utf-8")
    anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", prose(text), re.M)}
    for target in re.findall(r"\]\(([^)]+)\)", prose(text)):
        path, _sep, anchor = target.partition("#")
        if not path:
            assert anchor in anchors, target
        else:
            assert (DOCS / path).exists(), target
    others = {"zh-Hans": "walkthrough.zh-Hant.md", "zh-Hant": "walkthrough.zh-Hans.md"}
    assert "(walkthrough.md)" in text and f"({others[language]})" in text


def test_traditional_prose_has_no_simplified_character() -> None:
    import opencc

    to_traditional, to_simplified = opencc.OpenCC("s2t"), opencc.OpenCC("t2s")
    # the language switch names simplified Chinese in its own characters
    text = prose(CHINESE["zh-Hant"].read_text(encoding="utf-8")).replace("[简体中文]", "")
    simplified = {
        c for c in set(text) if to_traditional.convert(c) != c and to_simplified.convert(c) == c and c != "台"
    }
    assert simplified == set()
    assert "圍棋" in text and "等級分" in text and "設定檔" in text
