"""The generator's developer command line: `python -m pipeline.synth sample DIR` (the shipped Go sample, what
`data/raw` holds: the club season), `... gomoku DIR` (the Gomoku sample, what `data/gomoku/raw` holds) or
`... corpus DIR --n N`.

It only parses arguments and writes files; what is written comes from `pipeline.synth.season` and
`pipeline.synth.corpus`. It knows nothing of the pipeline.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from pipeline.synth.corpus import synthetic_corpus
from pipeline.synth.gomoku import gomoku_sample
from pipeline.synth.records import Record, write_records
from pipeline.synth.season import sample


def main(argv: list[str] | None = None) -> int:
    """Developer entry point: `sample DIR`, `gomoku DIR` or `corpus DIR [--n N] [--seed S]`; returns the
    exit status 0.

    Raises SystemExit (status 2) for unknown commands or arguments, as argparse does.
    """
    parser = argparse.ArgumentParser(prog="python -m pipeline.synth", description="Write synthetic SGF.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("sample", help="the shipped Go sample (the club season, data/raw)").add_argument(
        "out_dir", type=Path
    )
    commands.add_parser("gomoku", help="the shipped Gomoku sample (data/gomoku/raw)").add_argument(
        "out_dir", type=Path
    )
    corpus = commands.add_parser("corpus", help="a large mixed corpus for benchmarks")
    corpus.add_argument("out_dir", type=Path)
    corpus.add_argument("--n", type=int, default=20000)
    corpus.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    records = _records(args)
    print(f"wrote {write_records(records, args.out_dir)} files to {args.out_dir}")
    return 0


def _records(args: argparse.Namespace) -> Iterable[Record]:
    """The records the parsed command line ``args`` asks for."""
    if args.command == "sample":
        return sample()
    if args.command == "gomoku":
        return gomoku_sample()
    return synthetic_corpus(args.n, args.seed)
