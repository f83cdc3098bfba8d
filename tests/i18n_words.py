"""English words of the interface left in an output that should speak another language.

The interface's English words are the words of the catalog's messages (the English source strings):
an output in Chinese that still holds one of them, outside what is code or data (command lines and
options, paths, snake_case identifiers, period labels, and the names a caller allows), shows a
message left untranslated. Shared by the tests of every surface.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

_CODE = re.compile(
    r"`[^`]*`"  # a code span
    r"|\b(?:ratings|root)(?: +(?:-[-\w]+|[\w./=:,-]+))*"  # a command line (root: CliRunner's name for it)
    r"|--?[A-Za-z][\w-]*"  # an option
    r"|\b[\w.-]*/[\w./-]*"  # a path
    r"|\b\w+\.(?:parquet|toml|csv|json|sgf|xlsx|png|svg|html|md|txt|pdf|jpe?g|zip)\b"  # a file
    r"|\b[a-z0-9]+(?:_[a-z0-9]+)+\b"  # a snake_case identifier (a code, a column)
    r"|\[[a-z_]+\](?: [a-z_]+\b)?"  # a configuration section, or a key of one
    r"|https?://\S+"
)
_WORD = re.compile(r"[A-Za-z]{3,}")
#: Words that are names or codes in every language (rule sets, formats, systems, units).
ALWAYS_ALLOWED = frozenset(
    w.casefold()
    for w in [
        "sgf",
        "ratings",
        "csv",
        "json",
        "html",
        "png",
        "svg",
        "pdf",
        "jpeg",
        "xlsx",
        "utf",
        "options",  # the usage line's [OPTIONS], COMMAND [ARGS]
        "args",
        "command",
        "ctrl",  # Ctrl-C
        "gbk",
        "big5",
        "toml",
        "parquet",
        "duckdb",
        "pandas",
        "pyarrow",
        "club",
        "hkga",
        "cga",
        "egf",
        "egf2021",
        "gor",
        "tga",
        "elo",
        "glicko",
        "whr",
        "dan",
        "kyu",
        "pro",
        "sgfmill",
        "opencc",
        "dask",
        "lang",
        "chromium",
        "zh",
        "Hans",
        "Hant",
        "en",
        "LANG",
        "FILE",
        "DIR",
        "NAME",
        "FORMAT",
        "PERIOD",
        "TEXT",
        "INTEGER",
        "PATH",
        "ADDRESS",
        "LIST",
        "RULES",
    ]
)


@cache
def interface_words() -> frozenset[str]:
    """Every word of three letters or more in the catalog's English messages, casefolded."""
    from i18n.catalogs import read

    words: set[str] = set()
    for message in read("zh_Hans"):
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        for text in ids:
            if text:
                words.update(w.casefold() for w in _WORD.findall(_CODE.sub(" ", text)))
    return frozenset(words - ALWAYS_ALLOWED)


def english_left(output: str, allowed: Iterable[str] = ()) -> list[str]:
    """The interface's English words in ``output`` (code, data and ``allowed`` names aside), in order."""
    allow = {w.casefold() for name in allowed for w in _WORD.findall(name)} | ALWAYS_ALLOWED
    text = _CODE.sub(" ", output)
    vocabulary = interface_words()
    return [w for w in _WORD.findall(text) if w.casefold() in vocabulary and w.casefold() not in allow]


def own_help(output: str, shared: tuple[str, ...] = ("--out", "--config", "--period", "--lang")) -> str:
    """``--help`` output without its usage line and the options every command shares (``shared``: their
    words are the shared modules', not this command's)."""
    kept, skipping = [], False
    for line in output.splitlines()[1:]:
        option = re.match(r"  (-[-\w]+)", line)
        if option:
            skipping = option.group(1) in shared
        elif not line.startswith("   "):
            skipping = False
        if not skipping:
            kept.append(line)
    return "\n".join(kept)
