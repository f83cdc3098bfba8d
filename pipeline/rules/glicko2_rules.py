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
from pipeline.rules.base import (
    Change,
    Closed,
    Context,
    DueAward,
    Game,
    PeriodOutcome,
    RosterRules,
    RuleSet,
    closed_by,
)
from pipeline.rules.family import Family, Scale
from pipeline.rules.glicko2 import Array

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
    :class:`~pipeline.rules.base.Closed`: a player a period does not touch is carried as is, and every
    player's deviation, volatility and last period ride along as arrays (:class:`Carry`), from which the
    next period's end deviations are computed at once; standings from anywhere else (a resumed run's
    pickle) give them once from the players' ``extra``, to the same outcome."""

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
        closed = closed_by(state, self.name)
        found = closed.carry if closed is not None else None
        carry = found if isinstance(found, Carry) and len(found.position) == len(state) else None
        start = dict(state)
        sheet = _Sheet(self, start, now)
        sheet.add(games)
        changes, changed = sheet.rate()
        carried = (carry or Carry.of(state, self.params)).then(sheet.newcomers, changed, self.params)
        end = Closed(start, self.name, carried, changed)
        return PeriodOutcome(
            start, end, changes, [], deviation=carried.deviations(now, self.params.deviation)
        )

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


@dataclass(frozen=True, slots=True)
class Carry:
    """Every player of some standings, in their order (``position``: name -> index), with their deviation
    (rating points) and volatility after their last period played, that period's ordinal (``at``; NaN:
    none, no growth) and whether they are fixed. Never changed: :meth:`then` makes the next."""

    position: dict[str, int]
    deviation: Array
    volatility: Array
    at: Array
    fixed: np.ndarray[Any, np.dtype[np.bool_]]

    @staticmethod
    def of(states: Mapping[str, PlayerState], params: Params) -> Carry:
        """The carry of ``states``, read from each player's ``extra`` (the starting values when absent)."""
        values = list(states.values())
        return Carry(
            {name: i for i, name in enumerate(states)},
            np.array([s.extra.get("deviation", params.deviation) for s in values], np.float64),
            np.array([s.extra.get("volatility", params.volatility) for s in values], np.float64),
            np.array([s.extra.get("at", math.nan) for s in values], np.float64),
            np.array([s.fixed for s in values], np.bool_),
        )

    def then(self, newcomers: Sequence[str], changed: Mapping[str, PlayerState], params: Params) -> Carry:
        """The carry of these standings with ``newcomers`` added at their end (the starting values) and the
        players ``changed`` (each already here or a newcomer) set to their new states."""
        position = dict(self.position)
        for name in newcomers:
            position[name] = len(position)
        grow = len(position) - len(self.position)
        deviation = np.concatenate([self.deviation, np.full(grow, params.deviation)])
        volatility = np.concatenate([self.volatility, np.full(grow, params.volatility)])
        at = np.concatenate([self.at, np.full(grow, math.nan)])
        fixed = np.concatenate([self.fixed, np.zeros(grow, np.bool_)])
        if changed:
            states = list(changed.values())
            where = np.array([position[name] for name in changed], np.intp)
            deviation[where] = [s.extra.get("deviation", params.deviation) for s in states]
            volatility[where] = [s.extra.get("volatility", params.volatility) for s in states]
            at[where] = [s.extra.get("at", math.nan) for s in states]
            fixed[where] = [s.fixed for s in states]
        return Carry(position, deviation, volatility, at, fixed)

    def deviations(self, now: int, cap: float) -> Array:
        """Each player's deviation at the end of the period ``now``, grown over the periods since their
        last game (never past ``cap`` by growing; a fixed player's, or one never rated, does not grow)."""
        idle = np.where(self.fixed | np.isnan(self.at), 0.0, now - np.nan_to_num(self.at))
        return g2.grown(self.deviation, self.volatility, idle, cap)


class _Sheet:
    """One period's games as arrays: the players met (rated or visitors) with their values at the
    period's start, and one row per game and rated side."""

    def __init__(self, rules: Glicko2Rules, start: dict[str, PlayerState], now: int) -> None:
        self.rules, self.start, self.now = rules, start, now
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.newcomers: list[str] = []  # rated players added to the standings, in order
        # per player met: rating, deviation, volatility, idle periods before this one, and whether the
        # period moves them (rated, not fixed)
        self.players: list[tuple[float, float, float, float, bool]] = []
        # per game and rated side: the game, the player's index, the opponent's, the colour, the score
        # and the handicap's rating points on the player's side (negative for White)
        self.rows: list[tuple[str, int, int, str, float, float]] = []

    def add(self, games: Sequence[Game]) -> None:
        """Enter ``games``: their players, and a row for each side the rule set rates (one loop, its
        lookups bound once: it runs once a game)."""
        index, enter, append, players = self.index.get, self._player, self.rows.append, self.players
        for game in games:
            black, white = game.black, game.white
            b = index(black)
            if b is None:
                b = enter(black, game.black_rank, game.black_rated)
            w = index(white)
            if w is None:
                w = enter(white, game.white_rank, game.white_rated)
            offset = g2.handicap_offset(players[b][0], game.handicap) if game.handicap else 0.0
            winner = game.winner
            score = 1.0 if winner == "B" else 0.0 if winner == "W" else 0.5
            if game.black_rated:
                append((game.game_id, b, w, "B", score, offset))
            if game.white_rated:
                append((game.game_id, w, b, "W", 1.0 - score, -offset))

    def _player(self, name: str, recorded: Rank | None, rated: bool) -> int:
        """``name``'s index, entering them (a newcomer into the standings when rated): they are new here."""
        state = self.start.get(name) if rated else None
        if state is None:
            state = self.rules.newcomer(name, recorded)
            if rated:
                self.start[name] = state
                self.newcomers.append(name)
        extra, params, now = state.extra, self.rules.params, self.now
        self.index[name] = found = len(self.names)
        self.names.append(name)
        idle = 0 if state.fixed else now - extra.get("at", now - 1) - 1
        self.players.append(
            (
                state.rating,
                extra.get("deviation", params.deviation),
                extra.get("volatility", params.volatility),
                idle if idle > 0 else 0.0,
                rated and not state.fixed,
            )
        )
        return found

    def rate(self) -> tuple[list[Change], dict[str, PlayerState]]:
        """The period's changes (in game order, Black's row first) and the new states of the rated."""
        if not self.rows:
            return [], {}
        cap, scale = self.rules.params.deviation, g2.SCALE
        rating, before, sigma, idle = (
            np.array(c, np.float64) for c in list(zip(*self.players, strict=True))[:4]
        )
        updated = np.array([p[4] for p in self.players], np.bool_)
        deviation = g2.grown(before, sigma, idle, cap)
        mu, phi = (rating - g2.CENTRE) / scale, deviation / scale
        games, own_, opp_, colors, score_, offset_ = zip(*self.rows, strict=True)
        own, opp = np.array(own_, np.intp), np.array(opp_, np.intp)
        score, offset = np.array(score_, np.float64), np.array(offset_, np.float64)
        shift = offset / scale
        found = g2.update((mu, phi, sigma), own, (mu[opp], phi[opp]), score, shift, self.rules.params.tau)
        moved = np.where(updated[own], found.moved * scale, 0.0)
        se = g2.expected(mu[own] + shift - mu[opp], np.sqrt(phi[own] ** 2 + phi[opp] ** 2))
        new_sigma = np.where(updated, found.sigma, sigma)
        columns = (moved, se, found.e, found.g, np.abs(offset), new_sigma[own], rating[own], deviation[own])
        names = np.array(self.names, object)  # (each row's two names in one take each)
        rows = (
            games,
            names[own].tolist(),
            names[opp].tolist(),
            colors,
            score_,
            *(c.tolist() for c in columns),
        )
        opponent = (rating[opp].tolist(), deviation[opp].tolist(), updated[own].tolist())
        return self._changes(rows, opponent), self._closed(own, found, updated)

    def _changes(self, rows: tuple[Sequence[Any], ...], opponent: tuple[list[Any], ...]) -> list[Change]:
        """The change of each row, from the ``rows`` (game, player, opponent, colour, score, then points, se,
        e, g, handicap, σ', rating and deviation before) and the ``opponent``'s rating and deviation,
        with whether the row's player moves."""
        found: list[Change] = []
        append = found.append
        for game_id, player, other, color, score, points, se, e, weight, offset, sigma, rating, deviation, \
                opp_rating, opp_deviation, moves in zip(*rows, *opponent, strict=True):  # fmt: skip
            detail = {
                "se": se,
                "e": e,
                "g": weight,
                "opponent_rating": opp_rating,
                "opponent_deviation": opp_deviation,
                "handicap_adjustment": offset,
                "volatility": sigma,
            }
            if not moves:
                detail["note"] = "fixed rating"
            append(Change(game_id, player, other, color, score, rating, points, 0.0, None, detail, deviation))
        return found

    def _closed(
        self, own: np.ndarray[Any, Any], found: g2.Period, updated: np.ndarray[Any, Any]
    ) -> dict[str, PlayerState]:
        """The new state of every rated player of the period (a fixed one: their games counted only)."""
        played = Counter(own.tolist())
        ratings = g2.CENTRE + g2.SCALE * found.mu
        rating, ranks = ratings.tolist(), g2.rank_labels(ratings)
        deviation = (g2.SCALE * found.phi).tolist()
        sigma, moves, now = found.sigma.tolist(), updated.tolist(), self.now
        changed = {}
        for index, count in played.items():
            name = self.names[index]
            before = self.start[name]
            if moves[index]:
                extra = {"deviation": deviation[index], "volatility": sigma[index], "at": now}
                state = PlayerState(rating[index], ranks[index], before.games_total + count, False, extra)
            else:
                state = PlayerState(
                    before.rating, before.rank, before.games_total + count, True, before.extra
                )
            changed[name] = state
        return changed


FAMILY = Family(
    "glicko2",
    build,
    DEFAULTS,
    N_(
        "Mark Glickman's Glicko-2, the rating of the largest Go and chess servers: a rating, a deviation "
        "that says how sure it is and a volatility, updated from all of a period's games at its end"
    ),
    scale=Scale("glicko2", "glicko2", LOW, HIGH, g2.rating_for_rank),
    deviation=True,
)
