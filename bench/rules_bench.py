"""Rule-set benchmark: the cost of ``rate_period`` per game, every rule set, on server-shaped games.

Builds ``n`` :class:`~pipeline.rules.base.Game` values directly (no SGF, no audit: only the rule sets are
measured): about ``n / 12`` players with Pareto-weighted activity and an active span of months, a few
rivals each who meet again and again, results drawn from hidden strengths, ranks from the strengths (kyu
to dan, a few professionals), slow and fast games, 2% handicap games, a few draws and no-shows, and about
5% of games in events of 3-7 rounds (each kind the rule set knows), over ``months`` monthly periods. Each
rule set sees the games its validity counts (a rule set that excludes draws gets none), grouped into its
periods, and rates every period in order from the previous period's end, as the replay does.

Prints a Markdown table: µs per game (median of ``--repeat`` runs; wall-clock time, or with ``--cpu``
the process's CPU time, which a machine shared with other work inflates less; the objects that exist
before the rating, the games among them, frozen out of the garbage collector's sight as ``ratings run``
freezes its own before the replay, docs/design.md#gc-freeze; ``--no-freeze`` leaves them in sight, as
this benchmark did before 2026-12-06) and the peak of Python
allocations (tracemalloc, a separate untimed run) per rule set. Every registered rule set by default
(club, the GoR family, cga-dan, tga, glicko2). ``--save FILE`` pickles every rule set's outcomes,
``--check FILE`` compares the outcomes with such a file (equal values, field by field, ``repr`` included
so that 0 and 0.0 differ) and says which rule sets differ. :func:`digest` is what the equivalence tests pin.

Knows nothing of files, SGF or the replay's conversion of the games table (not measured here).

Usage: python bench/rules_bench.py [--n 100000] [--rules club,egf2021,glicko2] [--repeat 3] [--months 120]
[--save FILE | --check FILE] [--no-memory] [--cpu] [--no-freeze]
"""

from __future__ import annotations

import argparse
import calendar
import datetime as dt
import gc
import hashlib
import itertools
import math
import pickle
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline import rules
from pipeline.config.events import Event
from pipeline.config.roster import Roster
from pipeline.core.periods import period_of
from pipeline.core.ranks import Rank, parse_rank
from pipeline.core.reasons import Validity
from pipeline.core.standings import PlayerState
from pipeline.rules.base import Game, PeriodOutcome, RuleSet

GAMES_PER_PLAYER = 12
RIVALS, REMATCH = 3, 0.35
EVENT_SHARE = 0.05
#: The event kinds each rule set family reacts to (others are rated as plain games).
KINDS = {
    "club": ("team_match", "arena", "server_qualifiers", "server_open"),
    "tga": ("recognised", "low_dan", "promotion", "kyu"),
}
OTHER_KINDS = ("other",)


@dataclass(frozen=True, slots=True)
class _Player:
    name: str
    strength: float
    weight: float
    first: int
    last: int


def _players(rng: random.Random, count: int, months: int) -> list[_Player]:
    found = []
    for i in range(count):
        first = rng.randrange(months)
        span = max(1, int(rng.expovariate(1 / max(months / 3, 1))))
        weight = min(rng.paretovariate(1.16), 500.0)
        found.append(
            _Player(f"player{i:07d}", rng.gauss(1700, 450), weight, first, min(months - 1, first + span))
        )
    return found


def _rank_text(strength: float) -> str:
    """2100 = 1d, 100 a grade, 30k to 9d; above 2900 a professional."""
    grade = math.floor((strength - 2100) / 100)
    if grade >= 9:
        return f"{min(grade - 8, 9)}p"
    return f"{grade + 1}d" if grade >= 0 else f"{min(-grade, 30)}k"


def _split(n: int, months: int) -> list[int]:
    shares = [1 + 2 * m / max(months - 1, 1) for m in range(months)]
    counts = [int(n * s / sum(shares)) for s in shares]
    counts[-1] += n - sum(counts)
    return counts


def games(n: int, seed: int = 1, months: int = 120, start: tuple[int, int] = (2016, 1)) -> list[Game]:
    """``n`` games over ``months`` months from ``start`` (year, month), in (date, seq) order, with events
    of kind ``other`` (:func:`for_rule_set` gives each rule set its kinds). Deterministic in ``seed``."""
    rng = random.Random(seed)
    pool = _players(rng, max(50, n // GAMES_PER_PLAYER), months)
    rivals = {
        p.name: [pool[j + (j >= i)] for j in rng.sample(range(len(pool) - 1), RIVALS)]
        for i, p in enumerate(pool)
    }
    ranks: dict[str, Rank | None] = {}
    found: list[Game] = []
    for month, count in enumerate(_split(n, months)):
        year, mon = start[0] + (start[1] - 1 + month) // 12, (start[1] - 1 + month) % 12 + 1
        active = [p for p in pool if p.first <= month <= p.last] or pool
        cumulative = list(itertools.accumulate(p.weight for p in active))
        found += _month(rng, active, cumulative, rivals, count, (year, mon), ranks, len(found))
    return _closed(found)


def _month(
    rng: random.Random,
    active: list[_Player],
    cumulative: list[float],
    rivals: dict[str, list[_Player]],
    count: int,
    when: tuple[int, int],
    ranks: dict[str, Rank | None],
    first_seq: int,
) -> list[Game]:
    year, mon = when
    days = calendar.monthrange(year, mon)[1]
    events = [Event(f"event {year}-{mon:02d} {k}", (), "other", "ABC"[k % 3]) for k in range(3)]
    drawn = []
    for black in rng.choices(active, cum_weights=cumulative, k=count):
        white = rng.choice(rivals[black.name]) if rng.random() < REMATCH else None
        white = white or rng.choices(active, cum_weights=cumulative)[0]
        white = white if white is not black else rivals[black.name][0]
        drawn.append((rng.randint(1, days), black, white))
    drawn.sort(key=lambda d: d[0])
    return [
        _game(rng, first_seq + i, dt.date(year, mon, d), b, w, events, ranks)
        for i, (d, b, w) in enumerate(drawn)
    ]


def _game(
    rng: random.Random,
    seq: int,
    day: dt.date,
    black: _Player,
    white: _Player,
    events: list[Event],
    ranks: dict[str, Rank | None],
) -> Game:
    p_black = 1 / (1 + 10 ** ((white.strength - black.strength) / 400))
    roll = rng.random()
    winner = "draw" if roll < 0.01 else "B" if rng.random() < p_black else "W"
    event = rng.choice(events) if rng.random() < EVENT_SHARE else None
    texts = [_rank_text(black.strength), _rank_text(white.strength)]
    for text in texts:
        if text not in ranks:
            ranks[text] = parse_rank(text)
    return Game(
        game_id=f"g{seq:08d}",
        seq=seq,
        date=day,
        black=black.name,
        white=white.name,
        winner=winner,
        speed="slow" if rng.random() < 0.5 else "fast",
        black_rank=ranks[texts[0]] if rng.random() < 0.95 else None,
        white_rank=ranks[texts[1]] if rng.random() < 0.95 else None,
        handicap=rng.randint(2, 4) if rng.random() < 0.02 else 0,
        komi=6.5,
        event=event,
        stage=None,
        round=f"Round {rng.randint(1, 7)}" if event else None,
        no_show=rng.random() < 0.005,
    )


def _closed(found: list[Game]) -> list[Game]:
    """``found`` with ``closes_event`` on the last game of each event."""
    last = {g.event.name: i for i, g in enumerate(found) if g.event is not None}
    for i in last.values():
        found[i] = replace(found[i], closes_event=True)
    return found


def for_rule_set(name: str, played: Sequence[Game]) -> dict[str, list[Game]]:
    """The games of ``played`` that rule set ``name`` counts (its validity's optional reasons), with the
    event kinds it knows (stages for the club's qualifiers, kyu groups and rounds for tga), by period label
    in order. ``closes_event`` is recomputed over the counted games."""
    valid = rules.validity(name)
    kinds = KINDS.get(name, OTHER_KINDS)
    remapped: dict[str, Event] = {}
    counted = []
    for game in played:
        if _excluded(game, valid):
            continue
        event = game.event
        if event is not None:
            if event.name not in remapped:
                kind = kinds[len(remapped) % len(kinds)]
                group = "standard_a" if kind == "kyu" else None
                remapped[event.name] = replace(
                    event, kind=kind, group=group, rounds=5 if kind == "kyu" else None
                )
            event = remapped[event.name]
        stage = ("qualifier" if game.round and game.round < "Round 4" else "main") if event else None
        stage = stage if event is not None and event.kind == "server_qualifiers" else None
        counted.append(replace(game, event=event, stage=stage, closes_event=False))
    by_period: dict[str, list[Game]] = {}
    for game in _closed(counted):
        by_period.setdefault(period_of(game.date, valid.period), []).append(game)
    return by_period


def _excluded(game: Game, valid: Validity) -> bool:
    """True if ``valid`` does not count ``game`` (a draw, a no-show or a handicap game it excludes)."""
    return (
        (game.winner == "draw" and valid.excludes("draw"))
        or (game.no_show and valid.excludes("no_show"))
        or (game.handicap >= 2 and valid.excludes("handicap"))
    )


def build(name: str) -> RuleSet:
    """Rule set ``name`` with no roster and its default validity and parameters."""
    return rules.create(name, Roster(), rules.validity(name), None)


def rate_all(rule_set: RuleSet, periods: dict[str, list[Game]]) -> Iterator[PeriodOutcome]:
    """Every period's outcome in order, each period from the previous one's end."""
    state: dict[str, PlayerState] = {}
    for label, played in periods.items():
        outcome = rule_set.rate_period(label, played, [], state)
        state = outcome.end
        yield outcome


def resumed(name: str, n: int, at: int, seed: int = 1, months: int = 24) -> list[PeriodOutcome]:
    """Every outcome of rule set ``name`` over :func:`games`, the standings after period ``at`` passed
    through pickle (as a resumed run reads them) to a newly built rule set for the periods after it."""
    periods = list(for_rule_set(name, games(n, seed, months)).items())
    found = list(rate_all(build(name), dict(periods[: at + 1])))
    state = pickle.loads(pickle.dumps(found[-1].end))
    rule_set = build(name)
    for label, played in periods[at + 1 :]:
        found.append(rule_set.rate_period(label, played, [], state))
        state = found[-1].end
    return found


def digest(name: str, n: int, seed: int = 1, months: int = 24, rule_set: RuleSet | None = None) -> str:
    """The sha256 of the ``repr`` of every outcome of rule set ``name`` (``rule_set``, else :func:`build`'s)
    over :func:`games` (``n``, ``seed``, ``months``): what the equivalence tests pin."""
    found = hashlib.sha256()
    chosen = rule_set if rule_set is not None else build(name)
    for outcome in rate_all(chosen, for_rule_set(name, games(n, seed, months))):
        found.update(repr(whole(outcome)).encode())
    return found.hexdigest()


def whole(outcome: PeriodOutcome) -> PeriodOutcome:
    """``outcome`` with every player's start state in ``start``, in the order of ``end``: a rule set may
    give only the players it added or moved (the others started as they end)."""
    start = {name: outcome.start.get(name, state) for name, state in outcome.end.items()}
    return replace(outcome, start=start)


def timed(
    name: str,
    periods: dict[str, list[Game]],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
    freeze: bool = True,
) -> tuple[float, float]:
    """(median µs per counted game, the runs' spread in µs) over ``repeat`` runs, timed by ``clock``;
    ``freeze``: the objects that exist before each run frozen (``gc.freeze``) as the run does."""
    count = sum(len(v) for v in periods.values())
    runs = []
    for _ in range(repeat):
        rule_set = build(name)
        gc.collect()
        if freeze:
            gc.freeze()
        try:
            started = clock()
            for _outcome in rate_all(rule_set, periods):
                pass
            runs.append((clock() - started) / count * 1e6)
        finally:
            gc.unfreeze()
    return statistics.median(runs), max(runs) - min(runs)


def peak_mb(name: str, periods: dict[str, list[Game]]) -> float:
    """The peak of Python allocations (MB) while rating every period (the games themselves excluded)."""
    tracemalloc.start()
    for _outcome in rate_all(build(name), periods):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def compare(name: str, periods: dict[str, list[Game]], pinned: list[PeriodOutcome]) -> str | None:
    """None if rule set ``name`` gives ``pinned`` again, else where the first difference is."""
    got = list(rate_all(build(name), periods))
    if len(got) != len(pinned):
        return f"{len(got)} periods, pinned {len(pinned)}"
    for label, new, old in zip(periods, got, pinned, strict=True):
        for part in ("start", "end", "changes", "awards", "promotions"):
            a, b = getattr(new, part), getattr(old, part)
            if a != b or repr(a) != repr(b):
                return f"period {label}: {part} differs"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[100_000])
    parser.add_argument("--rules", default=",".join(rules.names()))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--months", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="time with the process's CPU time")
    parser.add_argument("--no-freeze", action="store_true", help="leave the games in the collector's sight")
    args = parser.parse_args(argv)
    names = args.rules.split(",")
    failed = False
    for n in args.n:
        started = time.perf_counter()
        played = games(n, args.seed, args.months)
        print(f"N = {n}: {len(played)} games built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        pinned = pickle.loads(args.check.read_bytes()) if args.check else {}
        saved = {}
        print(
            f"\n| rule set (N = {n}) | games counted | {'CPU ' if args.cpu else ''}µs/game (median of "
            f"{args.repeat}) | spread | peak MB |"
        )
        print("|---|---|---|---|---|")
        for name in names:
            periods = for_rule_set(name, played)
            if args.save:
                saved[name] = list(rate_all(build(name), periods))
            if args.check:
                problem = compare(name, periods, pinned[name])
                failed |= problem is not None
                print(f"{name}: {'identical' if problem is None else problem}", file=sys.stderr)
            clock = time.process_time if args.cpu else time.perf_counter
            per_game, spread = (math.nan, math.nan)
            if args.repeat:
                per_game, spread = timed(name, periods, args.repeat, clock, not args.no_freeze)
            peak = math.nan if args.no_memory else peak_mb(name, periods)
            counted = sum(len(v) for v in periods.values())
            print(f"| {name} | {counted} | {per_game:.1f} | {spread:.1f} | {peak:.0f} |", flush=True)
        if args.save:
            args.save.write_bytes(pickle.dumps(saved, protocol=pickle.HIGHEST_PROTOCOL))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
