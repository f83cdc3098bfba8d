"""rules.glicko2_rules: the ``glicko2`` rule set, Glickman's Glicko-2 (docs/rules.md ("glicko2")), over the
arithmetic of :mod:`pipeline.rules.glicko2`.

A Glicko-2 rating period is the run's period: every game of a period is rated from the ratings,
deviations and volatilities at its start, all at once at its end (Glickman: "all games within a rating
period are assumed to occur simultaneously"). Each player carries, in ``PlayerState.extra``, their
deviation (rating points) and volatility after the last period they played and that period's ordinal
(``at``); the periods they sat out grow the deviation in closed form when it is next needed (step 6
``k`` times: ``√(RD² + k(173.7178σ)²)``, never past the starting deviation by growing, the cap of
Glickman's Glicko paper), so an idle player's state is never rewritten. The deviation every player has at
a period's end is the outcome's :attr:`~pipeline.rules.base.PeriodOutcome.deviation`.

Each game's row in ``changes`` splits the period's change exactly: ``points = 173.7178 φ'² g(φ_j)(s − E)``
(the period's ``μ' − μ`` is their sum), so the ratings are their start plus their changes. ``se`` is
Glickman's predicted score of the game, ``1/(1 + e^(−g(√(φ² + φ_j²))·(μ − μ_j)))`` with both players'
deviations (the quantity ``ratings backtest`` scores), ``e`` the one the update uses (the opponent's
deviation only).

Decisions (docs/rules.md ("glicko2"), "Decisions"): the starting rating is the roster's (on this rule
set's scale), else the declared or recorded rank's on OGS's scale
(:func:`~pipeline.rules.glicko2.rating_for_rank`); every newcomer starts with the deviation and
volatility of ``[rules]`` (``deviation``, 350, and ``volatility``, 0.06: the deviation's growth per idle
period); the handicap raises Black's rating by
``H − 0.5`` grades (:func:`~pipeline.rules.glicko2.handicap_offset`); no-shows are not rated by default (a
forfeit says nothing of strength); a draw scores ½; a fixed player (roster ``fixed = true``) keeps their
rating, deviation and volatility and rates their opponents; a visitor the rule set does not rate plays
at their starting rating and deviation; events, classes, stages and awards change nothing. Knows nothing
of SGF or files.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.config.toml import Kind, Table
from pipeline.core import periods
from pipeline.core.i18n import N_
from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules import glicko2 as g2
from pipeline.rules.base import Change, Closed, Context, DueAward, Game, PeriodOutcome, RosterRules, RuleSet
from pipeline.rules.family import Family, Scale

#: No-shows are not games played (Glicko-2 rates strength from results); everything else counts.
DEFAULTS = Validity(excluded=frozenset({"no_show"}))
#: The ``[rules]`` keys (:func:`params_from`).
KEYS = ("tau", "deviation", "volatility")
#: A plausible starting rating on this scale (a roster's ``rating = { glicko2 = ... }``): OGS's bounds.
LOW, HIGH = 100.0, 6000.0
_POSITIVE = Kind(N_("a number > 0"), lambda v: _finite(v) and v > 0, float)

CHANGE_FIELDS = pa.schema(
    [
        _f("se", pa.float64(), "the predicted score: g of both deviations, Glickman's forecast of the game"),
        _f("e", pa.float64(), "E: the expected score the update uses (the opponent's deviation only)"),
        _f("g", pa.float64(), "g(φ_j): how much the game counts, from the opponent's deviation"),
        _f("opponent_rating", pa.float64(), "the opponent's rating at the period's start"),
        _f("opponent_deviation", pa.float64(), "the opponent's deviation at the period's start"),
        _f("handicap_adjustment", pa.float64(), "rating points added to Black's rating for the handicap"),
        _f("volatility", pa.float64(), "the player's volatility σ after the period"),
        _f("note", pa.string(), "why the game moved nothing (a fixed rating), else null"),
    ]
)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True, slots=True)
class Params:
    """``tau`` (τ, how fast the volatility may change), ``deviation`` (a newcomer's RD, rating points, and
    the most idle periods can grow one to) and ``volatility`` (a newcomer's σ: the deviation's growth per
    idle period, in Glicko-2 units)."""

    tau: float = g2.TAU
    deviation: float = g2.DEVIATION
    volatility: float = g2.VOLATILITY


def params_from(table: Table) -> Params:
    """The ``[rules]`` parameters of glicko2: ``tau``, ``deviation``, ``volatility``, each a finite number
    > 0. Raises :class:`~pipeline.config.toml.ConfigError` naming the key if one is unknown or bad."""
    table.check_keys(KEYS)
    return Params(
        table.get("tau", _POSITIVE, g2.TAU),
        table.get("deviation", _POSITIVE, g2.DEVIATION),
        table.get("volatility", _POSITIVE, g2.VOLATILITY),
    )


def build(context: Context, params: Table) -> RuleSet:
    """The ``glicko2`` rule set with its ``[rules]`` parameters (checked)."""
    return Glicko2Rules(context, params_from(params))


class Glicko2Rules(RosterRules):
    """The ``glicko2`` rule set, configured once; :meth:`rate_period` is pure. It returns its standings
    :class:`~pipeline.rules.base.Closed`: a player a period does not touch is carried as is."""

    name = "glicko2"
    change_fields = CHANGE_FIELDS
    report_columns: tuple[str, ...] = ()

    def __init__(self, context: Context, params: Params) -> None:
        super().__init__(context)
        self.params = params

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate the period's games together from the states at its start (awards change nothing)."""
        now = periods.ordinal(period)
        start = dict(state)
        sheet = _Sheet(self, start, now)
        for game in games:
            sheet.add(game)
        changes, changed = sheet.rate()
        end = Closed(start, self.name, None, changed)
        return PeriodOutcome(start, end, changes, [], deviation=self.deviations(end.values(), now))

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """None: glicko2 has no report tables of its own."""
        return {}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """A first-seen player: the roster's rating (on this scale), else the declared or recorded rank's;
        the starting deviation and volatility, as at the end of the period before the one they enter
        (no ``at``: no idle period to grow over)."""
        declared, player = self.declared(name)
        rating = player.rating if player is not None and player.rating is not None else None
        rating = rating if rating is not None else g2.rating_for_rank(declared or recorded)
        fixed = player is not None and player.fixed
        extra = {"deviation": self.params.deviation, "volatility": self.params.volatility}
        return PlayerState(rating, g2.rank_for_rating(rating), fixed=fixed, extra=extra)

    def deviations(self, states: Any, now: int) -> list[float]:
        """Each of ``states``' deviation at the end of the period ``now`` (rating points), grown over the
        periods since their last game (a fixed player's never grows)."""
        chosen = list(states)
        default = self.params.deviation
        deviation = np.array([s.extra.get("deviation", default) for s in chosen], np.float64)
        sigma = np.array([s.extra.get("volatility", self.params.volatility) for s in chosen], np.float64)
        idle = now - np.array([s.extra.get("at", now) for s in chosen], np.float64)
        idle[np.array([s.fixed for s in chosen], bool)] = 0.0
        found: list[float] = g2.grown(deviation, sigma, idle, self.params.deviation).tolist()
        return found


class _Sheet:
    """One period's games as arrays: the players met (rated or visitors) with their values at the
    period's start, and one row per game and rated side."""

    def __init__(self, rules: Glicko2Rules, start: dict[str, PlayerState], now: int) -> None:
        self.rules, self.start, self.now = rules, start, now
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.rating: list[float] = []
        self.deviation: list[float] = []
        self.sigma: list[float] = []
        self.idle: list[float] = []
        self.updated: list[bool] = []  # rated and not fixed: the period moves them
        self.games: list[Game] = []
        # one row per game and rated side: the game's index, the player's, the opponent's, the colour,
        # the score and the handicap's rating points on the player's side (negative for White)
        self.game: list[int] = []
        self.own: list[int] = []
        self.opp: list[int] = []
        self.color: list[str] = []
        self.score: list[float] = []
        self.offset: list[float] = []

    def add(self, game: Game) -> None:
        """Enter ``game``: its players, and a row for each side the rule set rates."""
        b = self._player(game.black, game.black_rank, game.black_rated)
        w = self._player(game.white, game.white_rank, game.white_rated)
        offset = g2.handicap_offset(self.rating[b], game.handicap) if game.handicap >= 1 else 0.0
        score = 0.5 if game.winner == "draw" else float(game.winner == "B")
        at = len(self.games)
        self.games.append(game)
        if game.black_rated:
            self._row(at, b, w, "B", score, offset)
        if game.white_rated:
            self._row(at, w, b, "W", 1.0 - score, -offset)

    def _row(self, game: int, own: int, opp: int, color: str, score: float, offset: float) -> None:
        self.game.append(game)
        self.own.append(own)
        self.opp.append(opp)
        self.color.append(color)
        self.score.append(score)
        self.offset.append(offset)

    def _player(self, name: str, recorded: Rank | None, rated: bool) -> int:
        """``name``'s index, entering them (a newcomer into the standings when rated) the first time."""
        found = self.index.get(name)
        if found is not None:
            return found
        state = self.start.get(name) if rated else None
        if state is None:
            state = self.rules.newcomer(name, recorded)
            if rated:
                self.start[name] = state
        extra, params = state.extra, self.rules.params
        self.index[name] = found = len(self.names)
        self.names.append(name)
        self.rating.append(state.rating)
        self.deviation.append(extra.get("deviation", params.deviation))
        self.sigma.append(extra.get("volatility", params.volatility))
        self.idle.append(0.0 if state.fixed else max(self.now - extra.get("at", self.now - 1) - 1, 0))
        self.updated.append(rated and not state.fixed)
        return found

    def rate(self) -> tuple[list[Change], dict[str, PlayerState]]:
        """The period's changes (in game order, Black's row first) and the new states of the rated."""
        if not self.own:
            return [], {}
        cap, scale = self.rules.params.deviation, g2.SCALE
        rating, sigma = np.array(self.rating), np.array(self.sigma)
        deviation = g2.grown(np.array(self.deviation), sigma, np.array(self.idle), cap)
        mu, phi = (rating - g2.CENTRE) / scale, deviation / scale
        own, opp = np.array(self.own, np.intp), np.array(self.opp, np.intp)
        score, offset = np.array(self.score), np.array(self.offset)
        shift = offset / scale
        found = g2.update((mu, phi, sigma), own, (mu[opp], phi[opp]), score, shift, self.rules.params.tau)
        updated = np.array(self.updated, bool)
        moved = np.where(updated[own], found.moved * scale, 0.0)
        both = np.sqrt(phi[own] ** 2 + phi[opp] ** 2)
        se = g2.expected(mu[own] + shift - mu[opp], both)
        new_sigma = np.where(updated, found.sigma, sigma)
        columns = [c.tolist() for c in (moved, se, found.e, found.g, new_sigma[own])]
        changes = self._changes(columns, rating.tolist(), deviation.tolist())
        return changes, self._closed(own, found, updated)

    def _changes(
        self, columns: list[list[float]], rating: list[float], deviation: list[float]
    ) -> list[Change]:
        """The change of each row, from the rows and the computed ``columns`` (points, se, e, g, σ')."""
        names, updated, games = self.names, self.updated, self.games
        found = []
        rows = (self.game, self.own, self.opp, self.color, self.score, self.offset, *columns)
        for at, own, opp, color, score, offset, points, se, e, weight, sigma in zip(*rows, strict=True):
            played = games[at]
            detail = {
                "se": se,
                "e": e,
                "g": weight,
                "opponent_rating": rating[opp],
                "opponent_deviation": deviation[opp],
                "handicap_adjustment": abs(offset),
                "volatility": sigma,
                "note": None if updated[own] else "fixed rating",
            }
            change = Change(
                played.game_id, names[own], names[opp], color, score, rating[own], points,
                detail=detail, deviation=deviation[own],
            )  # fmt: skip
            found.append(change)
        return found

    def _closed(
        self, own: np.ndarray[Any, Any], found: g2.Period, updated: np.ndarray[Any, Any]
    ) -> dict[str, PlayerState]:
        """The new state of every rated player of the period (a fixed one: their games counted only)."""
        played = Counter(own.tolist())
        rating = (g2.CENTRE + g2.SCALE * found.mu).tolist()
        deviation = (g2.SCALE * found.phi).tolist()
        sigma = found.sigma.tolist()
        changed = {}
        for index, count in played.items():
            name = self.names[index]
            before = self.start[name]
            if not updated[index]:
                changed[name] = PlayerState(
                    before.rating, before.rank, before.games_total + count, before.fixed, before.extra
                )
                continue
            extra = {"deviation": deviation[index], "volatility": sigma[index], "at": self.now}
            r = rating[index]
            changed[name] = PlayerState(r, g2.rank_for_rating(r), before.games_total + count, False, extra)
        return changed


FAMILY = Family(
    "glicko2",
    build,
    DEFAULTS,
    "Mark Glickman's Glicko-2, the rating of the largest Go and chess servers: a rating, a deviation "
    "that says how sure it is and a volatility, updated from all of a period's games at its end",
    scale=Scale("glicko2", "glicko2", LOW, HIGH, g2.rating_for_rank),
    deviation=True,
)
