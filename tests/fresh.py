"""A ``ratings`` command run to its end in a fresh interpreter, then one thing about that process said
(whether it imported pandas, which pool Arrow used): what the test process, which has imported everything
already, cannot show."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

_TEMPLATE = """
import sys
from pipeline.cli import app
sys.argv = ["ratings", *sys.argv[1:]]
try:
    app()
finally:
    print({said}, file=sys.stderr)
"""


def said_after(said: str, args: list[str], environ: Mapping[str, str] | None = None) -> tuple[int, str]:
    """``ratings ARGS`` in a fresh interpreter (with ``environ``, None: this one's), then the Python
    expression ``said`` evaluated there: the command's exit status and the expression's text."""
    done = subprocess.run(
        [sys.executable, "-c", _TEMPLATE.format(said=said), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=None if environ is None else dict(environ),
    )
    return done.returncode, done.stderr.strip().splitlines()[-1]
