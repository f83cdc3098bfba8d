"""site.rules: the rules of the run in words, for the club's members, from its manifest.

The rule set in a sentence, then what the settings mean (the period, which games count, the speed
threshold, the per-opponent cap, provisional players, the roster and events files) and the run's counts
(games read, counted, and why the others were not), each said as a sentence, never as a key, a digest
or a path, in the language built. The reason codes keep their code beside their phrase
(:func:`pipeline.core.reasons.phrase`), as the ledger keeps them in a title. Knows
nothing of how the rule sets compute: the sentences (each rule set's record's ``about``) describe them as
``docs/rules.md`` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from pipeline.core import i18n
from pipeline.core.i18n import N_, gettext, ngettext, pgettext
from pipeline.core.provisional import Provisional
from pipeline.core.reasons import REASONS, phrase
from pipeline.reports.explain.terms import number
from pipeline.rules import REGISTRY
from pipeline.site import speech

#: Each registered rule set in a sentence (README.md, "Rule sets"), from its record.
RULE_SETS = {name: record.about for name, record in REGISTRY.items()}
_PERIODS = {
    "month": N_("a calendar month"),
    "quarter": N_("a quarter of a year"),
    "half": N_("half a year"),
    "year": N_("a calendar year"),
}
_EXCLUDED = {
    "draw": N_("drawn games"),
    "no_show": N_("no-shows"),
    "handicap": N_("handicap games"),
    "non_member": N_("games against a player who is not a member"),
}
_GAME_TYPES = {1: N_("Go"), 4: N_("Gomoku")}


def rules_context(rule_set: str, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The rules page's context: ``about`` (the rule set), ``settings`` and ``run`` (sentences) and
    ``reasons`` (code, phrase) of every reason code."""
    settings = manifest.get("settings")
    settings = settings if isinstance(settings, dict) else {}
    about = RULE_SETS.get(rule_set)
    return {
        "about": gettext(about) if about else gettext("a rule set of sgf-ratings"),
        # the rule set's own sentence (pipeline.rules' record): marked as the rule set's words
        "about_html": Markup('<span data-words="rule-set">{}</span>').format(
            gettext(about) if about else gettext("a rule set of sgf-ratings")
        ),
        "settings": settings_said(settings),
        "reasons": [(c, phrase(c)) for c in REASONS],
        "run": run_said(manifest),
    }


def settings_said(settings: Mapping[str, Any]) -> list[str]:
    """The run's settings, one sentence each."""
    validity = _validity(settings)
    said = []
    period = validity.get("period")
    if period:
        kind = _PERIODS.get(str(period))
        said.append(
            gettext("A rating period is {period}; ratings are computed at its end.").format(
                period=gettext(kind) if kind else str(period)
            )
        )
    types = [
        gettext(_GAME_TYPES[t]) if t in _GAME_TYPES else gettext("game type {number}").format(number=t)
        for t in validity.get("game_types") or []
    ]
    if types:
        said.append(gettext("Only games of {types} are rated.").format(types=speech.listed(types)))
    excluded = [
        gettext(_EXCLUDED[str(c)]) if str(c) in _EXCLUDED else str(c) for c in validity.get("excluded") or []
    ]
    if excluded:
        said.append(gettext("These games do not count: {games}.").format(games=speech.listed(excluded)))
    if validity.get("handicap_from") is not None:
        said.append(
            gettext("A game with {stones} or more handicap stones is a handicap game.").format(
                stones=validity["handicap_from"]
            )
        )
    if validity.get("min_moves") is not None:
        said.append(
            gettext("A game of fewer than {moves} moves is a no-show.").format(moves=validity["min_moves"])
        )
    if validity.get("opponent_cap"):
        said.append(
            gettext("At most {cap} games against the same opponent count in one period.").format(
                cap=validity["opponent_cap"]
            )
        )
    names = validity.get("placeholder_names")
    if names:
        said.append(
            gettext(
                "A side written as one of these names has no player, and its game does not count (unless "
                "the roster has a player so named): {names}."
            ).format(names=", ".join(map(str, names)))
        )
    said += _speed(settings, validity)
    said += _files(settings)
    rules = settings.get("rules")
    if isinstance(rules, dict) and rules:
        said.append(
            gettext("The rule set's own settings: {settings}.").format(
                settings="; ".join(f"{_words(k)} {_value(v)}" for k, v in rules.items())
            )
        )
    return said


def _speed(settings: Mapping[str, Any], validity: Mapping[str, Any]) -> list[str]:
    said = []
    threshold = settings.get("speed_threshold_s")
    if isinstance(threshold, int | float):
        said.append(
            gettext(
                "A game is slow when each player has at least {minutes} minutes of main time, else fast."
            ).format(minutes=number(threshold / 60, 1))
        )
    unknown = validity.get("unknown_speed")
    if unknown == "slow":
        said.append(gettext("A game whose time setting is not known is rated as a slow game."))
    elif unknown == "fast":
        said.append(gettext("A game whose time setting is not known is rated as a fast game."))
    provisional = Provisional.of(settings)
    if provisional.games:
        said.append(
            gettext("A player with fewer than {games} counted games is marked provisional.").format(
                games=provisional.games
            )
        )
    if provisional.deviation:
        said.append(
            gettext(
                "A player whose rating deviation is above {deviation} is marked provisional: their rating "
                "is still uncertain."
            ).format(deviation=number(provisional.deviation, 2))
        )
    return said


def _files(settings: Mapping[str, Any]) -> list[str]:
    if settings.get("roster"):
        said = [
            gettext(
                "The club's roster names the members,"
                " their declared ranks and the other names they play under."
            )
        ]
    else:
        said = [
            gettext(
                "There is no roster: every player is a member,"
                " and starts from the rank of their first record."
            )
        ]
    if settings.get("events"):
        said.append(
            gettext(
                "The club's list of events says which games belong to which event, and the titles it awards."
            )
        )
    return said


def run_said(manifest: Mapping[str, Any]) -> list[str]:
    """The run's counts in sentences: records read, games counted and not, and why not."""
    counts = manifest.get("counts")
    counts = counts if isinstance(counts, dict) else {}
    said = []
    if "records" in counts:
        said.append(
            ngettext(
                "{records} game record was read from {files} files.",
                "{records} game records were read from {files} files.",
                int(counts["records"]),
            ).format(records=_count(counts["records"]), files=_count(counts.get("files", 0)))
        )
    if "counted" in counts:
        said.append(
            ngettext(
                "{counted} game counted and {excluded} did not.",
                "{counted} games counted and {excluded} did not.",
                int(counts["counted"]),
            ).format(counted=_count(counts["counted"]), excluded=_count(counts.get("excluded", 0)))
        )
    reasons = counts.get("reasons")
    if isinstance(reasons, dict) and reasons:
        why = [
            Markup(ngettext("{n} game: {reason} ({code})", "{n} games: {reason} ({code})", int(n))).format(
                n=_count(n), reason=phrase(c), code=Markup("<code>{}</code>").format(c)
            )
            for c, n in reasons.items()
        ]
        said.append(
            Markup(gettext("Why not (a game may have several reasons): {reasons}.")).format(
                reasons=Markup(pgettext("list separator", "; ")).join(why)
            )
        )
    periods = manifest.get("periods")
    if isinstance(periods, list) and periods:
        said.append(
            ngettext(
                "The ratings cover {count} period, {first} to {last}.",
                "The ratings cover {count} periods, {first} to {last}.",
                len(periods),
            ).format(count=_count(len(periods)), first=periods[0], last=periods[-1])
        )
    return said


def _count(value: Any) -> str:
    """A count with the language's grouping of thousands."""
    from babel.numbers import format_decimal

    return str(format_decimal(int(value), locale=speech.locale()))


def _validity(settings: Mapping[str, Any]) -> dict[str, Any]:
    found = settings.get("validity")
    return found if isinstance(found, dict) else {}


def _words(key: str) -> str:
    """A setting's key: words in English, the key itself (a code) in another language."""
    return str(key).replace("_", " ") if i18n.current() == i18n.ENGLISH else str(key)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, float):
        return number(value, 4)
    return str(value)
