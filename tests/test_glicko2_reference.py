"""glicko2 against an independent implementation: the PyPI package ``glicko2-py`` (0.1.0, a typed pure-Python
Glicko-2 of Glickman's steps 1 to 8, MIT), on a few hundred random games over eight monthly periods, every
player's rating, deviation and volatility after every period.

The package rates one player at a time (``update_rating`` with the opponents' ``μ``, ``φ`` and scores at
the period's start; with no opponent, step 6 alone for a player who sat the period out); the rule set
rates a whole period at once with numpy and grows an idle player's deviation only when it is next
needed. The handicap (``H − 0.5`` grades to Black, :func:`pipeline.rules.glicko2.handicap_offset`) is
given to the package as the opponent's rating moved by the same points, which is the same gap. The
package ends step 5 with ``e^(B/2)`` where the paper has ``e^(A/2)``: the two differ by less than the
iteration's tolerance, hence the volatility's 1e-7 and the ratings' and deviations' 1e-5 (a
hundred-thousandth of a rating point).

Not the best-known package, ``glicko2`` (2.1.0, deepy/glicko2): its wheel installs a top-level ``tests``
package, which hides this repository's ``tests`` from every test that imports from it, and its step 5
has ``μ`` where the paper has ``φ²`` (hidden in its own test, Glickman's example, where μ = 0).
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from glicko2.math.algorithm import update_rating

from pipeline import rules
from pipeline.config.roster import Roster
from pipeline.core.periods import period_of
from pipeline.core.ranks import parse_rank
from pipeline.core.standings import PlayerState
from pipeline.rules import glicko2 as g2
from pipeline.rules.base import Game

PLAYERS, GAMES, MONTHS = 40, 400, 8


class Reference:
    """A player as the package keeps them: ``μ``, ``φ``, ``σ`` on the Glicko-2 scale."""

    def __init__(self, rating: float) -> None:
        self.mu, self.phi, self.sigma = (
            (rating - g2.CENTRE) / g2.SCALE,
            g2.DEVIATION / g2.SCALE,
            g2.VOLATILITY,
        )

    @property
    def rating(self) -> float:
        return g2.CENTRE + g2.SCALE * self.mu

    @property
    def rd(self) -> float:
        return g2.SCALE * self.phi


def league(seed: int) -> list[Game]:
    """``GAMES`` games among ``PLAYERS`` players of random ranks (20k to 5d) over ``MONTHS`` months, in
    order: results drawn from the ranks, 5% draws, 8% handicap games of 1 to 5 stones; players join
    over the months."""
    rng = random.Random(seed)
    ranks = [
        rng.choice([f"{k}k" for k in range(1, 21)] + [f"{d}d" for d in range(1, 6)]) for _ in range(PLAYERS)
    ]
    strength = [g2.rating_for_rank(parse_rank(r)) + rng.gauss(0, 150) for r in ranks]
    joins = [rng.randrange(MONTHS) if i >= 10 else 0 for i in range(PLAYERS)]
    found = []
    for seq in range(GAMES):
        month = seq * MONTHS // GAMES
        present = [i for i in range(PLAYERS) if joins[i] <= month]
        b, w = rng.sample(present, 2)
        handicap = rng.randint(1, 5) if rng.random() < 0.08 else 0
        p_black = 1 / (1 + 10 ** ((strength[w] - strength[b] - 60 * handicap) / 400))
        winner = "draw" if rng.random() < 0.05 else "B" if rng.random() < p_black else "W"
        day = dt.date(2024, 1 + month, 1 + seq % 28)
        found.append(
            Game(f"g{seq:03d}", seq, day, f"p{b}", f"p{w}", winner, "slow", parse_rank(ranks[b]),
                 parse_rank(ranks[w]), handicap=handicap)
        )  # fmt: skip
    return found


def by_period(games: list[Game]) -> dict[str, list[Game]]:
    found: dict[str, list[Game]] = {}
    for game in games:
        found.setdefault(period_of(game.date, "month"), []).append(game)
    return found


def reference_period(players: dict[str, Reference], games: list[Game]) -> None:
    """Rate one period with the package: every player from the values at its start."""
    for game in games:
        for name, rank in ((game.black, game.black_rank), (game.white, game.white_rank)):
            if name not in players:
                players[name] = Reference(g2.rating_for_rank(rank))
    before = {name: (p.rating, p.mu, p.phi) for name, p in players.items()}
    played: dict[str, list[tuple[float, float, float]]] = {name: [] for name in players}
    for game in games:
        offset = g2.handicap_offset(before[game.black][0], game.handicap) / g2.SCALE
        score = game.score("B")
        sides = ((game.black, game.white, -offset, score), (game.white, game.black, offset, 1 - score))
        for name, other, moved, scored in sides:
            played[name].append((before[other][1] + moved, before[other][2], scored))
    for name, player in players.items():
        found = update_rating(player.mu, player.phi, player.sigma, played[name], g2.TAU)
        player.mu, player.phi, player.sigma = found.mu, found.phi, found.sigma


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_period_matches_the_pypi_glicko2_py_package(seed: int) -> None:
    rule_set = rules.create("glicko2", Roster(), rules.validity("glicko2"))
    state: dict[str, PlayerState] = {}
    players: dict[str, Reference] = {}
    for label, games in by_period(league(seed)).items():
        outcome = rule_set.rate_period(label, games, [], state)
        reference_period(players, games)
        assert outcome.deviation is not None
        deviation = dict(zip(outcome.end, outcome.deviation, strict=True))
        assert set(outcome.end) == set(players)
        for name, player in players.items():
            mine = outcome.end[name]
            assert mine.rating == pytest.approx(player.rating, abs=1e-5), (label, name)
            assert deviation[name] == pytest.approx(player.rd, abs=1e-5), (label, name)
            if name in {g.black for g in games} | {g.white for g in games}:
                assert mine.extra["volatility"] == pytest.approx(player.sigma, abs=1e-7), (label, name)
        state = outcome.end
    assert max(p.rd for p in players.values()) < g2.DEVIATION  # (the cap on idle growth never bound)


def test_the_package_gives_glickmans_example() -> None:
    # (the package is the right yardstick: the paper's 1464.06, 151.52 and 0.05999)
    opponents = [
        ((r - 1500) / g2.SCALE, d / g2.SCALE, s)
        for r, d, s in ((1400, 30, 1), (1550, 100, 0), (1700, 300, 0))
    ]
    found = update_rating(0.0, 200 / g2.SCALE, 0.06, opponents, 0.5)
    assert (1500 + g2.SCALE * found.mu, g2.SCALE * found.phi) == pytest.approx((1464.06, 151.52), abs=0.015)
    assert found.sigma == pytest.approx(0.05999, abs=1e-5)
