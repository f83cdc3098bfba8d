"""An output that explains itself: every command on ``--out`` alone, run from a folder without a
configuration, answers as it does in the run's folder (with its configuration), and the commands that
rate again (``backtest``, ``compare``) rate as the run did: its raw folder, rule set, settings, roster
and events, all read back from the output folder (:mod:`pipeline.config.readback`).

The run: the shipped sample season (data/raw, config/) with settings that are not the defaults, so that
a command that fell back on them would answer otherwise: quarterly periods, an opponent cap of 3.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from pipeline.cli import app

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample rated once in its own folder: config/ (quarterly, opponent cap 3), data/raw and the
    output data/processed, the configuration's paths; run twice (two generations, nothing changed)."""
    root = tmp_path_factory.mktemp("run")
    shutil.copytree(ROOT / "data" / "raw", root / "data" / "raw")
    shutil.copytree(ROOT / "config", root / "config", ignore=shutil.ignore_patterns("examples"))
    path = root / "config" / "ratings.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('# period = "month"', 'period = "quarter"').replace(
        "# opponent_cap = 10", "opponent_cap = 3"
    )
    path.write_text(text, encoding="utf-8")
    for _ in range(2):  # two generations, for ratings diff
        result = runner.invoke(app, ["run", "--config", str(path), "--workers", "1"])
        assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory: no ``config/ratings.toml``, no ``data/raw``."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def out_of(root: Path) -> Path:
    return root / "data" / "processed"


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "120"})


def in_both(run_folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Result, Result]:
    """``args`` run with ``--out`` alone from an empty folder, then in the run's folder (its default
    configuration, no ``--out``); ``{}`` in an argument is a file or folder named after the place."""
    results = []
    for where, out in (("away", ["--out", str(out_of(run_folder))]), ("here", [])):
        place = run_folder.parent / f"{run_folder.name}-{where}"
        place.mkdir(exist_ok=True)
        monkeypatch.chdir(place if where == "away" else run_folder)
        results.append(invoke(*(a.replace("{}", str(place / "made")) for a in args), *out))
        assert results[-1].exit_code == 0, results[-1].output
    return results[0], results[1]


def same_output(a: Result, b: Result, run_folder: Path) -> None:
    """The two results say the same, the files they name aside (their paths are as long: the same
    wrapping)."""
    places = [str(run_folder.parent / f"{run_folder.name}-{w}" / "made") for w in ("away", "here")]
    for said in ("stdout", "stderr"):
        texts = [getattr(r, said).replace(p, "MADE") for r, p in zip((a, b), places, strict=True)]
        assert texts[0] == texts[1]


# the commands that read the output


@pytest.mark.parametrize(
    "args",
    [
        ["show"],
        ["show", "--period", "2024-Q3"],
        ["audit", "--player", "yuyan", "--format", "csv"],
        ["explain", "niuwa", "--period", "2024-Q3"],
        ["players", "--format", "csv"],
        ["diff", "--list"],
        ["diff"],
    ],
    ids=["show", "show-period", "audit", "explain", "players", "diff-list", "diff"],
)
def test_a_command_that_prints_answers_on_out_alone_as_in_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    same_output(*in_both(run_folder, monkeypatch, *args), run_folder)


def test_players_suggest_on_out_alone_writes_the_snippet_of_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = in_both(run_folder, monkeypatch, "players", "--suggest", "--snippet", "{}.toml")
    same_output(a, b, run_folder)
    snippets = [run_folder.parent / f"{run_folder.name}-{w}" / "made.toml" for w in ("away", "here")]
    assert snippets[0].read_text(encoding="utf-8") == snippets[1].read_text(encoding="utf-8")


def test_plot_on_out_alone_draws_the_players_of_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = in_both(
        run_folder, monkeypatch, "plot", "--image", "{}.svg", "--player", "yuyan", "--player", "niuwa"
    )
    same_output(a, b, run_folder)
    drawn = [run_folder.parent / f"{run_folder.name}-{w}" / "made.svg" for w in ("away", "here")]
    assert all("羽焰" in p.read_text(encoding="utf-8") for p in drawn)


def test_export_on_out_alone_writes_the_workbook_of_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = in_both(run_folder, monkeypatch, "export", "--xlsx", "{}.xlsx")
    same_output(a, b, run_folder)
    books = [run_folder.parent / f"{run_folder.name}-{w}" / "made.xlsx" for w in ("away", "here")]
    sheets = [pd.read_excel(p, sheet_name=None) for p in books]
    assert sheets[0].keys() == sheets[1].keys()
    for name, frame in sheets[0].items():
        pd.testing.assert_frame_equal(frame, sheets[1][name])


def test_site_on_out_alone_writes_the_pages_of_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = in_both(run_folder, monkeypatch, "site", "{}")
    same_output(a, b, run_folder)
    sites = [run_folder.parent / f"{run_folder.name}-{w}" / "made" for w in ("away", "here")]
    pages = [
        sorted(p.relative_to(s).as_posix() for s in [site] for p in site.rglob("*.html")) for site in sites
    ]
    assert pages[0] == pages[1]
    assert (sites[0] / "index.html").read_text(encoding="utf-8") == (sites[1] / "index.html").read_text(
        encoding="utf-8"
    )


# the commands that rate again


def test_backtest_on_out_alone_scores_as_in_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    same_output(*in_both(run_folder, monkeypatch, "backtest", "--rules", "club,hkga"), run_folder)


def test_compare_on_out_alone_rates_side_a_as_the_run_did(run_folder: Path, elsewhere: Path) -> None:
    result = invoke("compare", "--out", str(out_of(run_folder)), "--format", "json", "--table", "players")
    assert result.exit_code == 0, result.output
    mine = pd.DataFrame(json.loads(result.stdout)).query("side != 'b' and period != 'overall'")
    published = pd.read_parquet(out_of(run_folder) / "ratings")
    joined = mine.merge(published, on=["period", "player"], how="outer", indicator=True)
    assert set(joined["period"]) == {"2024-Q2", "2024-Q3"}  # the run's quarters, not the default months
    assert (joined["_merge"] == "both").all()
    assert (joined["place_a"] == joined["rating_place"]).all()


def test_compare_on_out_alone_answers_as_in_the_runs_folder(
    run_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["compare", "--against", "hkga", "--format", "json", "--table", "prediction"]
    a, b = in_both(run_folder, monkeypatch, *args)
    same_output(a, b, run_folder)


# which setup, and when it cannot serve


def test_a_default_configuration_that_differs_is_set_aside_with_a_note(
    run_folder: Path, elsewhere: Path
) -> None:
    (elsewhere / "config").mkdir()
    (elsewhere / "config" / "ratings.toml").write_text('[run]\nperiod = "year"\n', encoding="utf-8")
    result = invoke("compare", "--out", str(out_of(run_folder)), "--format", "json")
    assert result.exit_code == 0, result.output
    assert "using the setup the run recorded in" in result.stderr
    assert "(validity, raw folder, roster, events)" in " ".join(result.stderr.split())
    assert {row["period"] for row in json.loads(result.stdout)} == {"2024-Q2", "2024-Q3", "overall"}


def test_a_configuration_named_by_config_is_used_with_a_note_when_it_differs(
    run_folder: Path, elsewhere: Path
) -> None:
    config = run_folder / "config" / "ratings.toml"
    monthly = elsewhere / "monthly.toml"
    monthly.write_text(config.read_text(encoding="utf-8").replace('period = "quarter"', ""), encoding="utf-8")
    for name in ("roster.toml", "events.toml"):
        shutil.copy(run_folder / "config" / name, elsewhere / name)
    raw = ["--raw", str(run_folder / "data" / "raw")]
    result = invoke(
        "compare", "--config", str(monthly), *raw, "--out", str(out_of(run_folder)), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    assert "using the configuration of" in result.stderr and "(validity)" in result.stderr
    assert "2024-05" in {row["period"] for row in json.loads(result.stdout)}


def test_the_runs_own_configuration_gives_no_note(run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(run_folder)
    result = invoke("compare", "--out", str(out_of(run_folder)), "--format", "json")
    assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr


def recorded_copy(run_folder: Path, folder: Path, raw: str) -> Path:
    """A folder holding the run's manifest (its raw folder written as ``raw``), roster and events."""
    folder.mkdir(parents=True)
    manifest = json.loads((out_of(run_folder) / "manifest.json").read_text(encoding="utf-8"))
    (folder / "manifest.json").write_text(json.dumps(manifest | {"raw": raw}), encoding="utf-8")
    for name in ("roster.parquet", "events.parquet"):
        shutil.copy(out_of(run_folder) / name, folder / name)
    return folder


def test_a_relative_raw_folder_is_looked_for_above_the_output(run_folder: Path, tmp_path: Path) -> None:
    from pipeline.config.readback import read_setup

    (tmp_path / "club" / "records").mkdir(parents=True)
    found = read_setup(recorded_copy(run_folder, tmp_path / "club" / "data" / "processed", "records"))
    assert found is not None and found.raw_found
    assert found.config.raw == tmp_path / "club" / "records"


def test_a_relative_raw_folder_found_nowhere_asks_for_raw(run_folder: Path, elsewhere: Path) -> None:
    out = recorded_copy(run_folder, elsewhere / "out", "no/such/records")
    result = invoke("backtest", "--out", str(out))
    assert result.exit_code == 2
    assert "'no/such/records'" in result.stderr and "--raw DIR" in " ".join(result.stderr.split())


def test_an_output_that_recorded_no_setup_is_read_as_before(run_folder: Path, tmp_path: Path) -> None:
    from pipeline.config.readback import read_setup

    out = recorded_copy(run_folder, tmp_path / "out", str(run_folder / "data" / "raw"))
    (out / "roster.parquet").unlink()
    assert read_setup(out) is None


def test_the_recorded_setup_is_the_runs(run_folder: Path) -> None:
    from pipeline.config.readback import read_setup

    found = read_setup(out_of(run_folder))
    assert found is not None
    config = found.config
    assert (config.rule_set, config.period, config.raw) == ("club", "quarter", run_folder / "data" / "raw")
    assert config.validity["opponent_cap"] == 3 and config.validity["draw"] == "exclude"


def test_recorded_events_read_back_as_the_events_they_record(tmp_path: Path) -> None:
    from pipeline.config.events import load_events
    from pipeline.config.recorded import events_table, read_events

    events = load_events(ROOT / "config" / "events.toml")
    pq.write_table(events_table(events), tmp_path / "events.parquet")
    assert read_events(tmp_path / "events.parquet") == events


def test_a_table_of_starting_ratings_reads_back_without_the_runs_choice(tmp_path: Path) -> None:
    from pipeline.config.readback import file_form
    from pipeline.config.roster import Player, Roster

    chosen = Roster(
        (Player("甲", rank="1d", rating=100.0, ratings={"club": 100.0}), Player("乙", rating=2100.0))
    )
    assert [p.rating for p in file_form(chosen).players] == [None, 2100.0]


def test_a_manifest_no_run_wrote_is_a_clear_error(run_folder: Path, elsewhere: Path) -> None:
    out = recorded_copy(run_folder, elsewhere / "out", str(run_folder / "data" / "raw"))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["settings"]["validity"]["period"] = "fortnight"
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = invoke("backtest", "--out", str(out))
    assert result.exit_code == 2
    assert "settings: validity period must be one of" in " ".join(result.stderr.split())
