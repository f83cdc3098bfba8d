"""The example configurations in config/examples/: one run configuration per rule set, each loading, planning
and running end to end on the shipped sample; and the story the tga example tells on the sample's Gomoku
records (docs/sample.md, "Gomoku": every number below is worked there by hand from docs/rules.md ("tga")).
"""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from conftest import CHECKER, ROOT, check_output
from typer.testing import CliRunner

from pipeline import rules
from pipeline.cli import app
from pipeline.config import load
from pipeline.config.events import load_events
from pipeline.config.roster import load_roster
from pipeline.run import plan

EXAMPLES = ROOT / "config" / "examples"
RAW = ROOT / "data" / "raw"
#: The Gomoku sample's folder and its output, which the tga example names ([ingest] raw and out).
GOMOKU_RAW, GOMOKU_OUT = ROOT / "data" / "gomoku" / "raw", ROOT / "data" / "gomoku" / "processed"


def is_run_config(path: Path) -> bool:
    """A ratings.toml-like file: it has a [run] table (rosters and events files have none)."""
    return "run" in tomllib.loads(path.read_text(encoding="utf-8"))


RUN_CONFIGS = sorted(p for p in EXAMPLES.glob("*.toml") if is_run_config(p))
COMPANIONS = sorted(p for p in EXAMPLES.glob("*.toml") if not is_run_config(p))


def sample_of(config: Path) -> Path:
    """The sample the example ``config`` rates: the Gomoku one for tga, else the Go club's."""
    return GOMOKU_RAW if config.stem == "tga" else RAW


def run(config: Path, out: Path) -> None:
    args = [
        "run",
        "--config",
        str(config),
        "--raw",
        str(sample_of(config)),
        "--out",
        str(out),
        "--workers",
        "1",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output


def test_there_is_one_example_per_rule_set_named_after_it() -> None:
    named = {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))["run"]["rule_set"] for p in RUN_CONFIGS}
    assert named == {name: name for name in rules.names()}


@pytest.mark.parametrize("path", COMPANIONS, ids=lambda p: p.name)
def test_every_other_example_is_a_roster_or_an_events_file_that_loads(path: Path) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if "player" in data:
        assert load_roster(path).configured
    else:
        assert load_events(path).events


@pytest.mark.parametrize("path", RUN_CONFIGS, ids=lambda p: p.name)
def test_example_loads_and_plans(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples leave raw to the default: data/raw of the working directory
    planned = plan(load(path))
    assert planned.rule_set == path.stem and planned.roster.configured and planned.events.events


INGEST_KEYS = ("raw", "out", "workers", "speed_threshold_minutes", "file_timeout_seconds", "scheduler")


@pytest.mark.parametrize("path", RUN_CONFIGS, ids=lambda p: p.name)
def test_example_ingest_keys_uncommented_name_the_samples_folders_from_the_repository_root(
    path: Path, tmp_path: Path
) -> None:
    text = path.read_text(encoding="utf-8")
    ingest = text[text.index("[ingest]") :].split("\n[", 1)[0]  # the section alone: no companion files
    for key in INGEST_KEYS:
        shown = f"\n# {key} = " in ingest or (key in ("raw", "out") and f"\n{key} = " in ingest)
        assert shown, f"{path.name} does not show [ingest] {key}"
        ingest = ingest.replace(f"\n# {key} = ", f"\n{key} = ")
    copy = tmp_path / path.name
    copy.write_text(ingest, encoding="utf-8")
    config = load(copy)
    # relative to the file's folder: from the example's own folder they name the repository's data/
    relative = [os.path.relpath(folder, tmp_path.resolve()) for folder in (config.raw, config.out)]
    expected = [GOMOKU_RAW, GOMOKU_OUT] if path.stem == "tga" else [RAW, ROOT / "data" / "processed"]
    assert [(path.parent / r).resolve() for r in relative] == expected
    assert (config.workers, config.file_timeout_s) == (None, 10.0)


@pytest.mark.parametrize("path", RUN_CONFIGS, ids=lambda p: p.name)
@pytest.mark.slow
def test_example_runs_on_the_sample_and_the_contract_holds(path: Path, tmp_path: Path) -> None:
    run(path, tmp_path / "out")
    if not CHECKER.exists():
        pytest.skip(f"the contract checker is not at {CHECKER}")
    code, printed = check_output(tmp_path / "out")
    assert code == 0, printed


# --- the tga example on the Gomoku records ------------------------------------------------------------------


@pytest.fixture(scope="module")
def tga(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tga") / "out"
    run(EXAMPLES / "tga.toml", out)
    return out


def promotions(out: Path) -> pd.DataFrame:
    """The promotions, ``date`` as ``datetime.date`` (the file stores a timestamp at midnight)."""
    found = pd.read_parquet(out / "promotions.parquet")
    return found.assign(date=found["date"].dt.date)


def promotion(out: Path, player: str) -> pd.Series:
    found = promotions(out)
    rows = found[found["player"] == player]
    assert len(rows) == 1, rows
    return rows.iloc[0]


A8, A4, A9, A10 = (
    f"tga article {n}" for n in ("8 points", "4 promotion tournament", "9 low-dan champion", "10 kyu award")
)
EXPECTED = [
    # (player, date, rule, from, to)
    ("陳志明", dt.date(2024, 3, 10), A8, "2d", "3d"),
    ("周柏宇", dt.date(2024, 4, 14), A4, "1k", "1d"),
    ("賴淑芬", dt.date(2024, 4, 14), A4, "2k", "1d"),
    ("洪文雄", dt.date(2024, 4, 14), A10, "3k", "2k"),
    ("高承翰", dt.date(2024, 4, 14), A10, "9k", "4k"),
    ("蔡承恩", dt.date(2024, 5, 19), A8, "2d", "3d"),
    ("葉柏宇", dt.date(2024, 7, 20), A10, "13k", "9k"),
    ("莊美玲", dt.date(2024, 7, 20), A10, "15k", "10k"),
    ("林俊傑", dt.date(2024, 8, 11), A9, "3d", "4d"),
    ("李宗翰", dt.date(2024, 10, 20), "manual award", "5d", "6d"),
]


@pytest.mark.slow
def test_tga_gives_exactly_the_promotions_of_the_docs(tga: Path) -> None:
    found = promotions(tga)
    rows = {(r.player, r.date, r.rule, r.from_rank, r.to_rank) for r in found.itertuples()}
    assert (len(found), rows) == (len(EXPECTED), set(EXPECTED))


def test_tga_golden_2d_is_promoted_by_points_at_the_national_open(tga: Path) -> None:
    # wins vs 3d, 2d, 4d, loss vs 5d, draw vs 2d: S = 3.5, Σwin Δ = 1 + 0 + 2 = 3, Σdraw Δ = 0
    # 3.5 + 0.2 × 3 = 4.1 >= 0.7 × 5 = 3.5
    row = promotion(tga, "陳志明")
    assert (row["event"], row["value"], row["threshold"], row["games"]) == (
        "2024 全國五子棋公開賽",
        4.1,
        3.5,
        5,
    )


def test_tga_3d_with_three_wins_against_1d_is_not_promoted_at_the_taipei_open(tga: Path) -> None:
    # 3 wins vs 1d (Δ = 1 − 3 = −2 each), 2 losses: 3 + 0.2 × (−6) = 1.8 < 3.5; his only promotion is August's
    changes = pd.read_parquet(tga / "changes")
    mine = changes[
        (changes["player"] == "林俊傑") & (changes["event"] == "2024 Taipei International Gomoku Open")
    ]
    assert (len(mine), round(mine["points"].sum(), 6)) == (5, 1.8)
    assert promotion(tga, "林俊傑")["event"] == "2024 低段組五子棋賽"


def test_tga_guest_of_unknown_rank_is_estimated_at_3d(tga: Path) -> None:
    # Martin Novak beat 王國華 (4d) and 林俊傑 (3d), lost to 蔡承恩 (2d):
    # (strongest beaten 4 + weakest lost to 2) / 2 = 3
    changes = pd.read_parquet(tga / "changes")
    against = changes[changes["opponent"] == "Martin Novak"]
    assert sorted(against["player"]) == ["林俊傑", "王國華", "蔡承恩"]
    assert set(against["opponent_dan"]) == {3.0} and against["estimated_opponent"].all()


def test_tga_2d_who_beat_the_guest_is_promoted_thanks_to_the_estimate(tga: Path) -> None:
    # wins vs Novak (est. 3: Δ +1) and three 1d (Δ −1 each), loss vs 4d: 4 + 0.2 × (1 − 3) = 3.6 >= 3.5
    # (at dan 0 the guest would give Δ −2: 4 + 0.2 × (−5) = 3.0 < 3.5)
    row = promotion(tga, "蔡承恩")
    assert (row["rule"], row["value"], row["threshold"]) == (A8, 3.6, 3.5)


def test_tga_promotion_tournament_promotes_its_top_two_to_1d(tga: Path) -> None:
    # 12 players: round(12 / 8) = round(1.5) = 2 (half up)
    found = promotions(tga)
    assert set(found[found["rule"] == A4]["player"]) == {"周柏宇", "賴淑芬"}


def test_tga_promotion_tournament_breaks_the_tie_at_4_by_opponents_scores(tga: Path) -> None:
    # 賴淑芬 and 洪文雄 both scored 4; their opponents scored 2+3+5+3+2 = 15 and 2+2+1+5+2 = 12
    assert "place 2 of 12 players (score 4, opponents' scores 15)" in promotion(tga, "賴淑芬")["evidence"]
    assert promotion(tga, "洪文雄")["rule"] == A10


def test_tga_kyu_award_equal_to_the_rank_held_changes_nothing(tga: Path) -> None:
    # 邱怡婷 (4k) scored 3 of 5 in the promotion group (4k); 呂文華 (12k) 3 of 5 in standard A (12k)
    ratings = pd.read_parquet(tga / "ratings").set_index("player")
    assert ratings.loc[["邱怡婷", "呂文華"], "rank"].tolist() == ["4k", "12k"]
    assert not promotions(tga)["player"].isin(["邱怡婷", "呂文華"]).any()


def test_tga_april_promotions_hold_at_the_august_low_dan_event(tga: Path) -> None:
    changes = pd.read_parquet(tga / "changes")
    low_dan = changes[changes["event"] == "2024 低段組五子棋賽"].groupby("player")["dan"].first()
    assert low_dan.to_dict() == {"周柏宇": 1, "賴淑芬": 1, "張雅婷": 2, "吳怡君": 2, "林俊傑": 3, "蔡承恩": 3}


def test_tga_low_dan_champion_is_the_3d_who_fails_article_8(tga: Path) -> None:
    # 林俊傑 scored 4 (opponents 1 + 1 + 2.5 + 3 + 3.5 = 11): champion, 3d -> 4d; Article 8 alone would
    # give 4 + 0.2 × (−2 − 2 − 1 − 1) = 2.8 < 3.5
    row = promotion(tga, "林俊傑")
    assert (row["rule"], row["to_rank"]) == (A9, "4d")
    assert "champion of 6 players (score 4, opponents' scores 11)" in row["evidence"]


def test_tga_fees_follow_the_promotions(tga: Path) -> None:
    # Article 13: 1d-3d 600, 4d-6d 1100, 10k-1k 500:
    # 3d ×2, 1d ×2 = 2400; 4d, 6d = 2200; 2k, 4k, 9k, 10k = 2000; total 6600
    fees = pd.read_parquet(tga / "fees.parquet")
    by_rank = dict(zip(fees["to_rank"] + " " + fees["player"], fees["fee"], strict=True))
    assert by_rank == {
        "3d 陳志明": 600,
        "3d 蔡承恩": 600,
        "1d 周柏宇": 600,
        "1d 賴淑芬": 600,
        "4d 林俊傑": 1100,
        "6d 李宗翰": 1100,
        "2k 洪文雄": 500,
        "4k 高承翰": 500,
        "9k 葉柏宇": 500,
        "10k 莊美玲": 500,
    }
    assert fees["fee"].sum() == 6600


def test_tga_counts_every_record_of_the_gomoku_sample(tga: Path) -> None:
    # the 79 records of data/gomoku/raw, draws included (Article 8.7); no Go record is beside them
    games = pd.read_parquet(tga / "games.parquet")
    assert (games["counted"].sum(), len(games)) == (79, 79)
