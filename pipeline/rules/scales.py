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

Knows nothing of games or of how a rule set rates: only the ranges and rank starts of each scale.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from pipeline.config.roster import Player, Roster
from pipeline.core.ranks import Rank, parse_rank
from pipeline.rules import club, gor


@dataclass(frozen=True, slots=True)
class Scale:
    """The scale on which a rule set reads a roster's starting ratings: ``name`` (the rule set's), ``family``
    (the roster key the rule sets sharing the scale use: ``club``, ``gor``, ``cga``), the plausible range
    ``low``..``high``, ``start`` (the rating a rank starts at; None: no rank known) and ``tolerance``: the
    farthest a plain number may lie from the declared rank's start and still be taken as this scale's
    (see :mod:`pipeline.rules.scales`)."""

    name: str
    family: str
    low: float
    high: float
    start: Callable[[Rank | None], float]
    tolerance: float = 500.0

    @property
    def keys(self) -> tuple[str, ...]:
        """The roster keys that give a rating on this scale, the most specific first."""
        return tuple(dict.fromkeys((self.name, self.family)))

    def fits(self, value: float) -> bool:
        """True if ``value`` lies in the plausible range."""
        return self.low <= value <= self.high

    def label(self) -> str:
        """``hkga's scale (100 to 3000)``, as messages name it."""
        return f"{self.name}'s scale ({self.low:g} to {self.high:g})"


def _club_start(rank: Rank | None) -> float:
    """The club's base score of a rank (docs/rules.md ("club"), internal ranks)."""
    return next(base for label, base, _ in club.TABLE if label == club.club_rank(rank))


#: The scale on which each rule set reads the roster's starting ratings; cga-dan and tga read none (their
#: rating is the rank). Ranges: club points start at 0 to 1000 (docs/rules.md ("club")), may go negative and
#: have no top: -1000 to 5000; GoR (docs/rules.md ("hkga")): floor 100, 9p 2940; EGD 2021: floor -900, its
#: formulas end at 3300; cga (docs/rules.md ("cga")): 1d 2240 to 9d 2560, references 2600.
SCALES: Mapping[str, Scale] = MappingProxyType(
    {
        "club": Scale("club", "club", -1000.0, 5000.0, _club_start),
        "hkga": Scale("hkga", "gor", 100.0, 3000.0, gor.rating_for_rank),
        "egf": Scale("egf", "gor", 100.0, 3000.0, gor.rating_for_rank),
        "egf2021": Scale("egf2021", "gor", -900.0, 3300.0, gor.rating_for_rank),
        "cga": Scale("cga", "cga", 1000.0, 3500.0, gor.Elo().initial),
    }
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
    return roster.with_ratings(chosen), [where + _warning(scale, k, found) for k, found in misfits.items()]


def _misfit(scale: Scale, player: Player, value: float, plain: bool) -> tuple[str | None, str]:
    """(``outside``, ``plain outside`` or ``plain rank`` when ``value`` does not fit ``scale``, else None;
    the player as the warning shows them)."""
    shown = f"{player.name} {value:g}"
    if not scale.fits(value):
        return ("plain outside" if plain else "outside"), shown
    declared = parse_rank(player.rank) if player.rank else None
    if plain and declared is not None and abs(value - scale.start(declared)) > scale.tolerance:
        return "plain rank", f"{shown} ({declared} starts at {scale.start(declared):g})"
    return None, shown


def _warning(scale: Scale, kind: str, found: list[str]) -> str:
    """One warning for the players ``found`` with the misfit ``kind``."""
    n = len(found)
    listed = ", ".join(found[:_NAMED]) + (f", and {n - _NAMED} more" if n > _NAMED else "")
    hint = f"; give one on this scale as rating = {{ {scale.family} = ... }}"
    if kind == "outside":
        return f"{n} rating{'s' * (n > 1)} outside {scale.label()}, used as given: {listed}"
    if kind == "plain outside":
        return (
            f"{n} plain rating{'s' * (n > 1)} outside {scale.label()}, not used (the rank is): {listed}{hint}"
        )
    return (
        f"{n} plain rating{'s' * (n > 1)} too far from the declared rank to be on {scale.name}'s scale, "
        f"not used (the rank is): {listed}{hint}"
    )
