"""Plain option values are converted as typer converts them, without pydantic (pipeline.cli.coercion)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
import typer

from pipeline.cli import app, coercion
from pipeline.cli.common import Format

pytest.importorskip("typer._coercion")
from typer._coercion import build_runtime_param

if not coercion.active():  # pragma: no cover
    pytest.skip(
        f"typer {typer.__version__} is not one cli.coercion was checked against", allow_module_level=True
    )


def param_of(command: str, name: str) -> tuple[Any, click.Context]:
    """The click parameter ``name`` of ``ratings command`` and a context of the command."""
    group = typer.main.get_command(app)
    found = group.get_command(click.Context(group), command)
    assert found is not None
    ctx = click.Context(found)
    return next(p for p in found.params if p.name == name), ctx


def converted(command: str, name: str, value: Any, plain: bool) -> Any:
    """``value`` of option ``name`` converted by :mod:`pipeline.cli.coercion` or by typer (an error as
    its message)."""
    param, ctx = param_of(command, name)
    d = param.type_descriptor
    converter = coercion.Plain(d.parameter_info, d.annotation, d) if plain else build_runtime_param(d)
    try:
        return converter.coerce(value, param=param, ctx=ctx)
    except Exception as e:  # (typer's own click's BadParameter)
        return ("error", type(e).__name__, str(e))


@pytest.mark.parametrize(
    ("command", "name", "value"),
    [
        ("explain", "player", "羽焰"),
        ("explain", "period", None),
        ("explain", "out", "some/where"),
        ("explain", "out", ""),
        ("show", "top", "20"),
        ("show", "top", "020"),
        ("show", "top", "-3"),
        ("show", "top", "２０"),
        ("show", "top", "twenty"),
        ("show", "fmt", Format.table),
        ("show", "fmt", "csv"),
        ("show", "fmt", "CSV"),
        ("show", "fmt", "xml"),
        ("plot", "player", ("a", "b")),
        ("plot", "player", ()),
        ("audit", "counted", "yes"),
    ],
)
def test_a_value_is_converted_as_typer_converts_it(command: str, name: str, value: Any) -> None:
    assert converted(command, name, value, plain=True) == converted(command, name, value, plain=False)


def test_a_command_given_plain_values_imports_no_pydantic(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from pipeline.cli import app\n"
        "sys.argv[0] = 'ratings'\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted({n.partition('.')[0] for n in sys.modules})))\n"
    )
    args = ["show", "--date", "2024-05-15", "--top", "20", "--format", "csv", "--out", str(tmp_path)]
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    assert "no output" in done.stderr
    assert "pydantic" not in json.loads(done.stdout.splitlines()[-1])
