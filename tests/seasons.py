"""Hand-made seasons for end-to-end tests: a few records written as files, a configuration beside
them, and `ratings run` through the command line in-process.

A season is a mapping of file names (relative to the raw folder) to (black, white, result, date); each
record is made by :func:`sgfmake.sgf` with the season's order as its seed, so that no two are the same
file. It knows nothing of what a test checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

Season = Mapping[str, tuple[str, str, str, str]]


def write_season(folder: Path, season: Season, output: str = "") -> tuple[Path, Path]:
    """Write ``season`` under ``folder / "raw"`` and a configuration ``folder / "ratings.toml"`` (club
    rule set, no roster, no events, then ``output``: lines of an ``[output]`` table, none when empty);
    return the raw folder and the configuration file."""
    raw = folder / "raw"
    for i, (name, (black, white, result, date)) in enumerate(season.items()):
        (raw / name).parent.mkdir(parents=True, exist_ok=True)
        (raw / name).write_text(sgf(black, white, result, date, seed=i), encoding="utf-8")
    config = folder / "ratings.toml"
    table = f"\n[output]\n{output}\n" if output else ""
    config.write_text(f'[run]\nrule_set = "club"\nroster = ""\nevents = ""\n{table}', encoding="utf-8")
    return raw, config


def rate(raw: Path, config: Path, out: Path, *extra: str) -> Path:
    """`ratings run` of ``raw`` with ``config`` into ``out`` (one worker, then ``extra``); return ``out``.
    Fails the test with the command's output when it does not exit 0."""
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1", *extra]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def ranked_season(root: Path, games: Sequence[tuple[str, str, str | None, str]]) -> Path:
    """``games`` (black, white, result or None, date), Black 1d and White 2d, written under ``root /
    "raw"`` and rated with no configuration into ``root / "out"`` (one worker); return the output."""
    for i, (black, white, result, date) in enumerate(games):
        path = root / "raw" / f"g{i:03d}.sgf"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sgf(black, white, result, date, black_rank="1d", white_rank="2d", seed=i))
    args = ["run", "--raw", str(root / "raw"), "--out", str(root / "out"), "--workers", "1"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    return root / "out"
