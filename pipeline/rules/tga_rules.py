"""rules.tga_rules: the tables, formulas and per-event criteria of the Taiwan Gomoku Association's
rules (docs/rules.md ("tga")), used by :mod:`pipeline.rules.tga`.

Ranks and their numbers: a rank label is ``20k`` .. ``1k``, ``1d`` .. ``9d`` or ``?`` (unknown). In every
formula a kyu (and an unknown rank) is dan 0 (Article 8.1). The sortable number of a label
(:func:`rating_of`) is the dan for dans, ``1 − kyu`` for kyus (1k = 0, 20k = −19) and −20 for ``?``.

Here: the Article 8 contribution of one game and the criterion (:func:`contribution`,
:func:`criterion`), the estimated dan of an opponent of unknown rank (:func:`estimate`), the standings
with their tie-break (:func:`standings`, :func:`top`), the promotion tournament's slots
(:func:`promotion_slots`), the kyu awards of Article 10 (:func:`kyu_award`); and over one event's
games (:class:`Unit`) the estimates (:func:`estimated`) and the promotions each article offers
(:func:`offers`). Pure: knows nothing of periods, the ledger of ranks, SGF or files.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.config.events import Event
from pipeline.config.roster import name_key
from pipeline.core.ranks import Rank
from pipeline.rules.base import Game, Promotion

UNKNOWN = "?"
UNKNOWN_RATING = -20.0
LOWEST_KYU = 20
TOP_DAN = 9
#: Article 8.9: promotion by points stops at 7d; 8.7: the lower cap of one game's dan difference.
POINTS_TOP_DAN = 7
LOWER_CAP = -5.0
WIN_WEIGHT, DRAW_WEIGHT, THRESHOLD_RATE = 0.2, 0.1, 0.7
MIN_GAMES, MIN_GAMES_EXCEPTION = 5, 4
#: Article 4.3 and Article 9.1: the fewest players of a promotion tournament and of a low-dan event.
PROMOTION_MIN_PLAYERS, LOW_DAN_MIN_PLAYERS = 8, 6
#: Article 10.2: (score rate, kyu by group) from the best row down; the rates of a five-round event.
GROUPS = ("promotion", "japanese", "standard_a", "standard_b")
KYU_TABLE: tuple[tuple[float, tuple[int, int, int, int]], ...] = (
    (1.0, (1, 4, 8, 12)),
    (0.9, (1, 5, 9, 13)),
    (0.8, (2, 6, 10, 14)),
    (0.7, (3, 7, 11, 15)),
    (0.6, (4, 8, 12, 16)),
)
KYU_ROUNDS = 5
#: Event kinds whose games count toward Article 8.
RECOGNISED = frozenset({"recognised", "low_dan"})
EPSILON = 1e-9


def label_of(rank: Rank | None) -> str:
    """The TGA label of a declared or recorded rank: kyus beyond 20k are 20k, professional dans are dans
    (gomoku has none), None is ``?``."""
    if rank is None:
        return UNKNOWN
    if rank.kind == "k":
        return f"{min(rank.value, LOWEST_KYU)}k"
    return f"{rank.value}d"


def dan_of(label: str) -> int | None:
    """The dan of ``label`` in the formulas: 1..9 for dans, 0 for kyus, None for ``?``."""
    if label == UNKNOWN:
        return None
    return int(label[:-1]) if label.endswith("d") else 0


@functools.lru_cache(maxsize=256)
def rating_of(label: str) -> float:
    """The sortable number of ``label``: dan, ``1 − kyu`` for a kyu, −20 for ``?``."""
    if label == UNKNOWN:
        return UNKNOWN_RATING
    value = int(label[:-1])
    return float(value if label.endswith("d") else 1 - value)


def capped(delta: float) -> float:
    """Article 8.7: a game's dan difference, no upper cap, lower cap −5."""
    return max(LOWER_CAP, delta)


def contribution(score: float, delta: float) -> float:
    """One valid game's part of the criterion: the score plus 0.2 Δ for a win, 0.1 Δ for a draw
    (Δ already capped), rounded to 6 places."""
    weight = WIN_WEIGHT if score == 1 else DRAW_WEIGHT if score == 0.5 else 0.0
    return round(score + weight * delta, 6)


@dataclass(frozen=True, slots=True)
class Criterion:
    """Article 8.7 over ``games`` valid games: the ``score``, the summed Δ of wins and draws, the
    ``value`` ``S + 0.2 Σ_wins Δ + 0.1 Σ_draws Δ`` and the ``threshold`` ``0.7 N``."""

    games: int
    score: float
    wins_delta: float
    draws_delta: float

    @property
    def value(self) -> float:
        return round(self.score + WIN_WEIGHT * self.wins_delta + DRAW_WEIGHT * self.draws_delta, 6)

    @property
    def threshold(self) -> float:
        return round(THRESHOLD_RATE * self.games, 6)

    @property
    def met(self) -> bool:
        return self.value >= self.threshold - EPSILON

    def text(self) -> str:
        """The criterion in words and numbers."""
        sign = ">=" if self.met else "<"
        return (
            f"{self.games} valid games: S {self.score:g} + 0.2 × Σwin Δ {self.wins_delta:g} + 0.1 × Σdraw Δ "
            f"{self.draws_delta:g} = {self.value:g} {sign} 0.7 × {self.games} = {self.threshold:g}"
        )


def criterion(games: Iterable[tuple[float, float]]) -> Criterion:
    """The criterion of ``games``: (score, capped Δ) of each valid game."""
    played = list(games)
    return Criterion(
        len(played),
        sum(s for s, _ in played),
        sum(d for s, d in played if s == 1),
        sum(d for s, d in played if s == 0.5),
    )


def estimate(results: Iterable[tuple[float, float]]) -> float | None:
    """Article 8.8: the dan of a player of unknown rank from ``results`` (their score, the known dan of
    the opponent) in one event: the mean of the strongest opponent beaten and the weakest lost to; all
    wins: one above the strongest opponent; all losses: one below the weakest; within [0, 9].

    Decision: a draw against dan d bounds from both sides (as a win and as a loss against d). None when
    there are no results (no known-rank opponent).
    """
    listed = list(results)
    beaten = [d for s, d in listed if s >= 0.5]
    lost_to = [d for s, d in listed if s <= 0.5]
    if not listed:
        return None
    if not lost_to:
        value = max(beaten) + 1
    elif not beaten:
        value = min(lost_to) - 1
    else:
        value = (max(beaten) + min(lost_to)) / 2
    return min(float(TOP_DAN), max(0.0, value))


Standing = tuple[str, float, float]


def standings(results: Iterable[tuple[str, str, float]]) -> list[Standing]:
    """The final standings from ``results`` (player, opponent, player's score), one per game and side:
    (player, score, sum of the opponents' scores), best first; names break no tie (equal entries keep
    name order)."""
    listed = list(results)
    score: dict[str, float] = defaultdict(float)
    for player, _, points in listed:
        score[player] += points
    buchholz: dict[str, float] = defaultdict(float)
    for player, opponent, _ in listed:
        buchholz[player] += score[opponent]
    return sorted(((p, score[p], buchholz[p]) for p in score), key=lambda s: (-s[1], -s[2], s[0]))


def top(table: Sequence[Standing], places: int) -> list[tuple[int, Standing]]:
    """The first ``places`` entries of ``table`` with their place (1-based), plus every entry tied with
    the last of them on score and tie-break (decision: the records cannot separate them)."""
    if places <= 0 or not table:
        return []
    cut = table[min(places, len(table)) - 1][1:]
    chosen = []
    for place, entry in enumerate(table, 1):
        if place <= places or entry[1:] == cut:
            chosen.append((place, entry))
    return chosen


def promotion_slots(players: int) -> int:
    """Article 4.3: ``round(players / 8)`` half up; 0 under 8 players."""
    return (players + 4) // 8 if players >= PROMOTION_MIN_PLAYERS else 0


def kyu_award(group: str, rate: float) -> tuple[int, float] | None:
    """Article 10.2: (kyu, the row's rate) for a score ``rate`` (0..1) in ``group``; None below 60%.

    Raises ValueError if ``group`` is not one of :data:`GROUPS`.
    """
    if group not in GROUPS:
        raise ValueError(f"unknown kyu group {group!r} (expected one of {', '.join(GROUPS)})")
    column = GROUPS.index(group)
    return next(((kyus[column], floor) for floor, kyus in KYU_TABLE if rate >= floor - EPSILON), None)


@dataclass
class Unit:
    """One event's games in a period (or the games in no event): each player's rank label and dan at
    their first game in it (dan None: unknown) and, for the rated players, their last game. Each
    player's games (``sides``) are indexed when first asked for (``indexed``: the games indexed so far),
    not as games are added: the unit of the games in no event holds a year of games."""

    event: Event | None
    games: list[Game] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    dans: dict[str, int | None] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    sides: dict[str, list[tuple[Game, str]]] = field(default_factory=dict)
    indexed: int = 0

    def add(self, game: Game) -> None:
        """Append ``game`` (its players' labels and dans are entered by the caller)."""
        self.games.append(game)

    def played(self, name: str) -> list[tuple[Game, str]]:
        """``name``'s games in the unit with their colour, in order."""
        if self.indexed < len(self.games):
            sides = self.sides
            for game in itertools.islice(self.games, self.indexed, None):
                for player, color in ((game.black, "B"), (game.white, "W")):
                    found = sides.get(player)
                    if found is None:
                        found = sides[player] = []
                    found.append((game, color))
            self.indexed = len(self.games)
        return self.sides.get(name, [])

    def standings(self) -> list[Standing]:
        """The unit's final standings (:func:`standings`)."""
        return standings((g.side(c)[0], g.side(c)[1], g.score(c)) for g in self.games for c in "BW")

    def own(self, name: str) -> int:
        """``name``'s dan in the formulas (unknown: 0)."""
        return self.dans[name] or 0

    def offer(
        self,
        event: Event,
        name: str,
        to: str,
        rule: str,
        why: str,
        value: float | None = None,
        threshold: float | None = None,
        games: int | None = None,
    ) -> Promotion:
        """A promotion of ``name`` to ``to`` at the unit's last game (``from_rank`` left blank); ``games``
        None: all of ``name``'s games in the unit."""
        count = len(self.played(name)) if games is None else games
        date, game, evidence = self.games[-1].date, self.last[name], f"{event.name}: {why}"
        return Promotion(name, date, game, rule, "", to, evidence, event.name, value, threshold, count)


def estimated(unit: Unit, name: str) -> float:
    """Article 8.8: the estimated dan of ``name`` (unknown rank) from their games in ``unit`` against
    known-rank opponents (:func:`estimate`); 0 when they met none."""
    results = [
        (g.score(c), float(dan)) for g, c in unit.played(name) if (dan := unit.dans[g.side(c)[1]]) is not None
    ]
    found = estimate(results)
    return 0.0 if found is None else found


def offers(unit: Unit, deltas: Mapping[tuple[str, str], float], champion: str | None) -> Iterator[Promotion]:
    """Every promotion the event of ``unit`` offers by its kind, the event's own rule first: Article 4
    (``promotion``), 9 (``low_dan``, ``champion`` None: the top of the standings), 8 (``recognised``,
    ``low_dan``; ``deltas``: (game id, player) -> capped Δ), 10 (``kyu``, ``promotion``)."""
    event = unit.event
    if event is None:
        return
    if event.kind == "promotion":
        yield from _tournament(unit, event)
    if event.kind == "low_dan":
        yield from _champion(unit, event, champion)
    for name in unit.last:
        if event.kind in RECOGNISED:
            yield from _points(unit, event, name, deltas)
        if event.kind in ("kyu", "promotion"):
            yield from _kyu(unit, event, name)


def _points(
    unit: Unit, event: Event, name: str, deltas: Mapping[tuple[str, str], float]
) -> Iterator[Promotion]:
    """Article 8 for ``name``: eligibility (8.5, 8.6) and the criterion (8.7), below 7d."""
    own, played = unit.own(name), unit.played(name)
    valid = [(g.score(c), deltas[(g.game_id, name)]) for g, c in played if not g.no_show]
    wins = sum(1 for g, c in played if g.no_show and g.score(c) == 1)
    losses = sum(1 for g, c in played if g.no_show and g.score(c) == 0)
    byes = max(0, event.rounds - len(played)) if event.rounds else 0
    enough = len(valid) >= MIN_GAMES or (len(valid) == MIN_GAMES_EXCEPTION and wins + byes >= 1)
    found = criterion(valid)
    if own < POINTS_TOP_DAN and not losses and enough and found.met:
        why = f"at {unit.labels[name]}, {found.text()}"
        why += f" (Article 8.6: {wins} forfeit wins, {byes} byes)" if len(valid) < MIN_GAMES else ""
        rule, to = "tga article 8 points", f"{own + 1}d"
        yield unit.offer(event, name, to, rule, why, found.value, found.threshold, found.games)


def _tournament(unit: Unit, event: Event) -> Iterator[Promotion]:
    """Article 4: the top ``round(players / 8)`` of the standings, below 1d, become 1d."""
    table = unit.standings()
    slots = promotion_slots(len(table))
    for place, (name, score, opponents) in top(table, slots):
        if name in unit.last and unit.own(name) == 0:
            why = (
                f"place {place} of {len(table)} players (score {score:g}, opponents' scores {opponents:g}); "
            )
            why += f"{slots} promoted = round({len(table)} / 8)"
            yield unit.offer(event, name, "1d", "tga article 4 promotion tournament", why, score)


def _champion(unit: Unit, event: Event, named: str | None) -> Iterator[Promotion]:
    """Article 9.1: with at least 6 players the champion gains one dan (not beyond 9d)."""
    table = unit.standings()
    if len(table) < LOW_DAN_MIN_PLAYERS:
        return
    champions = (
        [e for e in table if name_key(e[0]) == name_key(named)] if named else [e for _, e in top(table, 1)]
    )
    for name, score, opponents in champions:
        if name in unit.last and unit.own(name) < TOP_DAN:
            how = "named by the events file" if named else f"score {score:g}, opponents' scores {opponents:g}"
            why, to = f"champion of {len(table)} players ({how})", f"{unit.own(name) + 1}d"
            yield unit.offer(event, name, to, "tga article 9 low-dan champion", why, score)


def _kyu(unit: Unit, event: Event, name: str) -> Iterator[Promotion]:
    """Article 10: the kyu of ``name``'s score rate in the event's group (promotion events: 晉段組)."""
    played = unit.played(name)
    score = sum(g.score(c) for g, c in played)
    rounds = event.rounds or max(KYU_ROUNDS, len(played))
    group, rate = event.group or "promotion", score / rounds
    found = kyu_award(group, rate)
    if found is not None:
        why = f"score {score:g} of {rounds} rounds ({rate:.0%}), group {group}, row {found[1]:.0%}"
        yield unit.offer(event, name, f"{found[0]}k", "tga article 10 kyu award", why, rate, found[1])
