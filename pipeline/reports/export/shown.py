"""export.shown: the workbook's tables as a person reads them, in the language spoken.

In English a sheet is its table as it is: the sheet named as :mod:`pipeline.reports.export` names it
(``Standings``, ``Games`` ...), the header row the contract's column names (docs/columns.md), the values
as the output folder holds them. In another language (:mod:`pipeline.core.i18n`) the sheet's name and
its header row are words of that language (:func:`sheet_titles`, :func:`headers`), the values that are
words are too (a speed, a colour, a scope, an award's kind, a side's role, ``counted`` and every other
yes or no, each reason and note code as its phrase: :func:`pipeline.core.reasons.phrase`, and what the
rule sets write in words: :mod:`pipeline.reports.rule_words`), and a last
sheet, the header map (:data:`MAP_TITLE`), gives for every header shown the contract's column it shows:
one row per sheet and header, columns :data:`MAP_COLUMNS` (the sheet's name as shown, the header as
shown, the column's name, and the sheet's English name), its own header row among them. A formula or a
script finds its column there whatever the language. The numbers, dates, names, periods and codes that
are data stay as they are; only how a date is shown changes (:mod:`pipeline.reports.export.cells`).

A sheet's name obeys Excel's rules (:func:`sheet_name`): at most 31 characters, none of ``[ ] : * ? / \\``,
no apostrophe at either end, each name once in a workbook whatever its case.

Knows nothing of the output folder or of how a table becomes cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pipeline.core import i18n
from pipeline.core.i18n import pgettext
from pipeline.core.reasons import phrase
from pipeline.reports import rule_words

#: The header map sheet's English name (its name in the workbook is :func:`sheet_titles`'s).
MAP_TITLE = "Columns"
#: The header map's columns: the sheet's name as shown, the header as shown, the contract's column, the
#: sheet's English name.
MAP_COLUMNS = ("sheet", "header", "column", "table")
#: The most characters Excel allows in a sheet's name, and the characters it forbids there.
MAX_SHEET_NAME = 31
_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
#: Columns whose values are reason or note codes joined by ", " (:func:`pipeline.reports.export.games_table`).
_CODE_LISTS = ("reasons", "notes")


@dataclass(frozen=True)
class Sheet:
    """One sheet as written: its ``title``, its ``frame`` (the contract's column names, values as
    shown), the ``header`` row shown (one per column of ``frame``), and its English ``name``."""

    name: str
    title: str
    frame: pd.DataFrame
    header: tuple[str, ...]


def sheet_titles() -> dict[str, str]:
    """Each sheet's English name -> its name in the language spoken (before :func:`sheet_name`)."""
    return {
        "Standings": pgettext("sheet", "Standings"),
        "Leaderboards": pgettext("sheet", "Leaderboards"),
        "Games": pgettext("sheet", "Games"),
        "Changes": pgettext("sheet", "Changes"),
        "Awards": pgettext("sheet", "Awards"),
        "Promotions": pgettext("sheet", "Promotions"),
        "Fees": pgettext("sheet", "Fees"),
        "Certification": pgettext("sheet", "Certification"),
        MAP_TITLE: pgettext("sheet", "Columns"),
    }


def headers() -> dict[str, str]:
    """Each column the workbook may show (docs/columns.md: every sheet's, every rule set's own) -> its
    header in the language spoken; a column not named here is shown by its name."""
    return {
        # standings and leaderboards
        "period": pgettext("column", "period"),
        "rating_place": pgettext("column", "rating_place"),
        "player": pgettext("column", "player"),
        "rank": pgettext("column", "rank"),
        "rating": pgettext("column", "rating"),
        "deviation": pgettext("column", "deviation"),
        "delta": pgettext("column", "delta"),
        "games": pgettext("column", "games"),
        "wins": pgettext("column", "wins"),
        "losses": pgettext("column", "losses"),
        "draws": pgettext("column", "draws"),
        "bonus": pgettext("column", "bonus"),
        "games_total": pgettext("column", "games_total"),
        "member": pgettext("column", "member"),
        "provisional": pgettext("column", "provisional"),
        "last_counted": pgettext("column", "last_counted"),
        "scope": pgettext("column", "scope"),
        "win_rate": pgettext("column", "win_rate"),
        "longest_streak": pgettext("column", "longest_streak"),
        "games_place": pgettext("column", "games_place"),
        "wins_place": pgettext("column", "wins_place"),
        "win_rate_place": pgettext("column", "win_rate_place"),
        "streak_place": pgettext("column", "streak_place"),
        # games
        "date": pgettext("column", "date"),
        "black": pgettext("column", "black"),
        "white": pgettext("column", "white"),
        "result": pgettext("column", "result"),
        "black_points": pgettext("column", "black_points"),
        "white_points": pgettext("column", "white_points"),
        "speed": pgettext("column", "speed"),
        "event": pgettext("column", "event"),
        "stage": pgettext("column", "stage"),
        "counted": pgettext("column", "counted"),
        "reasons": pgettext("column", "reasons"),
        "notes": pgettext("column", "notes"),
        "source_path": pgettext("column", "source_path"),
        "game_index": pgettext("column", "game_index"),
        "parse_error": pgettext("column", "parse_error"),
        "game_id": pgettext("column", "game_id"),
        # changes, every rule set
        "seq": pgettext("column", "seq"),
        "opponent": pgettext("column", "opponent"),
        "color": pgettext("column", "color"),
        "score": pgettext("column", "score"),
        "rating_before": pgettext("column", "rating_before"),
        "points": pgettext("column", "points"),
        "bonus_rule": pgettext("column", "bonus_rule"),
        # changes: the GoR rule sets (cga, egf, egf2021, hkga)
        "se": pgettext("column", "se"),
        "a": pgettext("column", "a"),
        "con": pgettext("column", "con"),
        "event_class": pgettext("column", "event_class"),
        "class_weight": pgettext("column", "class_weight"),
        "stage_weight": pgettext("column", "stage_weight"),
        "adjusted_rating": pgettext("column", "adjusted_rating"),
        "opponent_adjusted_rating": pgettext("column", "opponent_adjusted_rating"),
        "opponent_rating": pgettext("column", "opponent_rating"),
        "note": pgettext("column", "note"),
        # changes: glicko2
        "e": pgettext("column", "e"),
        "g": pgettext("column", "g"),
        "opponent_deviation": pgettext("column", "opponent_deviation"),
        "handicap_adjustment": pgettext("column", "handicap_adjustment"),
        "volatility": pgettext("column", "volatility"),
        # changes: cga-dan
        "dan": pgettext("column", "dan"),
        "opponent_dan": pgettext("column", "opponent_dan"),
        "dan_difference": pgettext("column", "dan_difference"),
        "role": pgettext("column", "role"),
        "games_since_promotion": pgettext("column", "games_since_promotion"),
        "average_since_promotion": pgettext("column", "average_since_promotion"),
        # changes: club
        "coefficient": pgettext("column", "coefficient"),
        "opponent_rank": pgettext("column", "opponent_rank"),
        "opponent_coefficient": pgettext("column", "opponent_coefficient"),
        "game_points": pgettext("column", "game_points"),
        # changes: tga
        "delta_dan": pgettext("column", "delta_dan"),
        "estimated_opponent": pgettext("column", "estimated_opponent"),
        "article8": pgettext("column", "article8"),
        # awards, promotions, fees, certification
        "kind": pgettext("column", "kind"),
        "rule": pgettext("column", "rule"),
        "from_rank": pgettext("column", "from_rank"),
        "to_rank": pgettext("column", "to_rank"),
        "value": pgettext("column", "value"),
        "threshold": pgettext("column", "threshold"),
        "evidence": pgettext("column", "evidence"),
        "year": pgettext("column", "year"),
        "rated_games": pgettext("column", "rated_games"),
        "fee": pgettext("column", "fee"),
        "basis": pgettext("column", "basis"),
        "valid_wins": pgettext("column", "valid_wins"),
        "eligible": pgettext("column", "eligible"),
        "first_eligible_date": pgettext("column", "first_eligible_date"),
        # the header map
        "sheet": pgettext("column", "sheet"),
        "header": pgettext("column", "header"),
        "column": pgettext("column", "column"),
        "table": pgettext("column", "table"),
    }


def sheet_headers() -> dict[tuple[str, str], str]:
    """Headers of a column that means something else on one sheet: (English sheet name, column) -> its
    header there, in the language spoken (before :func:`headers`)."""
    return {
        ("Standings", "delta"): pgettext("column", "the period's delta"),
        ("Standings", "bonus"): pgettext("column", "the period's bonus"),
        ("Awards", "points"): pgettext("column", "award points"),
    }


def value_words() -> dict[str, dict[Any, str]]:
    """The columns whose values are words (or yes and no) -> each value's words in the language spoken."""
    yes_no = {True: pgettext("boolean", "yes"), False: pgettext("boolean", "no")}
    speeds = {
        "slow": pgettext("speed", "slow"),
        "fast": pgettext("speed", "fast"),
        "unknown": pgettext("speed", "unknown"),
    }
    return {
        "speed": speeds,
        "color": {"B": pgettext("color", "B"), "W": pgettext("color", "W")},
        "scope": {"period": pgettext("scope", "period"), "year": pgettext("scope", "year")},
        "kind": {
            "champion": pgettext("award", "champion"),
            "runner_up": pgettext("award", "runner_up"),
            "manual": pgettext("award", "manual"),
        },
        "role": {
            "stronger": pgettext("role", "stronger"),
            "weaker": pgettext("role", "weaker"),
            "equal": pgettext("role", "equal"),
        },
        "counted": {True: pgettext("counted", "counted"), False: pgettext("counted", "not counted")},
        **{c: yes_no for c in ("member", "provisional", "eligible", "estimated_opponent", "article8")},
    }


def shown_sheets(tables: Mapping[str, pd.DataFrame]) -> list[Sheet]:
    """The workbook's sheets in the language spoken, from its tables by English sheet name (in order,
    columns named as the contract names them): as they are in English; in another language translated,
    with the header map last."""
    if i18n.current() == i18n.ENGLISH:
        return [Sheet(name, name, frame, tuple(map(str, frame.columns))) for name, frame in tables.items()]
    titles = sheet_titles()
    taken: list[str] = []
    sheets = []
    for name, frame in tables.items():
        title = sheet_name(titles.get(name, name), taken)
        taken.append(title)
        sheets.append(Sheet(name, title, shown_values(frame), header_row(name, frame.columns)))
    title = sheet_name(titles[MAP_TITLE], taken)
    map_header = header_row(MAP_TITLE, MAP_COLUMNS)
    rows = [
        (s.title, shown, str(c), s.name)
        for s in sheets
        for shown, c in zip(s.header, s.frame.columns, strict=True)
    ]
    rows += [(title, shown, c, MAP_TITLE) for shown, c in zip(map_header, MAP_COLUMNS, strict=True)]
    sheets.append(Sheet(MAP_TITLE, title, pd.DataFrame(rows, columns=list(MAP_COLUMNS)), map_header))
    return sheets


def header_row(name: str, columns: Iterable[Any]) -> tuple[str, ...]:
    """The header row of sheet ``name`` (English) for ``columns``, in the language spoken, each header
    once: a header shown for two columns gets its column's name after it."""
    words, special = headers(), sheet_headers()
    names = [str(c) for c in columns]
    shown = [special.get((name, c)) or words.get(c, c) for c in names]
    twice = {h for h in shown if shown.count(h) > 1}
    return tuple(f"{h} ({c})" if h in twice else h for h, c in zip(shown, names, strict=True))


def shown_values(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its values that are words in the language spoken (:func:`value_words`; reason and
    note codes as phrases, joined by the language's list separator; what the rule sets write in words,
    a promotion's rule and evidence, a bonus's rule, a change's or an award's note, a fee's basis, as
    :func:`pipeline.reports.rule_words.column_words` says it); a copy."""
    words = value_words()
    separator = pgettext("list separator", ", ")
    shown = frame.copy()
    for column in shown.columns:
        name = str(column)
        written = rule_words.column_words(frame, name)
        if name in _CODE_LISTS:
            shown[column] = [_phrases(v, separator) for v in shown[column]]
        elif written is not None:
            shown[column] = written
        elif name in words:
            shown[column] = [_word(v, words[name].get) for v in shown[column]]
    return shown


def sheet_name(text: str, taken: Iterable[str] = ()) -> str:
    """``text`` as an Excel sheet name: the forbidden characters (``[ ] : * ? / \\``) as ``_``, no
    apostrophe at either end, at most :data:`MAX_SHEET_NAME` characters, ``Sheet`` if nothing is left,
    and a number after it, `` (2)``, when ``taken`` already holds it in any case."""
    name = _FORBIDDEN.sub("_", text).strip().strip("'").strip()[:MAX_SHEET_NAME] or "Sheet"
    used = {t.casefold() for t in taken}
    candidate, number = name, 1
    while candidate.casefold() in used:
        number += 1
        suffix = f" ({number})"
        candidate = name[: MAX_SHEET_NAME - len(suffix)] + suffix
    return candidate


def _phrases(value: Any, separator: str) -> Any:
    """Codes joined by ", " as their phrases joined by ``separator``; anything else as it is."""
    if not isinstance(value, str) or not value:
        return value
    return separator.join(phrase(code) for code in value.split(", "))


def _word(value: Any, lookup: Callable[[Any], str | None]) -> Any:
    """``value``'s words (``lookup``), or ``value`` itself when it has none (a missing value, a code
    not listed)."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return value
    key = bool(value) if isinstance(value, bool | np.bool_) else value
    try:
        found = lookup(key)
    except TypeError:  # an unhashable value
        return value
    return value if found is None else found
