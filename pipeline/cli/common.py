"""cli.common: the options, consoles and exit path every ``ratings`` command shares.

Knows nothing of the library beyond the configuration: commands map the library's exceptions to
exit codes through :func:`fail` (2 bad configuration or arguments).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from pipeline import config as config_mod

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", help="TOML configuration (default: config/ratings.toml)")
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Output folder of `ratings run` (default: \\[ingest] out of the configuration)"
    ),
]
PeriodOpt = Annotated[str | None, typer.Option("--period", help="Rating period, e.g. 2024-05, 2024-Q2, 2024")]


def fail(message: str, code: int) -> NoReturn:
    """Print ``error: message`` to standard error and exit with ``code``."""
    Console(stderr=True).print(Text("error: ", style="red") + Text(message), soft_wrap=True)
    raise typer.Exit(code)


def output_folder(out: Path | None, config: Path | None) -> Path:
    """``--out`` when given, else the configuration's ``[ingest] out`` (exit 2 for a bad configuration)."""
    if out is not None:
        return out
    try:
        return config_mod.load(config).out
    except config_mod.ConfigError as e:
        fail(str(e), 2)


def console() -> Console:
    """A console for tables: the terminal's width, or 160 columns when the output is piped or captured."""
    found = Console()
    return found if found.is_terminal else Console(width=160)
