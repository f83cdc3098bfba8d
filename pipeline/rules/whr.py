"""rules.whr: Whole-History Rating (Rémi Coulom, "Whole-History Rating: A Bayesian Rating System for Players
of Time-Varying Strength", Computers and Games 2008) as the rule set ``whr`` (docs/rules.md ("whr")).

At the end of each period every player's whole rating history is estimated again from every game rated so
far (the maximum a posteriori of :mod:`pipeline.rules.whr_fit`), starting from the previous period's
estimate; a player's rating is their estimate on their last day. A snapshot uses no game of a later period,
and the history rides in the standings (:mod:`pipeline.rules.whr_history`), so a replay from any period
equals one from scratch. One parameter: ``w2``, the Wiener variance of a player's rating, in Elo² per day
(the paper's Table 1 tuned 14 on the KGS server's games: the default).

The scale (decision; the paper's ratings are relative, its prior's virtual opponent of rating zero): Elo
points, ``R = 2100 + (400 / ln 10) × (β(g) − β(2100))`` for the GoR rating ``g`` of a rank (the HKGA
introduction's table I: 20k 100 … 1d 2100 … 7d 2700, professionals from 2700 by 30; no rank: 20k), with
``β(g) = −7 ln(3300 − g)`` the European Go Database's own natural rating since 2021 (its ``Se = 1/(1 +
e^(β(r_opp) − β(r)))`` is a Bradley–Terry model: docs/rules.md ("egf2021")). So 1d starts at 2100 as in
GoR, a grade is about 39 Elo at 20k, 106 at 1d and 187 at 7d, and a rating's rank is the grade whose GoR
start is nearest to the GoR the rating maps back to. A player's prior (the paper's §4.1: one virtual win
and one virtual loss, on their first day) is against a virtual opponent at their starting rating: the
roster's rating on this scale, else that of their declared rank, else of the rank the record gives them in
their first counted game.

Handicap and komi: the paper's prediction test on KGS used only even games with komi 6.5, and it names
handicap and komi as refinements still to be made (as the KGS rank system has them: a handicap stone is a
rank). So by default handicap games (``HA`` ≥ 2) are not rated (reason ``handicap``), and komi is not in the
model (an even game is a fair game). A handicap game a configuration counts, and ``HA[1]`` (no komi), give
the receiver ``H − 0.5`` grades, as the GoR family does: the advantage is ``R(g + 100 × (H − 0.5)) − R(g)``
Elo, ``g`` the GoR of the receiver's rating before the game. Draws and no-shows are not rated by default (the
paper's model has no draws; a forfeit is no game); counted, a draw is half a win and half a loss.

A change row's ``se`` is the player's probability of winning the game from both ratings before the period
(the previous snapshot's: a newcomer's starting rating), its ``day_rating`` the player's estimate on the
game's day at the period's end, and its ``delta`` the game's share of the move of the player's estimate from
the rating before to that day (the games of one day share it equally), so a period's deltas sum to the
player's move. A player's ``deviation`` (Elo) is the paper's estimate of the uncertainty of the rating on
their last day (:meth:`WhrRules.deviation`, §3.3), grown by the Wiener process to the period's last day
(``√(σ² + w² · days)``: an idle player's rating grows less certain, as the model says): the ``deviation``
of ``ratings`` (the outcome's, null for a fixed player); a change row's ``deviation`` is the same grown to
the period's eve (a newcomer's: the prior's alone, :data:`PRIOR_DEVIATION`, 245.65). A fixed player keeps
their rating on every day.

Knows nothing of SGF or files; the fit knows nothing of games.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.config.toml import Table, number
from pipeline.core import periods
from pipeline.core.i18n import N_
from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules import gor, whr_fit, whr_history
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
from pipeline.rules.whr_fit import ELO, Array
from pipeline.rules.whr_history import Batch, History

NAME = "whr"
#: The paper's Table 1: the Wiener variance that predicted KGS's games best, Elo² per day.
DEFAULT_W2 = 14.0
DEFAULTS = Validity(excluded=frozenset({"draw", "no_show", "handicap"}))
#: A newcomer's deviation (Elo) before their first game: that of the prior alone (one virtual win and one
#: virtual loss at the starting rating: minus its second derivative there is ½, a variance of 2).
PRIOR_DEVIATION = math.sqrt(2.0) * ELO
_ANCHOR = 2100.0  # 1d's GoR, and its whr rating
_GOR_TOP = 3299.0  # β is defined below 3300 (EGD 2021 caps there too)
_GRADES = np.array([f"{min(g - 20, 7)}d" if g >= 21 else f"{min(21 - g, 30)}k" for g in range(-9, 28)])

CHANGE_FIELDS = pa.schema(
    [
        _f("se", pa.float64(), "the player's probability of winning, from both ratings before the period"),
        _f("opponent_rating", pa.float64(), "the opponent's rating before the period (a visitor's: fixed)"),
        _f("advantage", pa.float64(), "the player's advantage in Elo: + the handicap received, - given"),
        _f("day_rating", pa.float64(), "the player's estimate on the game's day, at the period's end"),
    ]
)


def _eve_and_end(period: str) -> tuple[int, int]:
    """The ordinals of the day before ``period`` and of its last day; for a label that is not a period's
    (a caller's own batch), no day at all (0: no player's last day is before it, so nothing grows)."""
    try:
        first, last = periods.bounds(period)
    except periods.PeriodError:
        return 0, 0
    return first.toordinal() - 1, last.toordinal()


def _beta(g: Array | float) -> Any:
    return -7.0 * np.log(3300.0 - np.minimum(g, _GOR_TOP))


def rating_of_gor(g: Array | float) -> Any:
    """The whr rating (Elo) of the GoR rating ``g``: ``2100 + ELO × (β(g) − β(2100))``."""
    return _ANCHOR + ELO * (_beta(g) - _beta(_ANCHOR))


def gor_of(rating: Array | float) -> Any:
    """The GoR rating that :func:`rating_of_gor` maps to ``rating`` (its inverse)."""
    return 3300.0 - np.exp(-((rating - _ANCHOR) / ELO + _beta(_ANCHOR)) / 7.0)


def start_rating(rank: Rank | None) -> float:
    """The starting rating of ``rank`` (None: 20k) on the whr scale (the module docstring)."""
    return float(rating_of_gor(gor.rating_for_rank(rank)))


def rank_labels(ratings: Array) -> Array:
    """The rank of each rating: the grade whose GoR start is nearest to the rating's GoR (30k to 7d)."""
    grade = np.floor(gor_of(ratings) / 100.0 + 0.5)
    found: Array = _GRADES[np.clip(np.nan_to_num(grade, nan=-9.0), -9, 27).astype(np.int64) + 9]
    return found


def handicap_advantage(rating: Array | float, stones: Array | float) -> Any:
    """The receiver's advantage (Elo) of ``stones`` handicap stones at ``rating``: ``stones − 0.5`` grades of
    GoR at the receiver's level (0 for no stone)."""
    g = gor_of(rating)
    shift = np.where(np.asarray(stones) >= 1, 100.0 * (np.asarray(stones) - 0.5), 0.0)
    return rating_of_gor(g + shift) - rating_of_gor(g)


class WhrRules(RosterRules):
    """Whole-History Rating with the Wiener variance ``w2`` (Elo² per day), configured once; pure after.

    Its standings are :class:`~pipeline.rules.base.Closed` with the whole history as their carry; from
    standings of anywhere else (a resumed run's kept standings) the history is rebuilt from every player's
    share (:func:`~pipeline.rules.whr_history.restore`), and a player with no share starts at their rating."""

    change_fields = CHANGE_FIELDS
    report_columns: tuple[str, ...] = ()

    def __init__(self, context: Context, w2: float = DEFAULT_W2) -> None:
        super().__init__(context)
        self.name, self.w2 = NAME, w2

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Add the period's games to the history, estimate it all again (warm-started from the previous
        estimate), and give the standings and a change row per game and rated player."""
        closed = closed_by(state, self.name)
        history = (
            closed.carry if closed is not None and isinstance(closed.carry, History) else _restored(state)
        )
        batch, kept = self._batch(history, games)
        eve, last_day = _eve_and_end(period)
        if not len(batch.day):
            end = closed if closed is not None else self._close(history, state)
            return PeriodOutcome({}, end, [], [], deviation=self._grown(history, last_day))
        grown = whr_history.extend(history, batch)
        problem = whr_history.problem(grown, whr_fit.natural(self.w2))
        r, _ = whr_fit.fit(problem, whr_history.start(grown))
        fitted = whr_history.fitted(grown, r[: len(grown.r)], self._deviations(grown, problem, r))
        changes = self._changes(history, fitted, games, kept, self._grown(history, eve))
        start = {**state, **self._starts(kept)}
        end = self._close(fitted, start)
        return PeriodOutcome(start, end, changes, [], deviation=self._grown(fitted, last_day))

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """None: whr has no report tables."""
        return {}

    @staticmethod
    def deviation(state: PlayerState) -> float | None:
        """The deviation (Elo) of ``state``'s rating, the paper's §3.3: the square root of the diagonal of
        the inverse of minus the player's own tridiagonal Hessian on their last day, the opponents at their
        estimates; None for a fixed player or one without a day."""
        found = state.extra.get("deviation")
        return None if found is None or math.isnan(found) else float(found)

    def newcomer(self, name: str, recorded: Rank | None) -> tuple[float, bool, str]:
        """(starting rating, fixed, rank label) of a first-seen player: the roster's rating (on this scale:
        :func:`pipeline.rules.scales.starting_ratings`), else that of the declared rank, else that of
        ``recorded``."""
        declared, player = self.declared(name)
        rank = declared or recorded
        given = player.rating if player is not None else None
        rating = given if given is not None else start_rating(rank)
        fixed = player is not None and player.fixed
        label = (str(rank) if rank is not None else "?") if fixed else str(rank_labels(np.array([rating]))[0])
        return rating, fixed, label

    def _batch(self, history: History, games: Sequence[Game]) -> tuple[Batch, _Kept]:
        """The period's :class:`Batch` of the games with a rated side, and what their change rows need."""
        now = history.current() * ELO
        fresh: dict[str, tuple[int, float, bool, str]] = {}
        rows: list[tuple[int, int, int, float, float, float, float, int]] = []
        for position, game in enumerate(games):
            if game.black_rated or game.white_rated:
                b, b_before = self._side(history, now, fresh, game.black, game.black_rated, game.black_rank)
                w, w_before = self._side(history, now, fresh, game.white, game.white_rated, game.white_rank)
                rows.append((position, b, w, b_before, w_before, game.score("B"), game.handicap,
                             game.date.toordinal()))  # fmt: skip
        at, black, white, black_before, white_before, score, stones, day = (
            np.array(column, np.float64) for column in (zip(*rows, strict=True) if rows else [()] * 8)
        )
        advantage = np.asarray(handicap_advantage(black_before, stones), np.float64)
        guest = np.where(black < 0, black_before, np.where(white < 0, white_before, np.nan))
        kept = _Kept(at.astype(np.int64), black.astype(np.int64), white.astype(np.int64), black_before,
                     white_before, score, advantage, fresh)  # fmt: skip
        names = list(fresh)
        batch = Batch(
            names,
            np.array([fresh[n][1] for n in names], np.float64) / ELO,
            np.array([fresh[n][2] for n in names], bool),
            day.astype(np.int32),
            black.astype(np.int32),
            white.astype(np.int32),
            score,
            advantage / ELO,
            guest / ELO,
        )
        return batch, kept

    def _side(
        self,
        history: History,
        now: Array,
        fresh: dict[str, tuple[int, float, bool, str]],
        name: str,
        rated: bool,
        rank: Rank | None,
    ) -> tuple[int, float]:
        """(number, rating before) of one side of a game: -1 for a visitor (at their starting rating, not
        kept); a newcomer is numbered after the history's players (added to ``fresh``)."""
        if not rated:
            return -1, self.newcomer(name, rank)[0]
        i = history.index.get(name)
        if i is not None:
            return i, float(now[i])
        if name not in fresh:
            rating, fixed, label = self.newcomer(name, rank)
            fresh[name] = (history.players + len(fresh), rating, fixed, label)
        return fresh[name][0], fresh[name][1]

    def _deviations(self, history: History, problem: whr_fit.Problem, r: Array) -> Array:
        """Each player's deviation (Elo) on their last day; NaN for a fixed player or one without a day."""
        played = (history.offsets[1:] > history.offsets[:-1]) & ~history.fixed
        found = np.full(history.players, np.nan)
        last = history.offsets[1:][played] - 1
        found[played] = np.sqrt(whr_fit.variances(problem, r, last)) * ELO
        return found

    def _grown(self, history: History, day: int) -> Array:
        """Each player's deviation (Elo) on ``day`` (an ordinal, not before their last day): that on their
        last day grown by the Wiener process over the days since, ``√(σ² + w² · days)`` (the paper's §2.2:
        the variance of a rating grows by w² a day); NaN where :attr:`History.deviation` is."""
        has_day = history.offsets[1:] > history.offsets[:-1]
        days = np.append(history.when, day)  # (the last: ``day`` itself, for a player without a day)
        idle = np.maximum(day - days[np.where(has_day, history.offsets[1:] - 1, len(history.when))], 0)
        grown: Array = np.sqrt(history.deviation**2 + self.w2 * idle)
        return grown

    def _changes(
        self, before: History, after: History, games: Sequence[Game], kept: _Kept, deviation_before: Array
    ) -> list[Change]:
        """A change row per kept game and rated side, in the games' order, Black's first (see the module
        docstring for what each column says); ``deviation_before``: each player's of ``before`` on the
        period's eve."""
        n = len(kept.at)
        players = np.concatenate([kept.black, kept.white])
        own = np.concatenate([kept.black_before, kept.white_before])
        other = np.concatenate([kept.white_before, kept.black_before])
        advantage = np.concatenate([kept.advantage, 0.0 - kept.advantage])  # (0.0, not -0.0)
        se = whr_fit.expected(own / ELO, other / ELO, advantage / ELO)
        rated = players >= 0
        slots = np.concatenate(
            [after.black_slot[len(after.day) - n :], after.white_slot[len(after.day) - n :]]
        )
        at = np.where(rated, whr_history.variables(after, np.clip(players, 0, None), slots), 0)
        deviation = self._deviations_before(deviation_before, after)[np.clip(players, 0, None)]
        day_rating = after.r[at] * ELO
        points = np.where(rated, self._steps(before, after, players, at, own) * ELO, 0.0)
        rows = np.column_stack([np.arange(n), np.arange(n) + n]).ravel()  # Black's row, then White's
        rows = rows[rated[rows]]
        played = [games[k] for k in np.concatenate([kept.at, kept.at])[rows].tolist()]
        score = np.concatenate([kept.score, 1.0 - kept.score])
        columns = zip(
            played, [after.names[i] for i in players[rows].tolist()], (rows < n).tolist(),
            score[rows].tolist(), own[rows].tolist(), points[rows].tolist(), se[rows].tolist(),
            other[rows].tolist(), advantage[rows].tolist(), day_rating[rows].tolist(),
            deviation[rows].tolist(), strict=True,
        )  # fmt: skip
        return [
            Change(game.game_id, player, game.white if black else game.black, "B" if black else "W", sc,
                   start, pts, detail={"se": e, "opponent_rating": opp, "advantage": adv, "day_rating": day},
                   deviation=None if dev != dev else dev)  # (NaN: none, a fixed player)
            for game, player, black, sc, start, pts, e, opp, adv, day, dev in columns
        ]  # fmt: skip

    @staticmethod
    def _deviations_before(before: Array, after: History) -> Array:
        """Each player's deviation (Elo) before the period, numbered as in ``after``: ``before`` (the
        previous snapshot's players' on the period's eve), a newcomer's that of their prior alone
        (:data:`PRIOR_DEVIATION`); NaN for a fixed player (and one restored without a day)."""
        fresh = np.where(after.fixed[len(before) :], np.nan, PRIOR_DEVIATION)
        found: Array = np.concatenate([before, fresh])
        return found

    @staticmethod
    def _steps(before: History, after: History, players: Array, at: Array, own: Array) -> Array:
        """Each game side's share (natural units) of the move of its player's estimate: from their day
        before it in this period (or ``own``, the rating before the period) to its day, shared equally
        by the games of the day (``at``: each side's variable in ``after``)."""
        kept = np.zeros(after.players, np.int64)
        kept[: before.players] = np.diff(before.offsets)
        mine = np.clip(players, 0, None)
        first_new = (after.offsets[:-1] + kept)[mine]
        previous = np.where(at - 1 >= first_new, after.r[np.clip(at - 1, 0, None)], own / ELO)
        rated = players >= 0
        sharing = np.bincount(at[rated], minlength=len(after.r))[at]
        found: Array = (after.r[at] - previous) / np.maximum(sharing, 1)
        return found

    def _starts(self, kept: _Kept) -> dict[str, PlayerState]:
        """The newcomers' states at the period's start."""
        return {
            name: PlayerState(rating, label, 0, fixed)
            for name, (_, rating, fixed, label) in kept.fresh.items()
        }

    def _close(self, history: History, state: Mapping[str, PlayerState]) -> Closed:
        """The standings at the period's end: every player of ``history``, in its order, with their share
        (a fixed player keeps the rank label of ``state``)."""
        ratings = history.current() * ELO
        labels = rank_labels(ratings).tolist()
        for i in np.flatnonzero(history.fixed).tolist():
            before = state.get(history.names[i])
            labels[i] = before.rank if before is not None else labels[i]
        shares = map(_Share, itertools.repeat(history), range(history.players))
        states = map(
            PlayerState, ratings.tolist(), labels, history.games.tolist(), history.fixed.tolist(), shares
        )
        return Closed(dict(zip(history.names, states, strict=True)), NAME, history)


@dataclass(frozen=True, slots=True)
class _Kept:
    """A period's games with a rated side, as their change rows need them: ``at`` (the game's position in
    the period), each side's player number (-1: a visitor) and rating before the period (Elo), Black's
    score and advantage (Elo), and the newcomers (``fresh``: name -> number, starting rating, fixed, rank
    label), in the order they came."""

    at: Array
    black: Array
    white: Array
    black_before: Array
    white_before: Array
    score: Array
    advantage: Array
    fresh: dict[str, tuple[int, float, bool, str]]


def _restored(state: Mapping[str, PlayerState]) -> History:
    """The history of standings not closed by whr in this process: rebuilt from the players' shares; a
    player without one (standings from elsewhere) starts at their rating, with no day."""
    if not state:
        return whr_history.empty()
    shares = [
        dict(s.extra["whr"], name=name, games_total=s.games_total)
        for name, s in state.items()
        if "whr" in s.extra
    ]
    others = [
        (name, s.rating / ELO, s.fixed, s.games_total) for name, s in state.items() if "whr" not in s.extra
    ]
    return whr_history.restore(shares, others)


class _Share(Mapping[str, Any]):
    """A player's ``extra``: their ``deviation`` and their share of the history (``whr``:
    :func:`~pipeline.rules.whr_history.saved`), worked out when read or pickled (as a plain dict)."""

    __slots__ = ("_history", "_i")

    def __init__(self, history: History, i: int) -> None:
        self._history, self._i = history, i

    def __getitem__(self, key: str) -> Any:
        if key == "deviation":
            value = float(self._history.deviation[self._i])
            return None if math.isnan(value) else value
        if key == "whr":
            return whr_history.saved(self._history, self._i)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("deviation", "whr"))

    def __len__(self) -> int:
        return 2

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return dict, (dict(self),)

    def __repr__(self) -> str:
        return repr(dict(self))


def _build(context: Context, params: Table) -> RuleSet:
    params.check_keys(("w2",))
    return WhrRules(context, params.get("w2", number(positive=True), DEFAULT_W2))


FAMILY = Family(
    NAME,
    _build,
    DEFAULTS,
    N_(
        "Whole-History Rating (Coulom, 2008): after each period every player's whole rating history is "
        "estimated again from all the games so far, a Bayesian fit in which strength drifts from day to day"
    ),
    scale=Scale(NAME, NAME, 0.0, 4000.0, start_rating),
    explanation="generic",
    deviation=True,
)
