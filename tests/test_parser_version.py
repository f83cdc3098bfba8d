"""The parser version covers every ingest module that turns bytes into rows."""

from __future__ import annotations

import re
from pathlib import Path

import pipeline.ingest
from pipeline.ingest import cache


def test_every_ingest_module_is_either_a_parser_module_or_declared_not_one() -> None:
    root = Path(pipeline.ingest.__file__).parent
    found = {p.stem for p in root.glob("*.py") if p.stem != "__init__"} | {
        p.name for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    assert found == set(cache._PARSER_MODULES) | set(cache.OTHER_MODULES)


def test_a_parser_module_and_a_module_not_declared_never_overlap() -> None:
    assert not set(cache._PARSER_MODULES) & set(cache.OTHER_MODULES)


def test_every_core_module_a_parser_module_imports_is_in_the_parser_version() -> None:
    root = Path(pipeline.ingest.__file__).parent
    paths = [p for name in cache._PARSER_MODULES for p in [*(root / name).rglob("*.py"), root / f"{name}.py"]]
    imported = set()
    for path in (p for p in paths if p.exists()):
        imported |= set(re.findall(r"pipeline\.core(?:\.(\w+)| import (\w+))", path.read_text()))
    assert imported, "the parser modules import no core module: the test reads the wrong files"
    assert {a or b for a, b in imported} - {"progress"} <= set(cache.CORE_MODULES)
