"""Deterministic generator of realistic SGF game records: the shipped sample season and benchmark corpora.

It writes bytes only. It knows nothing of the pipeline's decoder, grammar, normaliser or ratings, and it never
reads or copies the corpora: every record is built from code and the tables in `names`, `styles`, `club` and
`gomoku`.
Randomness comes only from an explicit `random.Random`, so one seed always gives the same bytes.

Modules: `records` (one game record in a server's style), `moves` (its main line), `corpus` (the benchmarks'
corpus), `season` (the shipped Go sample: the club's season), `club` (the season's people and script),
`gomoku` (the shipped Gomoku sample: a year of Taiwan Gomoku Association events, GM[4]), `names`/`styles`
(tables), `cli` (the command line).
Usage: `python -m pipeline.synth sample DIR`, `python -m pipeline.synth gomoku DIR` or
`python -m pipeline.synth corpus DIR --n 20000 [--seed 1]`.
"""

from __future__ import annotations

from pipeline.synth.cli import main
from pipeline.synth.corpus import synthetic_corpus
from pipeline.synth.gomoku import gomoku_moves, gomoku_sample
from pipeline.synth.moves import move_points
from pipeline.synth.names import player_pool
from pipeline.synth.records import (
    CODECS,
    STYLES,
    Record,
    escape,
    game_record,
    render_rank,
    render_result,
    truncate,
    write_records,
)
from pipeline.synth.season import club_sample, sample

__all__ = [
    "CODECS",
    "STYLES",
    "Record",
    "club_sample",
    "escape",
    "game_record",
    "gomoku_moves",
    "gomoku_sample",
    "main",
    "move_points",
    "player_pool",
    "render_rank",
    "render_result",
    "sample",
    "synthetic_corpus",
    "truncate",
    "write_records",
]
