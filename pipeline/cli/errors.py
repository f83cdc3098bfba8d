"""cli.errors: the errors in a command line's arguments (click's usage errors), said in the language
spoken: the usage line, the hint, ``Error: ...`` and the messages click and typer write in English only
(their vendored click has no catalog): each kind of error is recognised by its class and attributes,
or by the shape of its English message (:data:`SHAPES`), and said again from the project's catalogs.
A message of a shape it does not know is shown as it is. Knows nothing of any command.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import typer

from pipeline.core.i18n import N_, gettext

#: The English messages of typer's click, each with its catalog message (named fields from the match).
SHAPES = (
    (re.compile(r"No such option: (?P<name>\S+)"), N_("No such option: {name}")),
    (re.compile(r"Option '(?P<name>[^']+)' requires an argument\."), N_("Option {name} needs a value.")),
    (
        re.compile(r"Option '(?P<name>[^']+)' requires (?P<n>\d+) arguments\."),
        N_("Option {name} needs {n} values."),
    ),
    (re.compile(r"Option '(?P<name>[^']+)' does not take a value\."), N_("Option {name} takes no value.")),
    (
        re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)"),
        N_("Unexpected extra arguments: {args}"),
    ),
    (
        re.compile(r"(?:Value error, )?'?(?P<value>.*?)'? is not one of (?P<choices>.+?)\.?"),
        N_("{value} is not one of {choices}."),
    ),
    (
        re.compile(r"(?:Value error, )?Value (?P<value>.*) is not a valid (?P<kind>\w+)\.?"),
        N_("{value} is not a valid {kind}."),
    ),
    (
        re.compile(r"Input should be greater than or equal to (?P<n>\S+)"),
        N_("the value must be at least {n}"),
    ),
    (re.compile(r"Input should be less than or equal to (?P<n>\S+)"), N_("the value must be at most {n}")),
    (re.compile(r"Input should be a valid (?P<kind>\w+).*"), N_("the value must be a valid {kind}")),
)
_MISSING = {
    "option": N_("Missing option {name}."),
    "argument": N_("Missing argument {name}."),
    "parameter": N_("Missing parameter {name}."),
}


def said(message: str) -> str:
    """``message`` (one of typer's click's English messages, or the project's own) in the language
    spoken: by its shape (:data:`SHAPES`), else looked up as it is."""
    for shape, translated in SHAPES:
        found = shape.fullmatch(message.strip())
        if found:
            return gettext(translated).format(**found.groupdict())
    return gettext(message)


def message_of(error: Any) -> str:
    """What ``error`` (a click usage error) says, in the language spoken."""
    kind = type(error).__name__
    hint = _hint(error)
    if kind == "MissingParameter":
        missing = _MISSING.get(
            getattr(error, "param_type", None) or _param_type(error), _MISSING["parameter"]
        )
        return gettext(missing).format(name=hint or "")
    if kind in ("BadParameter",) or (hint and kind == "BadParameter"):
        inner = said(str(error.message))
        if hint:
            return gettext(N_("Invalid value for {name}: {message}")).format(name=hint, message=inner)
        return gettext(N_("Invalid value: {message}")).format(message=inner)
    if kind == "NoSuchOption" and getattr(error, "possibilities", None):
        options = ", ".join(sorted(error.possibilities))
        return (
            said(str(error.message))
            + " "
            + gettext(N_("(Possible options: {options})")).format(options=options)
        )
    return said(str(getattr(error, "message", error)))


def _hint(error: Any) -> str | None:
    hint = getattr(error, "param_hint", None)
    if hint is None and getattr(error, "param", None) is not None:
        hint = error.param.get_error_hint()
    if isinstance(hint, list | tuple):
        return " / ".join(repr(h) for h in hint)
    return hint


def _param_type(error: Any) -> str:
    param = getattr(error, "param", None)
    return str(getattr(param, "param_type_name", "parameter"))


def show(error: Any) -> None:
    """Print ``error`` (a click exception) to standard error as click would, in the language spoken:
    the usage line and a hint for a usage error, then ``Error: ...``."""
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        typer.echo(ctx.get_usage(), err=True)
        if ctx.command.get_help_option(ctx) is not None:
            hint = gettext(N_("Try '{command} {option}' for help.")).format(
                command=ctx.command_path, option=ctx.help_option_names[0]
            )
            typer.echo(hint + "\n", err=True)
    typer.echo(gettext(N_("Error: {message}")).format(message=message_of(error)), err=True)


def run_speaking(main: Any, args: list[str], **kwargs: Any) -> Any:
    """``main(args, standalone_mode=False, **kwargs)`` (a click command's main) with its usage errors
    shown by :func:`show` and its exits as click's standalone mode makes them."""
    try:
        returned = main(args, standalone_mode=False, **kwargs)
    except typer.Abort:
        typer.echo(gettext(N_("Aborted!")), err=True)
        sys.exit(1)
    except typer.TyperException as e:
        if not hasattr(e, "exit_code") or not hasattr(e, "format_message"):
            raise
        show(e)
        sys.exit(e.exit_code)
    sys.exit(returned if isinstance(returned, int) else 0)
