"""The whr rule set against an independent public implementation of Whole-History Rating: the PyPI package
``whole-history-rating`` (module ``whr``, a port of GoShrine's Ruby code; the ``[dev]`` extras install it),
on a few hundred random games over several monthly periods. Configured as the paper's model: one virtual win
and one virtual loss against a player of rating 0 on the first day (``initial_prior_wins = 1``), no Hessian
damping (it changes the package's uncertainty, not its maximum), even games. Every player here has no rank,
so the rule set centres every prior at the same rating (20k's): its ratings are the package's plus that
constant, day by day, and its deviations the square roots of the package's variances."""

from __future__ import annotations

import datetime as dt
import math
import random
from pathlib import Path
from typing import Any

import pytest

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.config.toml import Table
from pipeline.core.periods import period_of
from pipeline.rules.base import Game
from pipeline.rules.whr import WhrRules, start_rating

whr = pytest.importorskip("whr", reason="the [dev] extras' whole-history-rating package is not installed")
if not hasattr(whr, "WHR"):
    pytest.skip("the module whr is not the whole-history-rating package", allow_module_level=True)

ELO = 400 / math.log(10)
ORIGIN = dt.date(2024, 1, 1)


def random_games(seed: int, players: int = 14, count: int = 300, days: int = 150) -> list[Game]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 250) for _ in range(players)]
    drawn = []
    for _ in range(count):
        b, w = rng.sample(range(players), 2)
        p = 1 / (1 + 10 ** ((strength[w] - strength[b]) / 400))
        drawn.append((rng.randrange(days), f"p{b:02d}", f"p{w:02d}", "B" if rng.random() < p else "W"))
    drawn.sort(key=lambda d: d[0])
    return [
        Game(f"g{i:04d}", i, ORIGIN + dt.timedelta(days=d), b, w, winner, "slow")
        for i, (d, b, w, winner) in enumerate(drawn)
    ]


def reference(games: list[Game], w2: float) -> Any:
    base = whr.WHR({"w2": w2, "initial_prior_wins": 1.0, "hessian_damping": 0.0})
    for g in games:
        base.create_game(g.black, g.white, g.winner, (g.date - ORIGIN).days, 0)
    base.auto_iterate(precision=1e-10, batch_size=10)
    base.iterate(0)  # the uncertainties at the maximum
    return base


def rated(w2: float) -> WhrRules:
    rule_set = rules.create(
        "whr", Roster(), rules.validity("whr"), Table(Path("test"), "[rules]", {"w2": w2})
    )
    assert isinstance(rule_set, WhrRules)
    return rule_set


def by_month(games: list[Game]) -> dict[str, list[Game]]:
    found: dict[str, list[Game]] = {}
    for g in games:
        found.setdefault(period_of(g.date, "month"), []).append(g)
    return found


@pytest.mark.parametrize(("seed", "w2"), [(1, 14.0), (2, 300.0)])
def test_the_last_snapshot_is_the_packages_maximum(seed: int, w2: float) -> None:
    games = random_games(seed)
    rule_set, state = rated(w2), {}
    assert len(by_month(games)) == 5
    for label, played in by_month(games).items():
        state = rule_set.rate_period(label, played, [], state).end
    base = reference(games, w2)
    shift = start_rating(None)
    for name, player in base.players.items():
        assert state[name].rating - shift == pytest.approx(player.days[-1].elo, abs=2e-3)
        deviation = rule_set.deviation(state[name])
        assert deviation == pytest.approx(math.sqrt(player.days[-1].uncertainty) * ELO, rel=1e-4)


def test_every_day_of_the_history_is_the_packages() -> None:
    games = random_games(3, count=200)
    rule_set, state = rated(14.0), {}
    for label, played in by_month(games).items():
        outcome = rule_set.rate_period(label, played, [], state)
        state = outcome.end
    day_rating = {(c.player, c.game_id): c.detail["day_rating"] for c in outcome.changes}
    base = reference(games, 14.0)
    days = {(n, d.day): d.elo for n, p in base.players.items() for d in p.days}
    last = by_month(games)[max(by_month(games))]
    for g in last:
        for name in (g.black, g.white):
            expected = days[(name, (g.date - ORIGIN).days)]
            assert day_rating[(name, g.game_id)] - start_rating(None) == pytest.approx(expected, abs=2e-3)
