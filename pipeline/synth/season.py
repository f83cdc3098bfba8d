"""The shipped Go sample (`data/raw`, `sample()`): a Go club's season, May-August 2024, as the files a
TOM/Fox export leaves. The Gomoku sample is `pipeline.synth.gomoku`'s, in a folder of its own
(`data/gomoku/raw`), so that the club's run meets no Gomoku record but the one its script plants.

The club season (`club_sample()`) turns the script of `pipeline.synth.club` (the club proposal's worked
example, the club's events and one game for every validity rule) plus seeded random filler games into records
under `2024-MM/`. It knows nothing of the pipeline's reading of them, nor of the ratings they give
(docs/sample.md says what to expect).
"""

from __future__ import annotations

import calendar
import dataclasses
import random

from pipeline.synth import club as C
from pipeline.synth.records import Record, game_record, render_rank, truncate

MONTHS = (5, 6, 7, 8)
_SLOW_S = (1800, 2400, 3600)
_FAST_S = (600, 900, 1200)
_NO_DATE_LAST = 99  # undated games are numbered after the month's dated ones


def sample(seed: int = 2024) -> list[Record]:
    """Everything `data/raw` holds, sorted by path: the club season (`club_sample`). The Gomoku records
    are `gomoku.gomoku_sample`'s (`data/gomoku/raw`)."""
    return club_sample(seed)


def club_sample(seed: int = 2024) -> list[Record]:
    """The season's files, sorted by path: `2024-MM/NNN_<style>.sgf` (NNN in date order, TOM/GBK or
    Fox/UTF-8), one backup copy under `2024-06/backup/`, and in May an empty `.sgf` file and `notes.txt`."""
    rng = random.Random(seed)
    games = [*_golden_may(rng), *C.SCRIPTED, *_fillers(rng)]
    records = [
        r for month in MONTHS for r in _month_records(rng, month, [g for g in games if g.month == month])
    ]
    return sorted(records, key=lambda record: record.relpath)


def _golden_may(rng: random.Random) -> list[C.Game]:
    """羽焰's nine May games of the club proposal's example (club.GOLDEN_GAMES), TOM, colours alternating,
    on random days."""
    games = []
    for k, (opponent, won, slow) in enumerate(C.GOLDEN_GAMES):
        black, white = ("羽焰", opponent) if k % 2 == 0 else (opponent, "羽焰")
        colour = "B" if won == (k % 2 == 0) else "W"
        result = f"{colour}+{'R' if k % 3 == 0 else '3.5'}"
        games.append(C.Game(5, rng.randint(1, 31), black, white, result, slow=slow))
    return games


def _fillers(rng: random.Random) -> list[C.Game]:
    """Random decisive games between club.FILLER_PLAYERS, club.FILLER_COUNTS a month."""
    return [_filler(rng, month, k) for month, count in C.FILLER_COUNTS.items() for k in range(count)]


def _filler(rng: random.Random, month: int, k: int) -> C.Game:
    """The month's k-th random game: every fourth one a Fox game (Fox nicknames), 60% slow."""
    black, white = _filler_pair(rng)
    style = "fox" if k % 4 == 1 else "tom"
    if style == "fox":
        black, white = C.FOX_NAMES.get(black, black), C.FOX_NAMES.get(white, white)
    result = f"{rng.choice('BW')}+{rng.choice(('R', 'R', 'T', f'{rng.randint(0, 5)}.5'))}"
    day = rng.randint(1, calendar.monthrange(2024, month)[1])
    return C.Game(month, day, black, white, result, slow=rng.random() < 0.6, style=style)


def _filler_pair(rng: random.Random) -> tuple[str, str]:
    """Two distinct filler players in colour order, never the CAP_PAIR."""
    while True:
        black, white = rng.sample(C.FILLER_PLAYERS, 2)
        if {black, white} != set(C.CAP_PAIR):
            return black, white


def _month_records(rng: random.Random, month: int, games: list[C.Game]) -> list[Record]:
    """The month's files, numbered in date order (undated last); May adds the empty file and notes.txt."""
    folder = f"2024-{month:02d}"
    ordered = sorted(games, key=lambda game: game.day or _NO_DATE_LAST)
    records = []
    for k, game in enumerate(ordered, start=1):
        name, data = f"{k:03d}_{game.style}.sgf", _file_bytes(rng, game)
        records.append(Record(f"{folder}/{name}", data))
        if game.file == "backup":
            records.append(Record(f"{folder}/backup/{name}", data))
    if month == 5:
        records.append(Record(f"{folder}/{len(ordered) + 1:03d}_tom.sgf", b""))
        records.append(Record(f"{folder}/notes.txt", C.NOTES.encode("utf-8")))
    return records


def _file_bytes(rng: random.Random, game: C.Game) -> bytes:
    """The file of `game`: one game tree; a "pair" adds the return game (colours swapped, W+R); a "broken"
    file is cut inside a move."""
    data = _game_bytes(rng, game)
    if game.file == "pair":
        data += _game_bytes(rng, dataclasses.replace(game, black=game.white, white=game.black, result="W+R"))
    return truncate(rng, data) if game.file == "broken" else data


def _game_bytes(rng: random.Random, game: C.Game) -> bytes:
    """One game tree: slow games 30-60 minutes, fast 10-20; resignations shorter than counted games."""
    moves = game.moves
    if moves is None:
        moves = rng.randint(60, 140) if game.result.endswith("R") else rng.randint(180, 300)
    return game_record(
        rng,
        style=game.style,
        black=game.black,
        white=game.white,
        black_rank=render_rank(game.style, rank_of(game.black)),
        white_rank=render_rank(game.style, rank_of(game.white)),
        result=game.result,
        date=f"2024-{game.month:02d}-{game.day:02d}" if game.day else "",
        main_time_s=rng.choice(_SLOW_S if game.slow else _FAST_S),
        moves=moves,
        komi=0.5 if game.handicap else 7.5,
        handicap=game.handicap,
        event=game.event,
        round_=game.round_,
        game_type=game.game_type,
    )


def rank_of(written: str) -> str:
    """The declared rank (`3d`) of a player as written in a record: a roster name or alias (case-insensitive)
    or a guest. Raises KeyError if the name is none of these."""
    ranks = {name.casefold(): rank for name, rank in (C.MEMBERS | C.NON_MEMBERS | C.GUESTS).items()}
    return ranks[C.ALIASES.get(written, written).casefold()]
