"""cli.language: the language a ``ratings`` command speaks, chosen before the command line is parsed.

:func:`chosen` reads ``--lang`` (any command takes it: :data:`LANG_HELP`) and ``--config`` from the
arguments, the configuration's ``[output] language`` and the locale (:func:`pipeline.core.i18n.resolve`),
before click parses them: ``--help`` is printed while parsing, in that language already.
:func:`click_speaks` hands typer's own words (``Options``, ``Commands``: :data:`CLICK_WORDS`) to the
project's catalogs. Knows nothing of any command.
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

#: The messages typer looks up itself (help headings, ``--help``'s own help): marked here for the
#: catalogs. The errors typer's click writes in English only are :mod:`pipeline.cli.errors`'.
CLICK_WORDS = (
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Show this message and exit."),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
)


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
    """Have typer's own messages (:data:`CLICK_WORDS`) looked up in the language spoken
    (:mod:`pipeline.core.i18n`) rather than in gettext's global domain (typer.core's ``_``), and help
    text in Chinese wrapped by terminal cells, between characters (:func:`wrap_text`). Idempotent."""
    import typer.core
    from typer._click import formatting

    typer.core._ = i18n.gettext  # type: ignore[attr-defined]
    if not hasattr(formatting, "_english_wrap_text"):
        formatting._english_wrap_text = formatting.wrap_text  # type: ignore[attr-defined]
        formatting.wrap_text = wrap_text


def wrap_text(
    text: str,
    width: int = 78,
    initial_indent: str = "",
    subsequent_indent: str = "",
    preserve_paragraphs: bool = False,
) -> str:
    """Click's ``wrap_text`` for text that holds Chinese, Japanese or Korean: lines of at most
    ``width`` terminal cells (:func:`pipeline.cli.wrapping.wrap` in prose mode); other text as click
    wraps it. Paragraphs (split at an empty line; one whose first line is ``\\b`` kept as written) as
    click keeps them."""
    from typer._click import formatting

    from pipeline.cli.wrapping import wrap

    english = formatting._english_wrap_text  # type: ignore[attr-defined]
    if not any(c >= "\u2e80" for c in text):
        return str(english(text, width, initial_indent, subsequent_indent, preserve_paragraphs))
    paragraphs = text.expandtabs().split("\n\n") if preserve_paragraphs else [text.expandtabs()]
    filled = []
    for paragraph in paragraphs:
        lines = paragraph.split("\n")
        if lines[0].strip() == "\b":
            filled.append("\n".join(initial_indent + line for line in lines[1:]))
            continue
        extra = " " * (len(lines[0]) - len(lines[0].lstrip()))
        joined = " ".join(line.strip() for line in lines)
        room = max(1, width - len(subsequent_indent) - len(extra))
        wrapped = wrap(joined, room, prose=True)
        filled.append(
            "\n".join(
                (initial_indent if i == 0 else subsequent_indent) + extra + line
                for i, line in enumerate(wrapped)
            )
        )
    return "\n\n".join(filled)
