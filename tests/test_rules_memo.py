"""What the rule sets carry from one period to the next (GoR family, cga-dan, tga: the standings they closed,
pipeline.rules.base.Closed) is in the standings they return, never in the rule-set object, and is a
shortcut, never an input: rating any period again, from those standings or from a plain copy of them, with
the same rule-set object or another, gives what a fresh rule set gives (a replay from the middle, an
incremental run)."""

from __future__ import annotations

import copy
import pickle

import pytest

from bench import rules_bench
from pipeline import rules
from pipeline.core.standings import PlayerState
from pipeline.rules.base import Closed, closed_by


def test_closed_standings_say_who_closed_them_and_a_copy_says_nothing() -> None:
    a, b = PlayerState(100.0, "1d"), PlayerState(200.0, "2d")
    closed = Closed({"a": a, "b": b}, "hkga", carry={}, changed={"a": PlayerState(150.0, "1d")})
    assert (list(closed), closed["a"].rating, closed["b"] is b) == (["a", "b"], 150.0, True)
    assert closed_by(closed, "hkga") is closed
    assert closed_by(closed, "egf") is None  # another rule set's standings are rebuilt
    for plain in (dict(closed), pickle.loads(pickle.dumps(closed)), copy.copy(closed), {**closed}):
        assert closed_by(plain, "hkga") is None
        assert plain == {"a": closed["a"], "b": b}


def test_closed_standings_are_read_only() -> None:
    closed = Closed({"a": PlayerState(100.0, "1d")}, "tga")
    changes = [
        lambda c: c.__setitem__("b", PlayerState(1.0, "1d")),
        lambda c: c.__delitem__("a"),
        lambda c: c.update({"b": PlayerState(1.0, "1d")}),
        lambda c: c.pop("a"),
        lambda c: c.popitem(),
        lambda c: c.setdefault("b", PlayerState(1.0, "1d")),
        lambda c: c.clear(),
        lambda c: c.__ior__({"b": PlayerState(1.0, "1d")}),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change(closed)
    assert closed == {"a": PlayerState(100.0, "1d")}


@pytest.mark.parametrize("name", rules.names())
@pytest.mark.slow
def test_rating_an_earlier_period_again_with_the_same_rule_set_gives_the_fresh_outcome(name: str) -> None:
    periods = list(rules_bench.for_rule_set(name, rules_bench.games(1500, 1, 36)).items())
    rule_set = rules_bench.build(name)
    whole = list(rules_bench.rate_all(rule_set, dict(periods)))
    middle = len(periods) // 2
    label, played = periods[middle]
    again = rule_set.rate_period(label, played, [], whole[middle - 1].end)  # rated after the last period
    after = rule_set.rate_period(periods[middle + 1][0], periods[middle + 1][1], [], again.end)
    assert (repr(again), repr(after)) == (repr(whole[middle]), repr(whole[middle + 1]))


@pytest.mark.parametrize("name", rules.names())
def test_rating_from_a_plain_copy_of_the_standings_gives_the_same_outcome(name: str) -> None:
    periods = list(rules_bench.for_rule_set(name, rules_bench.games(1500, 1, 36)).items())
    whole = list(rules_bench.rate_all(rules_bench.build(name), dict(periods)))
    middle = len(periods) // 2
    (label, played), (next_label, next_played) = periods[middle], periods[middle + 1]
    again = rules_bench.build(name).rate_period(label, played, [], dict(whole[middle - 1].end))
    after = rules_bench.build(name).rate_period(next_label, next_played, [], dict(again.end))
    assert (repr(again), repr(after)) == (repr(whole[middle]), repr(whole[middle + 1]))


@pytest.mark.parametrize("name", rules.names())
def test_rating_leaves_the_rule_set_object_as_it_was(name: str) -> None:
    rule_set = rules_bench.build(name)
    before = dict(vars(rule_set))
    for _ in rules_bench.rate_all(rule_set, rules_bench.for_rule_set(name, rules_bench.games(600, 1, 12))):
        pass
    assert vars(rule_set).keys() == before.keys()
    assert all(vars(rule_set)[k] is v for k, v in before.items())
