"""A large mixed corpus of random game records for the benchmarks: seven server styles, 12 months of 2024.

Its output is pinned (the benchmarks compare against it): for a given `n` and seed the bytes never change.
It knows nothing of the club sample, of the pipeline or of ratings; every record comes from
`pipeline.synth.records` and the tables of `pipeline.synth.names`.
"""

from __future__ import annotations

import calendar
import random
from collections.abc import Iterator

from pipeline.synth import names as N
from pipeline.synth.records import Record, game_record, render_rank, truncate

# Cumulative share, cause (R T F, P points, X other), move range: 20% short resignations, most 150-300.
_OUTCOMES = (
    (0.2, "R", 50, 120),
    (0.55, "R", 150, 300),
    (0.85, "P", 180, 310),
    (0.95, "T", 150, 300),
    (0.96, "F", 0, 1),
    (1.1, "X", 150, 300),
)


def _outcome(rng: random.Random) -> tuple[str, int]:
    """A random FF4 result (`B+R`, `W+6.5`, `B+T`, `W+F`, `0`, `Void`, `?`, ``) and a main-line length."""
    colour, roll = rng.choice("BW"), rng.random()
    cause, low, high = next(row[1:] for row in _OUTCOMES if roll < row[0])
    result = {"P": f"{colour}+{rng.randint(0, 20) + 0.5}", "X": rng.choice(("0", "Void", "?", ""))}.get(cause)
    return result or f"{colour}+{cause}", rng.randint(low, high)


def _corpus_game(rng: random.Random, pool: dict[str, list[tuple[str, str]]], style: str, month: int) -> bytes:
    """One random game of `style` in `month` of 2024 between two players of the style's name pools."""
    langs, weights = zip(*N.STYLE_LANGS[style], strict=True)
    (black, black_rank), (white, white_rank) = rng.sample(pool[rng.choices(langs, weights)[0]], 2)
    result, moves = _outcome(rng)
    handicap = rng.choice((2, 3, 4, 5, 6, 9)) if rng.random() < 0.05 else 0
    lang = N.STYLE_LANG[style]
    event = rng.choice(N.EVENTS[lang]) if rng.random() < 0.15 else None
    round_ = N.ROUNDS[lang].format(n=rng.randint(1, 7)) if event and rng.random() < 0.6 else None
    unsure = "?" if style == "kgs" and rng.random() < 0.15 else ""
    return game_record(
        rng,
        style=style,
        black=black,
        white=white,
        black_rank=render_rank(style, black_rank) + unsure,
        white_rank=render_rank(style, white_rank),
        result=result,
        moves=moves,
        date=f"2024-{month:02d}-{rng.randint(1, calendar.monthrange(2024, month)[1]):02d}",
        main_time_s=rng.choice((300, 600, 900, 1200, 1800, 2400, 3600, 7200, 18000)),
        komi=0.5 if handicap else (7.5 if style in ("tom", "fox", "big5") else 6.5),
        handicap=handicap,
        event=event,
        round_=round_,
    )


def synthetic_corpus(n: int, seed: int = 1) -> Iterator[Record]:
    """`n` records over the 12 months of 2024 (`2024-MM/<style>_<i>.sgf`, unique), styles mixed by
    STYLE_WEIGHTS; about 1% are collections of 2-3 games and 0.5% are truncated."""
    rng = random.Random(seed)
    pool = N.player_pool(rng)
    styles, weights = list(N.STYLE_WEIGHTS), list(N.STYLE_WEIGHTS.values())
    for i in range(n):
        style, month = rng.choices(styles, weights)[0], rng.randint(1, 12)
        count = rng.randint(2, 3) if rng.random() < 0.01 else 1
        data = b"".join(_corpus_game(rng, pool, style, month) for _ in range(count))
        data = truncate(rng, data) if rng.random() < 0.005 else data
        yield Record(f"2024-{month:02d}/{style}_{i:06d}.sgf", data)
