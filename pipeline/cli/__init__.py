"""cli: the ``ratings`` command, a thin layer over the library.

Each module of this package holds the command functions of one feature; this one builds the typer
app and registers them, with ``-h``/``--help`` on every command and ``--version`` on the app. Commands
turn options into a configuration, run the library, render its results, and map the library's
exceptions to exit codes: 0 done (bad records are data, not failures), 2 bad configuration or
arguments, 1 anything else, 130 interrupted.

Help is plain click text, reflowed to the terminal: a docstring's paragraphs are rewrapped (so the
line breaks of the source never cut a sentence), its ``Example:`` lines stay one per line (one too
wide for the terminal continues on the next with a shell's `` \\``, broken between arguments, an
option with its value), and the commands' list shows each command's first sentence whole.

Every command, the nightly ``ratings run`` too, imports every command module: so these import the
library's stages, readers, reports, workbook, charts and site (pandas, openpyxl, scipy, matplotlib,
jinja2, OpenCC, ...) inside the functions that use them, and at the top only what the options and
their help name (``tests/test_cli_imports.py``).
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
import typing
from collections.abc import Callable
from typing import Annotated, Any

import typer
import typer.core
from rich.cells import cell_len

from pipeline import __version__
from pipeline.cli import backtest as backtest
from pipeline.cli import coercion
from pipeline.cli import compare as compare
from pipeline.cli import diff as diff
from pipeline.cli import explain as explain
from pipeline.cli import export as export
from pipeline.cli import players as players
from pipeline.cli import plot as plot
from pipeline.cli import reports as reports
from pipeline.cli import run as run
from pipeline.cli import site as site
from pipeline.cli.language import LANG_HELP
from pipeline.core import i18n
from pipeline.core.i18n import N_

_COMMANDS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("run", run.run_command),
    ("ingest", run.ingest_command),
    ("audit", reports.audit_command),
    ("show", reports.show_command),
    ("export", export.export_command),
    ("plot", plot.plot_command),
    ("explain", explain.explain_command),
    ("backtest", backtest.backtest_command),
    ("site", site.site_command),
    ("compare", compare.compare_command),
    ("players", players.players_command),
    ("diff", diff.diff_command),
)
_KEEP_LINES = "\b\n"  # click: print the paragraph that starts with this line as it is written
_EXAMPLE = N_("Example:")
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^-\s]\S*)"  # an argument that is no option: a quoted text whole
_ARGUMENT = re.compile(rf"--?\S+ {_VALUE}|{_VALUE}|\S+")  # an option with its value, or one argument
_CONTINUED = " \\"  # the end of a command line that goes on on the next


class _Command(typer.core.TyperCommand):
    """A command that takes ``--lang`` and speaks its help in the chosen language: its docstring's
    paragraphs and its options' help looked up in the catalogs when the help is shown, its example lines
    fitted to the terminal (:func:`example_lines`); its values converted without pydantic where they are
    plain (:mod:`pipeline.cli.coercion`)."""

    def format_options(self, ctx: Any, formatter: Any) -> None:  # typer's own click's types
        _translate_params(self.get_params(ctx))
        super().format_options(ctx, formatter)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        coercion.install(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _format_usage(self, ctx, formatter)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        _format_help_text(self.help, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        return first_sentence(translated_help(self.help or "").split("\n\n")[0])


class _Group(typer.core.TyperGroup):
    """The ``ratings`` app: chooses the language before the arguments are parsed
    (:func:`pipeline.cli.language.chosen`; exit 2 for one that is no language), then speaks it."""

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        from pipeline.cli.common import fail
        from pipeline.cli.language import LanguageChoiceError, chosen, click_speaks

        # Arrow's tables from the C library's allocator (in this process and the workers it starts), unless
        # the environment names one: read once, when pyarrow is first imported, which no command has done
        # yet (docs/design.md#arrows-allocator).
        os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
        given = list(sys.argv[1:] if args is None else args)
        try:
            language = chosen(given)
        except LanguageChoiceError as e:
            try:
                fail(str(e), 2)
            except typer.Exit as done:
                sys.exit(done.exit_code)
        click_speaks()
        with i18n.speaking(language):
            if not kwargs.get("standalone_mode", True) or rest:
                return super().main(given, *rest, **kwargs)
            from pipeline.cli.errors import run_speaking

            return run_speaking(
                super().main, given, **{k: v for k, v in kwargs.items() if k != "standalone_mode"}
            )

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _translate_params(self.get_params(ctx))
        super().format_options(ctx, formatter)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        coercion.install(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _format_usage(self, ctx, formatter)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        _format_help_text(self.help, formatter)


LangOpt = Annotated[str | None, typer.Option("--lang", metavar="LANG", help=LANG_HELP)]


def taking_lang(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a command that also takes ``--lang`` (read before parsing, by
    :class:`_Group`: the command itself never sees it)."""

    @functools.wraps(function)
    def command(*args: Any, lang: str | None = None, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    hints = typing.get_type_hints(function, include_extras=True)
    signature = inspect.signature(function)
    lang = inspect.Parameter("lang", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=LangOpt)
    command.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*(p.replace(annotation=hints[p.name]) for p in signature.parameters.values()), lang]
    )
    command.__annotations__ = {**hints, "lang": LangOpt}
    return command


def _format_usage(command: Any, ctx: Any, formatter: Any) -> None:
    """The usage line, its first word in the language spoken."""
    pieces = command.collect_usage_pieces(ctx)
    prefix = i18n.gettext("Usage:")
    formatter.write_usage(
        ctx.command_path, " ".join(pieces), prefix if prefix.endswith("：") else prefix + " "
    )


def _translate_params(params: list[Any]) -> None:
    """Each parameter's help in the language spoken (the English kept to translate from again)."""
    for param in params:
        source = getattr(param, "_english_help", None) or getattr(param, "help", None)
        if source:
            param._english_help = source
            param.help = i18n.gettext(source)


def _format_help_text(help: str | None, formatter: Any) -> None:
    text = translated_help(inspect.cleandoc(help or "").partition("\f")[0])
    if text:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(fit_examples(text, formatter.width - formatter.current_indent))


def translated_help(text: str) -> str:
    """Click help (:func:`help_text`) in the language spoken: each paragraph looked up whole (its white
    space joined, as ``i18n/extract.py`` extracts it), the ``Example:`` lines' word translated."""
    example = i18n.gettext(_EXAMPLE)
    paragraphs = []
    for paragraph in text.split("\n\n"):
        if paragraph.startswith(_KEEP_LINES):
            paragraphs.append(paragraph.replace(_EXAMPLE, example))
        else:
            joined = " ".join(paragraph.split())
            paragraphs.append(i18n.gettext(joined))
    return "\n\n".join(paragraphs)


def first_sentence(paragraph: str) -> str:
    """The first sentence of ``paragraph`` (an English one ends at ``. ``, a Chinese one at ``。``), on
    one line, without its full stop."""
    one_line = " ".join(paragraph.split())
    english = one_line.split(". ", 1)[0].rstrip(".")
    chinese = one_line.split("。", 1)[0]
    return chinese if len(chinese) < len(english) else english


def fit_examples(text: str, width: int) -> str:
    """``text`` (click help) with each example line (``Example:`` in the language spoken) wider than
    ``width`` cells continued on further lines (:func:`example_lines`)."""
    return "\n".join(
        "\n".join(example_lines(line, width)) if line.startswith(i18n.gettext(_EXAMPLE)) else line
        for line in text.split("\n")
    )


def example_lines(line: str, width: int) -> list[str]:
    """``Example: ratings ...`` as lines of at most ``width`` cells: broken between arguments (an
    option stays with its value, a quoted value whole), each line but the last ending in `` \\``, the
    lines after the first indented under the command."""
    if cell_len(line) <= width:
        return [line]
    example = line.split(" ", 1)[0]
    indent = " " * (cell_len(example) + 3)
    lines: list[str] = []
    current = example
    for argument in _ARGUMENT.findall(line[len(example) :]):
        joined = f"{current} {argument}"
        if cell_len(joined) + len(_CONTINUED) > width and current.strip() not in ("", example):
            lines.append(current + _CONTINUED)
            joined = indent + argument
        current = joined
    return [*lines, current]


def help_text(doc: str | None) -> str:
    """``doc`` as click help: paragraphs as they are (click rewraps them), a paragraph of ``Example:``
    lines marked to keep its lines."""
    paragraphs = [p.strip() for p in _dedent(doc).split("\n\n") if p.strip()]
    return "\n\n".join(
        _KEEP_LINES + p if all(line.startswith("Example:") for line in p.splitlines()) else p
        for p in paragraphs
    )


def short_help(doc: str | None) -> str:
    """The first sentence of ``doc``'s first paragraph, on one line (the commands' list)."""
    first = " ".join(_dedent(doc).split("\n\n")[0].split())
    return first.split(". ", 1)[0].rstrip(".")


def _dedent(doc: str | None) -> str:
    return inspect.cleandoc(doc or "")


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"ratings (sgf-ratings) {__version__}")
        raise typer.Exit()


def _main(
    lang: LangOpt = None,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help=N_("Print the version and exit")),
    ] = False,
) -> None:
    """sgf-ratings: SGF game records in, ratings out.

    Example: ratings run --raw data/raw
    """


def build() -> typer.Typer:
    """The ``ratings`` app: every command, help reflowed, ``-h`` and ``--version``."""
    made = typer.Typer(
        cls=_Group,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    made.callback(help=help_text(_main.__doc__))(_main)
    for name, function in _COMMANDS:
        made.command(
            name, cls=_Command, help=help_text(function.__doc__), short_help=short_help(function.__doc__)
        )(taking_lang(function))
    return made


app = build()
