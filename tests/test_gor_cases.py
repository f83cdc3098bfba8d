"""The GoR family's behaviours beyond the goldens (docs/rules.md ("hkga") to ("cga"), "Stage weights"),
each by a hand-worked case run through `ratings run` on SGF records and read back from the Parquet output.

Most cases are 800 against 800 under ``hkga``: D = 0, A is Black (equal ratings), Se(A) = 0.5,
Se(B) = 1 - 0.5 - 0.014 = 0.486, con(800) = 80; a win is worth 80 x 0.5 = 40 before weights.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sgfmake import sgf
from test_gor_goldens import TOL, change, invoke, rating, roster_of, run_gor

EVENT_E = '[[event]]\nname = "E"\nkind = "other"\n'
EVENT_B = '[[event]]\nname = "手合"\nkind = "other"\nclass = "B"\n'


def pair(first: str, second: str, value: float = 800) -> str:
    return roster_of({first: value, second: value})


# ------------------------------------------------------------------------------------------ batching


def two_wins(event: str | None) -> list[str]:
    """p beats q twice in May, in event ``event`` (None: no event)."""
    return [sgf("p", "q", "B+R", f"2024-05-0{day}", event=event, seed=day) for day in (1, 2)]


@pytest.mark.slow
def test_event_games_are_rated_from_the_ratings_at_the_events_start(tmp_path: Path) -> None:
    # both games of event E use p's 800 of the event's start: +40 and +40 (not +40 then con x (1 - Se(840)))
    out = run_gor(tmp_path, "hkga", two_wins("E"), roster=pair("p", "q"), events=EVENT_E)
    assert (change(out, "p", 0)["rating_before"], change(out, "p", 1)["rating_before"]) == (800, 800)


@pytest.mark.slow
def test_event_changes_are_summed(tmp_path: Path) -> None:
    # 800 + 40 + 40 = 880; q: 800 - 38.88 - 38.88 = 722.24
    out = run_gor(tmp_path, "hkga", two_wins("E"), roster=pair("p", "q"), events=EVENT_E)
    assert (rating(out, "p")["rating"], rating(out, "q")["rating"]) == (
        pytest.approx(880, abs=TOL),
        pytest.approx(722.24, abs=TOL),
    )


@pytest.mark.slow
def test_batch_events_false_rates_event_games_one_by_one(tmp_path: Path) -> None:
    # [rules] batch_events = false: the second game of E is rated from 800 + 40 = 840
    games, roster = two_wins("E"), pair("p", "q")
    out = run_gor(tmp_path, "hkga", games, roster=roster, events=EVENT_E, params="batch_events = false")
    assert change(out, "p", 1)["rating_before"] == pytest.approx(840, abs=TOL)


@pytest.mark.slow
def test_games_in_no_event_are_rated_one_by_one(tmp_path: Path) -> None:
    # the first game moves p to 800 + 40 = 840, the second is rated from 840
    out = run_gor(tmp_path, "hkga", two_wins(None), roster=pair("p", "q"))
    assert (change(out, "p", 0)["rating_before"], change(out, "p", 1)["rating_before"]) == (
        800,
        pytest.approx(840, abs=TOL),
    )


# --------------------------------------------------------------------------------------------- floor


@pytest.mark.slow
def test_hkga_rating_never_falls_below_100(tmp_path: Path) -> None:
    # 100 vs 100, Black loses: con(100) = 116, Se = 0.5: 116 x (0 - 0.5) = -58 -> 42, floored at 100
    out = run_gor(tmp_path, "hkga", [sgf("p", "q", "W+R")], roster=pair("p", "q", 100))
    assert rating(out, "p")["rating"] == 100


@pytest.mark.slow
def test_egf2021_rating_never_falls_below_minus_900(tmp_path: Path) -> None:
    # -880 vs -880, Black loses: con = (4180/200)^1.6 = 20.9^1.6 = 129.489; Se = 0.5;
    # bonus = ln(1 + e^(3180/80))/5 = 39.75/5 = 7.95; -64.745 + 7.95 = -56.795 -> -936.795, floored at -900
    out = run_gor(tmp_path, "egf2021", [sgf("p", "q", "W+R")], roster=pair("p", "q", -880))
    assert rating(out, "p")["rating"] == -900


# ------------------------------------------------------------------------------------ no-show, draw


@pytest.fixture(scope="module")
def no_show(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Black (800) did not come: W+F against White (800)."""
    game = sgf("absent", "present", "W+F", moves=0)
    return run_gor(tmp_path_factory.mktemp("no_show"), "hkga", [game], roster=pair("absent", "present"))


@pytest.mark.slow
def test_no_show_absentee_is_rated_as_a_loss(no_show: Path) -> None:
    # A is Black (equal ratings): 80 x (0 - 0.5) = -40
    row = change(no_show, "absent")
    assert (row["score"], row["delta"]) == (0, pytest.approx(-40, abs=TOL))


def test_no_show_is_not_rated_for_the_winner(no_show: Path) -> None:
    row = change(no_show, "present")
    assert (row["score"], row["delta"], row["note"]) == (1, 0, "no-show: not rated for the winner")


def test_no_show_is_counted_with_the_note_no_show(no_show: Path) -> None:
    game = pd.read_parquet(no_show / "games.parquet").iloc[0]
    assert (bool(game["counted"]), list(game["reasons"]), "no_show" in list(game["notes"])) == (
        True,
        [],
        True,
    )


@pytest.fixture(scope="module")
def draw(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A draw between Black 800 and White 900."""
    roster = roster_of({"b": 800, "w": 900})
    return run_gor(tmp_path_factory.mktemp("draw"), "hkga", [sgf("b", "w", "Draw")], roster=roster)


@pytest.mark.slow
def test_draw_gives_the_weaker_side_con_times_half_minus_se(draw: Path) -> None:
    # a = 205 - 800/20 = 165; Se(A) = 1/(e^(100/165) + 1) = 1/(1.83366 + 1) = 0.35289
    # con(800) = 80: 80 x (0.5 - 0.35289) = 11.77
    row = change(draw, "b")
    assert (row["score"], row["delta"]) == (0.5, pytest.approx(11.77, abs=TOL))


def test_draw_takes_from_the_stronger_side(draw: Path) -> None:
    # Se(B) = 1 - 0.35289 - 0.014 = 0.63311; con(900) = 75: 75 x (0.5 - 0.63311) = -9.98
    row = change(draw, "w")
    assert (row["score"], row["delta"]) == (0.5, pytest.approx(-9.98, abs=TOL))


# ------------------------------------------------------------------------------------------ handicap


@pytest.fixture(scope="module")
def handicap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Black 1000 receives 2 stones from White 1200."""
    roster = roster_of({"b": 1000, "w": 1200})
    game = sgf("b", "w", "B+R", handicap=2)
    return run_gor(tmp_path_factory.mktemp("handicap"), "hkga", [game], roster=roster)


@pytest.mark.slow
def test_handicap_raises_blacks_rating_by_100_times_h_minus_half(handicap: Path) -> None:
    # 1000 + 100 x (2 - 0.5) = 1150; the unadjusted 1000 is the rating before
    row = change(handicap, "b")
    assert (row["adjusted_rating"], row["rating_before"]) == (1150, 1000)


def test_handicap_leaves_whites_rating_unadjusted(handicap: Path) -> None:
    # White sees 1200 for itself and Black's 1150; Black's own rating stays 1000
    row = change(handicap, "w")
    assert (row["adjusted_rating"], row["opponent_adjusted_rating"], row["opponent_rating"]) == (
        1200,
        1150,
        1000,
    )


# ----------------------------------------------------------------------------------- class weights


def weighted(root: Path, params: str) -> Path:
    """p beats q in event 手合 (class B); r beats s in no event; all 800."""
    games = [sgf("p", "q", "B+R", event="手合", seed=1), sgf("r", "s", "B+R", seed=2)]
    roster = roster_of({name: 800 for name in "pqrs"})
    return run_gor(root, "hkga", games, roster=roster, events=EVENT_B, params=params)


@pytest.fixture(scope="module")
def class_default(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return weighted(tmp_path_factory.mktemp("classes"), "")


@pytest.fixture(scope="module")
def class_configured(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return weighted(tmp_path_factory.mktemp("classes_conf"), 'default_class = "C"\nclass_weights = {B = 0.6}')


@pytest.mark.slow
def test_class_b_event_weighs_0_75(class_default: Path) -> None:
    # 80 x (1 - 0.5) x 0.75 = 30
    row = change(class_default, "p")
    assert (row["event_class"], row["class_weight"], row["delta"]) == ("B", 0.75, pytest.approx(30, abs=TOL))


def test_class_b_event_weighs_the_losers_change_too(class_default: Path) -> None:
    # 80 x (0 - 0.486) x 0.75 = -29.16
    assert change(class_default, "q")["delta"] == pytest.approx(-29.16, abs=TOL)


def test_game_in_no_event_is_class_a_by_default(class_default: Path) -> None:
    # 80 x 0.5 x 1.0 = 40
    row = change(class_default, "r")
    assert (row["event_class"], row["class_weight"], row["delta"]) == ("A", 1.0, pytest.approx(40, abs=TOL))


@pytest.mark.slow
def test_default_class_applies_to_games_in_no_event(class_configured: Path) -> None:
    # default_class = "C": 80 x 0.5 x 0.5 = 20
    row = change(class_configured, "r")
    assert (row["event_class"], row["delta"]) == ("C", pytest.approx(20, abs=TOL))


def test_class_weights_override_the_seeds(class_configured: Path) -> None:
    # class_weights = {B = 0.6}: 80 x 0.5 x 0.6 = 24
    row = change(class_configured, "p")
    assert (row["class_weight"], row["delta"]) == (0.6, pytest.approx(24, abs=TOL))


# ----------------------------------------------------------------------------------- stage weights


def staged(root: Path, params: str) -> Path:
    """p beats q in round 决赛; r beats s in round 第1轮; all 800, no event."""
    games = [sgf("p", "q", "B+R", round_="决赛", seed=1), sgf("r", "s", "B+R", round_="第1轮", seed=2)]
    return run_gor(root, "hkga", games, roster=roster_of({name: 800 for name in "pqrs"}), params=params)


@pytest.fixture(scope="module")
def stage_final_x2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return staged(tmp_path_factory.mktemp("stages"), 'stage_weights = {"决赛*" = 2.0}')


@pytest.mark.slow
def test_stage_weight_doubles_the_final(stage_final_x2: Path) -> None:
    # RO[决赛] matches 决赛*: 80 x 0.5 x 2.0 = 80
    row = change(stage_final_x2, "p")
    assert (row["stage_weight"], row["delta"]) == (2.0, pytest.approx(80, abs=TOL))


def test_stage_weight_leaves_other_rounds_at_1(stage_final_x2: Path) -> None:
    # RO[第1轮] matches no pattern: 80 x 0.5 x 1 = 40
    row = change(stage_final_x2, "r")
    assert (row["stage_weight"], row["delta"]) == (1.0, pytest.approx(40, abs=TOL))


@pytest.mark.slow
def test_stage_weights_are_off_by_default(tmp_path: Path) -> None:
    # no stage_weights: the final weighs 1: 80 x 0.5 = 40
    row = change(staged(tmp_path, ""), "p")
    assert (row["stage_weight"], row["delta"]) == (1.0, pytest.approx(40, abs=TOL))


# ------------------------------------------------------------------------------------- bad [rules]


@pytest.mark.parametrize(
    ("rules", "params", "key"),
    [
        ("hkga", "k_factor = 10", "k_factor"),  # unknown to every GoR rule set
        ("egf2021", "epsilon = 0.01", "epsilon"),  # egf2021 has no epsilon
        ("hkga", "class_weights = {D = 1.0}", "class_weights"),  # classes are A, B, C
        ("egf", 'stage_weights = {"决赛" = 0}', "stage_weights"),  # weights must be > 0
        ("hkga", 'epsilon = "0.014"', "epsilon"),  # a string, not a number
    ],
)
def test_bad_rules_parameter_exits_2_naming_the_key(
    tmp_path: Path, rules: str, params: str, key: str
) -> None:
    result = invoke(tmp_path, rules, [sgf("p", "q", "B+R")], params=params)
    assert (result.exit_code, "[rules]" in result.output, key in result.output) == (2, True, True)


def test_bad_class_weights_message_shows_the_bad_class(tmp_path: Path) -> None:
    result = invoke(tmp_path, "hkga", [sgf("p", "q", "B+R")], params="class_weights = {D = 1.0}")
    assert "'D'" in result.output


# ------------------------------------------------------------------------------------ ranks, labels


@pytest.fixture(scope="module")
def ranked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Players with declared ranks (no rating) and two with ratings either side of 1k/1d's 2050."""
    ranks = {"k20": "20k", "k1": "1k", "d1": "1d", "d7": "7d", "p1": "1p", "p3": "3p"}
    roster = "".join(f'[[player]]\nname = "{n}"\nrank = "{r}"\n' for n, r in ranks.items())
    roster += roster_of({"at2050": 2050, "at2049": 2049})
    pairs = [("k20", "k1"), ("d1", "d7"), ("p1", "p3"), ("at2050", "at2049")]
    games = [sgf(black, white, "B+R", seed=i) for i, (black, white) in enumerate(pairs)]
    return run_gor(tmp_path_factory.mktemp("ranks"), "hkga", games, roster=roster)


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        ("k20", 100),  # the HKGA introduction's table I: 20k = 100
        ("k1", 2000),  # 100 + 19 x 100
        ("d1", 2100),
        ("d7", 2700),  # 2100 + 6 x 100
        ("p1", 2700),  # EGF: 1p = 2700
        ("p3", 2760),  # 2700 + 2 x 30
    ],
)
@pytest.mark.slow
def test_initial_rating_from_declared_rank(ranked: Path, player: str, expected: float) -> None:
    assert change(ranked, player)["rating_before"] == expected


@pytest.mark.parametrize(("player", "label"), [("at2050", "1d"), ("at2049", "1k")])
def test_rank_label_is_the_nearest_grade(ranked: Path, player: str, label: str) -> None:
    # 1k = 2000, 1d = 2100: 2050 is halfway (ties go up) -> 1d; 2049 is nearer 2000 -> 1k
    assert rating(ranked, player)["rank_before"] == label
