"""rules.gor: the GoR family — ``hkga`` (the HKGA introduction), ``egf`` (EGD before 2021), ``egf2021``
(EGD now).

One implementation, three formulas (docs/rules.md ("hkga"), ("egf"), ("egf2021")). For each game the two
players' ratings are adjusted for the handicap (the receiver gains ``100 × (H − 0.5)``), each side's expected
score ``Se`` comes from the formula, and the change is ``con × (Sa − Se) × class weight × stage weight`` (plus
the EGD 2021 bonus). Games of one configured event are rated from each player's rating at their first game in
it and their changes applied together after its last game, across periods if need be
(:mod:`pipeline.rules.gor_rules`); games in no event one by one. A rating never falls below the formula's
floor. Knows nothing of SGF or files.

Decisions (the sources are silent; docs/rules.md ("hkga"), "Decisions"): a player with no declared or recorded
rank starts as 20k (100); amateur dans above 7d start as 7d; a rating's rank is the grade whose starting
rating is nearest (1d: 2050-2149), continuing below 20k down to 30k (EGD's scale: ratings under 50, e.g.
egf2021's floor of −900, read 21k-30k); ``HA[1]`` (no komi) counts as half a stone (+50), as EGD does,
although the audit calls only ``HA`` >= 2 a handicap game; the winner of a no-show keeps a row (delta 0, a
note) in ``changes`` and so counts a game and a win in the snapshot's tallies; games in no event weigh as
class ``default_class`` (A unless configured); the EGD 2021 bonus is not weighted; when the floor clips a
rating, the period's changes sum to more than the rating moved (the snapshot's ``delta`` is what the rating
did).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity

DEFAULTS = Validity(excluded=frozenset())
#: cga: half-yearly lists; games not actually played (no-shows) are not rated (docs/rules.md ("cga")).
CGA_DEFAULTS = Validity(period="half", excluded=frozenset({"no_show"}))
CLASS_WEIGHTS = {"A": 1.0, "B": 0.75, "C": 0.5}
#: The HKGA introduction's table III (docs/rules.md ("hkga")): ``con`` at 100, 200, ... 2700 (linear
#: between rows, flat outside).
CON_TABLE = (
    *(116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51),
    *(47, 43, 39, 35, 31, 27, 24, 21, 18, 15, 13, 11, 10),
)
_LAST = len(CON_TABLE) - 1
_LAST_ROW = float(_LAST)


def rating_for_rank(rank: Rank | None) -> float:
    """The starting rating of a rank (the HKGA introduction's table I): 20k = 100 ... 1k = 2000,
    1d = 2100 ... 7d = 2700; professionals 1p = 2700, +30 per dan; None or weaker than 20k: 100."""
    if rank is None:
        return 100.0
    if rank.kind == "k":
        return max(100.0, 100.0 * (21 - rank.value))
    if rank.kind == "d":
        return 2000.0 + 100.0 * min(rank.value, 7)
    return 2700.0 + 30.0 * (rank.value - 1)


def rank_for_rating(rating: float) -> str:
    """The grade whose starting rating is nearest (ties upwards): 2050 -> 1d, 2049 -> 1k, 100 -> 20k."""
    grade = math.floor(rating / 100 + 0.5)  # 21 = 1d, 20 = 1k, 1 = 20k
    if grade >= 21:
        return f"{min(grade - 20, 7)}d"
    return f"{min(21 - grade, 30)}k"


def con_table(rating: float) -> float:
    """``con`` of the HKGA introduction's table III at ``rating``, linear between the 100-point rows."""
    position = rating / 100 - 1
    position = 0.0 if position < 0.0 else position  # as max(position, 0.0), then min(..., last)
    position = _LAST_ROW if position > _LAST_ROW else position
    low = int(position)
    high = low + 1 if low < _LAST else _LAST
    return CON_TABLE[low] + (CON_TABLE[high] - CON_TABLE[low]) * (position - low)


class Formula(Protocol):
    """What distinguishes the family's members: expected score, ``con``, bonus and floor."""

    @property
    def floor(self) -> float:
        """The lowest rating a player can fall to."""
        ...

    def expected(self, own: float, other: float, low: bool) -> tuple[float, float | None]:
        """(Se, a) for the side with adjusted rating ``own`` against ``other``; ``low``: this side is A."""
        ...

    def con(self, rating: float) -> float:
        """The change factor at the player's own (unadjusted) rating."""
        ...

    def bonus(self, rating: float) -> float:
        """A per-game bonus at the player's own rating (0 for the classical formulas)."""
        ...

    def initial(self, rank: Rank | None) -> float:
        """The starting rating of a player of ``rank`` (None: unknown)."""
        ...

    def rank_of(self, rating: float, rank: str) -> str:
        """The rank label after a period ending at ``rating`` (``rank``: the label before)."""
        ...


class _GorScale:
    """Ranks as the HKGA introduction's table I maps them to ratings (the GoR members share it)."""

    def initial(self, rank: Rank | None) -> float:
        return rating_for_rank(rank)

    def rank_of(self, rating: float, rank: str) -> str:
        return rank_for_rating(rating)


@dataclass(frozen=True, slots=True)
class Classic(_GorScale):
    """The GoR of the HKGA introduction / EGD before 2021: ``a = 205 − R_A/20`` in [70, 200] from the
    weaker side A; ``Se(A) = 1/(e^(D/a) + 1)``; ε taken from the stronger side only (``split`` False:
    hkga) or half from each (``split`` True: egf)."""

    epsilon: float
    split: bool
    floor: float = 100.0

    def expected(self, own: float, other: float, low: bool) -> tuple[float, float | None]:
        weaker, stronger = (own, other) if low else (other, own)
        a = 205 - weaker / 20
        a = 70.0 if a < 70.0 else a  # as min(max(a, 70.0), 200.0), NaN included
        a = 200.0 if a > 200.0 else a
        se_low = 1 / (math.exp((stronger - weaker) / a) + 1)
        if self.split:
            return (se_low if low else 1 - se_low) - self.epsilon / 2, a
        return (se_low if low else 1 - se_low - self.epsilon), a

    con = staticmethod(con_table)  # the table itself: one call a game, not two

    def bonus(self, rating: float) -> float:
        return 0.0


@dataclass(frozen=True, slots=True)
class Egd2021(_GorScale):
    """EGD's current formulas: ``Se = 1/(1 + e^(β(r_opp) − β(r)))``, ``β(r) = −7 ln(3300 − r)``,
    ``con = ((3300 − r)/200)^1.6``, ``bonus = ln(1 + e^((2300 − r)/80))/5``, floor −900."""

    floor: float = -900.0

    def expected(self, own: float, other: float, low: bool) -> tuple[float, float | None]:
        return 1 / (1 + math.exp(_beta(other) - _beta(own))), None

    def con(self, rating: float) -> float:
        return float(((3300 - min(rating, 3299.0)) / 200) ** 1.6)

    def bonus(self, rating: float) -> float:
        return math.log1p(math.exp((2300 - rating) / 80)) / 5


def _beta(rating: float) -> float:
    return -7 * math.log(3300 - min(rating, 3299.0))


#: docs/rules.md ("cga"): the starting rating of a professional dan d is 2200 + 40 d (1d 2240 ... 9d
#: 2560).
CGA_DAN_BASE, CGA_DAN_STEP = 2200.0, 40.0


@dataclass(frozen=True, slots=True)
class Elo:
    """The Chinese Weiqi Association's rating (docs/rules.md ("cga")): ``ΔR = K (W − We)``, ``We`` the
    logistic Elo expectation ``1/(1 + 10^((R_opp − R)/scale))``; no floor. Ranks are professional dans:
    ``9p``, ``9d`` and ``九段`` all mean dan 9 (a kyu rank is read as 1d); the rating does not move the
    dan."""

    k: float = 10.0
    scale: float = 400.0
    floor: float = -math.inf

    def expected(self, own: float, other: float, low: bool) -> tuple[float, float | None]:
        return 1 / (1 + 10 ** ((other - own) / self.scale)), None

    def con(self, rating: float) -> float:
        return self.k

    def bonus(self, rating: float) -> float:
        return 0.0

    def initial(self, rank: Rank | None) -> float:
        return CGA_DAN_BASE + CGA_DAN_STEP * cga_dan(rank)

    def rank_of(self, rating: float, rank: str) -> str:
        return rank


def cga_dan(rank: Rank | None) -> int:
    """The professional dan of a recorded rank for ``cga``: p and d alike; kyu or unknown: 1."""
    return min(rank.value, 9) if rank is not None and rank.kind in ("d", "p") else 1
