"""`ratings explain PLAYER`: the derivation of a rating, through `ratings run` then `ratings explain`.

Each corpus is a handful of hand-made SGF records; every number expected is worked by hand in a comment.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from rosters import roster
from sgfmake import sgf
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()
ROSTER = roster("羽焰", "凝兰", "牛蛙", "阿扬", "fish", "二黑")


def run(
    root: Path, rule_set: str, games: list[str], roster: str | None = None, events: str | None = None
) -> tuple[Path, Path]:
    """Write ``games`` (one file each, in list order), the roster and events files (None: none) and a
    ratings.toml for ``rule_set`` under ``root``; run `ratings run`; return (output folder, configuration)."""
    raw, out, config = root / "raw", root / "out", root / "ratings.toml"
    raw.mkdir(parents=True)
    for i, text in enumerate(games):
        (raw / f"g{i:03d}.sgf").write_text(text, encoding="utf-8")
    lines = ["[run]", f'rule_set = "{rule_set}"']
    for key, content in {"roster": roster, "events": events}.items():
        if content is None:
            lines.append(f'{key} = ""')
        else:
            (root / f"{key}.toml").write_text(content, encoding="utf-8")
            lines.append(f'{key} = "{key}.toml"')
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["run", "--config", str(config), "--raw", str(raw), "--out", str(out), "--workers", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out, config


def explain(where: tuple[Path, Path], *args: str) -> tuple[int, str]:
    """`ratings explain args --out OUT --config CONFIG` on a wide terminal: exit code and output."""
    out, config = where
    result = runner.invoke(
        app, ["explain", *args, "--out", str(out), "--config", str(config)], env={"COLUMNS": "250"}
    )
    return result.exit_code, result.output


def line_with(output: str, *words: str) -> str:
    """The one line of ``output`` that holds every word of ``words``."""
    found = [line for line in output.splitlines() if all(w in line for w in words)]
    assert len(found) == 1, f"{words}: {found}\n{output}"
    return found[0]


def may(black: str, white: str, result: str, day: int, slow: bool = True, **kw: object) -> str:
    return sgf(black, white, result, f"2024-05-{day:02d}", slow=slow, seed=day, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The club proposal's example for 羽焰 (1d, 100; docs/rules.md ("club")): May in the example's order,
    and June's win over 二黑 (3d by then, thanks to three slow May wins over 阿扬); the roster gives every
    rank."""
    games = [
        may("羽焰", "凝兰", "B+R", 1),  # win vs 5k, slow: 0.1 x 10
        may("凝兰", "羽焰", "W+R", 2),  # again
        may("羽焰", "凝兰", "B+3.5", 3),  # again: the three make 0.1x10x3 = 3
        may("羽焰", "牛蛙", "W+R", 4, slow=False),  # loss, fast: own 1 x 5 = -5
        may("阿扬", "羽焰", "B+R", 5),  # loss, slow: 1 x 10 = -10
        may("fish", "羽焰", "W+R", 6),  # win vs 3d, slow: 3 x 10 = +30
        may("羽焰", "二黑", "B+R", 7),  # win vs 2d, slow: 2 x 10 = +20
        may("二黑", "羽焰", "B+R", 8, slow=False),  # loss, fast: -5
        may("羽焰", "二黑", "W+R", 9, slow=False),  # loss, fast: -5; the two make 1x5x2 = 10
        # 二黑: 200 - 2x10 + 1x5 + 1x5 + 3 x (4x10) = 310 at May's end: 3d in June
        may("二黑", "阿扬", "B+R", 10),
        may("阿扬", "二黑", "W+R", 11),
        may("二黑", "阿扬", "B+R", 12),
        sgf("二黑", "羽焰", "W+R", "2024-06-03", slow=False, seed=13),  # June: 3 x 5 = +15
    ]
    return run(tmp_path_factory.mktemp("seed"), "club", games, ROSTER)


@pytest.mark.slow
def test_seed_example_equation_has_exactly_the_seeds_terms(seed: tuple[Path, Path]) -> None:
    code, output = explain(seed, "羽焰", "--period", "2024-05")
    assert code == 0, output
    # 100 + 3 - 5 - 10 + 30 + 20 - 10 = 128
    # (the club proposal: 100+0.1*10*3+(-1*5)+(-1*10)+3*10+2*10+(-1*5*2)=128)
    assert "128 = 100 + 0.1×10×3 − 1×5 − 1×10 + 3×10 + 2×10 − 1×5×2" in output.splitlines()


def test_default_period_is_the_players_latest_rated_period(seed: tuple[Path, Path]) -> None:
    code, output = explain(seed, "羽焰")
    assert code == 0, output
    assert output.splitlines()[0] == "羽焰, 2024-06 (club)"
    assert "143 = 128 + 3×5" in output.splitlines()  # the club proposal: 128+3*5=143


def test_each_counted_game_is_a_line_with_opponent_result_speed_and_points(seed: tuple[Path, Path]) -> None:
    _, output = explain(seed, "羽焰", "--period", "2024-05")
    line = line_with(output, "vs fish")
    # fish is 3d (coefficient 3); a slow win: 3 x 10 = +30
    for word in ("fish (3d)", "win", "slow", "+30"):
        assert word in line
    line = line_with(output, "vs 牛蛙")
    assert "loss" in line and "fast" in line and "−5" in line  # own coefficient 1 x 5


def test_an_alias_typed_in_full_width_finds_the_player(seed: tuple[Path, Path]) -> None:
    # The records spell 羽焰 only; the roster's alias YuYan, typed in full-width capitals, still finds her.
    code, output = explain(seed, "ＹＵＹＡＮ")
    assert code == 0, output
    assert output.splitlines()[0] == "羽焰, 2024-06 (club)"


def test_a_case_different_name_finds_the_player(seed: tuple[Path, Path]) -> None:
    code, output = explain(seed, "FISH")
    assert code == 0, output
    assert output.splitlines()[0] == "fish, 2024-05 (club)"  # fish played in May only


def test_default_period_is_the_latest_in_which_the_player_played(seed: tuple[Path, Path]) -> None:
    # 凝兰 played three games in May and none in June, where the ratings carry her at 10 - 3 = 7
    code, output = explain(seed, "凝兰")
    assert code == 0, output
    assert output.splitlines()[0] == "凝兰, 2024-05 (club)"
    assert "counted games (3):" in output.splitlines()


def test_unknown_player_exits_2_and_suggests_close_names(seed: tuple[Path, Path]) -> None:
    code, output = explain(seed, "fsh")
    assert code == 2
    assert "fsh" in output and "did you mean: fish?" in output


def test_a_period_without_a_rating_of_the_player_exits_2(seed: tuple[Path, Path]) -> None:
    code, output = explain(seed, "羽焰", "--period", "2024-04")
    assert code == 2
    assert "2024-04" in output and "2024-05" in output


@pytest.mark.slow
def test_games_not_counted_show_their_reason(tmp_path: Path) -> None:
    games = [
        may("羽焰", "凝兰", "B+R", 1),  # counted: win vs 5k, slow: 0.1 x 10 = +1
        may("羽焰", "凝兰", "Draw", 2),  # not counted: a draw
        may("凝兰", "羽焰", "W+R", 3, handicap=3),  # not counted: a handicap game
    ]
    code, output = explain(run(tmp_path, "club", games, ROSTER), "羽焰")
    assert code == 0, output
    assert "101 = 100 + 0.1×10" in output.splitlines()  # the two other games add nothing
    assert "draws are not valid games" in line_with(output, "g001.sgf")
    assert "only even games count" in line_with(output, "g002.sgf")
    assert "handicap" in line_with(output, "g002.sgf")


@pytest.mark.slow
def test_club_bonus_points_and_awards_are_terms_of_the_equation(tmp_path: Path) -> None:
    events = """
[[event]]
name = "TM"
kind = "team_match"
[[event]]
name = "Cup"
kind = "server_open"
champion = "羽焰"
"""
    games = [
        may("羽焰", "凝兰", "B+R", 1, event="TM"),  # 0.1 x 10 = 1, +10 team match win
        may("羽焰", "二黑", "B+R", 2, event="TM"),  # 2 x 10 = 20, +10 team match win
        may("羽焰", "阿扬", "B+R", 3, event="Cup"),  # 4 x 10 = 40, +20 server open win
    ]
    code, output = explain(run(tmp_path, "club", games, ROSTER, events), "羽焰")
    assert code == 0, output
    # 100 + 1 + 20 + 40 + 10 x 2 + 20 + 500 (champion of the server open) = 701
    equation = "701 = 100 + 0.1×10 + 2×10 + 4×10 + 10×2 (team match win) + 20 (server open win)"
    assert equation + " + 500 (champion, Cup)" in output.splitlines()


@pytest.fixture(scope="module")
def hkga(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """hkga, ranks from the records: 乙 (3d, 2300) beats 甲 (4d, 2400); 丙 (20k, 100) loses to 丁 (20k)."""
    games = [
        may("乙", "甲", "B+R", 1, black_rank="3d", white_rank="4d"),
        may("丙", "丁", "W+R", 2, black_rank="20k", white_rank="20k"),
    ]
    return run(tmp_path_factory.mktemp("hkga"), "hkga", games)


@pytest.mark.slow
def test_hkga_shows_se_a_and_con_of_each_game(hkga: tuple[Path, Path]) -> None:
    code, output = explain(hkga, "乙")
    assert code == 0, output
    # a = 205 - 2300/20 = 90; Se = 1/(e^(100/90) + 1) = 1/(3.03773 + 1) = 0.24766; con(2300) = 18 (table III);
    # change = 18 x (1 - 0.24766) x 1 (class A) x 1 (stage) = 13.542
    line = line_with(output, "甲", "win")
    for word in ("Se 0.2477", "a 90", "con 18", "class A ×1", "stage ×1", "+13.54"):
        assert word in line, line
    assert "2313.54 = 2300 + 13.54" in output.splitlines()


def test_hkga_says_when_the_floor_clipped_the_rating(hkga: tuple[Path, Path]) -> None:
    code, output = explain(hkga, "丙")
    assert code == 0, output
    # equal ratings: 丙 (Black) is A, Se = 1/(e^0 + 1) = 0.5; con(100) = 116; 116 x (0 - 0.5) = -58;
    # 100 - 58 = 42 is below the floor of 100, which holds the rating at 100
    assert "100 = 100 − 58" in output.splitlines()
    assert "the floor clipped it" in output


@pytest.mark.slow
def test_cga_dan_shows_points_and_the_promotion_evidence(tmp_path: Path) -> None:
    day = dt.date(2024, 3, 1)
    games = [
        sgf("甲", f"乙{i}", "B+R", f"{day + dt.timedelta(i)}", black_rank="1d", white_rank="1d", seed=i)
        for i in range(8)
    ]
    code, output = explain(run(tmp_path, "cga-dan", games), "甲")
    assert code == 0, output
    # eight wins against 1d players, 90 points each: average 90 >= 75 over 8 games, the first standard of
    # 1d (n = 6 + 2 x 1 = 8): promoted to 2d at the 8th game, and the average restarts with no games
    assert "90 points" in line_with(output, "乙0")
    assert "0 = the average of no games since the promotion to 2d" in output.splitlines()
    promotion = line_with(output, "1d → 2d")
    assert "8 games" in promotion and "75" in promotion
