"""Unit tests of pipeline/rules/gor.py: the con table, the classic and EGD 2021 formulas, and the rank
scale (the HKGA introduction's tables I and III, docs/rules.md ("hkga")). Every number is worked by hand
in a comment."""

from __future__ import annotations

import pytest

from pipeline.core.ranks import Rank
from pipeline.rules.gor import Classic, Egd2021, con_table, rank_for_rating, rating_for_rank

HKGA = Classic(epsilon=0.014, split=False)
EGF = Classic(epsilon=0.016, split=True)

# ------------------------------------------------------------------------------------------- con table


@pytest.mark.parametrize(
    ("rating", "con"),
    [(100, 116), (200, 110), (800, 80), (1400, 51), (2000, 27), (2100, 24), (2400, 15), (2700, 10)],
)
def test_con_table_at_its_rows(rating: float, con: float) -> None:
    # the HKGA introduction's table III (docs/rules.md ("hkga")), read off row by row
    assert con_table(rating) == pytest.approx(con)


@pytest.mark.parametrize(
    ("rating", "con"),
    [
        (1850, 33),  # halfway between 1800 (35) and 1900 (31): 35 - 4 x 0.5 = 33
        (320, 104),  # 300 (105) to 400 (100): 105 - 5 x 0.2 = 104
        (150, 113),  # 100 (116) to 200 (110): 116 - 6 x 0.5 = 113
        (2650, 10.5),  # 2600 (11) to 2700 (10): 11 - 1 x 0.5 = 10.5
        (1325, 54),  # 1300 (55) to 1400 (51): 55 - 4 x 0.25 = 54
    ],
)
def test_con_table_is_linear_between_rows(rating: float, con: float) -> None:
    assert con_table(rating) == pytest.approx(con)


@pytest.mark.parametrize(("rating", "con"), [(99, 116), (0, 116), (-900, 116), (2701, 10), (3500, 10)])
def test_con_table_is_flat_outside_the_table(rating: float, con: float) -> None:
    # 116 at <= 100, 10 at >= 2700
    assert con_table(rating) == pytest.approx(con)


# ------------------------------------------------------------------------------------ Classic formula


def test_classic_equal_ratings_weaker_side_expects_half() -> None:
    # D = 0: Se(A) = 1/(e^0 + 1) = 0.5; a = 205 - 800/20 = 165
    assert HKGA.expected(800, 800, low=True) == pytest.approx((0.5, 165))


def test_classic_without_split_takes_epsilon_from_the_stronger_side() -> None:
    # hkga: Se(B) = 1 - 0.5 - 0.014 = 0.486
    assert HKGA.expected(800, 800, low=False)[0] == pytest.approx(0.486)


@pytest.mark.parametrize("low", [True, False])
def test_classic_with_split_takes_half_epsilon_from_each_side(low: bool) -> None:
    # egf: each side 0.5 - 0.016/2 = 0.492
    assert EGF.expected(800, 800, low=low)[0] == pytest.approx(0.492)


def test_classic_a_comes_from_the_weaker_side_for_both() -> None:
    # A = 2300: a = 205 - 115 = 90; Se(A) = 1/(e^(100/90) + 1) = 0.24766; Se(B) = 1 - 0.24766 - 0.014
    weaker, stronger = HKGA.expected(2300, 2400, low=True), HKGA.expected(2400, 2300, low=False)
    assert (*weaker, *stronger) == pytest.approx((0.24766, 90, 0.73834, 90), abs=1e-5)


@pytest.mark.parametrize(("weaker", "a"), [(0, 200), (100, 200), (2700, 70), (3000, 70)])
def test_classic_a_is_clamped_to_70_200(weaker: float, a: float) -> None:
    # 205 - 0/20 = 205 -> 200; 205 - 100/20 = 200; 205 - 2700/20 = 70; 205 - 3000/20 = 55 -> 70
    assert HKGA.expected(weaker, weaker + 100, low=True)[1] == pytest.approx(a)


def test_classic_con_is_the_table_and_there_is_no_bonus() -> None:
    # con(1850) = 33 (table III, linear); classic formulas give no bonus
    assert (HKGA.con(1850), HKGA.bonus(1850)) == pytest.approx((33, 0.0))


def test_classic_floor_is_100() -> None:
    assert (HKGA.floor, EGF.floor) == (100, 100)


# ------------------------------------------------------------------------------------- EGD 2021 formula


def test_egd2021_expected_score_1000_against_1300() -> None:
    # beta(1300) - beta(1000) = 7 ln(2300/2000) = 0.97833; 1/(1 + e^0.97833) = 1/3.66003 = 0.27322
    assert Egd2021().expected(1000, 1300, low=True)[0] == pytest.approx(0.27322, abs=5e-6)


def test_egd2021_expected_scores_sum_to_one() -> None:
    # no epsilon: 0.27322 + 0.72678 = 1
    formula = Egd2021()
    total = formula.expected(1000, 1300, low=True)[0] + formula.expected(1300, 1000, low=False)[0]
    assert total == pytest.approx(1.0)


def test_egd2021_has_no_a() -> None:
    se, a = Egd2021().expected(2100, 2100, low=True)
    assert (se, a) == (0.5, None)


@pytest.mark.parametrize(
    ("rating", "con"),
    [
        (2100, 17.5809),  # (1200/200)^1.6 = 6^1.6 = e^(1.6 x 1.79176) = e^2.86682 = 17.5809
        (1300, 10**1.6),  # (2000/200)^1.6 = 10^1.6 = 39.8107
        (1406.791, 36.4645),  # (1893.209/200)^1.6 = 9.46605^1.6 = 36.4645
        (600, 64.3478),  # (2700/200)^1.6 = 13.5^1.6 = 64.3478
    ],
)
def test_egd2021_con(rating: float, con: float) -> None:
    assert Egd2021().con(rating) == pytest.approx(con, abs=1e-4)


@pytest.mark.parametrize(
    ("rating", "bonus"),
    [
        (2100, 0.51578),  # ln(1 + e^(200/80))/5 = ln(13.18249)/5 = 2.57888/5
        (2300, 0.13863),  # ln(1 + e^0)/5 = ln 2/5
        (1406.791, 2.23303),  # ln(1 + e^(893.209/80))/5 = ln(1 + e^11.16511)/5 = 11.16513/5
        (600, 4.25),  # ln(1 + e^21.25)/5 = 21.25/5 (e^-21.25 is negligible)
    ],
)
def test_egd2021_bonus(rating: float, bonus: float) -> None:
    assert Egd2021().bonus(rating) == pytest.approx(bonus, abs=1e-5)


def test_egd2021_floor_is_minus_900() -> None:
    assert Egd2021().floor == -900


# ----------------------------------------------------------------------------------------- rank scale


@pytest.mark.parametrize(
    ("rank", "rating"),
    [
        (Rank("k", 20), 100),  # the HKGA introduction's table I
        (Rank("k", 19), 200),
        (Rank("k", 1), 2000),
        (Rank("d", 1), 2100),
        (Rank("d", 7), 2700),
        (Rank("p", 1), 2700),  # EGF: 1p = 2700, +30 per pro dan
        (Rank("p", 3), 2760),
        (Rank("p", 9), 2940),  # 2700 + 8 x 30
    ],
)
def test_rating_for_rank(rank: Rank, rating: float) -> None:
    assert rating_for_rank(rank) == rating


@pytest.mark.parametrize("rank", [None, Rank("k", 25), Rank("k", 30)])
def test_rating_for_unknown_or_weaker_than_20k_rank_is_100(rank: Rank | None) -> None:
    assert rating_for_rank(rank) == 100


@pytest.mark.parametrize("value", [8, 9])
def test_rating_for_amateur_dan_above_7d_is_7ds(value: int) -> None:
    # the table stops at 7d = 2700 (gor.py's documented decision)
    assert rating_for_rank(Rank("d", value)) == 2700


@pytest.mark.parametrize(
    ("rating", "label"),
    [
        (2050, "1d"),  # halfway between 1k (2000) and 1d (2100): ties go up
        (2049, "1k"),
        (2049.99, "1k"),
        (2149.99, "1d"),
        (2150, "2d"),
        (1950, "1k"),  # halfway between 2k (1900) and 1k (2000)
        (1949.99, "2k"),
        (100, "20k"),
        (50, "20k"),  # halfway to 21k would-be 0: ties up
        (2700, "7d"),
        (2940, "7d"),  # no amateur grade above 7d
    ],
)
def test_rank_for_rating_is_the_nearest_grade(rating: float, label: str) -> None:
    assert rank_for_rating(rating) == label
