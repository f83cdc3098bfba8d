"""A synthetic league whose true strengths are known: the test bed of ``ratings backtest``.

``players`` players get true strengths on the Elo scale, evenly spread over ``spread`` points around
``centre``; ``games`` games between random pairs (colours at random) fall on random days of ``months``
consecutive months from ``start``; each outcome is drawn from the true win probability
``1 / (1 + 10^((s_white − s_black) / 400))`` (even games: no handicap, komi 6.5, slow time control).
The ranks written in ``BR``/``WR`` are near the truth: the grade of the strength plus Gaussian noise
(``rank_noise`` Elo), 100 Elo a grade with 2100 = 1d and 2000 = 1k (the usual EGF convention), from
30k to 9d. Records are OGS-style UTF-8 files ``YYYY-MM/NNNNN.sgf`` written by
:func:`pipeline.synth.records.game_record`, one game a file.

Knows nothing of the pipeline's reading of the records nor of any rule set's ratings: the truth it
returns is what a backtest is measured against. Randomness comes only from ``random.Random(seed)``.
"""

from __future__ import annotations

import calendar
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
    """The league: true strengths by player, the games in date order, and their records."""

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
) -> League:
    """The league described in the module docstring (``players`` >= 2, ``games`` >= 0, ``months`` >= 1).

    Raises ValueError if ``players`` < 2 or ``months`` < 1.
    """
    if players < 2 or months < 1:
        raise ValueError(f"a league needs >= 2 players and >= 1 month, got {players} and {months}")
    rng = random.Random(seed)
    step = spread / (players - 1)
    strengths = {f"P{i + 1:02d}": centre - spread / 2 + i * step for i in range(players)}
    names = list(strengths)
    drawn = sorted((_date(rng, start, rng.randrange(months)), *rng.sample(names, 2)) for _ in range(games))
    played = []
    for date, black, white in drawn:
        p = win_probability(strengths[black], strengths[white])
        played.append(LeagueGame(date, black, white, "B" if rng.random() < p else "W", p))
    records = tuple(_record(rng, i, game, strengths, rank_noise) for i, game in enumerate(played))
    return League(strengths, tuple(played), records)


def _date(rng: random.Random, start: tuple[int, int], offset: int) -> str:
    """A random day (ISO) of the month ``offset`` months after ``start`` (year, month)."""
    year, month = divmod(start[0] * 12 + start[1] - 1 + offset, 12)
    return f"{year:04d}-{month + 1:02d}-{rng.randint(1, calendar.monthrange(year, month + 1)[1]):02d}"


def _record(
    rng: random.Random, index: int, game: LeagueGame, strengths: dict[str, float], noise: float
) -> Record:
    data = game_record(
        rng,
        style="ogs",
        black=game.black,
        white=game.white,
        black_rank=rank_of(strengths[game.black] + rng.gauss(0, noise)),
        white_rank=rank_of(strengths[game.white] + rng.gauss(0, noise)),
        result=f"{game.winner}+R",
        date=game.date,
        main_time_s=3600,
        moves=rng.randint(30, 90),
        komi=6.5,
    )
    return Record(f"{game.date[:7]}/{index:05d}.sgf", data)
