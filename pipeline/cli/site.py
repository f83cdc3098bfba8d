"""cli.site: the ``ratings site`` command, writing :func:`pipeline.site.build_site` into a folder.

Maps :class:`~pipeline.reports.ReportError` (no output yet) and :class:`~pipeline.site.SiteError` (a
folder that is not a site) to exit status 2, an unwritable folder to 1, Ctrl-C and SIGTERM (a plain
``kill``) to 130 with nothing written and nothing left behind. Shows each step's progress on standard
error when it is a terminal (:func:`pipeline.cli.progress.shown`). Knows nothing of what the pages hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import ConfigOpt, OutOpt, console, fail, output_folder
from pipeline.cli.progress import shown
from pipeline.cli.run import terminate_as_interrupt


def site_command(
    target: Annotated[
        Path,
        typer.Argument(
            metavar="DIR", hidden=True, help="Folder to write the site into (see the description)"
        ),
    ],
    title: Annotated[
        str, typer.Option("--title", metavar="TEXT", help="The site's name, atop every page")
    ] = "Club ratings",
    out: OutOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Write the club's web site of the output: static pages to post as they are, with relative links
    and no server.

    The standings of every rated period (index.html: the latest; a year picker, then the year's
    periods), a page per player with the rating history chart, every game (counted or not, the
    reasons, the points) and the derivation of each period, the games ledger a page per period with a
    filter by player, reason and counted, the leaderboards, the rules in words, and the rule set's
    promotions and reports. DIR is replaced whole when it holds a site written before; another folder
    that is not empty is refused. Interrupted (Ctrl-C, SIGTERM), it leaves DIR as it was.

    Example: ratings site data/site
    Example: ratings site /var/www/club --out /srv/club/processed --title "飞扬围棋 ratings"
    """
    from pipeline.reports import ReportError
    from pipeline.site import SiteError, build_site

    folder = output_folder(out, config)
    try:
        with terminate_as_interrupt(), shown() as steps:
            written = build_site(folder, target, title, steps)
    except (ReportError, SiteError) as e:
        fail(str(e), 2)
    except OSError as e:
        fail(str(e), 1)
    except KeyboardInterrupt:
        fail(f"interrupted: no site was written; {target} is as it was", 130)
    counts = ", ".join(
        _count(n, noun)
        for n, noun in ((written.periods, "period"), (written.players, "player"), (written.charts, "chart"))
    )
    console().print(
        f"wrote {written.pages} pages ({counts}) to {written.target}: open {written.target / 'index.html'}"
    )


def _count(n: int, noun: str) -> str:
    """``1 period``, ``4 periods``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
