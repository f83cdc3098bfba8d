"""The commands that answer about one player read its rows through the player index without pandas
(pipeline/reports/explain, player_rows, plots, audit_query; the standings on a day: asof, partial;
pipeline/core/strings.py says why pandas would come in):
pandas' import is a fifth of such a command's second. Each command runs in a fresh interpreter on a
small rated season; the answers themselves are checked against the tables read whole in
tests/test_player_index.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh import said_after
from seasons import ranked_season

from pipeline.output.player_index import PlayerIndex

pytestmark = pytest.mark.slow

SEASON = [
    ("羽焰", "凝兰", "B+R", "2024-03-03"),
    ("凝兰", "牛蛙", "W+3.5", "2024-03-09"),
    ("牛蛙", "羽焰", "B+R", "2024-04-02"),
    ("羽焰", "凝兰", None, "2024-04-05"),
    ("凝兰", "羽焰", "B+R", "2024-05-11"),
]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of a small rated season (with its player index)."""
    out = ranked_season(tmp_path_factory.mktemp("season"), SEASON)
    assert PlayerIndex.of(out) is not None
    return out


def pandas_imported(*args: str) -> bool:
    """Whether ``ratings ARGS``, run to its end in a fresh interpreter, imported pandas."""
    status, said = said_after('"pandas" in sys.modules', list(args))
    assert status == 0, said
    return said == "True"


def test_explain_imports_no_pandas(season: Path) -> None:
    assert not pandas_imported("explain", "羽焰", "--out", str(season))


def test_explain_of_a_period_imports_no_pandas(season: Path) -> None:
    assert not pandas_imported("explain", "凝兰", "--period", "2024-03", "--out", str(season))


def test_plot_of_a_player_imports_no_pandas(season: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    image = tmp_path / "history.png"
    assert not pandas_imported("plot", "--player", "羽焰", "--image", str(image), "--out", str(season))
    assert image.stat().st_size > 0


def test_audit_of_a_player_imports_no_pandas(season: Path) -> None:
    assert not pandas_imported("audit", "--player", "羽焰", "--out", str(season))


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_audit_of_a_player_as_csv_or_json_imports_no_pandas(season: Path, fmt: str) -> None:
    assert not pandas_imported("audit", "--player", "羽焰", "--format", fmt, "--out", str(season))


def test_audit_of_a_player_with_every_filter_imports_no_pandas(season: Path) -> None:
    args = ["audit", "--player", "凝兰", "--period", "2024-04", "--reason", "no_result", "--excluded"]
    assert not pandas_imported(*args, "--lang", "zh-Hans", "--out", str(season))


def test_the_standings_on_a_day_import_no_pandas(season: Path) -> None:
    assert not pandas_imported("show", "--date", "2024-04-04", "--all", "--out", str(season))


def test_the_standings_on_a_day_after_the_last_period_import_no_pandas(season: Path) -> None:
    assert not pandas_imported("show", "--date", "2024-09-01", "--top", "2", "--out", str(season))


def test_the_check_sees_pandas_when_a_command_imports_it(season: Path) -> None:
    """The check itself: a command known to write pandas frames (the standings as CSV) is seen to."""
    assert pandas_imported("show", "--format", "csv", "--out", str(season))
