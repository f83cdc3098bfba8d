"""site.rules: the rules of the run in words, for the club's members, from its manifest.

The rule set in a sentence, then what the settings mean (the period, which games count, the speed
threshold, the per-opponent cap, provisional players, the roster and events files) and the run's counts
(games read, counted, and why the others were not), each said as a sentence, never as a key, a digest
or a path. The reason codes keep their code beside their words, as the ledger shows the codes. Knows
nothing of how the rule sets compute: the sentences (each rule set's record's ``about``) describe them as
``docs/rules.md`` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.core.reasons import REASONS
from pipeline.reports.explain import REASON_WORDS
from pipeline.reports.explain.terms import number
from pipeline.rules import REGISTRY

#: Each registered rule set in a sentence (README.md, "Rule sets"), from its record.
RULE_SETS = {name: record.about for name, record in REGISTRY.items()}
_PERIODS = {
    "month": "a calendar month",
    "quarter": "a quarter of a year",
    "half": "half a year",
    "year": "a calendar year",
}
_EXCLUDED = {
    "draw": "draws",
    "no_show": "no-shows",
    "handicap": "handicap games",
    "non_member": "games against a player who is not a member",
}
_GAME_TYPES = {1: "Go", 4: "Gomoku"}


def rules_context(rule_set: str, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The rules page's context: ``about`` (the rule set), ``settings`` and ``run`` (sentences) and
    ``reasons`` (code, words) of every reason code."""
    settings = manifest.get("settings")
    settings = settings if isinstance(settings, dict) else {}
    cap = _validity(settings).get("opponent_cap")
    return {
        "about": RULE_SETS.get(rule_set, "a rule set of sgf-ratings"),
        "settings": settings_said(settings),
        "reasons": [
            (c, REASON_WORDS[c].format(cap=cap if cap is not None else "N"))
            for c in REASONS
            if c in REASON_WORDS
        ],
        "run": run_said(manifest),
    }


def settings_said(settings: Mapping[str, Any]) -> list[str]:
    """The run's settings, one sentence each."""
    validity = _validity(settings)
    said = []
    period = validity.get("period")
    if period:
        said.append(
            f"A rating period is {_PERIODS.get(str(period), str(period))}; ratings are computed at its end."
        )
    types = [_GAME_TYPES.get(t, f"game type {t}") for t in validity.get("game_types") or []]
    if types:
        said.append(f"Only games of {' and '.join(types)} are rated.")
    excluded = [_EXCLUDED.get(str(c), str(c).replace("_", " ")) for c in validity.get("excluded") or []]
    if excluded:
        said.append(f"These games do not count: {_listed(excluded)}.")
    if validity.get("handicap_from") is not None:
        said.append(f"A game with {validity['handicap_from']} or more handicap stones is a handicap game.")
    if validity.get("min_moves") is not None:
        said.append(f"A game of fewer than {validity['min_moves']} moves is a no-show.")
    if validity.get("opponent_cap"):
        said.append(
            f"At most {validity['opponent_cap']} games against the same opponent count in one period."
        )
    said += _speed(settings, validity)
    said += _files(settings)
    rules = settings.get("rules")
    if isinstance(rules, dict) and rules:
        said.append(
            "The rule set's own settings: "
            + "; ".join(f"{_words(k)} {_value(v)}" for k, v in rules.items())
            + "."
        )
    return said


def _speed(settings: Mapping[str, Any], validity: Mapping[str, Any]) -> list[str]:
    said = []
    threshold = settings.get("speed_threshold_s")
    if isinstance(threshold, int | float):
        said.append(
            f"A game is slow when each player has at least {number(threshold / 60, 1)} minutes of main time, "
            "else fast."
        )
    if validity.get("unknown_speed") in ("slow", "fast"):
        said.append(f"A game whose time setting is not known is rated as a {validity['unknown_speed']} game.")
    provisional = settings.get("provisional_games")
    if isinstance(provisional, int) and provisional > 0:
        said.append(f"A player with fewer than {provisional} counted games is marked provisional.")
    return said


def _files(settings: Mapping[str, Any]) -> list[str]:
    if settings.get("roster"):
        said = [
            "The club's roster names the members, their declared ranks and the other names they play under."
        ]
    else:
        said = [
            "There is no roster: every player is a member, and starts from the rank of their first record."
        ]
    if settings.get("events"):
        said.append(
            "The club's list of events says which games belong to which event, and the titles it awards."
        )
    return said


def run_said(manifest: Mapping[str, Any]) -> list[str]:
    """The run's counts in sentences: records read, games counted and not, and why not."""
    counts = manifest.get("counts")
    counts = counts if isinstance(counts, dict) else {}
    said = []
    if "records" in counts:
        said.append(f"{counts['records']:,} game records were read from {counts.get('files', 0):,} files.")
    if "counted" in counts:
        said.append(f"{counts['counted']:,} games counted and {counts.get('excluded', 0):,} did not.")
    reasons = counts.get("reasons")
    if isinstance(reasons, dict) and reasons:
        why = [
            f"{n:,} {str(REASON_WORDS.get(c, c)).split(':')[0].format(cap='N')} ({c})"
            for c, n in reasons.items()
        ]
        said.append("Why not (a game may have several reasons): " + "; ".join(why) + ".")
    periods = manifest.get("periods")
    if isinstance(periods, list) and periods:
        said.append(f"The ratings cover {len(periods):,} periods, {periods[0]} to {periods[-1]}.")
    return said


def _validity(settings: Mapping[str, Any]) -> dict[str, Any]:
    found = settings.get("validity")
    return found if isinstance(found, dict) else {}


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _words(key: str) -> str:
    return str(key).replace("_", " ")


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, float):
        return number(value, 4)
    return str(value)
