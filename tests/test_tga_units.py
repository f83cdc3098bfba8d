"""The ``tga`` rule set's tables and formulas (pipeline.rules.tga_rules, pipeline.rules.tga) and, through
`ratings run --rules tga`, promotion tournaments (Article 4), low-dan events (Article 9), kyu awards
(Article 10), certificate fees (Article 13) and manual awards (docs/rules.md ("tga"))."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from test_tga import OPEN, g, promotions, rank, run

from pipeline.core.ranks import parse_rank
from pipeline.rules import tga_rules as t
from pipeline.rules.tga import fee


@pytest.mark.parametrize(
    ("text", "label", "rating"),
    [("1d", "1d", 1.0), ("9段", "9d", 9.0), ("1k", "1k", 0.0), ("20k", "20k", -19.0), ("25k", "20k", -19.0)],
)
def test_rank_labels_and_their_sortable_numbers(text: str, label: str, rating: float) -> None:
    assert t.label_of(parse_rank(text)) == label and t.rating_of(label) == rating


def test_an_unknown_rank_sorts_below_20k_and_is_dan_0_in_the_formulas() -> None:
    assert t.label_of(None) == "?" and t.rating_of("?") == -20.0 and t.dan_of("?") is None


@pytest.mark.parametrize(("players", "slots"), [(7, 0), (8, 1), (11, 1), (12, 2), (19, 2), (20, 3), (28, 4)])
def test_promotion_slots_are_players_over_8_rounded_half_up(players: int, slots: int) -> None:
    # 11/8 = 1.375 -> 1; 12/8 = 1.5 -> 2; 20/8 = 2.5 -> 3; 28/8 = 3.5 -> 4
    assert t.promotion_slots(players) == slots


def test_standings_break_equal_scores_by_the_opponents_scores() -> None:
    # a beats c, b beats d, c beats d: a 1 (opp c 1), b 1 (opp d 0), c 1 (opp a 1 + d 0 = 1), d 0
    results = [
        ("a", "c", 1.0),
        ("c", "a", 0.0),
        ("b", "d", 1.0),
        ("d", "b", 0.0),
        ("c", "d", 1.0),
        ("d", "c", 0.0),
    ]
    assert [name for name, _, _ in t.standings(results)] == ["a", "c", "b", "d"]


def test_players_tied_at_the_cut_are_all_taken() -> None:
    table = [("a", 3.0, 5.0), ("b", 2.0, 4.0), ("c", 2.0, 4.0), ("d", 1.0, 2.0)]
    assert [e[0] for _, e in t.top(table, 2)] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("results", "dan"),
    [([(0.5, 3.0)], 3.0), ([(1.0, 2.0), (0.5, 4.0)], 4.0), ([(1.0, 9.0)], 9.0), ([], None)],
)
def test_estimate_draws_bound_from_both_sides_and_9d_is_the_top(
    results: list[tuple[float, float]], dan: float | None
) -> None:
    # draw vs 3d: (3 + 3) / 2; beats 2d, draws 4d: (4 + 4) / 2; beats 9d: 10 bounded to 9
    assert t.estimate(results) == dan


@pytest.mark.parametrize(
    ("label", "amount"),
    [
        ("19k", 400),
        ("11k", 400),
        ("10k", 500),
        ("1k", 500),
        ("1d", 600),
        ("3d", 600),
        ("4d", 1100),
        ("6d", 1100),
        ("7d", 2100),
        ("9d", 2100),
        ("20k", None),
    ],
)
def test_certificate_fee_of_the_new_rank(label: str, amount: int | None) -> None:
    assert fee(label) == amount


def tournament(players: int) -> list[dict[str, Any]]:
    """T1..T4 play a round robin (T1 3, T2 2, T3 1, T4 0); each of players − 4 fillers loses to T1."""
    games = [
        g(f"T{a}", f"T{b}", "B+R", "5k", "5k", event="Jin") for a in range(1, 5) for b in range(a + 1, 5)
    ]
    return games + [g("T1", f"F{i}", "B+R", "5k", "5k", event="Jin") for i in range(players - 4)]


@pytest.mark.parametrize(
    ("players", "promoted"),
    [(7, []), (8, ["T1"]), (12, ["T1", "T2"]), (20, ["T1", "T2", "T3"])],
)
@pytest.mark.slow
def test_promotion_tournament_promotes_the_top_players_over_8(
    tmp_path: Path, players: int, promoted: list[str]
) -> None:
    # 7 < 8: none; round(8/8) = 1; round(12/8 = 1.5) = 2; round(20/8 = 2.5) = 3
    events = '[[event]]\nname = "Jin"\nkind = "promotion"\n'
    out = run(tmp_path, tournament(players), events=events)
    df = pd.read_parquet(out / "ratings")
    assert sorted(df.loc[df["rank"] == "1d", "player"]) == promoted


@pytest.mark.slow
def test_promotion_tournament_cites_article_4_with_the_place(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Jin"\nkind = "promotion"\n'
    row = promotions(run(tmp_path, tournament(8), events=events), "T1").iloc[0]
    assert row["rule"] == "tga article 4 promotion tournament" and "place 1 of 8 players" in row["evidence"]


@pytest.mark.slow
def test_promotion_tournament_gives_kyu_awards_to_the_others(tmp_path: Path) -> None:
    # 7 players: nobody becomes 1d; T1 won 6 of 6 (100%, promotion group): 1k
    events = '[[event]]\nname = "Jin"\nkind = "promotion"\n'
    row = promotions(run(tmp_path, tournament(7), events=events), "T1").iloc[0]
    assert (row["rule"], row["to_rank"]) == ("tga article 10 kyu award", "1k")


def low_dan(players: int) -> list[dict[str, Any]]:
    """2d players: L1 beats L2 and L3 (2 games: Article 8 cannot apply), L4 beats L5, L5 draws L6."""
    pairs = [("L1", "L2", "B+R"), ("L1", "L3", "B+R"), ("L4", "L5", "B+R"), ("L5", "L6", "Draw")]
    return [g(b, w, r, "2d", "2d", event="Low") for b, w, r in pairs[: players - 2]]


@pytest.mark.parametrize(("players", "expected"), [(5, "2d"), (6, "3d")])
@pytest.mark.slow
def test_low_dan_champion_gains_a_dan_with_at_least_6_players(
    tmp_path: Path, players: int, expected: str
) -> None:
    # standings: L1 2, L4 1, then the rest; 5 players (no L6): no promotion
    out = run(tmp_path, low_dan(players), events='[[event]]\nname = "Low"\nkind = "low_dan"\n')
    assert rank(out, "L1") == expected


@pytest.mark.slow
def test_low_dan_champion_named_in_the_events_file_wins(tmp_path: Path) -> None:
    events = '[[event]]\nname = "Low"\nkind = "low_dan"\nchampion = "L4"\n'
    out = run(tmp_path, low_dan(6), events=events)
    assert (rank(out, "L1"), rank(out, "L4")) == ("2d", "3d")


def kyu_event(tmp_path: Path, results: list[str], group: str, start: str = "20k", extra: str = "") -> Path:
    """K (rank ``start``) plays one game per result ('W', 'D', 'L') in a kyu event of ``group``."""
    code = {"W": "B+R", "D": "Draw", "L": "W+R"}
    games = [g("K", f"o{i}", code[r], start, "20k", event="Kyu") for i, r in enumerate(results)]
    return run(tmp_path, games, events=f'[[event]]\nname = "Kyu"\nkind = "kyu"\ngroup = "{group}"\n{extra}')


@pytest.mark.parametrize(
    ("results", "group", "expected"),
    [
        ("WWWWW", "promotion", "1k"),  # 5 (100%)
        ("WWWWD", "japanese", "5k"),  # 4.5 (90%)
        ("WWWWL", "standard_a", "10k"),  # 4 (80%)
        ("WWWDL", "standard_b", "15k"),  # 3.5 (70%)
        ("WWWLL", "standard_b", "16k"),  # 3 (60%)
        ("WWDLL", "standard_a", "20k"),  # 2.5 (50%): no award
        ("WWWWWWL", "standard_a", "10k"),  # 7 rounds: 6 / 7 = 86% -> the 80% row
    ],
)
@pytest.mark.slow
def test_kyu_award_by_group_and_score_rate(tmp_path: Path, results: str, group: str, expected: str) -> None:
    assert rank(kyu_event(tmp_path, list(results), group), "K") == expected


@pytest.mark.slow
def test_kyu_award_rate_counts_the_events_rounds(tmp_path: Path) -> None:
    # 4 wins of rounds = 6: 67% -> the 60% row of standard_b: 16k (without rounds: 4 / max(5, 4) = 80% -> 14k)
    assert rank(kyu_event(tmp_path, list("WWWW"), "standard_b", extra="rounds = 6\n"), "K") == "16k"


@pytest.mark.slow
def test_a_player_keeps_a_better_rank_than_the_kyu_award(tmp_path: Path) -> None:
    # 5 of 5 in standard_b: 12k; K is 5k already
    out = kyu_event(tmp_path, list("WWWWW"), "standard_b", start="5k")
    assert rank(out, "K") == "5k" and promotions(out, "K").empty


def test_kyu_event_without_a_group_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="group must be one of 'promotion'"):
        run(tmp_path, [g("a", "b", "B+R")], events='[[event]]\nname = "Kyu"\nkind = "kyu"\n')


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('group = "A"', "group must be one of 'promotion', 'japanese'"),
        ("rounds = 0", "rounds must be of type int, 1"),
    ],
)
def test_bad_group_or_rounds_is_a_configuration_error(tmp_path: Path, line: str, expected: str) -> None:
    with pytest.raises(AssertionError, match=expected):
        run(tmp_path, [g("a", "b", "B+R")], events=f'[[event]]\nname = "Open"\nkind = "recognised"\n{line}\n')


AWARDS = '[[event]]\nname = "Board"\nmatch = []\nkind = "other"\n'


def award(player: str, rank_: str, date: str = "2024-06-01") -> str:
    return f'[[event.award]]\nplayer = "{player}"\ndate = {date}\nrank = "{rank_}"\nnote = "board"\n'


@pytest.mark.slow
def test_manual_award_sets_the_rank_with_its_evidence(tmp_path: Path) -> None:
    out = run(tmp_path, [g("A", "B", "B+R", "2d", "2d")], events=AWARDS + award("A", "6段"))
    row = promotions(out, "A").iloc[0]
    assert rank(out, "A") == "6d"
    assert (row["rule"], row["from_rank"], row["to_rank"], row["evidence"]) == (
        "manual award",
        "2d",
        "6d",
        "Board: board",
    )


@pytest.mark.slow
def test_manual_award_below_the_rank_held_changes_nothing(tmp_path: Path) -> None:
    out = run(tmp_path, [g("A", "B", "B+R", "5d", "2d")], events=AWARDS + award("A", "3d"))
    assert rank(out, "A") == "5d" and promotions(out, "A").empty


def test_a_manual_award_before_an_event_sets_the_dan_used_in_it(tmp_path: Path) -> None:
    # awarded 4d on 2024-04-01; then 5 wins vs 4d in May: Δ 0, 5 >= 3.5 -> 5d (not 2d -> 3d)
    games = [g("A", f"o{i}", "B+R", "1d", "4d") for i in range(5)]
    out = run(tmp_path, games, events=AWARDS + award("A", "4d", "2024-04-01") + OPEN)
    assert rank(out, "A") == "5d"


@pytest.mark.slow
def test_fees_report_one_row_per_promotion_and_award_with_the_fee(tmp_path: Path) -> None:
    # Article 8: 1d -> 2d (600); manual award 2d -> 7d (2100)
    games = [g("A", f"o{i}", "B+R", "1d", "1d") for i in range(5)]
    out = run(tmp_path, games, events=OPEN + AWARDS + award("A", "7d", "2024-12-31"))
    fees = pd.read_parquet(out / "fees.parquet")
    assert fees[["player", "from_rank", "to_rank", "fee"]].values.tolist() == [
        ["A", "1d", "2d", 600],
        ["A", "2d", "7d", 2100],
    ]
