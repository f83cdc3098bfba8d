"""cli.export: the ``ratings export`` command, the output folder as one Excel workbook or as a plain copy.

One typer command function, registered by :mod:`pipeline.cli`. It finds the output folder, calls
:func:`pipeline.reports.export.export_xlsx` (``--xlsx FILE``) and
:func:`pipeline.output.plain_copy.export_parquet` (``--parquet DIR``) with progress bars on standard error
(:func:`pipeline.cli.progress.shown`), and says what it wrote. Neither option, or a
:class:`~pipeline.reports.ReportError` (no output yet, a target that is not an ``.xlsx`` file, a folder
that is not empty) exits 2; a file that cannot be written exits 1. Knows nothing of the workbook's sheets
or cells, nor of the output folder's layout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import ConfigOpt, OutOpt, fail, output_folder
from pipeline.cli.progress import shown
from pipeline.core.i18n import N_, _, ngettext, pgettext

XlsxOpt = Annotated[
    Path | None,
    typer.Option(
        "--xlsx",
        metavar="FILE",
        dir_okay=False,
        help=N_("Workbook to write (.xlsx), replaced if it exists; its folder is created if missing"),
    ),
]
ParquetOpt = Annotated[
    Path | None,
    typer.Option(
        "--parquet",
        metavar="DIR",
        file_okay=False,
        help=N_(
            "Folder to copy the current snapshot into, as plain files (no links): new, empty, or an "
            "earlier copy, which is replaced"
        ),
    ),
]


def export_command(
    xlsx: XlsxOpt = None, parquet: ParquetOpt = None, out: OutOpt = None, config: ConfigOpt = None
) -> None:
    """Write the run's results to one Excel workbook, or copy them to a folder.

    --xlsx: sheets of the standings of every period, the leaderboards, the
    audit of every game (counted or not, and why), the rating changes, the
    awards, and the promotions, fees and certification where the rule set has
    them. Each has a frozen header row and filters. Names and events that look
    like formulas (starting with = + - @) are stored as text, never evaluated.
    In Chinese (--lang zh-Hans or zh-Hant) the sheets, their headers and the
    values that are words are in Chinese, and a last sheet maps each header to
    the name of its column in the Parquet files.

    --parquet: the Parquet files and the manifest of the current run, as real
    files (the output folder holds links into its latest generation, which a
    plain cp -r copies as links). Read the copy as the output folder:
    pd.read_parquet("DIR/ratings").

    Example: ratings export --xlsx ratings.xlsx

    Example: ratings export --parquet snapshots/2024-06
    """
    if xlsx is None and parquet is None:
        fail(_("give --xlsx FILE (a workbook) or --parquet DIR (a plain copy of the output), or both"), 2)
    folder = output_folder(out, config)
    if xlsx is not None:
        _export_xlsx(folder, xlsx)
    if parquet is not None:
        _export_parquet(folder, parquet)


def _export_xlsx(folder: Path, xlsx: Path) -> None:
    from pipeline.reports import ReportError
    from pipeline.reports.export import export_xlsx

    try:
        with shown() as steps:
            sheets = export_xlsx(folder, xlsx, steps)
    except ReportError as e:
        fail(str(e), 2)
    except OSError as e:
        fail(_("cannot write the workbook {file}: {error}").format(file=xlsx, error=e), 1)
    listed = pgettext("list separator", ", ").join(sheets)
    Console().print(
        _("wrote {file} (sheets: {sheets})").format(file=xlsx, sheets=listed), soft_wrap=True, highlight=False
    )


def _export_parquet(folder: Path, target: Path) -> None:
    from pipeline.output.plain_copy import export_parquet
    from pipeline.reports import ReportError

    try:
        with shown() as steps:
            copied = export_parquet(folder, target, steps)
    except ReportError as e:
        fail(str(e), 2)
    except OSError as e:
        fail(_("cannot write the copy {folder}: {error}").format(folder=target, error=e), 1)
    entries = ", ".join(copied.entries)
    copied_files = ngettext(
        "copied generation {generation} to {folder} ({n} file: {entries})",
        "copied generation {generation} to {folder} ({n} files: {entries})",
        copied.files,
    )
    Console().print(
        copied_files.format(generation=copied.generation, folder=target, n=copied.files, entries=entries),
        soft_wrap=True,
        highlight=False,
    )
