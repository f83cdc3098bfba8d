"""Arrow text made from its buffers (pipeline/core/strings.py): the same values pyarrow's own conversion
gives, without the pandas import that conversion costs."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.strings import text, texts


@settings(deadline=None)  # (the first pa.array imports pandas)
@given(st.lists(st.text()))
def test_texts_equal_pyarrows_conversion(values: list[str]) -> None:
    made = texts(values)
    assert made.equals(pa.array(values, pa.string()))
    assert made.to_pylist() == values


@settings(deadline=None)
@given(st.text())
def test_text_equals_pyarrows_scalar(value: str) -> None:
    assert text(value).equals(pa.scalar(value, pa.string()))


def test_texts_import_no_pandas() -> None:
    code = (
        "import sys, pyarrow.compute as pc; from pipeline.core.strings import text, texts; "
        "pc.equal(texts(['a', '翔']), text('翔')); print('pandas' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_pyarrows_own_conversion_still_imports_pandas() -> None:
    """The reason for the module: when this fails, pyarrow no longer imports pandas to convert a
    Python object, and :mod:`pipeline.core.strings` can go."""
    code = "import sys, pyarrow as pa; pa.scalar('a'); print('pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
