"""reports.rule_words: the English the rule sets write into the data, said in the language spoken.

The rule sets write their reasons in English into the output, which is the contract and stays English:
a promotion's ``rule`` and ``evidence`` (``cga-dan``, ``tga``), an award's ``note`` (the title of a
title award, :mod:`pipeline.rules.awards`; the reason ``club``, ``cga-dan`` and ``tga`` add to it), a
change's ``bonus_rule`` (``club``, ``egf2021``) and ``note`` (``club``'s fixed ratings, the GoR rule
sets). Every form they write is a template here: the English exactly as written, with a ``{name}`` for
each value (:func:`string.Formatter.parse` reads it), which is also its message id. A text that fits a
form as a whole is said again through the catalog with the same values; the values that are codes (a
kyu group, an event kind) in words, numbers, ranks, dates, names and the events file's notes as they
are. An award's note that adds the rule set's reason to a note (``note: reason``) is said as the note
(said again when it is a title's) and the reason said again. A text that fits no form (a note of the
events file, a form a rule set gained since) is shown as it is: never lost, never guessed. In English
every text is shown as written, byte for byte.

``tests/test_i18n_promotions.py`` makes the rule sets write every form they can and checks that each
fits one (:func:`form_of`), that each form is written, and that the rule sets hold no English this
module does not know.

Knows nothing of how the rule sets compute, of the output folder, or of the tables that show the texts.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pipeline.core import i18n
from pipeline.core.i18n import N_, _, pgettext

if TYPE_CHECKING:
    import pandas as pd

#: The rule of a promotion by a manual award of the events file (every rule set that promotes).
MANUAL = "manual award"
#: The columns whose texts the rule sets write (:func:`said`); ``basis`` (``hkga``'s fees) too in
#: :func:`column_words`.
COLUMNS = ("rule", "evidence", "note", "bonus_rule")

_RULES = (
    # TRANSLATORS: a promotion's rule (the promotions table's "rule" column). cga-dan: the dan
    # tournaments' promotion standard met, {n} games (责任局数) averaging {threshold} points (平均分);
    # tga: the article of the TGA's rules applied (第八條 計分制度, 第四條 晉段賽, 第九條 低段組冠軍,
    # 第十條 級位評定).
    N_("cga-dan: {threshold} over {n}"),
    N_("manual award"),
    N_("tga article 8 points"),
    N_("tga article 4 promotion tournament"),
    N_("tga article 9 low-dan champion"),
    N_("tga article 10 kyu award"),
)
_EVIDENCE = (
    # TRANSLATORS: why a player was promoted (cga-dan: the last games since their last promotion met the
    # standard of {rank}, {n} games at an average of {threshold}; tga: {event}'s result by the article
    # applied, the formula of Article 8.7 with S the valid games' score and Σwin Δ, Σdraw Δ the summed dan
    # differences of the wins and of the draws). Keep the numbers and the symbols as they are.
    N_(
        "{games} games since the last promotion averaging {average} >= {threshold} (needs {n} at "
        "{threshold} for {rank})"
    ),
    N_(
        "the last {games} of {since} games since the last promotion averaging {average} >= {threshold} "
        "(needs {n} at {threshold} for {rank})"
    ),
    N_(
        "{event}: at {rank}, {games} valid games: S {score} + 0.2 × Σwin Δ {wins_delta} + 0.1 × Σdraw Δ "
        "{draws_delta} = {value} {sign} 0.7 × {games} = {threshold}"
    ),
    N_(
        "{event}: at {rank}, {games} valid games: S {score} + 0.2 × Σwin Δ {wins_delta} + 0.1 × Σdraw Δ "
        "{draws_delta} = {value} {sign} 0.7 × {games} = {threshold} (Article 8.6: {forfeits} forfeit "
        "wins, {byes} byes)"
    ),
    N_(
        "{event}: place {place} of {players} players (score {score}, opponents' scores {opponents}); "
        "{slots} promoted = round({players} / 8)"
    ),
    N_("{event}: champion of {players} players (named by the events file)"),
    N_("{event}: champion of {players} players (score {score}, opponents' scores {opponents})"),
    N_("{event}: score {score} of {rounds} rounds ({rate}), group {group}, row {row}"),
)
_MANUAL_EVIDENCE = (
    # TRANSLATORS: why a player was promoted by a manual award of the events file ({note}: the file's own
    # note, shown as written).
    N_("manual award of {event} on {date}"),
    N_("manual award of {event} on {date}: {note}"),
    N_("{event}: manual award"),
    N_("{event}: {note}"),
)
_NOTES = (
    # TRANSLATORS: a change's bonus rule or note, or an award's note: why the rule set gave what it gave
    # ({kind}: the kind of event; {rank}: a rank code, 3d); a title's note names the title.
    N_("champion"),
    N_("runner-up"),
    N_("team match win"),
    N_("server open win"),
    N_("qualifier win"),
    N_("main-stage win"),
    N_("EGD 2021 bonus"),
    N_("arena win {n} in a row"),
    N_("fixed rating"),
    N_("no-show: not rated for the winner"),
    N_("not a member, not rated"),
    N_("no points for a {kind} title"),
    N_("already {rank}"),
    N_("keeps {rank}"),
)
_COUNT = r"\d+"
_NUMBER = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
#: What each placeholder's value looks like (any other placeholder: any text, as little as fits).
_SLOTS = {
    **dict.fromkeys(
        ("n", "games", "since", "place", "players", "slots", "rounds", "forfeits", "byes"), _COUNT
    ),
    **dict.fromkeys(
        ("threshold", "average", "score", "wins_delta", "draws_delta", "value", "opponents"), _NUMBER
    ),
    **dict.fromkeys(("rate", "row"), r"\d+%"),
    "rank": r"\S+",
    "date": r"\d{4}-\d{2}-\d{2}",
    "sign": r">=|<",
    "group": r"\w+",
    "kind": r"\w+",
}


def said(column: str, text: str, rule: str | None = None) -> str:
    """``text``, a rule set's English in ``column`` (one of :data:`COLUMNS`; for ``evidence`` the
    promotion's ``rule``), in the language spoken; as it is in English, or when it fits no form."""
    if i18n.current() == i18n.ENGLISH:
        return text
    found = _said(i18n.current(), column, text, rule)
    return text if found is None else found[1]


def bonus_words(rule: str | None) -> str:
    """A change's ``bonus_rule`` in the language spoken (:func:`said`); ``bonus`` for a bonus without one."""
    return said("bonus_rule", rule) if rule else _("bonus")


def form_of(column: str, text: str, rule: str | None = None) -> str | None:
    """The form (its English message, one of :func:`forms`) that ``text`` in ``column`` fits, the
    reason's for a note that adds one (``note: reason``); None when it fits none (:func:`said` then
    shows it as it is)."""
    found = _said(i18n.current(), column, text, rule)
    return None if found is None else found[0]


def forms() -> tuple[str, ...]:
    """Every form the rule sets write that this module knows, as English messages."""
    return (*_RULES, *_EVIDENCE, *_MANUAL_EVIDENCE, *_NOTES)


def column_words(frame: pd.DataFrame, column: str) -> list[Any] | None:
    """The values of ``frame[column]`` in the language spoken when the rule sets write them (a column of
    :data:`COLUMNS`, an evidence read with its row's ``rule``; ``hkga``'s fee ``basis`` from the row's
    ``rated_games``), values that are not text as they are; None for any other column."""
    if column == "basis" and "rated_games" in frame:
        from pipeline.rules.hkga_reports import fee_basis_text

        return [fee_basis_text(int(n)) for n in frame["rated_games"]]
    if column not in COLUMNS:
        return None
    if column == "evidence" and "rule" in frame:  # a few rows: one a promotion
        return [
            said(column, value, rule if isinstance(rule, str) else None) if isinstance(value, str) else value
            for value, rule in zip(frame[column], frame["rule"], strict=True)
        ]
    import numpy as np
    import pandas as pd

    values = frame[column]
    codes, distinct = pd.factorize(values)  # each text said once (a changes table repeats a few)
    words = np.array([said(column, v) if isinstance(v, str) else v for v in distinct] + [None], dtype=object)
    return list(np.where(codes >= 0, words[codes], values.to_numpy(dtype=object)))


@dataclass(frozen=True)
class _Form:
    """One form: its ``message`` (the English as written, and its message id) and the ``pattern`` of
    the texts it fits, one named group per placeholder."""

    message: str
    pattern: re.Pattern[str]


@functools.cache
def _forms(column: str, manual: bool) -> tuple[_Form, ...]:
    """The forms of ``column`` (the evidence of a manual award when ``manual``), compiled once."""
    if column == "rule":
        messages: Sequence[str] = _RULES
    elif column == "evidence":
        messages = _MANUAL_EVIDENCE if manual else _EVIDENCE
    else:
        messages = _NOTES
    return tuple(_form(m) for m in messages)


def _form(message: str) -> _Form:
    """The :class:`_Form` of ``message``: its text escaped, each placeholder a group of its kind
    (:data:`_SLOTS`), a placeholder seen before the same value again."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, name, _spec, _conversion in string.Formatter().parse(message):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>{_SLOTS.get(name, '.+?')})")
            seen.add(name)
    return _Form(message, re.compile("".join(parts), re.DOTALL))


@functools.lru_cache(maxsize=4096)
def _said(language: str, column: str, text: str, rule: str | None) -> tuple[str, str] | None:
    """(the form's message, ``text`` said in ``language``) for ``text`` of ``column``, None when it
    fits no form; a note also as ``note: reason`` with a reason that fits (the reason's form), the note
    said again when it fits one too (a title's). ``language``, the language spoken, is only the memo's
    key."""
    manual = column == "evidence" and rule == MANUAL
    found = _fitted(text, _forms(column, manual))
    if found is None and column == "note" and ": " in text:
        note, why = text.rsplit(": ", 1)
        reason, title = _fitted(why, _forms(column, False)), _fitted(note, _forms(column, False))
        if reason is not None:
            note = note if title is None else title[1]
            found = reason[0], _("{note}: {why}").format(note=note, why=reason[1])
    return found


def _fitted(text: str, forms: Sequence[_Form]) -> tuple[str, str] | None:
    """(message, ``text`` said again) by the first of ``forms`` it fits as a whole, else None."""
    for form in forms:
        match = form.pattern.fullmatch(text)
        if match:
            words = _value_words()
            values = {k: words.get(k, {}).get(v, v) for k, v in match.groupdict().items()}
            return form.message, _(form.message).format(**values)
    return None


def _value_words() -> dict[str, dict[str, str]]:
    """The placeholders whose values are codes -> each code's words in the language spoken: ``tga``'s
    kyu groups (Article 10; :data:`pipeline.config.events.GROUPS`), the kinds of event
    (:data:`pipeline.config.events.KINDS`), and Article 8.7's comparison as explain's equations write it."""
    return {
        "sign": {">=": "≥"},
        "group": {
            "promotion": pgettext("kyu group", "promotion"),
            "japanese": pgettext("kyu group", "japanese"),
            "standard_a": pgettext("kyu group", "standard_a"),
            "standard_b": pgettext("kyu group", "standard_b"),
        },
        "kind": {
            "team_match": pgettext("event kind", "team_match"),
            "arena": pgettext("event kind", "arena"),
            "server_qualifiers": pgettext("event kind", "server_qualifiers"),
            "server_open": pgettext("event kind", "server_open"),
            "other": pgettext("event kind", "other"),
            "promotion": pgettext("event kind", "promotion"),
            "low_dan": pgettext("event kind", "low_dan"),
            "recognised": pgettext("event kind", "recognised"),
            "kyu": pgettext("event kind", "kyu"),
        },
    }
