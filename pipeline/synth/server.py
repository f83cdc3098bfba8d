"""server: a game server's archive at any size, for the scale benchmark (``bench/scale_bench.py``).

What makes a real server archive hard, and what this one therefore has: many players (one per 12 games)
with long-tailed activity (a Pareto weight each, and an active span of months: newcomers join and
regulars leave), a few rivals per player who meet again and again (so the more-than-10-games cap
bites), results drawn from hidden strengths, events with rounds, slow and fast games, every server
style of :mod:`pipeline.synth.records` (encodings, layouts) and a few collections and truncated files.
Games are spread over ``months`` consecutive months from ``start`` and written as
``YYYY-MM/<style>_<index>.sgf``; :func:`write_month_zips` writes them into monthly ``.zip`` archives instead.

Knows nothing of the pipeline or of any rule set. Randomness comes only from ``random.Random(seed)``,
so a given ``n``, ``months`` and seed always give the same bytes.
"""

from __future__ import annotations

import calendar
import itertools
import math
import random
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pipeline.synth import names as N
from pipeline.synth.moves import move_points
from pipeline.synth.records import Record, game_record, render_rank, truncate

GAMES_PER_PLAYER = 12
_RIVALS = 3
_REMATCH = 0.35  # share of games against one of the player's rivals
_MAIN_TIMES = (60, 300, 600, 900, 1200, 1800, 2700, 3600, 5400)
_BANK = 512  # main lines made once: plausible moves are too slow for 10^7 games (docs/design.md#synth-bank)
_POINTS = [chr(97 + x) + chr(97 + y) for x in range(19) for y in range(19)]
_OPENING = 6  # moves of each game drawn afresh, so that no two games share a main line by chance


@dataclass(frozen=True, slots=True)
class Player:
    """One account: its name, the style (server) it plays on, hidden strength (Elo), active months."""

    name: str
    style: str
    strength: float
    weight: float
    first: int
    last: int


def players(rng: random.Random, count: int, months: int) -> list[Player]:
    """About ``count`` players with unique names, each of one style (server), at least 4 a style.

    Opponents play on the same server (their names exist in its encoding).

    Activity weights are Pareto-distributed (a long tail of occasional players, a few who play daily).
    """
    total = sum(N.STYLE_WEIGHTS.values())
    taken: set[str] = set()
    tried: dict[str, int] = {}
    found = []
    for style, weight in N.STYLE_WEIGHTS.items():
        for _ in range(max(_RIVALS + 1, round(count * weight / total))):
            first = rng.randrange(months)
            span = max(1, int(rng.expovariate(1 / max(months / 3, 1))))
            weight_ = min(rng.paretovariate(1.16), 500.0)
            last = min(months - 1, first + span)
            found.append(
                Player(_unique(rng, style, taken, tried), style, rng.gauss(1700, 450), weight_, first, last)
            )
    return found


def _unique(rng: random.Random, style: str, taken: set[str], tried: dict[str, int]) -> str:
    """A name of ``style`` not in ``taken`` (added to it): a drawn name, numbered when it is taken.
    ``tried`` keeps each base name's first number not yet tried, so the search does not start again
    at 2 for every player of a common name (quadratic at 10^7 games)."""
    langs, weights = zip(*N.STYLE_LANGS[style], strict=True)
    base = N._name(rng, rng.choices(langs, weights)[0])
    k = tried.get(base, 1)
    name = base if k == 1 else f"{base}{k}"
    while name in taken:
        k += 1
        name = f"{base}{k}"
    tried[base] = k + 1
    taken.add(name)
    return name


def _rank(strength: float) -> str:
    """The grade of an Elo strength: 2100 = 1d, 100 a grade, 30k to 9d."""
    grade = math.floor((strength - 2100) / 100)
    return f"{min(grade, 8) + 1}d" if grade >= 0 else f"{min(-grade, 30)}k"


def server_archive(n: int, seed: int = 1, months: int = 120, start: str = "2016-01") -> Iterator[Record]:
    """``n`` game records over ``months`` months from ``start`` (``YYYY-MM``), month by month."""
    first = int(start[:4]) * 12 + int(start[5:7]) - 1
    rng = random.Random(seed)
    pool = players(rng, max(50, n // GAMES_PER_PLAYER), months)
    by_style = {s: [p for p in pool if p.style == s] for s in N.STYLE_WEIGHTS}
    rivals = {p.name: _rivals(rng, p, by_style[p.style]) for p in pool}
    bank = [move_points(rng, 300) for _ in range(_BANK)]
    index = 0
    for month, count in enumerate(_split(n, months)):
        active = {
            s: [p for p in group if p.first <= month <= p.last] or group for s, group in by_style.items()
        }
        weights = {s: list(itertools.accumulate(p.weight for p in group)) for s, group in active.items()}
        everyone = [p for group in active.values() for p in group]
        for black in rng.choices(everyone, [p.weight for p in everyone], k=count):
            white = _opponent(rng, black, active[black.style], weights[black.style], rivals)
            yield _record(rng, black, white, (first + month, index), _line(rng, bank))
            index += 1


def _split(n: int, months: int) -> list[int]:
    """``n`` games over ``months`` months, growing over the years as servers do (later months busier)."""
    shares = [1 + 2 * m / max(months - 1, 1) for m in range(months)]
    total = sum(shares)
    counts = [int(n * s / total) for s in shares]
    counts[-1] += n - sum(counts)
    return counts


def _rivals(rng: random.Random, player: Player, group: list[Player]) -> list[Player]:
    """:data:`_RIVALS` distinct players of ``group`` other than ``player`` (drawn by index: building the
    list of the others for each player would cost the square of the players, hours at 10^7 games)."""
    picked: dict[int, None] = {}
    while len(picked) < _RIVALS:
        i = rng.randrange(len(group))
        if group[i] is not player:
            picked[i] = None
    return [group[i] for i in picked]


def _opponent(
    rng: random.Random,
    black: Player,
    active: list[Player],
    cumulative: list[float],
    rivals: dict[str, list[Player]],
) -> Player:
    if rng.random() < _REMATCH:
        return rng.choice(rivals[black.name])
    white = rng.choices(active, cum_weights=cumulative)[0]
    return white if white is not black else rng.choice(rivals[black.name])


def _line(rng: random.Random, bank: list[list[str]]) -> list[str]:
    """A main line of 60-300 moves: a bank line whose first moves are drawn afresh (points stay distinct)."""
    line = rng.choice(bank)[: rng.randint(60, 300)]
    fresh = [p for p in rng.sample(_POINTS, _OPENING + 12) if p not in line[_OPENING:]][:_OPENING]
    return fresh + line[len(fresh) :]


def _record(
    rng: random.Random, black: Player, white: Player, where: tuple[int, int], line: list[str]
) -> Record:
    month, index = where
    year, mon = month // 12, month % 12 + 1
    day = rng.randint(1, calendar.monthrange(year, mon)[1])
    data = _game(rng, (black, white), black.style, f"{year}-{mon:02d}-{day:02d}", line)
    if rng.random() < 0.005:
        data = truncate(rng, data)
    return Record(f"{year}-{mon:02d}/{black.style}_{index:07d}.sgf", data)


def _game(rng: random.Random, pair: tuple[Player, Player], style: str, date: str, line: list[str]) -> bytes:
    black, white = pair
    p_black = 1 / (1 + 10 ** ((white.strength - black.strength) / 400))
    winner = "B" if rng.random() < p_black else "W"
    result = f"{winner}+R" if rng.random() < 0.6 else f"{winner}+{rng.randint(0, 30) + 0.5}"
    lang = N.STYLE_LANG[style]
    event = rng.choice(N.EVENTS[lang]) if rng.random() < 0.05 else None
    return game_record(
        rng,
        style=style,
        black=black.name,
        white=white.name,
        black_rank=render_rank(style, _rank(black.strength)),
        white_rank=render_rank(style, _rank(white.strength)),
        result=result,
        moves=len(line),
        points=line,
        date=date,
        main_time_s=rng.choice(_MAIN_TIMES),
        komi=7.5 if style in ("tom", "fox", "big5") else 6.5,
        event=event,
        round_=N.ROUNDS[lang].format(n=rng.randint(1, 7)) if event else None,
    )


def write_month_zips(records: Iterator[Record], raw: Path) -> int:
    """Write ``records`` (month by month, as :func:`server_archive` gives them) straight into
    ``raw/YYYY-MM.zip`` archives, one per month, without loose files on disk; returns the count."""
    count = 0
    for month, group in itertools.groupby(records, key=lambda r: r.relpath.split("/", 1)[0]):
        raw.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(raw / f"{month}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            for record in group:
                archive.writestr(record.relpath, record.data)
                count += 1
    return count
