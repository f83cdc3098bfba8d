"""The club's standings hold little per player: a server's hundreds of thousands of players without an
arena run going share one ``extra`` (pipeline/rules/club.py, NO_RUNS)."""

from __future__ import annotations

from pathlib import Path

from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.output import state


def test_players_without_an_arena_run_share_one_extra(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    for i, (black, white) in enumerate([("A", "B"), ("C", "D"), ("A", "C"), ("B", "D")]):
        record = sgf(black, white, "B+R", f"2024-03-{i + 1:02d}", black_rank="1d", white_rank="2d", seed=i)
        (raw / f"{i}.sgf").write_text(record, encoding="utf-8")
    out, config = tmp_path / "out", tmp_path / "ratings.toml"
    config.write_text("[run]\nrule_set = 'club'\n", encoding="utf-8")  # no roster: everyone is a member
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    standings = state.load_standings((out / ".gen" / "current").resolve(), "2024-03")
    extras = {id(player.extra) for player in standings.values()}
    assert (len(standings), len(extras), standings["A"].extra) == (4, 1, {"arena": {}})
