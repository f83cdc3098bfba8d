"""pipeline.synth.league: strengths that drift and ranks declared once, each off by default."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from pipeline.synth.league import League, synthetic_league, win_probability

_SMALL = {"players": 6, "games": 300, "months": 12, "spread": 600.0, "seed": 5}


def ranks_written(league: League) -> dict[str, set[str]]:
    """Each player's ranks as the records write them (``PB``/``BR``, ``PW``/``WR``)."""
    found: dict[str, set[str]] = defaultdict(set)
    for record in league.records:
        text = record.data.decode("utf-8")
        for name, rank in (("PB", "BR"), ("PW", "WR")):
            player = re.search(rf"{name}\[([^\]]*)\]", text)
            said = re.search(rf"{rank}\[([^\]]*)\]", text)
            assert player and said
            found[player[1]].add(said[1])
    return found


def test_without_drift_every_game_is_drawn_from_the_starting_strengths() -> None:
    league = synthetic_league(**_SMALL)
    s = league.strengths
    assert all(g.p_black == win_probability(s[g.black], s[g.white]) for g in league.games)


def test_with_drift_the_same_pair_meets_at_other_strengths_on_other_days() -> None:
    league = synthetic_league(**_SMALL, drift=200.0)
    chances = defaultdict(set)
    for g in league.games:
        chances[(g.black, g.white)].add(g.p_black)
    assert max(len(found) for found in chances.values()) > 1


def test_drift_leaves_the_days_and_pairings_of_the_games_as_they_were() -> None:
    still, drifting = synthetic_league(**_SMALL), synthetic_league(**_SMALL, drift=200.0)
    assert [(g.date, g.black, g.white) for g in still.games] == [
        (g.date, g.black, g.white) for g in drifting.games
    ]


def test_a_negative_drift_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="-1"):
        synthetic_league(**_SMALL, drift=-1.0)


def test_registered_ranks_give_each_player_one_rank_in_every_record() -> None:
    league = synthetic_league(**_SMALL, rank_noise=150.0, drift=300.0, registered_ranks=True)
    assert all(len(ranks) == 1 for ranks in ranks_written(league).values())


def test_ranks_drawn_for_each_record_vary_with_the_noise() -> None:
    league = synthetic_league(**_SMALL, rank_noise=150.0)
    assert any(len(ranks) > 1 for ranks in ranks_written(league).values())
