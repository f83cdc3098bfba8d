"""rate: replay the audited games period by period under one rule set, into the output tables.

Turns counted rows of the games table into :class:`~pipeline.rules.base.Game` values, works out
which awards fall in which period (an event's titles in the period it ends), hands each period to
the rule set with the standings so far, and flattens the outcomes into the ``ratings``,
``changes`` and ``awards`` tables (each with a ``period`` column). Replays from scratch every
time: cheap, and equal to a from-scratch run by construction.

Knows nothing of SGF or files; what a rating means is the rule set's business.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from pipeline.audit import periods
from pipeline.config.events import Award, Event, Events
from pipeline.config.roster import Roster
from pipeline.ingest.normalise.ranks import Rank, parse_rank
from pipeline.output.tables import AWARDS, CHANGES, PROMOTIONS, RATINGS
from pipeline.rules.awards import due_awards
from pipeline.rules.base import NOT_A_GAME, Change, Game, PeriodOutcome, PlayerState, RuleSet


@dataclass(frozen=True, slots=True)
class Rated:
    """The rate stage's tables (each with a ``period`` column) and the periods they cover, in order.

    ``warnings`` lists awards that could not be placed (an event with no games and no ``ends``).
    """

    ratings: pa.Table
    changes: pa.Table
    awards: pa.Table
    promotions: pa.Table
    periods: list[str]
    warnings: list[str]


def rate(games: pa.Table, rules: RuleSet, roster: Roster, events: Events) -> Rated:
    """Replay the counted rows of ``games`` (schema :data:`~pipeline.output.tables.GAMES`) under ``rules``."""
    rows = games.to_pylist()
    last = {r["event_name"]: r["seq"] for r in rows if r["counted"] and r["event_name"]}
    named = {name: events.get(name) for name in last}  # each event looked up once, not once a game
    by_period: dict[str, list[Game]] = defaultdict(list)
    for row, resets in zip(rows, _streak_resets(rows), strict=True):
        if row["counted"]:
            closes = last.get(row["event_name"]) == row["seq"]
            game = _game(row, rules, roster, named.get(row["event_name"]), resets, closes)
            by_period[row["period"]].append(game)
    due, warnings = due_awards(events, rows, rules.validity.period, roster)
    labels = _labels([*by_period, *due, *_played_periods(rows)])
    state: dict[str, PlayerState] = {}
    out: dict[str, list[dict[str, Any]]] = {"ratings": [], "changes": [], "awards": [], "promotions": []}
    for label in labels:
        outcome = rules.rate_period(label, by_period[label], due.get(label, []), state)
        _collect(out, label, outcome, {g.game_id: g for g in by_period[label]}, roster)
        state = outcome.end
    return Rated(
        _table(out["ratings"], RATINGS),
        _table(out["changes"], pa.schema([*CHANGES, *rules.change_fields])),
        _table(out["awards"], AWARDS),
        _table(out["promotions"], PROMOTIONS),
        labels,
        warnings,
    )


def _game(
    row: Mapping[str, Any],
    rules: RuleSet,
    roster: Roster,
    event: Event | None,
    resets: frozenset[str],
    closes: bool,
) -> Game:
    rate_outsiders = not rules.validity.excludes("non_member")  # then visitors of inter-club events too
    return Game(
        game_id=row["game_id"],
        seq=row["seq"],
        date=row["date"],
        black=row["black_player"],
        white=row["white_player"],
        winner=row["winner"],
        speed=row["speed_used"],
        black_rank=_rank(row["black_rank"]),
        white_rank=_rank(row["white_rank"]),
        black_rated=rate_outsiders or roster.is_member(row["black_player"]),
        white_rated=rate_outsiders or roster.is_member(row["white_player"]),
        handicap=row["handicap"] or 0,
        komi=row["komi"],
        event=event,
        stage=row["stage"],
        round=row["round"],
        no_show="no_show" in row["notes"],
        streak_reset=resets,
        closes_event=closes,
    )


def _rank(text: str | None) -> Rank | None:
    return parse_rank(text) if text else None


def _streak_resets(rows: Sequence[Mapping[str, Any]]) -> list[frozenset[str]]:
    """For each row (in ``seq`` order), the players whose run of wins in its event an uncounted game
    of that event ended since their last counted one: a draw, a forfeit or handicap loss, ... (a game
    that did not happen twice: a duplicate or a broken file, ends nothing)."""
    pending: set[tuple[str, str]] = set()
    resets: list[frozenset[str]] = []
    for row in rows:
        event, names = row["event_name"], (row["black_player"], row["white_player"])
        if row["counted"]:
            resets.append(frozenset(n for n in names if (event, n) in pending))
            pending -= {(event, n) for n in names}
            continue
        resets.append(frozenset())
        if event and row["winner"] in ("B", "W", "draw") and not NOT_A_GAME.intersection(row["reasons"]):
            pending |= {(event, n) for n, c in zip(names, "BW", strict=True) if row["winner"] != c}
    return resets


def _played_periods(rows: Sequence[Mapping[str, Any]]) -> set[str]:
    """The periods of the games this rule set could rate (dated, of its game type, readable): a
    period whose games were all excluded still gets its snapshot."""
    return {r["period"] for r in rows if r["period"] and not NOT_A_GAME.intersection(r["reasons"])}


def _labels(found: Iterable[str]) -> list[str]:
    """Every period from the first to the last found (periods without games keep the standings)."""
    present = sorted(set(found), key=lambda label: periods.bounds(label)[0])
    return periods.span(present[0], present[-1]) if present else []


def _collect(
    rows: dict[str, list[dict[str, Any]]],
    label: str,
    outcome: PeriodOutcome,
    games: Mapping[str, Game],
    roster: Roster,
) -> None:
    changes = [_change_row(label, c, games[c.game_id]) for c in outcome.changes]
    awards = [
        {**_award_row(a.award), "kind": a.kind, "points": a.points, "period": label} for a in outcome.awards
    ]
    rows["changes"] += changes
    rows["awards"] += awards
    rows["promotions"] += [{**dataclasses.asdict(p), "period": label} for p in outcome.promotions]
    rows["ratings"] += _rating_rows(label, outcome, changes, awards, roster)


def _change_row(label: str, change: Change, game: Game) -> dict[str, Any]:
    return {
        "period": label,
        "game_id": change.game_id,
        "date": game.date,
        "seq": game.seq,
        "player": change.player,
        "opponent": change.opponent,
        "color": change.color,
        "score": change.score,
        "rating_before": change.rating_before,
        "delta": round(change.delta, 6),
        "points": change.points,
        "bonus": change.bonus,
        "bonus_rule": change.bonus_rule,
        "event": game.event.name if game.event else None,
        "speed": game.speed,
        **change.detail,
    }


def _award_row(award: Award) -> dict[str, Any]:
    return {"player": award.player, "date": award.date, "event": award.event, "note": award.note}


def _rating_rows(
    label: str,
    outcome: PeriodOutcome,
    changes: Sequence[Mapping[str, Any]],
    awards: Sequence[Mapping[str, Any]],
    roster: Roster,
) -> list[dict[str, Any]]:
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for c in changes:
        t = tally[c["player"]]
        t["games"] += 1
        t[{1.0: "wins", 0.0: "losses"}.get(c["score"], "draws")] += 1
        t["bonus"] += c["bonus"]
    for a in awards:
        tally[a["player"]]["bonus"] += a["points"]
    rows = [
        _rating_row(label, name, end, outcome.start[name], tally[name], roster)
        for name, end in outcome.end.items()
    ]
    return _placed(rows)


def _rating_row(
    label: str, name: str, end: PlayerState, start: PlayerState, tally: Mapping[str, float], roster: Roster
) -> dict[str, Any]:
    return {
        "period": label,
        "player": name,
        "rank": end.rank,
        "rating": end.rating,
        "rating_before": start.rating,
        "delta": round(end.rating - start.rating, 6),
        "games": int(tally.get("games", 0)),
        "wins": int(tally.get("wins", 0)),
        "losses": int(tally.get("losses", 0)),
        "draws": int(tally.get("draws", 0)),
        "rank_before": start.rank,
        "bonus": round(tally.get("bonus", 0.0), 6),
        "games_total": end.games_total,
        "member": roster.is_member(name),
    }


def _placed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows sorted by rating (highest first, then name), each with its ``place`` (ties share one)."""
    rows.sort(key=lambda r: (-r["rating"], r["player"]))
    for i, row in enumerate(rows):
        same = i and rows[i - 1]["rating"] == row["rating"]
        row["place"] = rows[i - 1]["place"] if same else i + 1
    return rows


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    full = pa.schema([pa.field("period", pa.string(), nullable=False), *schema])
    if not rows:
        return full.empty_table()
    return pa.Table.from_pandas(pd.DataFrame(rows), schema=full, preserve_index=False)
