"""League benchmark: which rule set predicts best on a league whose true strengths are known, and how that
depends on how much the ranks in the records tell.

The league is :func:`pipeline.synth.league.synthetic_league` (true strengths on the Elo scale, each result
drawn from the true win probability, the ranks written in ``BR``/``WR`` the grade of the strength plus
Gaussian noise of ``rank_noise`` Elo). Every rule set of the GoR family and the points system starts a
player at the rank of their first record, ``glicko2`` and ``whr`` there too but with a wide uncertainty:
so a league whose ranks are the truth favours the rule sets that trust the rank, and one whose ranks say
little favours those that learn from the results. The benchmark measures both ends: for each ``--noise``
(Elo; default 0, 100, 200, 400) it generates the league (``--players``, ``--games``, ``--months``,
``--spread``, ``--seed``), runs ``ratings backtest`` of ``--rules`` in-process and prints each rule set's
log-loss beside the truth's (the log-loss of the true win probabilities over every game: the floor no
rule set can beat on average) and a coin toss's (0.6931).

It is not a test: the figures are the league's, for the design notes and the issue's note. Prints a
Markdown table; ``--json FILE`` writes the figures.

Usage: python bench/league_bench.py [--noise 0,100,200,400] [--drift 0] [--registered] [--players 200]
[--games 20000] [--months 24] [--spread 1200] [--seed 1] [--rules club,hkga,egf,egf2021,cga,glicko2,whr]
[--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

from pipeline.config import RunConfig
from pipeline.ingest import IngestOptions
from pipeline.reports import backtest
from pipeline.synth.league import League, synthetic_league
from pipeline.synth.records import write_records


def truth_log_loss(league: League) -> float:
    """The mean log-loss of the true win probabilities over every game of ``league``."""
    losses = [-math.log(g.p_black if g.winner == "B" else 1 - g.p_black) for g in league.games]
    return sum(losses) / len(losses)


def scored(league: League, names: list[str], folder: Path) -> dict[str, float]:
    """Each rule set's log-loss on ``league`` (its records written under ``folder``), by name."""
    write_records(league.records, folder / "raw")
    config = RunConfig(raw=folder / "raw", out=folder / "out")
    result = backtest.backtest(backtest.plans(config, names), IngestOptions(workers=1))
    summary = result.summary.to_pydict()
    return dict(zip(summary["rules"], summary["log_loss"], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--noise", default="0,100,200,400")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--months", type=int, default=24)
    parser.add_argument("--spread", type=float, default=1200.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drift", default="0", help="Elo a year, comma-separated")
    parser.add_argument("--registered", action="store_true", help="ranks declared once, never updated")
    parser.add_argument("--rules", default="club,hkga,egf,egf2021,cga,glicko2,whr")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = args.rules.split(",")
    rows = []
    for drift in (float(x) for x in args.drift.split(",")):
        for noise in (float(x) for x in args.noise.split(",")):
            started = time.perf_counter()
            league = synthetic_league(
                players=args.players,
                games=args.games,
                months=args.months,
                spread=args.spread,
                rank_noise=noise,
                seed=args.seed,
                drift=drift,
                registered_ranks=args.registered,
            )
            with tempfile.TemporaryDirectory() as folder:
                losses = scored(league, names, Path(folder))
            rows.append({"noise": noise, "drift": drift, "truth": truth_log_loss(league), **losses})
            print(f"drift {drift:g}, noise {noise:g}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    ranks = "declared once (the first record's)" if args.registered else "drawn for each record"
    print(
        f"{args.players} players, {args.games} games, {args.months} months, spread {args.spread:g} Elo, "
        f"ranks {ranks}\n"
    )
    print("| drift (Elo a year) | rank noise (Elo) | truth | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 3) + "|")
    for row in rows:
        best = min(names, key=lambda n: row.get(n, math.inf))
        cells = [f"**{row[n]:.4f}**" if n == best else f"{row.get(n, math.nan):.4f}" for n in names]
        print(f"| {row['drift']:g} | {row['noise']:g} | {row['truth']:.4f} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
