"""A run resolves each player spelling once: the roster keeps what it worked out, the audit asks once
per period for every check (issue 11, the audit's share of a run re-audited every night)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import pipeline.config.roster as roster_module
from pipeline.audit import audit
from pipeline.config.events import Events
from pipeline.config.roster import Player, Roster
from pipeline.core.reasons import Validity
from pipeline.core.schema import GAMES_INGEST


@pytest.fixture
def folded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the roster folds from now on (``fold`` is the costly step of a look-up)."""
    calls: list[str] = []
    real = roster_module.fold

    def counting(text: str) -> str:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(roster_module, "fold", counting)
    return calls


def _roster() -> Roster:
    return Roster((Player("羽焰", aliases=("YuYan",)), Player("fish", member=False)))


def test_a_roster_folds_a_spelling_once_however_often_it_is_looked_up(folded: list[str]) -> None:
    roster = _roster()
    folded.clear()  # building the index folds every name once
    for _ in range(3):
        roster.resolve("ＹｕＹａｎ")
        roster.is_member("ＹｕＹａｎ")
        roster.get("ＹｕＹａｎ")
    assert folded == ["ＹｕＹａｎ"]


def test_identities_give_each_spelling_its_canonical_name_and_membership() -> None:
    found = _roster().identities(["yuyan", "FISH", " Stranger  x "])
    assert found == [("羽焰", True), ("fish", False), ("Stranger x", False)]


def _period(month: int) -> pa.Table:
    """Two games in ``month`` of 2024 between the same spellings, colours swapped."""
    rows = [
        {
            "game_id": f"{month}-{i}",
            "source_path": f"{month}/{i}.sgf",
            "game_index": 0,
            "black": black,
            "white": white,
            "date": dt.date(2024, month, 1 + i),
            "winner": "B",
            "moves": 120,
            "speed": "slow",
        }
        for i, (black, white) in enumerate([("YuYan", "Fish"), ("Fish", "YuYan")])
    ]
    return pa.Table.from_pylist(rows, schema=GAMES_INGEST)


def test_auditing_later_periods_with_the_same_roster_folds_no_spelling_again(folded: list[str]) -> None:
    roster = _roster()
    audit(_period(1), roster, Events(), Validity())
    first = len(folded)
    for month in (2, 3):
        audit(_period(month), roster, Events(), Validity())
    assert first > 0 and len(folded) == first


def test_the_roster_memo_holds_at_most_its_limit_and_still_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roster_module, "MEMO_LIMIT", 4)
    roster = _roster()
    answers = [roster.resolve(f"Player{i}") for i in range(10)]
    held = len(roster._seen)
    assert (held, answers[9], roster.resolve("ＹｕＹａｎ")) == (2, "Player9", "羽焰")
