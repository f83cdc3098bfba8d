"""cli.lock: the ``--no-wait`` option and the output folder's lock as the commands that write take it.

A command that finds the folder held by another process says on standard error whom it waits for and
waits; with ``--no-wait`` it exits 75 (EX_TEMPFAIL, "try again later") with one line naming the
other process. Knows nothing of what the commands write (:mod:`pipeline.output.lock`).
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.cli.common import fail
from pipeline.core.i18n import N_, _

#: The exit status of a command that would not wait for the output folder (sysexits.h EX_TEMPFAIL).
BUSY = 75

NoWaitOpt = Annotated[
    bool,
    typer.Option(
        "--no-wait",
        help=N_("If another run holds the output folder, exit 75 at once instead of waiting for it"),
    ),
]


@contextmanager
def holding(out: Path, no_wait: bool) -> Iterator[None]:
    """Hold ``out``'s lock while the ``with`` lasts (waiting, unless ``no_wait``: then exit 75). Exits 1
    with the reason when the folder or its lock file cannot be made."""
    from pipeline.output.lock import Holder, OutputBusy, held

    def waiting(holder: Holder) -> None:
        Console(stderr=True).print(
            _(
                "waiting: {out} is in use by {holder}; it goes on when that ends (--no-wait: exit instead)"
            ).format(out=out, holder=holder),
            soft_wrap=True,
            markup=False,
            highlight=False,
        )

    taken = ExitStack()
    try:
        taken.enter_context(held(out, _command_line(), wait=not no_wait, waiting=waiting))
    except OutputBusy as e:
        fail(_("{busy}; not waiting (--no-wait)").format(busy=e), BUSY)
    except OSError as e:
        fail(_("cannot lock the output folder {out}: {error}").format(out=out, error=e), 1)
    with taken:
        yield


def _command_line() -> str:
    """This process's command line as a shell would take it, its program named ``ratings``."""
    return shlex.join(["ratings", *sys.argv[1:]])
