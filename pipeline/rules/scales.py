"""scales: the scale on which each rule set reads a roster's starting ratings, and the choice of each one.

Starting ratings (decision): a rating belongs to a scale, and the scales of the rule sets overlap (club
points 100 are 1d, GoR 100 is 20k), so one number cannot serve every rule set; :data:`SCALES` says which
scale each rule set reads. The documented way is a table by family or rule set,
``rating = { club = 100, gor = 2100, cga = 2300 }`` (``hkga = ...`` wins over ``gor`` under hkga): each
rule set takes its own value and, without one, starts the player from the declared rank; a value outside
the scale's plausible range is still used, with a warning. A plain number, the older form, is kept for
rosters written for one rule set, but a rule set reads it only when it lies in its range and, when the
roster declares a rank, within the scale's tolerance (500) of that rank's starting rating; otherwise the
rule set starts the player from the rank, with a warning. So the club roster's ``rating = 100`` for a 1d
stays 100 club points and is not read as GoR 20k, and a GoR 2100 is not read as club points; a number
that fits two scales and the rank on both (GoR 2300 for a 2d under cga) is read by both, as before.

Knows nothing of games or of how a rule set rates: only the ranges and rank starts of each scale (which
each rule set's record gives: :class:`~pipeline.rules.family.Scale`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from types import MappingProxyType

from pipeline.config.roster import Player, Roster
from pipeline.core.i18n import N_, Said
from pipeline.core.ranks import parse_rank
from pipeline.rules import REGISTRY
from pipeline.rules.family import Scale

__all__ = ["RATING_KEYS", "SCALES", "Scale", "starting_ratings"]

#: The scale on which each rule set reads the roster's starting ratings (its record's: each rule set's module
#: gives its range and rank starts); cga-dan and tga read none (their rating is the rank).
SCALES: Mapping[str, Scale] = MappingProxyType(
    {name: record.scale for name, record in REGISTRY.items() if record.scale is not None}
)
#: The keys a roster's ``rating`` table may hold: the families, then the rule sets' names.
RATING_KEYS = tuple(dict.fromkeys([*(s.family for s in SCALES.values()), *SCALES]))
_NAMED = 5  # players a warning names before it counts the rest


def starting_ratings(roster: Roster, scale: Scale | None) -> tuple[Roster, list[str]]:
    """``roster`` with each player's plain ``rating`` set to the one a rule set reading ``scale`` starts them
    at (None: from the rank), as the module docstring decides, and the warnings: one per kind of misfit,
    naming the roster file and the first players. ``scale`` None (a rule set that reads no rating):
    ``roster`` as it is, no warning."""
    if scale is None:
        return roster, []
    chosen: dict[str, float | None] = {}
    misfits: dict[str, list[str]] = defaultdict(list)
    for player in roster.players:
        value, plain = player.rating_under(scale.keys)
        if value is not None:
            kind, shown = _misfit(scale, player, value, plain)
            chosen[player.name] = None if kind and plain else value
            if kind:
                misfits[kind].append(shown)
    where = f"{roster.source}: " if roster.source else ""
    return roster.with_ratings(chosen), [_warning(scale, k, found, where) for k, found in misfits.items()]


def _misfit(scale: Scale, player: Player, value: float, plain: bool) -> tuple[str | None, str]:
    """(``outside``, ``plain outside`` or ``plain rank`` when ``value`` does not fit ``scale``, else None;
    the player as the warning shows them)."""
    shown = f"{player.name} {value:g}"
    if not scale.fits(value):
        return ("plain outside" if plain else "outside"), shown
    declared = parse_rank(player.rank) if player.rank else None
    if plain and declared is not None and abs(value - scale.start(declared)) > scale.tolerance:
        start = f"{scale.start(declared):g}"
        return "plain rank", Said(
            N_("{player} ({rank} starts at {start})"), player=shown, rank=str(declared), start=start
        )
    return None, shown


def _warning(scale: Scale, kind: str, found: list[str], where: str) -> Said:
    """One warning for the players ``found`` with the misfit ``kind``, ``where`` (the roster file) first."""
    n = len(found)
    more = n - _NAMED
    listed: list[str] | Said = found[:_NAMED]
    fields = {"where": where, "n": n, "scale": scale.label(), "name": scale.name, "family": scale.family}
    if more > 0:
        listed = Said(N_("{listed}, and {more} more"), listed=found[:_NAMED], more=more)
    if kind == "outside":
        return Said(
            N_("{where}{n} rating outside {scale}, used as given: {listed}"),
            N_("{where}{n} ratings outside {scale}, used as given: {listed}"),
            listed=listed,
            **fields,
        )
    if kind == "plain outside":
        return Said(
            N_(
                "{where}{n} plain rating outside {scale}, not used (the rank is): {listed}; give one on "
                "this scale as rating = {{ {family} = ... }}"
            ),
            N_(
                "{where}{n} plain ratings outside {scale}, not used (the rank is): {listed}; give one on "
                "this scale as rating = {{ {family} = ... }}"
            ),
            listed=listed,
            **fields,
        )
    return Said(
        N_(
            "{where}{n} plain rating too far from the declared rank to be on {name}'s scale, not used (the "
            "rank is): {listed}; give one on this scale as rating = {{ {family} = ... }}"
        ),
        N_(
            "{where}{n} plain ratings too far from the declared rank to be on {name}'s scale, not used (the "
            "rank is): {listed}; give one on this scale as rating = {{ {family} = ... }}"
        ),
        listed=listed,
        **fields,
    )
