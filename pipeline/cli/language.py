"""cli.language: the language a ``ratings`` command speaks, chosen before the command line is parsed.

:func:`chosen` reads ``--lang`` (any command takes it: :data:`LANG_HELP`) and ``--config`` from the
arguments, the configuration's ``[output] language`` and the locale (:func:`pipeline.core.i18n.resolve`),
before click parses them: ``--help`` is printed while parsing, in that language already.
:func:`click_speaks` hands click's and typer's own words (``Usage:``, ``Options``, their error
messages: :data:`CLICK_WORDS`) to the project's catalogs. Knows nothing of any command.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.config import DEFAULT_PATH
from pipeline.core import i18n
from pipeline.core.i18n import N_

LANG_HELP = N_("Language of the output: zh-Hans, zh-Hant or en (default: [output] language, else the locale)")

#: The messages of click and typer a person of this command line can meet (help headings, the usage
#: line, errors in the arguments), marked here for the catalogs: click looks them up itself.
CLICK_WORDS = (
    N_("Aborted!"),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("Missing command."),
    N_("Usage:"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing {param_type}"),
    N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Show this message and exit."),
    N_("default: {default}"),
    N_("required"),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("file"),
    N_("directory"),
    N_("path"),
    N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is not readable."),
    N_("Option {name!r} does not take a value."),
    N_("Choose from:\n\t{choices}"),
)
CLICK_PLURALS = (
    (N_("Got unexpected extra argument ({args})"), N_("Got unexpected extra arguments ({args})")),
    (N_("Did you mean {possibility}?"), N_("(Did you mean one of: {possibilities}?)")),
    (N_("Option {name!r} requires an argument."), N_("Option {name!r} requires {nargs} arguments.")),
    (N_("{value!r} is not {choice}."), N_("{value!r} is not one of {choices}.")),
)
_CLICK_MODULES = ("core", "formatting", "exceptions", "decorators", "parser", "types", "termui")


class LanguageChoiceError(ValueError):
    """A ``--lang`` or ``[output] language`` that names no language; the message says which and where."""


def chosen(args: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """The language of a command run with ``args``: ``--lang``, else ``[output] language`` of the
    configuration ``--config`` names (or the default one), else the locale's, else English."""
    option = _value(args, "--lang")
    try:
        if option is not None:
            return i18n.languages_of(option)[0]  # a comma list (ratings site): the first speaks
    except i18n.LanguageError as e:
        raise LanguageChoiceError(f"--lang: {e}") from None
    path, configured = _configured(args)
    try:
        return i18n.resolve(None, configured, environ)
    except i18n.LanguageError as e:
        raise LanguageChoiceError(f"{path}: [output] language: {e}") from None


def _value(args: Sequence[str], option: str) -> str | None:
    """The value of the last ``option VALUE`` or ``option=VALUE`` in ``args`` (None: not there)."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == option and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith(option + "="):
            found = arg[len(option) + 1 :]
    return found


def _configured(args: Sequence[str]) -> tuple[Path, str | None]:
    """The configuration's path and its ``[output] language`` when it is a text (a file that cannot be
    read is the command's to report, with the rest of the configuration)."""
    given = _value(args, "--config")
    path = Path(given) if given else DEFAULT_PATH
    try:
        with path.open("rb") as f:
            value = tomllib.load(f).get("output", {}).get("language")
    except (OSError, ValueError, AttributeError):  # unreadable, not TOML, not UTF-8, not a table
        return path, None
    return path, value if isinstance(value, str) else None


def click_speaks() -> None:
    """Have click's and typer's own messages looked up in the language spoken (:mod:`pipeline.core.i18n`)
    rather than in gettext's global domain: their modules' ``_`` and ``ngettext``. Idempotent."""
    import importlib

    import typer.core

    modules = [importlib.import_module(f"click.{name}") for name in _CLICK_MODULES] + [typer.core]
    for module in modules:
        if hasattr(module, "_"):
            module._ = i18n.gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.ngettext  # type: ignore[attr-defined]
