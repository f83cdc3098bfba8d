"""i18n.catalogs: the catalogs as Babel reads them, the traditional catalog's start from the simplified
one (OpenCC), and the checks a catalog must pass.

``make i18n`` runs ``pybabel extract`` and ``pybabel update`` (babel.cfg), then
``python -m i18n.catalogs traditional`` (:func:`fill_traditional`), then ``pybabel compile``.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pipeline" / "locale"
LOCALES = ("zh_Hans", "zh_Hant")
#: OpenCC's configuration for the traditional catalog's first draft: Taiwan's characters and phrases.
OPENCC_CONFIG = "s2twp"
#: Where OpenCC's Taiwan phrases (s2twp) miss the words of docs/glossary.md: applied after OpenCC,
#: longest first. tests/test_i18n_glossary.py checks that every glossary term converts to its zh-Hant term
#: and that each entry is one some term needs. The Go and Gomoku terms themselves (圍棋, 讓子, 貼目, 段位,
#: 級, 連珠, 積分, 等級分 ...) need none.
CORRECTIONS = {
    # Taiwan as the TGA writes it (「台灣五子棋協會」, 「台灣名人賽」): OpenCC writes 臺灣, 擂臺賽.
    "臺": "台",
    # A round robin, the TGA's 「循環圈」: OpenCC reads 循环 as a program's loop (迴圈).
    "迴圈": "循環",
    # The HKGA's per-game fee, 「登錄費」: OpenCC makes 登录 a log-in (登入).
    "登入費": "登錄費",
    # A rule set's parameters (a, con, epsilon): OpenCC makes 参数 a function's argument (引數).
    "引數": "參數",
    # Reason codes: OpenCC makes 代码 program source (程式碼).
    "程式碼": "代碼",
    # The configuration: 設定 in Taiwan (OpenCC keeps 配置, a layout there).
    "配置檔案": "設定檔",
    "配置": "設定",
    # The workbook in Taiwan's spreadsheet words.
    "工作簿": "活頁簿",
    "單元格": "儲存格",
    # A table's column: 欄 in Taiwan, where 列 is a row.
    "列名": "欄位名稱",
    # Examples and the shipped sample: 範例.
    "示例": "範例",
    "樣例": "範例",
    "指令碼": "腳本",
    "壓縮包": "壓縮檔",
    "錯誤資訊": "錯誤訊息",
    "賬": "帳",
}
_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]|\{[^{}]*\}")


def po_path(locale: str) -> Path:
    return LOCALE / locale / "LC_MESSAGES" / "messages.po"


def read(locale: str) -> Catalog:
    with po_path(locale).open("rb") as f:
        return read_po(f, locale=locale)


def write(catalog: Catalog, locale: str) -> None:
    with po_path(locale).open("wb") as f:
        write_po(f, catalog, width=110, sort_output=True, ignore_obsolete=True, include_previous=False)


def extracted() -> Catalog:
    """Every message of the code and the templates, as ``pybabel extract -F babel.cfg`` finds them."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog()
    sys.path.insert(0, str(ROOT))
    try:
        found = list(extract_from_dir(str(ROOT), method_map, options_map))
    finally:
        sys.path.remove(str(ROOT))
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> list[str]:
    """The ``%s``/``%(name)s``/``{name}`` placeholders of ``text``, sorted (their order may change)."""
    return sorted(_PLACEHOLDER.findall(text))


def to_traditional(text: str) -> str:
    """``text`` from simplified to traditional Chinese: OpenCC (:data:`OPENCC_CONFIG`), then
    :data:`CORRECTIONS`."""
    converted = str(_converter().convert(text))
    for wrong, right in sorted(CORRECTIONS.items(), key=lambda kv: -len(kv[0])):
        converted = converted.replace(wrong, right)
    return converted


@functools.cache
def _converter() -> Any:
    """OpenCC's converter of :data:`OPENCC_CONFIG`, made once (it loads its dictionaries: 0.1 s)."""
    import opencc

    return opencc.OpenCC(OPENCC_CONFIG)


def fill_traditional(redraft: bool = False) -> int:
    """Give every message the traditional catalog has not translated yet (with ``redraft``: every
    message) the simplified catalog's translation through :func:`to_traditional` (a first draft, read
    and corrected by hand); the number filled."""
    simplified, traditional = read("zh_Hans"), read("zh_Hant")
    filled = 0
    for message in traditional:
        if not message.id or (_translated(message.string) and not redraft):
            continue
        source = simplified.get(message.id, message.context)
        if source is None or not _translated(source.string):
            continue
        if isinstance(source.string, tuple | list):
            message.string = tuple(to_traditional(s) for s in source.string)
        else:
            message.string = to_traditional(source.string)
        filled += 1
    write(traditional, "zh_Hant")
    return filled


def apply(locale: str, translations: dict[str, str]) -> tuple[int, list[str]]:
    """Set the translation of each message of ``locale``'s catalog named in ``translations``
    (msgid -> msgstr; a message with a context as ``context\x04msgid``, a plural by its singular, its
    one Chinese form the value). The number set, and the keys the catalog has no message for."""
    catalog = read(locale)
    done, unknown = 0, []
    for key, string in translations.items():
        context, _sep, msgid = key.rpartition("\x04")
        message = catalog.get(msgid, context or None)
        if message is None:
            unknown.append(key)
            continue
        message.string = (string,) if isinstance(message.id, tuple | list) else string
        message.flags.discard("fuzzy")
        done += 1
    write(catalog, locale)
    return done, unknown


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(bool(s) for s in string)
    return bool(string)


def main(args: list[str]) -> None:
    """``traditional``: :func:`fill_traditional`; ``apply LOCALE FILE.json...``: :func:`apply`."""
    import json

    if args in (["traditional"], ["traditional", "--redraft"]):
        filled = fill_traditional(redraft="--redraft" in args)
        print(f"zh_Hant: {filled} messages filled from zh_Hans through OpenCC ({OPENCC_CONFIG})")
    elif len(args) >= 3 and args[0] == "apply":
        for name in args[2:]:
            done, unknown = apply(args[1], json.loads(Path(name).read_text(encoding="utf-8")))
            print(f"{args[1]}: {done} set from {name}; not in the catalog: {unknown or 'none'}")
    else:
        sys.exit("usage: python -m i18n.catalogs traditional [--redraft] | apply LOCALE FILE.json...")


if __name__ == "__main__":
    main(sys.argv[1:])
