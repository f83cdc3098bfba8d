"""The package's layers and the independence of its stages are checked by import-linter (pyproject's
``[tool.importlinter]``), so a wrong import fails the suite (CI) as well as ``make lint``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    tool = Path(sys.executable).parent / "lint-imports"
    if not tool.exists():
        pytest.skip(f"import-linter is not installed beside {sys.executable} (make install)")
    return subprocess.run(
        [str(tool), "--no-cache"], cwd=cwd, capture_output=True, text=True, env={"PYTHONPATH": str(cwd)}
    )


def test_the_package_keeps_every_import_contract() -> None:
    found = _lint_imports(ROOT)
    assert found.returncode == 0, found.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "wrong"),
    [
        ("core/wrong.py", "from pipeline.rules import base"),  # the core imports a stage
        ("output/wrong.py", "from pipeline.rules import replay"),  # a stage imports another
        ("config/wrong.py", "from pipeline.ingest import cache"),  # the configuration imports a stage
        ("rules/wrong.py", "from pipeline.run import plan"),  # a stage imports the run
        ("run/wrong.py", "from pipeline.reports import explain"),  # the run imports the reports
    ],
)
def test_a_wrong_import_breaks_a_contract(tmp_path: Path, module: str, wrong: str) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "pipeline", copy / "pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy)
    (copy / "pipeline" / module).write_text(textwrap.dedent(wrong) + "\n")
    found = _lint_imports(copy)
    assert found.returncode != 0
    assert "BROKEN" in found.stdout
