"""i18n.extract: Babel extractors for what ``pybabel extract``'s own do not see.

- :func:`python_and_help`: a command-line module's ``_()``/``N_()`` messages (Babel's Python
  extractor) and, from each command function's docstring (a function named ``*_command`` or
  ``_main``: the ``ratings`` command's help), every paragraph that is not a list of ``Example:`` lines,
  its whitespace joined to single spaces: the form :func:`pipeline.cli.help.paragraphs` looks up.
- :func:`javascript_strings`: a site script's ``T("...")`` messages (Babel's JavaScript extractor,
  with ``T`` as its keyword).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import IO, Any

from babel.messages.extract import extract_javascript, extract_python

_Message = tuple[int, str, Any, list[str]]


def help_paragraphs(doc: str) -> list[str]:
    """The paragraphs of a command's docstring that are translated: each joined to one line, the
    paragraphs made of ``Example:`` lines left out (commands are not translated)."""
    import inspect

    paragraphs = [p.strip() for p in inspect.cleandoc(doc).split("\n\n") if p.strip()]
    return [
        " ".join(p.split())
        for p in paragraphs
        if not all(line.strip().startswith("Example:") for line in p.splitlines())
    ]


def python_and_help(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[_Message]:
    """Babel's Python messages of ``fileobj``, then its command functions' help paragraphs."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (node.name.endswith("_command") or node.name == "_main"):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                for paragraph in help_paragraphs(doc):
                    yield node.lineno, "", paragraph, ["help of a command"]


def javascript_strings(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[_Message]:
    """Babel's JavaScript messages of ``fileobj`` marked ``T("...")``, as gettext's (``_``)."""
    for lineno, _funcname, message, comments in extract_javascript(
        fileobj, {"T": None}, comment_tags, options
    ):
        yield lineno, "_", message, comments
