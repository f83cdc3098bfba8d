"""cli.site: the ``ratings site`` command, writing :func:`pipeline.site.build_site` into a folder.

Maps :class:`~pipeline.reports.ReportError` (no output yet) and :class:`~pipeline.site.SiteError` (a
folder that is not a site) to exit status 2, an unwritable folder to 1, Ctrl-C and SIGTERM (a plain
``kill``) to 130 with nothing written and nothing left behind (or, when the new site was already in
place, saying so). Shows each step's progress on standard error when it is a terminal
(:func:`pipeline.cli.progress.shown`). ``--lang`` (every command's, read by
:func:`pipeline.cli.language.chosen` for the command's own words: the first language) may here be a
comma list: the site in each language, a folder each and a chooser. Knows nothing of what the pages hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipeline.cli.common import ConfigOpt, OutOpt, console, fail, output_folder
from pipeline.cli.progress import shown
from pipeline.cli.run import terminate_as_interrupt
from pipeline.core import i18n
from pipeline.core.i18n import N_, gettext, ngettext, pgettext


def site_command(
    ctx: typer.Context,
    target: Annotated[
        Path,
        typer.Argument(
            metavar="DIR", hidden=True, help=N_("Folder to write the site into (see the description)")
        ),
    ],
    title: Annotated[
        str | None,
        typer.Option(
            "--title",
            metavar="TEXT",
            help=N_("The site's name, atop every page (default: Club ratings, in each language)"),
        ),
    ] = None,
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

    The pages speak the command's language (--lang, else [output] language, else the locale). With
    several languages (--lang zh-Hans,zh-Hant,en), each has a folder of its own in DIR (DIR/zh-Hans/
    ...), every page links the same page in the others, and DIR/index.html lets the reader choose.

    Example: ratings site data/site
    Example: ratings site /var/www/club --out /srv/club/processed --title "飞扬围棋 ratings"
    Example: ratings site /var/www/club --lang zh-Hans,zh-Hant,en
    """
    from pipeline.reports import ReportError
    from pipeline.site import SiteError, build_site

    languages = _languages(ctx.params.get("lang"))
    folder = output_folder(out, config)
    before = _site_stamp(target)
    try:
        with terminate_as_interrupt(), shown() as steps:
            written = build_site(folder, target, title, steps, languages)
    except (ReportError, SiteError) as e:
        fail(str(e), 2)
    except OSError as e:
        fail(str(e), 1)
    except KeyboardInterrupt:
        if _site_stamp(target) not in (before, None):
            fail(
                gettext("interrupted once the site was written: {target} holds the new site").format(
                    target=target
                ),
                130,
            )
        fail(gettext("interrupted: no site was written; {target} is as it was").format(target=target), 130)
    separator = pgettext("list separator", ", ")
    counts = separator.join(
        (
            ngettext("{n} period", "{n} periods", written.periods).format(n=written.periods),
            ngettext("{n} player", "{n} players", written.players).format(n=written.players),
            ngettext("{n} chart", "{n} charts", written.charts).format(n=written.charts),
        )
    )
    index = written.target / "index.html"
    if len(written.languages) > 1:
        said = ngettext(
            "wrote {pages} page ({counts} in each of {languages}) to {target}: open {index}",
            "wrote {pages} pages ({counts} in each of {languages}) to {target}: open {index}",
            written.pages,
        ).format(
            pages=written.pages,
            counts=counts,
            languages=separator.join(written.languages),
            target=written.target,
            index=index,
        )
    else:
        said = ngettext(
            "wrote {pages} page ({counts}) to {target}: open {index}",
            "wrote {pages} pages ({counts}) to {target}: open {index}",
            written.pages,
        ).format(pages=written.pages, counts=counts, target=written.target, index=index)
    console().print(said)


def _languages(option: str | None) -> tuple[str, ...]:
    """The languages of ``--lang`` (a comma list), else the command's (the configuration's or the
    locale's, already chosen: :func:`pipeline.core.i18n.current`)."""
    if not option:
        return (i18n.current(),)
    try:
        return i18n.languages_of(option)
    except i18n.LanguageError as e:
        fail(f"--lang: {e}", 2)


def _site_stamp(target: Path) -> tuple[int, int] | None:
    """The device and inode of the marker file of the site in ``target`` (None: none): a site put in
    its place has a marker of its own."""
    from pipeline.site import MARKER

    try:
        found = (target / MARKER).stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino
