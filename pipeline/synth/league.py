"""A synthetic league whose true strengths are known: the test bed of ``ratings backtest``.

``players`` players get true strengths on the Elo scale, evenly spread over ``spread`` points around
``centre``; ``games`` games between random pairs (colours at random) fall on random days of ``months``
consecutive months from ``start``; each outcome is drawn from the true win probability
``1 / (1 + 10^((s_white − s_black) / 400))`` (even games: no handicap, komi 6.5, slow time control).

Two things real players and records have, each off by default (the league is then the same, draw for
draw, as one made without them):

- ``drift``: strengths change, each player's a Gaussian random walk (the Wiener process of Coulom's
  Whole-History Rating) with a standard deviation of ``drift`` Elo a year, from their starting strength
  on the league's first day; a game is drawn from the strengths on its day.
- ``registered_ranks``: the rank written is the one the player registered with (their strength on their
  first game's day, plus the noise, drawn once), never updated, as on a server where the rank is
  declared; otherwise each record's rank is drawn afresh from the strength on its day.

The ranks written in ``BR``/``WR`` are the grade of the strength plus Gaussian noise (``rank_noise``
Elo), 100 Elo a grade with 2100 = 1d and 2000 = 1k (the usual EGF convention), from 30k to 9d.
Records are OGS-style UTF-8 files ``YYYY-MM/NNNNN.sgf`` written by
:func:`pipeline.synth.records.game_record`, one game a file.

Knows nothing of the pipeline's reading of the records nor of any rule set's ratings: the truth it
returns is what a backtest is measured against. Randomness comes only from ``random.Random(seed)``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import random
from dataclasses import dataclass

from pipeline.synth.records import Record, game_record


@dataclass(frozen=True, slots=True)
class LeagueGame:
    """One game: its date (ISO), players, the winner (``B`` or ``W``) and the true P(Black wins)."""

    date: str
    black: str
    white: str
    winner: str
    p_black: float


@dataclass(frozen=True, slots=True)
class League:
    """The league: true starting strengths by player, the games in date order (with the true probability
    on the day), and their records."""

    strengths: dict[str, float]
    games: tuple[LeagueGame, ...]
    records: tuple[Record, ...]


def win_probability(black: float, white: float) -> float:
    """The true probability that a player of strength ``black`` beats one of ``white`` (Elo, 400 scale)."""
    return 1 / (1 + 10 ** ((white - black) / 400))


def rank_of(strength: float) -> str:
    """The rank of an Elo ``strength``: 100 a grade, 2100 (2050-2149) = 1d, 2000 = 1k, clamped to 30k..9d."""
    grade = math.floor((strength - 2100) / 100 + 0.5)  # 0 = 1d, -1 = 1k
    return f"{min(grade, 8) + 1}d" if grade >= 0 else f"{min(-grade, 30)}k"


def synthetic_league(
    players: int = 24,
    games: int = 1500,
    months: int = 6,
    spread: float = 600.0,
    centre: float = 2050.0,
    start: tuple[int, int] = (2024, 1),
    rank_noise: float = 50.0,
    seed: int = 1,
    drift: float = 0.0,
    registered_ranks: bool = False,
) -> League:
    """The league described in the module docstring (``players`` >= 2, ``games`` >= 0, ``months`` >= 1,
    ``drift`` >= 0).

    Raises ValueError if ``players`` < 2, ``months`` < 1 or ``drift`` < 0.
    """
    if players < 2 or months < 1:
        raise ValueError(f"a league needs >= 2 players and >= 1 month, got {players} and {months}")
    if drift < 0:
        raise ValueError(f"drift is a standard deviation (Elo a year): >= 0, got {drift}")
    rng = random.Random(seed)
    step = spread / (players - 1)
    strengths = {f"P{i + 1:02d}": centre - spread / 2 + i * step for i in range(players)}
    names = list(strengths)
    drawn = sorted((_date(rng, start, rng.randrange(months)), *rng.sample(names, 2)) for _ in range(games))
    walk = _Walk(rng, strengths, drift, dt.date(*start, 1))
    played, ranks = [], _Ranks(rng, rank_noise, registered_ranks)
    for date, black, white in drawn:
        day = dt.date.fromisoformat(date)
        s_black, s_white = walk.on(black, day), walk.on(white, day)
        p = win_probability(s_black, s_white)
        game = LeagueGame(date, black, white, "B" if rng.random() < p else "W", p)
        played.append((game, s_black, s_white))
    records = tuple(_record(rng, i, *row, ranks) for i, row in enumerate(played))
    return League(strengths, tuple(game for game, _, _ in played), records)


class _Walk:
    """Each player's strength on a day: their start plus a Gaussian random walk of ``drift`` Elo a year
    (no draw at all when ``drift`` is 0). Days are asked in order."""

    def __init__(self, rng: random.Random, start: dict[str, float], drift: float, first: dt.date) -> None:
        self._rng, self._drift = rng, drift
        self._now = {name: (first, strength) for name, strength in start.items()}

    def on(self, player: str, day: dt.date) -> float:
        last, strength = self._now[player]
        if self._drift and day > last:
            strength += self._rng.gauss(0, self._drift * math.sqrt((day - last).days / 365.25))
            self._now[player] = (day, strength)
        return strength


class _Ranks:
    """The rank a record says: drawn afresh from the day's strength, or (``registered``) drawn once from
    the strength of the player's first record and kept."""

    def __init__(self, rng: random.Random, noise: float, registered: bool) -> None:
        self._rng, self._noise, self._registered = rng, noise, registered
        self._kept: dict[str, str] = {}

    def of(self, player: str, strength: float) -> str:
        if player in self._kept:
            return self._kept[player]
        rank = rank_of(strength + self._rng.gauss(0, self._noise))
        if self._registered:
            self._kept[player] = rank
        return rank


def _date(rng: random.Random, start: tuple[int, int], offset: int) -> str:
    """A random day (ISO) of the month ``offset`` months after ``start`` (year, month)."""
    year, month = divmod(start[0] * 12 + start[1] - 1 + offset, 12)
    return f"{year:04d}-{month + 1:02d}-{rng.randint(1, calendar.monthrange(year, month + 1)[1]):02d}"


def _record(
    rng: random.Random, index: int, game: LeagueGame, s_black: float, s_white: float, ranks: _Ranks
) -> Record:
    data = game_record(
        rng,
        style="ogs",
        black=game.black,
        white=game.white,
        black_rank=ranks.of(game.black, s_black),
        white_rank=ranks.of(game.white, s_white),
        result=f"{game.winner}+R",
        date=game.date,
        main_time_s=3600,
        moves=rng.randint(30, 90),
        komi=6.5,
    )
    return Record(f"{game.date[:7]}/{index:05d}.sgf", data)
