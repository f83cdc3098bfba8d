"""Direct unit tests of pipeline.rules.club's rank-table helpers, at every boundary of the club's rank table.

Expected values are written out from docs/rules.md ("club") (base 0/10/30/50/70/90/100/200/300/400/500/1000;
coefficient 0.05/0.1/0.3/0.5/0.7/0.9/1/2/3/4/5/10), not read from the module's own TABLE.
"""

from __future__ import annotations

import pytest

from pipeline.core.ranks import Rank
from pipeline.rules.club import club_rank, coefficient, rank_for_rating

# (label, base score, coefficient) by hand, lowest first
TABLE = [
    ("below 5k", 0, 0.05),
    ("5k", 10, 0.1),
    ("4k", 30, 0.3),
    ("3k", 50, 0.5),
    ("2k", 70, 0.7),
    ("1k", 90, 0.9),
    ("1d", 100, 1),
    ("2d", 200, 2),
    ("3d", 300, 3),
    ("4d", 400, 4),
    ("5d", 500, 5),
    ("above 5d", 1000, 10),
]


@pytest.mark.parametrize(
    ("rank", "label"),
    [
        (None, "below 5k"),
        (Rank("k", 30), "below 5k"),
        (Rank("k", 6), "below 5k"),
        (Rank("k", 5), "5k"),
        (Rank("k", 4), "4k"),
        (Rank("k", 3), "3k"),
        (Rank("k", 2), "2k"),
        (Rank("k", 1), "1k"),
        (Rank("d", 1), "1d"),
        (Rank("d", 2), "2d"),
        (Rank("d", 3), "3d"),
        (Rank("d", 4), "4d"),
        (Rank("d", 5), "5d"),
        (Rank("d", 6), "above 5d"),
        (Rank("d", 9), "above 5d"),
        (Rank("p", 1), "above 5d"),
        (Rank("p", 9), "above 5d"),
    ],
)
def test_club_rank_maps_every_grade_to_the_internal_table(rank: Rank | None, label: str) -> None:
    assert club_rank(rank) == label


def test_club_rank_ignores_the_uncertain_mark() -> None:
    assert club_rank(Rank("d", 3, uncertain=True)) == "3d"


@pytest.mark.parametrize(("label", "base"), [(label, base) for label, base, _ in TABLE])
def test_rating_at_a_base_score_is_that_rank(label: str, base: float) -> None:
    assert rank_for_rating(base) == label


@pytest.mark.parametrize(("below", "label"), [(TABLE[i][1], TABLE[i - 1][0]) for i in range(1, len(TABLE))])
def test_rating_just_under_a_base_score_is_the_rank_below(below: float, label: str) -> None:
    assert rank_for_rating(below - 0.01) == label


@pytest.mark.parametrize("rating", [-0.01, -50, -1e6])
def test_negative_rating_is_below_5k(rating: float) -> None:
    assert rank_for_rating(rating) == "below 5k"


@pytest.mark.parametrize("rating", [1000.01, 5000, 1e6])
def test_any_rating_over_1000_is_above_5d(rating: float) -> None:
    assert rank_for_rating(rating) == "above 5d"


@pytest.mark.parametrize(("label", "value"), [(label, c) for label, _, c in TABLE])
def test_coefficient_of_every_rank(label: str, value: float) -> None:
    assert coefficient(label) == value


@pytest.mark.parametrize("label", ["6k", "6d", "1p", "", "1D"])
def test_coefficient_of_an_unknown_label_raises_key_error(label: str) -> None:
    with pytest.raises(KeyError):
        coefficient(label)
