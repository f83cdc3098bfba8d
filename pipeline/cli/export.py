"""cli.export: the ``ratings export`` command, the output folder as one Excel workbook.

One typer command function, registered by :mod:`pipeline.cli`. It finds the output folder, calls
:func:`pipeline.reports.export.export_xlsx` and says what it wrote; :class:`~pipeline.reports.ReportError` (no
output yet, a target that is not an ``.xlsx`` file) exits 2, a file that cannot be written exits 1.
Knows nothing of the workbook's sheets or cells.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import ConfigOpt, OutOpt, fail, output_folder

XlsxOpt = Annotated[
    Path,
    typer.Option(
        "--xlsx",
        metavar="FILE",
        dir_okay=False,
        help="Workbook to write (.xlsx), replaced if it exists; its folder is created if missing",
    ),
]


def export_command(xlsx: XlsxOpt, out: OutOpt = None, config: ConfigOpt = None) -> None:
    """Write the run's results to one Excel workbook.

    Sheets: the standings of every period, the leaderboards, the audit of
    every game (counted or not, and why), the rating changes, the awards,
    and the promotions, fees and certification where the rule set has them.
    Each has a frozen header row and filters. Names and events that look like
    formulas (starting with = + - @) are stored as text, never evaluated.

    Example: ratings export --xlsx ratings.xlsx
    """
    from pipeline.reports import ReportError
    from pipeline.reports.export import export_xlsx

    folder = output_folder(out, config)
    try:
        sheets = export_xlsx(folder, xlsx)
    except ReportError as e:
        fail(str(e), 2)
    except OSError as e:
        fail(f"cannot write the workbook {xlsx}: {e}", 1)
    Console().print(f"wrote {xlsx} (sheets: {', '.join(sheets)})", soft_wrap=True, highlight=False)
