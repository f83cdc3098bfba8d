"""`ratings run` end to end: a bad configuration exits 2 with a message naming the file, the key and what
was expected, before any output is touched; a good run leaves a manifest that describes it."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from sgfmake import sgf
from typer.testing import CliRunner, Result

import pipeline
from pipeline.cli import app

pytestmark = pytest.mark.slow

runner = CliRunner()
GOOD_ROSTER = '[[player]]\nname = "A"\nrank = "1d"\n\n[[player]]\nname = "B"\nrank = "1d"\n'
GOOD_EVENTS = '[[event]]\nname = "Cup"\nkind = "server_open"\n'


@pytest.fixture
def games(write) -> None:
    """Three records: two decisive games between A and B (May, June) and a draw (June)."""
    write("may.sgf", sgf("A", "B", "B+R", "2024-05-03", black_rank="1d", white_rank="1d").encode())
    write("jun.sgf", sgf("B", "A", "B+R", "2024-06-03", black_rank="1d", white_rank="1d").encode())
    write("draw.sgf", sgf("A", "B", "Draw", "2024-06-10", black_rank="1d", white_rank="1d").encode())


def ratings_run(tmp_path: Path, config: Path, *extra: str) -> Result:
    args = ["run", "--config", str(config), "--raw", str(tmp_path / "raw"), "--out", str(tmp_path / "out")]
    return runner.invoke(app, [*args, "--workers", "1", *extra])


def config_files(tmp_path: Path, ratings: str, roster: str = GOOD_ROSTER, events: str = GOOD_EVENTS) -> Path:
    """ratings.toml, roster.toml and events.toml in tmp_path/cfg; returns the path of ratings.toml."""
    folder = tmp_path / "cfg"
    folder.mkdir(exist_ok=True)
    (folder / "roster.toml").write_text(roster, encoding="utf-8")
    (folder / "events.toml").write_text(events, encoding="utf-8")
    (folder / "ratings.toml").write_text(ratings, encoding="utf-8")
    return folder / "ratings.toml"


@pytest.fixture
def out(games, tmp_path: Path) -> Path:
    """The output folder of a good run (roster and events beside the configuration)."""
    result = ratings_run(tmp_path, config_files(tmp_path, '[run]\nrule_set = "club"\n'))
    assert result.exit_code == 0, result.output
    return tmp_path / "out"


def tree_digest(root: Path) -> dict[str, str]:
    """Every path under ``root``: a link's target, a file's content digest and modification time."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = "-> " + os.readlink(path)
            elif path.is_file():
                found[key] = f"{hashlib.sha256(path.read_bytes()).hexdigest()} {path.stat().st_mtime_ns}"
            else:
                found[key] = "folder"
    return found


def assert_refused(result: Result, out: Path, before: dict[str, str], *expected: str) -> None:
    """Exit status 2, every ``expected`` text in the message, and ``out`` exactly as ``before``."""
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    for text in expected:
        assert text in message, f"{text!r} not in {message!r}"
    assert tree_digest(out) == before


@pytest.mark.parametrize(
    ("ratings", "expected"),
    [
        ('[run]\nrule_set = "elo"\n', ["[run] rule_set", "'elo'", "known: ", "club"]),
        ('[validity]\ndraw = "maybe"\n', ["[validity] draw must be one of 'exclude', 'count', got 'maybe'"]),
        ("[validity]\nopponent_cap = -1\n", ["[validity] opponent_cap must be of type int, 0", "got -1"]),
        (
            '[validity]\ndraws = "count"\n',
            ["[validity] 'draws' is not a known key; expected one of:", "draw,"],
        ),
        ('[run]\nrules = "club"\n', ["[run] 'rules' is not a known key; expected one of:", "rule_set"]),
        (
            '[run]\nperiod = "week"\n',
            ["[run] period must be one of 'month', 'quarter', 'half', 'year'", "'week'"],
        ),
    ],
    ids=[
        "unknown-rule-set",
        "bad-choice",
        "bad-number",
        "unknown-validity-key",
        "unknown-run-key",
        "bad-period",
    ],
)
def test_a_bad_ratings_toml_exits_2_naming_file_key_and_expectation(
    ratings: str, expected: list[str], out: Path, tmp_path: Path
) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, ratings)
    assert_refused(ratings_run(tmp_path, config), out, before, str(config), *expected)


def test_an_unknown_rules_option_exits_2_naming_the_option_and_the_known_names(
    out: Path, tmp_path: Path
) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, '[run]\nrule_set = "club"\n')
    assert_refused(
        ratings_run(tmp_path, config, "--rules", "elo"), out, before, "--rules", "'elo'", "known: ", "club"
    )


@pytest.mark.parametrize(
    ("roster", "expected"),
    [
        (
            '[[player]]\nname = "A"\nrank = "strong"\n',
            ["[[player]] #1 (A) rank must be a rank", "got 'strong'"],
        ),
        (
            '[[player]]\nname = "A"\n\n[[player]]\nname = "A"\n',
            ["[[player]] #2 (A) name must be unique (player #1 is 'A'), got 'A'"],
        ),
    ],
    ids=["rank-strong", "duplicate-name"],
)
def test_a_bad_roster_exits_2_naming_file_key_and_expectation(
    roster: str, expected: list[str], out: Path, tmp_path: Path
) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, '[run]\nroster = "roster.toml"\n', roster=roster)
    roster_path = tmp_path / "cfg" / "roster.toml"
    assert_refused(ratings_run(tmp_path, config), out, before, str(roster_path), *expected)


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (
            '[[event]]\nname = "E"\nkind = "party"\n',
            ["[[event]] #1 (E) kind must be one of 'team_match'", "'party'"],
        ),
        (
            '[[event]]\nname = "E"\nkind = "arena"\nends = "2024-06-30"\n',
            ["[[event]] #1 (E) ends must be a TOML date", "got '2024-06-30'"],
        ),
        (
            '[[event]]\nname = "E"\nkind = "arena"\nends = 2024-06-30T10:00:00\n',
            ["[[event]] #1 (E) ends must be a TOML date", "no time"],
        ),
    ],
    ids=["unknown-kind", "date-as-text", "date-with-time"],
)
def test_bad_events_exit_2_naming_file_key_and_expectation(
    events: str, expected: list[str], out: Path, tmp_path: Path
) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, '[run]\nevents = "events.toml"\n', events=events)
    events_path = tmp_path / "cfg" / "events.toml"
    assert_refused(ratings_run(tmp_path, config), out, before, str(events_path), *expected)


def test_a_named_roster_file_that_is_missing_exits_2_naming_it(out: Path, tmp_path: Path) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, '[run]\nroster = "nope.toml"\n')
    missing = tmp_path / "cfg" / "nope.toml"
    assert_refused(ratings_run(tmp_path, config), out, before, str(missing), "not found")


def test_a_named_roster_file_that_is_missing_is_reported_at_its_key(out: Path, tmp_path: Path) -> None:
    before = tree_digest(out)
    config = config_files(tmp_path, '[run]\nroster = "nope.toml"\n')
    assert_refused(ratings_run(tmp_path, config), out, before, str(config), "[run] roster")


def manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_the_manifest_names_the_rule_set_version_and_config_digest(out: Path) -> None:
    found = manifest(out)
    assert found["rule_set"] == "club"
    assert found["package_version"] == pipeline.__version__
    assert re.fullmatch(r"[0-9a-f]{16}", found["config_digest"])


def test_the_manifest_counts_files_games_and_reasons(out: Path) -> None:
    found = manifest(out)
    # games fixture: 3 files, 3 games; the draw is excluded (club), the two decisive games count.
    assert (found["input_files"], found["games"]) == (3, 3)
    assert (found["counts"]["counted"], found["counts"]["excluded"]) == (2, 1)
    assert found["counts"]["reasons"] == {"draw": 1}


def test_the_manifest_lists_periods_and_timings(out: Path) -> None:
    found = manifest(out)
    assert found["periods"] == ["2024-05", "2024-06"]
    assert found["timings_s"] and all(v >= 0 for v in found["timings_s"].values())


def test_the_config_digest_changes_when_the_roster_file_changes(games, tmp_path: Path) -> None:
    ratings = '[run]\nroster = "roster.toml"\n'
    assert ratings_run(tmp_path, config_files(tmp_path, ratings)).exit_code == 0
    first = manifest(tmp_path / "out")["config_digest"]
    assert ratings_run(tmp_path, config_files(tmp_path, ratings)).exit_code == 0
    assert manifest(tmp_path / "out")["config_digest"] == first  # same files: same digest
    changed = GOOD_ROSTER.replace('name = "B"\nrank = "1d"', 'name = "B"\nrank = "2d"')
    assert changed != GOOD_ROSTER
    assert ratings_run(tmp_path, config_files(tmp_path, ratings, roster=changed)).exit_code == 0
    assert manifest(tmp_path / "out")["config_digest"] != first
