"""rules.whr_history: what Whole-History Rating carries from one period to the next, as arrays: every game
rated so far and every player's rating on every day they played (:class:`History`), how a period's games
extend it (:func:`extend`), the fit's problem it poses (:func:`problem`), and how each player's share of
it rides in their standings and is read back (:func:`saved`, :func:`restore`).

A :class:`History` is never changed: a period makes a new one. Players are numbered in the order they were
first rated; games in the order they were rated; the rating variables (a player's days) are sorted by
player, then day. A period's days all come after every earlier period's, so a player's new days follow
their old ones (a game keeps the place of its day among its player's days: its ``slot``), and a new day
starts at the rating of the player's latest (the warm start).

In the standings each player's ``extra`` holds their share (:func:`saved`): their number, their prior's
centre, their days and ratings, their deviation and the games they own (a game is owned by its Black, or by
its White when Black is a visitor), each with its place in the whole history. :func:`restore` rebuilds the
very same arrays from every player's share, so a run resumed from kept standings computes what a run from
scratch does, to the bit.

Knows nothing of what names mean, of ranks, dates or how the fit is done (:mod:`pipeline.rules.whr_fit`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipeline.rules import whr_fit
from pipeline.rules.whr_fit import Array, Problem

#: A game as its owner keeps it: its place in the history, its day, the opponent's number (-1: a
#: visitor), the owner's colour (0 Black, 1 White), Black's score and advantage (natural units) and the
#: visitor's rating (natural units; NaN when both sides are rated).
GAME = np.dtype(
    [("serial", "<i8"), ("day", "<i4"), ("opponent", "<i4"), ("color", "i1"), ("score", "<f8"),
     ("advantage", "<f8"), ("guest", "<f8")]
)  # fmt: skip
_SHIFT = np.int64(1 << 32)  # a (player, day) key: player << 32 | day


@dataclass(frozen=True, slots=True, eq=False)
class History:
    """Every game rated so far and every player's rating on each of their days (see the module docstring).

    Per player: ``names`` (and ``index``, name -> number), ``center`` (the prior's virtual opponent, or a
    fixed player's rating; natural units), ``fixed``, ``games`` (change rows so far), ``offsets`` (their
    variables are ``offsets[i]:offsets[i + 1]``), ``deviation`` (of the rating on their last day, Elo; NaN
    when none). Per game: ``day``, ``black`` and ``white`` (numbers; -1 a visitor), ``black_slot`` and
    ``white_slot`` (the place of the game's day among its player's days; -1 a visitor), ``score``
    (Black's), ``advantage`` (Black's, natural units), ``guest`` (a visitor's rating, natural units; NaN
    when none). Per variable: ``player``, ``when`` (the day) and ``r`` (the rating, natural units)."""

    names: list[str]
    index: dict[str, int]
    center: Array
    fixed: Array
    games: Array
    offsets: Array
    deviation: Array
    day: Array
    black: Array
    white: Array
    black_slot: Array
    white_slot: Array
    score: Array
    advantage: Array
    guest: Array
    player: Array
    when: Array
    r: Array
    _owned: dict[str, Any] = field(default_factory=dict)  # every player's share, made once (:func:`saved`)

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.names)

    def current(self) -> Array:
        """Each player's rating on their last day (natural units); the centre when they have none."""
        found = self.center.copy()
        played = self.offsets[1:] > self.offsets[:-1]
        found[played] = self.r[self.offsets[1:][played] - 1]
        return found


def empty() -> History:
    """The history before any game."""
    ints, floats = np.zeros(0, np.int32), np.zeros(0, np.float64)
    return History([], {}, floats, np.zeros(0, bool), np.zeros(0, np.int64), np.zeros(1, np.int64), floats,
                   ints, ints, ints, ints, ints, floats, floats, floats, ints, ints, floats)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Batch:
    """A period's additions: new players (``names``, ``center``, ``fixed``: as :class:`History`) and its
    games in order (``day``, ``black``, ``white``, ``score``, ``advantage``, ``guest``: as :class:`History`,
    numbered over the old players and then the new)."""

    names: list[str]
    center: Array
    fixed: Array
    day: Array
    black: Array
    white: Array
    score: Array
    advantage: Array
    guest: Array


def extend(history: History, batch: Batch) -> History:
    """``history`` with ``batch``'s players and games; each player's new days start at the rating of their
    latest day (a new player: their centre). Raises ValueError if a game of ``batch`` is on or before a day
    its player already has."""
    total = history.players + len(batch.names)
    kept = np.zeros(total, np.int64)
    kept[: history.players] = np.diff(history.offsets)
    sides = np.concatenate([batch.black, batch.white]).astype(np.int64)
    rated = sides >= 0
    side_keys = sides[rated] * _SHIFT + np.concatenate([batch.day, batch.day])[rated]
    keys = np.unique(side_keys)
    new_player, new_when = (keys // _SHIFT).astype(np.int32), (keys % _SHIFT).astype(np.int32)
    _check_later(history, new_player, new_when)
    rank = np.arange(len(keys)) - np.searchsorted(new_player, new_player, side="left")
    slots = np.full(len(sides), -1, np.int32)
    slots[rated] = (kept[new_player] + rank)[np.searchsorted(keys, side_keys)]
    player = np.concatenate([history.player, new_player])
    order = np.argsort(player, kind="stable")  # (a player's old days come before their new ones)
    counts = np.bincount(player, minlength=total)
    n = len(batch.day)
    return History(
        names=history.names + batch.names,
        index=history.index | {name: history.players + i for i, name in enumerate(batch.names)},
        center=np.concatenate([history.center, batch.center]),
        fixed=np.concatenate([history.fixed, batch.fixed]),
        games=np.concatenate([history.games, np.zeros(len(batch.names), np.int64)])
        + np.bincount(sides[rated], minlength=total),
        offsets=np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        deviation=np.concatenate([history.deviation, np.full(len(batch.names), np.nan)]),
        day=np.concatenate([history.day, batch.day]),
        black=np.concatenate([history.black, batch.black]),
        white=np.concatenate([history.white, batch.white]),
        black_slot=np.concatenate([history.black_slot, slots[:n]]),
        white_slot=np.concatenate([history.white_slot, slots[n:]]),
        score=np.concatenate([history.score, batch.score]),
        advantage=np.concatenate([history.advantage, batch.advantage]),
        guest=np.concatenate([history.guest, batch.guest]),
        player=player[order],
        when=np.concatenate([history.when, new_when])[order],
        r=np.concatenate([history.r, np.concatenate([history.current(), batch.center])[new_player]])[order],
    )


def _check_later(history: History, player: Array, day: Array) -> None:
    """Raises ValueError if a new (``player``, ``day``) is on or before that player's last day."""
    old = player < history.players
    last = history.offsets[1:][player[old]] - 1
    has = last >= history.offsets[:-1][player[old]]
    if (history.when[last[has]] >= day[old][has]).any():
        raise ValueError("a period's games must all come after the days already rated")


def variables(history: History, sides: Array, slots: Array) -> Array:
    """The rating variable of each player of ``sides`` (numbers, each >= 0) on their day of ``slots``."""
    found: Array = history.offsets[sides] + slots
    return found


def problem(history: History, w2: float) -> Problem:
    """The fit's problem (:class:`~pipeline.rules.whr_fit.Problem`) of ``history`` with the Wiener variance
    ``w2`` (natural units² per day): the players' days, then one variable held at each visitor's rating
    (one per game side a visitor plays); the games in the order of Black's variable."""
    n = len(history.r)
    black = _sides(history, history.black, history.black_slot, n)
    white = _sides(history, history.white, history.white_slot, n + int((history.black < 0).sum()))
    player_fixed = history.fixed[history.player]
    link = whr_fit.links(history.player, history.when, w2)
    link[player_fixed[:-1]] = 0.0
    played = (history.offsets[1:] > history.offsets[:-1]) & ~history.fixed
    guests = int((history.black < 0).sum() + (history.white < 0).sum())
    free = np.concatenate([~player_fixed, np.zeros(guests, bool)])
    link = np.concatenate([link, np.zeros(guests)]) if n else np.zeros(max(guests - 1, 0))
    order = np.argsort(black, kind="stable")  # Black's ratings read in order: faster (the cache)
    return Problem(black[order], white[order], history.score[order], history.advantage[order], link,
                   history.offsets[:-1][played], history.center[played], free)  # fmt: skip


def _sides(history: History, side: Array, slot: Array, after: int) -> Array:
    """The variables of one side of every game: the player's day, or (a visitor) the next variable held
    fixed from ``after`` on."""
    found = np.empty(len(side), np.int64)
    rated = side >= 0
    found[rated] = variables(history, side[rated], slot[rated])
    found[~rated] = after + np.arange(int((~rated).sum()))
    return found


def start(history: History) -> Array:
    """The ratings :func:`problem`'s variables start from: the history's, then the visitors'."""
    return np.concatenate([history.r, history.guest[history.black < 0], history.guest[history.white < 0]])


def fitted(history: History, r: Array, deviation: Array) -> History:
    """``history`` with the ratings ``r`` (its variables') and each player's ``deviation`` (Elo)."""
    return dataclasses.replace(history, r=r, deviation=deviation, _owned={})


def saved(history: History, i: int) -> dict[str, Any]:
    """Player ``i``'s share of ``history`` (plain values and bytes): ``index``, ``center``, ``fixed``,
    ``days`` and ``r`` (int32 and float64 bytes), ``deviation``, ``games`` (:data:`GAME` bytes: the games
    they own). Every player's bytes are made together, the first time one is asked for (:func:`_owned`)."""
    owned = _owned(history)
    days, games = slice(*owned["days"][i : i + 2]), slice(*owned["games"][i : i + 2])
    return {
        "index": i,
        "center": float(history.center[i]),
        "fixed": bool(history.fixed[i]),
        "days": owned["when"][days],
        "r": owned["r"][slice(2 * days.start, 2 * days.stop)],
        "deviation": float(history.deviation[i]),
        "games": owned["owned"][games],
    }


def _owned(history: History) -> dict[str, Any]:
    """Every player's share as bytes, each player's a slice: ``when`` (4 bytes a day) and ``r`` (8), with
    ``days`` the byte offsets of each player's days in ``when``; ``owned`` the games (:data:`GAME`) by
    owner, with ``games`` each owner's byte offsets."""
    if not history._owned:
        owner = np.where(history.black >= 0, history.black, history.white)
        mine = np.argsort(owner, kind="stable")
        black = history.black[mine]
        games = np.empty(len(mine), GAME)
        games["serial"] = mine
        games["day"] = history.day[mine]
        games["color"] = (black != owner[mine]).astype(np.int8)
        games["opponent"] = np.where(black == owner[mine], history.white[mine], black)
        games["score"] = history.score[mine]
        games["advantage"] = history.advantage[mine]
        games["guest"] = history.guest[mine]
        counts = np.bincount(owner, minlength=history.players)
        history._owned.update(
            when=history.when.tobytes(),
            r=history.r.tobytes(),
            days=(history.offsets * 4).tolist(),
            owned=games.tobytes(),
            games=(np.concatenate([[0], np.cumsum(counts)]) * GAME.itemsize).tolist(),
        )
    return history._owned


def restore(shares: Sequence[Mapping[str, Any]], others: Sequence[tuple[str, float, bool, int]]) -> History:
    """The history whose players' shares (:func:`saved`, each with the player's ``name`` and ``games``, their
    change rows so far) are ``shares``, then the players of ``others`` (name, centre, fixed, change rows)
    who have none. Raises ValueError if the shares are not one history's (their numbers are not 0, 1, ... or
    their games' places are not 0, 1, ...)."""
    shares = sorted(shares, key=lambda s: int(s["index"]))
    if [int(s["index"]) for s in shares] != list(range(len(shares))):
        raise ValueError("the standings' whr shares are not numbered 0, 1, ...: not one run's history")
    names = [str(s["name"]) for s in shares] + [o[0] for o in others]
    days = [np.frombuffer(s["days"], np.int32) for s in shares]
    counts = np.array([len(d) for d in days] + [0] * len(others), np.int64)
    owned = [np.frombuffer(s["games"], GAME) for s in shares]
    owner = np.repeat(np.arange(len(shares), dtype=np.int32), [len(g) for g in owned])
    games = np.concatenate([np.empty(0, GAME), *owned])
    order = np.argsort(games["serial"], kind="stable")
    games, owner = games[order], owner[order]
    if not np.array_equal(games["serial"], np.arange(len(games))):
        raise ValueError("the standings' whr games are not numbered 0, 1, ...: not one run's history")
    white_owns = games["color"] == 1
    black = np.where(white_owns, games["opponent"], owner).astype(np.int32)
    white = np.where(white_owns, owner, games["opponent"]).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    player = np.repeat(np.arange(len(names), dtype=np.int32), counts)
    when = np.concatenate([np.zeros(0, np.int32), *days])
    day = games["day"].astype(np.int32)
    return History(
        names=names,
        index={name: i for i, name in enumerate(names)},
        center=np.array([float(s["center"]) for s in shares] + [o[1] for o in others], np.float64),
        fixed=np.array([bool(s["fixed"]) for s in shares] + [o[2] for o in others], bool),
        games=np.array([int(s["games_total"]) for s in shares] + [o[3] for o in others], np.int64),
        offsets=offsets,
        deviation=np.array([float(s["deviation"]) for s in shares] + [np.nan] * len(others), np.float64),
        day=day,
        black=black,
        white=white,
        black_slot=_slots(player, when, offsets, black, day),
        white_slot=_slots(player, when, offsets, white, day),
        score=games["score"].astype(np.float64),
        advantage=games["advantage"].astype(np.float64),
        guest=games["guest"].astype(np.float64),
        player=player,
        when=when,
        r=np.concatenate([np.zeros(0, np.float64), *(np.frombuffer(s["r"], np.float64) for s in shares)]),
    )


def _slots(player: Array, when: Array, offsets: Array, side: Array, day: Array) -> Array:
    """The place of each game's day among its player's days (-1 for a visitor)."""
    found = np.full(len(side), -1, np.int32)
    rated = side >= 0
    keys = player.astype(np.int64) * _SHIFT + when
    at = np.searchsorted(keys, side[rated].astype(np.int64) * _SHIFT + day[rated])
    found[rated] = at - offsets[side[rated]]
    return found
