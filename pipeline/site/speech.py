"""site.speech: how the site says things in the language it is built in (:func:`pipeline.core.i18n.current`).

Dates in the language's format (ISO in English, as the site always wrote them; ``2024年5月3日`` in
Chinese, Babel's long pattern of the language's locale), a list in the language's words (``a、b和c``),
``yes``/``no``, the reason codes as phrases with the code kept in a ``data-code`` and a ``title``
attribute (:func:`reason_cells`), the language switch between the versions of a page
(:func:`switch`), and the words of the site's scripts (:data:`SCRIPT_MESSAGES`: the ``T("...")`` of
``static/*.js``, given to the page as JSON). The data the pages carry for the scripts (the filter's
``data-codes`` and ``data-counted``) stays in codes. Knows nothing of the pages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from functools import cache

import pyarrow as pa
import pyarrow.compute as pc
from babel.dates import format_date
from babel.lists import format_list
from markupsafe import escape

from pipeline.core import i18n
from pipeline.core.i18n import N_, gettext, pgettext
from pipeline.core.reasons import phrase

#: Babel's locale of each language (numbers, dates, lists).
LOCALES = {i18n.SIMPLIFIED: "zh_Hans_CN", i18n.TRADITIONAL: "zh_Hant_TW", i18n.ENGLISH: "en"}
#: The messages of each script of ``static/`` (its ``T("...")``), in the order the script has them;
#: tests/test_site_languages.py checks they are the script's.
SCRIPT_MESSAGES = {"filter.js": (N_("{shown} of {total} games"),)}


def locale() -> str:
    """Babel's locale of the language spoken."""
    return LOCALES[i18n.current()]


def english() -> bool:
    return i18n.current() == i18n.ENGLISH


def day(value: str | dt.date | None) -> str:
    """A date (``2024-05-03`` or a date) in the language's format; anything else as it is."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        try:
            date = dt.date.fromisoformat(value[:10])
        except ValueError:
            return value
    else:
        date = value
    if english():
        return date.isoformat()[:10]
    return _day(date, locale())


@cache
def _day(value: dt.date, where: str) -> str:
    return str(format_date(value, "long", locale=where))


def days(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """ISO dates (text, missing values null) in the language's format, as :func:`day`."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    values = values.cast(pa.string())
    if english() or not len(values):
        return values
    distinct = pc.unique(values.drop_null())
    said = pa.array([day(v) for v in distinct.to_pylist()], pa.string())
    return pc.take(said, pc.index_in(values, distinct))


def listed(items: Sequence[str]) -> str:
    """``items`` as one phrase: ``a, b and c`` in English, ``a、b和c`` in Chinese."""
    if not items:
        return ""
    if english():
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return str(format_list(list(items), locale=locale()))


def joined(items: Iterable[str]) -> str:
    """``items`` separated as a list of the language (``, ``; ``、`` in Chinese)."""
    return pgettext("list separator", ", ").join(items)


def yes_no(value: bool) -> str:
    return gettext("yes") if value else gettext("no")


def colour(code: str) -> str:
    """``B``/``W`` as the language writes a colour (黑/白 in Chinese)."""
    if code == "B":
        return pgettext("colour", "B")
    if code == "W":
        return pgettext("colour", "W")
    return code


def reason_html(codes: Sequence[str]) -> str:
    """Reason (or note) codes as their phrases, each in a ``<span class="reason">`` whose ``data-code``
    and ``title`` hold the code."""
    return joined(
        f'<span class="reason" data-code="{escape(c)}" title="{escape(c)}">{escape(phrase(c))}</span>'
        for c in codes
    )


def reason_cells(values: pa.Array | pa.ChunkedArray, separator: str = ", ") -> pa.Array:
    """Lists of codes (text, ``separator`` between codes; missing or empty: an empty cell) as
    :func:`reason_html`, made once per distinct list."""
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    values = pc.fill_null(values.cast(pa.string()), "")
    if not len(values):
        return values
    distinct = pc.unique(values)
    said = pa.array(
        [reason_html([c for c in v.split(separator) if c]) for v in distinct.to_pylist()], pa.string()
    )
    return pc.take(said, pc.index_in(values, distinct))


def switch(languages: Sequence[str], page: str, root: str) -> list[tuple[str, str, str]]:
    """The language switch of ``page`` (its path in a language's folder; ``root`` the way up to that
    folder): (language, its own name, link to the same page in that language) of each of ``languages``;
    nothing for one language."""
    if len(languages) < 2:
        return []
    return [(lang, i18n.NATIVE_NAMES[lang], f"{root}../{lang}/{page}") for lang in languages]


def script_messages(script: str) -> dict[str, str]:
    """The words of ``script`` (``filter.js``) in the language spoken: English message -> translation."""
    return {m: gettext(m) for m in SCRIPT_MESSAGES[script]}


def outcome(word: str) -> str:
    """A game's result from a player's side (``win``, ``loss``, ``draw``, ``no result``) in the language."""
    words = {
        "win": pgettext("result", "win"),
        "loss": pgettext("result", "loss"),
        "draw": pgettext("result", "draw"),
        "no result": pgettext("result", "no result"),
    }
    return words.get(word, word)


def speed(word: str | None) -> str:
    """A game's speed (``fast``, ``slow``) in the language; nothing for none."""
    if not word:
        return ""
    words = {"fast": pgettext("speed", "fast"), "slow": pgettext("speed", "slow")}
    return words.get(word, word)
