"""reasons: why a game is not counted (the reason codes) and which games count (:class:`Validity`).

The codes are the contract's (docs/rules.md, "Reason codes"; the ``reasons`` column of ``games.parquet``):
a configuration may turn the optional ones from "exclude" to "count", the others always exclude. Knows
nothing of how the audit finds a reason, nor of what a rule set does with a counted game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.core.i18n import N_, gettext
from pipeline.core.names import PLACEHOLDER_NAMES

#: Reason codes a configuration may turn from "exclude" to "count"; the others always exclude.
OPTIONAL_REASONS = ("draw", "no_show", "handicap", "non_member")
#: Every reason code (docs/rules.md ("Reason codes")), in the order ``reasons`` lists them.
REASONS = (
    "parse_error",
    "wrong_game_type",
    "missing_date",
    "no_result",
    "draw",
    "no_show",
    "handicap",
    "unknown_player",
    "non_member",
    "self_play",
    "duplicate",
    "opponent_cap",
)
#: Reasons that mean a row is no game a rule set could have rated at all (unreadable, another game,
#: undated, a second copy), as opposed to a game played but not counted (a draw, a no-show, ...).
NOT_A_GAME = frozenset({"parse_error", "wrong_game_type", "missing_date", "duplicate"})
#: Each reason code, and each note (a game counted with something to say), as a phrase a person reads:
#: translated where it is shown (:func:`phrase`); the codes themselves stay in the data.
PHRASES = {
    "parse_error": N_("the record could not be read"),
    "wrong_game_type": N_("not a game this rule set rates"),
    "missing_date": N_("the record has no date"),
    "no_result": N_("the record has no result"),
    "draw": N_("a draw"),
    "no_show": N_("a game not played (no-show or forfeit)"),
    "handicap": N_("a handicap game"),
    "unknown_player": N_("a player's name names nobody (a placeholder, or not decoded)"),
    "non_member": N_("a player is not on the roster"),
    "self_play": N_("a player played themselves"),
    "duplicate": N_("a second copy of a game already read"),
    "opponent_cap": N_("over the period's cap of games against the same opponent"),
    "speed_unknown": N_("the time control is unknown"),
    "missing_player": N_("a player's name is missing"),
}


def phrase(code: str) -> str:
    """``code`` (a reason or a note) as a phrase in the language spoken; an unknown code as it is."""
    return gettext(PHRASES[code]) if code in PHRASES else code


@dataclass(frozen=True, slots=True)
class Validity:
    """Which games count: the period kind, the optional reasons that exclude, and the audit's thresholds;
    ``placeholder_names`` the names that name nobody (:data:`~pipeline.core.names.PLACEHOLDER_NAMES`)."""

    period: str = "month"
    excluded: frozenset[str] = frozenset(OPTIONAL_REASONS)
    opponent_cap: int = 10
    game_types: tuple[int, ...] = (1,)
    min_moves: int = 2
    handicap_from: int = 2
    unknown_speed: str = "fast"
    placeholder_names: tuple[str, ...] = PLACEHOLDER_NAMES

    def excludes(self, code: str) -> bool:
        """True if a game with reason ``code`` is not counted."""
        return code not in OPTIONAL_REASONS or code in self.excluded

    def overridden(self, values: Mapping[str, Any], period: str | None = None) -> Validity:
        """A copy with the configuration's ``[validity]`` ``values`` (and ``period``) applied.

        ``values`` holds already-checked keys (see :mod:`pipeline.config`): the optional reason
        codes map to ``"exclude"`` or ``"count"``, the others replace the field of that name.
        """
        excluded = {
            c
            for c in OPTIONAL_REASONS
            if values.get(c, "exclude" if c in self.excluded else "count") == "exclude"
        }
        fields = {k: v for k, v in values.items() if k not in OPTIONAL_REASONS}
        for key in ("game_types", "placeholder_names"):
            if key in fields:
                fields[key] = tuple(fields[key])
        return dataclasses.replace(self, excluded=frozenset(excluded), period=period or self.period, **fields)
