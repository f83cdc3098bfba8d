"""The GoR family's goldens (docs/rules.md ("hkga"), ("egf"), ("egf2021")), through
`ratings run --rules hkga|egf|egf2021`.

Each golden is one game between players given exact starting ratings by a roster (``rating = ...``);
every game is in no event, so it is rated on its own from the ratings before it. Numbers are read back
from the changes/ and ratings/ Parquet and worked by hand in comments (tolerance 0.01 on deltas).
Handicap: ``HA[H]`` means Black receives H stones; the receiver's rating is raised by 100 x (H - 0.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from typer.testing import CliRunner, Result

from pipeline.cli import app

TOL = 0.01  # tolerance 0.01 on deltas: docs/rules.md gives the worked examples to two decimals


def roster_of(ratings: Mapping[str, float]) -> str:
    """A roster.toml text: one player per entry with that exact starting rating."""
    return "".join(f'[[player]]\nname = "{name}"\nrating = {value}\n' for name, value in ratings.items())


def invoke(
    root: Path,
    rules: str,
    games: list[str],
    roster: str | None = None,
    events: str | None = None,
    params: str = "",
) -> Result:
    """Write ``games`` (one SGF file each, named in list order), the roster and events (None: none) and
    a ratings.toml whose ``[rules]`` section is ``params``; run `ratings run --rules <rules>`."""
    raw, out = root / "raw", root / "out"
    raw.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(games):
        (raw / f"g{i:03d}.sgf").write_text(text, encoding="utf-8")
    lines = ["[run]", 'period = "month"']
    for key, content in {"roster": roster, "events": events}.items():
        if content is None:
            lines.append(f'{key} = ""')
        else:
            (root / f"{key}.toml").write_text(content, encoding="utf-8")
            lines.append(f'{key} = "{key}.toml"')
    lines += ["[rules]", params]
    config = root / "ratings.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--rules", rules]
    return CliRunner().invoke(app, [*args, "--workers", "1"])


def run_gor(
    root: Path,
    rules: str,
    games: list[str],
    roster: str | None = None,
    events: str | None = None,
    params: str = "",
) -> Path:
    """:func:`invoke`, which must succeed; the output folder."""
    result = invoke(root, rules, games, roster, events, params)
    assert result.exit_code == 0, result.output
    return root / "out"


def change(out: Path, player: str, nth: int = 0) -> pd.Series:
    """The ``nth`` changes row of ``player`` (in game order, every period)."""
    df = pd.read_parquet(out / "changes")
    rows = df[df["player"] == player].sort_values("seq")
    assert len(rows) > nth, f"{player}: {len(rows)} changes rows"
    return rows.iloc[nth]


def rating(out: Path, player: str, period: str = "2024-05") -> pd.Series:
    """The ratings row of ``player`` in ``period`` (exactly one must exist)."""
    df = pd.read_parquet(out / "ratings")
    rows = df[(df["period"].astype(str) == period) & (df["player"] == player)]
    assert len(rows) == 1, f"{player} in {period}: {len(rows)} rows"
    return rows.iloc[0]


# ---------------------------------------------------------------------------------------------- hkga


@pytest.fixture(scope="module")
def hkga(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ratings = {"b800": 800, "w800": 800, "r2300": 2300, "r2400": 2400, "h1850": 1850, "h2400": 2400}
    games = [
        sgf("b800", "w800", "B+R", "2024-05-01", seed=1),
        sgf("r2300", "r2400", "B+R", "2024-05-02", seed=2),
        sgf("h1850", "h2400", "B+R", "2024-05-03", handicap=5, seed=3),
    ]
    return run_gor(tmp_path_factory.mktemp("hkga"), "hkga", games, roster=roster_of(ratings))


@pytest.mark.slow
def test_hkga_800_beats_800_gains_40(hkga: Path) -> None:
    # D = 0, equal: A is Black, Se(A) = 1/(e^0 + 1) = 0.5; con(800) = 80: 80 x (1 - 0.5) = +40
    assert change(hkga, "b800")["delta"] == pytest.approx(40, abs=TOL)


def test_hkga_800_losing_to_800_loses_38_88(hkga: Path) -> None:
    # Se(B) = 1 - 0.5 - 0.014 = 0.486; 80 x (0 - 0.486) = -38.88 (the source rounds to -39)
    assert change(hkga, "w800")["delta"] == pytest.approx(-38.88, abs=TOL)


def test_hkga_2300_beats_2400_gains_13_54(hkga: Path) -> None:
    # a = 205 - 2300/20 = 90; D = 100; Se(A) = 1/(e^(100/90) + 1) = 1/(3.0377 + 1) = 0.24766
    # con(2300) = 18: 18 x (1 - 0.24766) = 13.542
    assert change(hkga, "r2300")["delta"] == pytest.approx(13.54, abs=TOL)


def test_hkga_2400_losing_to_2300_loses_11_07(hkga: Path) -> None:
    # Se(B) = 1 - 0.24766 - 0.014 = 0.73834; con(2400) = 15: 15 x (0 - 0.73834) = -11.075 (the source: -11.08)
    assert change(hkga, "r2400")["delta"] == pytest.approx(-11.07, abs=TOL)


def test_hkga_1850_receiving_5_stones_gains_24_83(hkga: Path) -> None:
    # Black adjusted 1850 + 100 x (5 - 0.5) = 2300; D = 2400 - 2300 = 100; a = 90; Se(A) = 0.24766
    # con from the own unadjusted 1850 = (35 + 31)/2 = 33: 33 x (1 - 0.24766) = 24.827
    assert change(hkga, "h1850")["delta"] == pytest.approx(24.83, abs=TOL)


def test_hkga_2400_giving_5_stones_loses_11_08(hkga: Path) -> None:
    # Se(B) = 1 - 0.24766 - 0.014 = 0.73834; con(2400) = 15: 15 x (0 - 0.73834) = -11.075
    assert change(hkga, "h2400")["delta"] == pytest.approx(-11.08, abs=TOL)


def test_hkga_handicap_golden_is_1875_and_2389_in_whole_points(hkga: Path) -> None:
    # the golden is the source's figures (docs/rules.md ("hkga"), example 3), printed in whole points:
    # 1850 + 24.827 = 1874.827 -> 1875; 2400 - 11.075 = 2388.925 -> 2389 (the deltas are pinned at 0.01 by
    # the two tests above)
    assert (round(rating(hkga, "h1850")["rating"]), round(rating(hkga, "h2400")["rating"])) == (1875, 2389)


@pytest.mark.xfail(
    strict=True,
    reason="docs/rules.md (hkga, example 3) gives this golden in whole points (the source's rounding): "
    "computed deltas +24.83 and -11.08 (1874.83, 2388.92) vs the golden's +25 and -11 (1875, 2389); "
    "off by 0.17 and 0.08 > 0.01",
)
def test_hkga_handicap_golden_1875_and_2389_within_0_01(hkga: Path) -> None:
    # golden deltas: 1875 - 1850 = +25, 2389 - 2400 = -11; computed 24.827 and -11.075 (see above)
    assert (change(hkga, "h1850")["delta"], change(hkga, "h2400")["delta"]) == (
        pytest.approx(25, abs=TOL),
        pytest.approx(-11, abs=TOL),
    )


# ----------------------------------------------------------------------------------------------- egf


@pytest.fixture(scope="module")
def egf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ratings = {f"a{d}": 1800 for d in (20, 40, 60, 80)} | {f"o{d}": 1800 + d for d in (20, 40, 60, 80)}
    ratings |= {"b2400": 2400, "w2400": 2400, "r320": 320, "r400": 400, "h1850": 1850, "h2400": 2400}
    games = [sgf(f"a{d}", f"o{d}", "B+R", "2024-05-01", seed=d) for d in (20, 40, 60, 80)]
    games += [
        sgf("b2400", "w2400", "B+R", "2024-05-02", seed=1),
        sgf("r320", "r400", "B+R", "2024-05-03", seed=2),
        sgf("h1850", "h2400", "B+R", "2024-05-04", handicap=5, seed=3),
    ]
    root = tmp_path_factory.mktemp("egf")
    return run_gor(root, "egf", games, roster=roster_of(ratings), params="epsilon = 0")


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        (20, 0.457),  # a = 205 - 1800/20 = 115; 1/(e^(20/115) + 1) = 1/(1.1900 + 1) = 0.4566
        (40, 0.414),  # 1/(e^(40/115) + 1) = 1/(1.4161 + 1) = 0.4139
        (60, 0.372),  # 1/(e^(60/115) + 1) = 1/(1.6851 + 1) = 0.3724
        (80, 0.333),  # 1/(e^(80/115) + 1) = 1/(2.0050 + 1) = 0.3328
    ],
)
@pytest.mark.slow
def test_egf_expected_score_of_1800(egf: Path, gap: int, expected: float) -> None:
    # with epsilon = 0; the golden is given to 3 decimals
    row = change(egf, f"a{gap}")
    assert (row["se"], row["a"]) == (pytest.approx(expected, abs=0.0005), pytest.approx(115))


def test_egf_2400_beats_2400_reaches_2407_5(egf: Path) -> None:
    # D = 0, Se = 0.5 (epsilon 0); con(2400) = 15: 2400 + 15 x 0.5 = 2407.5
    assert change(egf, "b2400")["delta"] == pytest.approx(7.5, abs=TOL)
    assert rating(egf, "b2400")["rating"] == pytest.approx(2407.5, abs=TOL)


def test_egf_320_beats_400_reaches_382_84(egf: Path) -> None:
    # a = 205 - 320/20 = 189; Se(A) = 1/(e^(80/189) + 1) = 1/(1.52697 + 1) = 0.39573
    # con(320) = 105 + (100 - 105) x 0.2 = 104: 104 x (1 - 0.39573) = 62.844 -> 382.84
    assert change(egf, "r320")["delta"] == pytest.approx(62.84, abs=TOL)
    assert rating(egf, "r320")["rating"] == pytest.approx(382.84, abs=TOL)


def test_egf_400_losing_to_320_falls_to_339_57(egf: Path) -> None:
    # Se(B) = 1 - 0.39573 = 0.60427; con(400) = 100: 100 x (0 - 0.60427) = -60.427 -> 339.57
    assert change(egf, "r400")["delta"] == pytest.approx(-60.43, abs=TOL)
    assert rating(egf, "r400")["rating"] == pytest.approx(339.57, abs=TOL)


def test_egf_1850_receiving_5_stones_reaches_1874_83(egf: Path) -> None:
    # adjusted 1850 + 450 = 2300; a = 90; Se(A) = 0.24766; con(1850) = 33: 33 x 0.75234 = 24.827
    assert change(egf, "h1850")["delta"] == pytest.approx(24.83, abs=TOL)
    assert rating(egf, "h1850")["rating"] == pytest.approx(1874.83, abs=TOL)


def test_egf_2400_giving_5_stones_falls_to_2388_71(egf: Path) -> None:
    # Se(B) = 1 - 0.24766 = 0.75234 (epsilon 0); con(2400) = 15: 15 x (0 - 0.75234) = -11.285
    assert change(egf, "h2400")["delta"] == pytest.approx(-11.29, abs=TOL)
    assert rating(egf, "h2400")["rating"] == pytest.approx(2388.71, abs=TOL)


# ------------------------------------------------------------------------------------------- egf2021


@pytest.fixture(scope="module")
def egf2021(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ratings = {"b2100": 2100, "w2100": 2100, "r1000": 1000, "r1300": 1300, "r1406": 1406.791}
    ratings |= {"r1072": 1072.993, "w600": 600, "b39": 39.888}
    games = [
        sgf("b2100", "w2100", "B+R", "2024-05-01", seed=1),
        sgf("r1000", "r1300", "B+R", "2024-05-02", seed=2),
        sgf("r1406", "r1072", "W+R", "2024-05-03", seed=3),
        # the 600 player is White giving 3 stones: Black (39.888) has HA[3]
        sgf("b39", "w600", "W+R", "2024-05-04", handicap=3, seed=4),
    ]
    return run_gor(tmp_path_factory.mktemp("egf2021"), "egf2021", games, roster=roster_of(ratings))


@pytest.mark.slow
def test_egf2021_2100_beats_2100_reaches_2109_306(egf2021: Path) -> None:
    # con = (1200/200)^1.6 = 6^1.6 = 17.5809; Se = 0.5: 17.5809 x 0.5 = 8.7905
    # bonus = ln(1 + e^(200/80))/5 = ln(13.1825)/5 = 0.5158; 2100 + 8.7905 + 0.5158 = 2109.306
    assert change(egf2021, "b2100")["delta"] == pytest.approx(9.306, abs=TOL)
    assert rating(egf2021, "b2100")["rating"] == pytest.approx(2109.306, abs=TOL)


def test_egf2021_expected_score_of_1000_against_1300(egf2021: Path) -> None:
    # beta(1300) - beta(1000) = -7 ln 2000 + 7 ln 2300 = 7 ln 1.15 = 0.97833; 1/(1 + e^0.97833) = 0.27322
    assert change(egf2021, "r1000")["se"] == pytest.approx(0.27322, abs=0.000005)


def test_egf2021_1406_791_losing_to_1072_993_loses_25_373(egf2021: Path) -> None:
    # beta(1072.993) - beta(1406.791) = 7 ln(1893.209/2227.007) = -1.13670; Se = 1/(1 + e^-1.1367) = 0.75707
    # con = (1893.209/200)^1.6 = 36.4645; bonus = ln(1 + e^(893.209/80))/5 = 2.2330
    # 36.4645 x (0 - 0.75707) + 2.2330 = -27.6062 + 2.2330 = -25.373
    assert change(egf2021, "r1406")["delta"] == pytest.approx(-25.373, abs=TOL)


def test_egf2021_1072_993_beating_1406_791_gains_38_864(egf2021: Path) -> None:
    # Se = 1 - 0.75707 = 0.24293; con = (2227.007/200)^1.6 = 47.2832; bonus = ln(1 + e^(1227.007/80))/5
    # = 3.0675; 47.2832 x (1 - 0.24293) + 3.0675 = 35.7968 + 3.0675 = 38.864
    assert change(egf2021, "r1072")["delta"] == pytest.approx(38.864, abs=TOL)


def test_egf2021_600_giving_3_stones_beats_39_888_gains_24_739(egf2021: Path) -> None:
    # Black adjusted 39.888 + 100 x (3 - 0.5) = 289.888; beta(289.888) - beta(600) = 7 ln(2700/3010.112)
    # = -0.76108; Se(600) = 1/(1 + e^-0.76108) = 0.68159; con(600) = (2700/200)^1.6 = 64.3478;
    # bonus = ln(1 + e^(1700/80))/5 = 4.2500; 64.3478 x (1 - 0.68159) + 4.2500 = 20.4891 + 4.25 = 24.739
    assert change(egf2021, "w600")["delta"] == pytest.approx(24.739, abs=TOL)


def test_egf2021_39_888_receiving_3_stones_loses_22_052(egf2021: Path) -> None:
    # Se = 0.31841 (from the adjusted 289.888); con from the own 39.888 = (3260.112/200)^1.6 = 87.0010;
    # bonus = ln(1 + e^(2260.112/80))/5 = 5.6503; 87.0010 x (0 - 0.31841) + 5.6503 = -27.7022 + 5.6503
    # = -22.052
    assert change(egf2021, "b39")["delta"] == pytest.approx(-22.052, abs=TOL)
