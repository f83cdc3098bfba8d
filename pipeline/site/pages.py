"""site.pages: the rows the site's pages print, from the tables of one period or one player.

Text cells (numbers rounded, lists joined, dates ISO), the players' links (paths relative to the site's
root). A period's games become one frame (:func:`game_frame`: the ledger's cells and the points each
game gave) from which both the ledger rows (:func:`pipeline.site.rows.ledger_cells`) and each player's
side of every game (:func:`player_sides`, kept for their page) are taken. Knows nothing of HTML (the
templates and :mod:`pipeline.site.rows`), of files (:mod:`pipeline.site.build`), or of how the run rated.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

import pandas as pd
import pyarrow as pa

from pipeline.core.i18n import N_, gettext
from pipeline.core.reasons import REASONS, phrase
from pipeline.reports.explain.terms import number, signed
from pipeline.reports.numbers import MINUS, NumberFormat
from pipeline.reports.rule_words import bonus_words, column_words
from pipeline.site import speech
from pipeline.site.rows import TRIMMED

#: Links of the site's pages, relative to its root.
Links = Mapping[str, str]
#: The stages of an event (the events file's ``stage``) as the pages say them.
STAGES = {"qualifier": N_("qualifier"), "main": N_("main stage")}
#: The columns of a player's side of a game (:func:`player_sides`), as kept for their page.
SIDE_COLUMNS = (
    "player",
    "seq",
    "date",
    "period",
    "colour",
    "opponent",
    "result",
    "outcome",
    "event",
    "speed",
    "counted",
    "reasons",
    "notes",
    "why",
    "own_points",
    "source",
)


def text(value: Any, places: int = 2) -> str:
    """A cell: numbers rounded to ``places`` (trailing zeros dropped), lists joined by commas, dates
    in the language's format, booleans yes/no in the language, missing values empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    if isinstance(value, bool):
        return speech.yes_no(value)
    if isinstance(value, float):
        return number(value, places)
    if isinstance(value, list | tuple):
        return speech.joined(text(v, places) for v in value)
    if isinstance(value, dt.date | pd.Timestamp):
        return speech.day(value.isoformat()[:10])
    return str(value)


#: The ratings columns a standings row shows, in the order :func:`standings_row` takes them.
STANDINGS_COLUMNS = (
    "rating_place",
    "player",
    "rank",
    "rating",
    "delta",
    "games",
    "wins",
    "losses",
    "draws",
    "bonus",
    "member",
    "deviation",
)


def with_deviation(table: pa.Table) -> pa.Table:
    """``table`` (ratings rows) with a ``deviation`` column: its own, else nulls (an output written
    before ratings had one)."""
    if "deviation" in table.column_names:
        return table
    return table.append_column("deviation", pa.nulls(table.num_rows, pa.float64()))


def standings_rows(table: pa.Table, links: Links) -> list[dict[str, Any]]:
    """A period's ratings rows (best first, :func:`ordered`) as text cells, ``link`` the player's page."""
    columns = with_deviation(table).select(list(STANDINGS_COLUMNS)).to_pydict()
    return [
        standings_row(values, links) for values in zip(*(columns[n] for n in STANDINGS_COLUMNS), strict=True)
    ]


def standings_row(values: tuple[Any, ...], links: Links) -> dict[str, Any]:
    """One ratings row (``values`` of :data:`STANDINGS_COLUMNS`) as text cells; the rating written
    ``rating ± 2·deviation`` under a rule set with a deviation."""
    place, player, rank, rating, delta, games, wins, losses, draws, bonus, member, deviation = values
    shown = text(rating) if deviation is None else f"{text(rating)} ± {text(2 * deviation)}"
    return {
        "place": text(place),
        "player": player,
        "link": links.get(player),
        "rank": text(rank),
        "rating": shown,
        "delta": signed(float(delta), 2),
        "games": text(games),
        "record": f"{wins}–{losses}–{draws}",
        "bonus": text(bonus),
        "member": text(bool(member)),
    }


def ordered(table: pa.Table) -> pa.Table:
    """A ratings partition by rating (highest first, then name), as the standings show it."""
    return table.sort_by([("rating", "descending"), ("player", "ascending")])


def game_frame(
    games: pa.Table, changes: pa.Table | None, cap: str, style: NumberFormat = TRIMMED
) -> pd.DataFrame:
    """The games of one period (columns of :data:`pipeline.site.source.GAME_COLUMNS`) with the cells the
    pages print: ``black``/``white`` the canonical names (as written where the run gave none),
    ``source`` (``path#index`` for a later game of a collection), ``event`` (with its stage), ``codes``
    (reasons and notes, for the filter), ``why`` (the reasons' phrases in the language), ``points``
    (``name +30`` per rated player, Black first, written in ``style``, the rule set's) and ``own``
    (player -> their signed points)."""
    frame = games.to_pandas()
    frame["black"] = frame["black_player"].fillna(frame["black"])
    frame["white"] = frame["white_player"].fillna(frame["white"])
    index = frame["game_index"].astype(int)
    frame["source"] = frame["source_path"].where(index == 0, frame["source_path"] + "#" + index.astype(str))
    event = frame["event_name"].fillna(frame["event"])
    stage = [gettext(STAGES[v]) if v in STAGES else v for v in frame["stage"]]
    frame["event"] = [
        " · ".join(v for v in pair if isinstance(v, str) and v) for pair in zip(event, stage, strict=True)
    ]
    reasons, notes = (frame[c].map(list) for c in ("reasons", "notes"))
    frame["codes"] = [" ".join(dict.fromkeys([*r, *n])) for r, n in zip(reasons, notes, strict=True)]
    frame["why"] = [_why(tuple(r)) for r in reasons]
    frame["reasons"], frame["notes"] = reasons.map(", ".join), notes.map(", ".join)
    frame["date_text"] = [text(d) for d in frame["date"]]
    return _with_points(frame, changes, style)


def _why(codes: tuple[str, ...]) -> str:
    return "; ".join(phrase(c) for c in codes)


def _with_points(frame: pd.DataFrame, changes: pa.Table | None, style: NumberFormat) -> pd.DataFrame:
    """``frame`` with ``points`` (a list of ``name +30``) and ``own`` (player -> ``+30``) per game."""
    empty: dict[str, str] = {}
    if changes is None or changes.num_rows == 0:
        return frame.assign(
            points=pd.Series([[] for _ in range(len(frame))], index=frame.index, dtype=object)
        ).assign(own=pd.Series([empty] * len(frame), index=frame.index, dtype=object))
    rows = changes.select(["game_id", "player", "color", "delta", "bonus", "bonus_rule"]).to_pandas()
    rows = rows.sort_values(["game_id", "color"], kind="stable")
    own = [
        style.delta(float(d), MINUS)
        + (f" ({style.delta(float(b), MINUS)} {bonus_words(r if isinstance(r, str) else None)})" if b else "")
        for d, b, r in zip(rows["delta"], rows["bonus"], rows["bonus_rule"], strict=True)
    ]
    said: dict[str, list[str]] = {}
    owned: dict[str, dict[str, str]] = {}
    for game, player, text_ in zip(rows["game_id"], rows["player"], own, strict=True):
        said.setdefault(game, []).append(f"{player} {text_}")
        owned.setdefault(game, {})[player] = text_
    points = pd.Series([said.get(g, []) for g in frame["game_id"]], index=frame.index, dtype=object)
    return frame.assign(
        points=points,
        own=pd.Series([owned.get(g, empty) for g in frame["game_id"]], index=frame.index, dtype=object),
    )


def player_sides(frame: pd.DataFrame) -> pa.Table:
    """Each named player's side of each game of a :func:`game_frame`: columns :data:`SIDE_COLUMNS`
    (``outcome`` win, loss, draw or no result, from their side; ``own_points`` what the game gave them).
    A game against oneself is the player's once, as Black."""
    sides = []
    for colour, me, them in (("B", "black", "white"), ("W", "white", "black")):
        part = frame[
            frame[me].notna() & ((frame["black"] != frame["white"]) | (colour == "B"))
        ]  # self-play once
        winner = part["winner"]
        outcome = pd.Series("no result", index=part.index)
        outcome[winner == "draw"] = "draw"
        outcome[winner == colour] = "win"
        outcome[winner.isin(["B", "W"]) & (winner != colour)] = "loss"
        sides.append(
            pd.DataFrame(
                {
                    "player": part[me].astype(str),
                    "seq": part["seq"],
                    "date": part["date_text"],
                    "period": part["period"].fillna(""),
                    "colour": colour,
                    "opponent": part[them].fillna("").astype(str),
                    "result": part["result"].fillna(""),
                    "outcome": outcome,
                    "event": part["event"],
                    "speed": part["speed_used"].where(part["parse_error"].isna(), None).fillna(""),
                    "counted": part["counted"].astype(bool),
                    "reasons": part["reasons"],
                    "notes": part["notes"],
                    "why": part["why"],
                    "own_points": [o.get(p, "") for o, p in zip(part["own"], part[me], strict=True)],
                    "source": part["source"],
                }
            )
        )
    both = pd.concat(sides, ignore_index=True)
    return pa.Table.from_pandas(both[list(SIDE_COLUMNS)], preserve_index=False)


def reason_codes(codes: list[str]) -> list[str]:
    """The reason codes among ``codes`` (space-separated lists of a page's games), in the order of REASONS."""
    seen = {c for row in codes for c in row.split()}
    return [c for c in REASONS if c in seen]


#: The rule sets' reports (:data:`pipeline.reports.REPORT_FILES`) as their pages title them.
REPORT_TITLES = {
    "promotions": N_("Promotions"),
    "fees": N_("Fees"),
    "certification": N_("Certification"),
}
#: The reports' columns (the contract's names, kept in a ``data-column`` attribute) as the pages head them.
REPORT_HEADERS = {
    "player": N_("player"),
    "date": N_("date"),
    "period": N_("period"),
    "seq": N_("game number"),
    "from_rank": N_("from rank"),
    "to_rank": N_("to rank"),
    "rank": N_("rank"),
    "rating": N_("rating"),
    "score": N_("score"),
    "note": N_("note"),
    "reason": N_("reason"),
    "games": N_("games"),
    "fee": N_("fee"),
    "amount": N_("amount"),
    "certificate": N_("certificate"),
    "kind": N_("kind"),
    # TRANSLATORS: the columns of the reports that the site's pages head by their names in English.
    "game_id": N_("game_id"),
    "rule": N_("rule"),
    "evidence": N_("evidence"),
    "event": N_("event"),
    "value": N_("value"),
    "threshold": N_("threshold"),
    "year": N_("year"),
    "rated_games": N_("rated_games"),
    "basis": N_("basis"),
    "valid_wins": N_("valid_wins"),
    "eligible": N_("eligible"),
    "first_eligible_date": N_("first_eligible_date"),
}


def report_tables(reports: Mapping[str, pd.DataFrame], links: Links) -> list[dict[str, Any]]:
    """The rule set's reports: ``name``, ``title``, ``columns``, ``headers`` (column, its words) and
    ``rows`` (lists of ``(text, link)`` cells, a link for a cell naming a player with a page); what the
    rule sets write in words (a promotion's rule and evidence, a fee's basis) in the language spoken."""
    found = []
    for name, table in reports.items():
        columns = [str(c) for c in table.columns]
        values = [column_words(table, c) or list(table[c]) for c in columns]
        rows = [
            [(text(v), links.get(v) if c == "player" else None) for c, v in zip(columns, r, strict=True)]
            for r in zip(*values, strict=True)
        ]
        headers = [(c, gettext(REPORT_HEADERS[c]) if c in REPORT_HEADERS else c) for c in columns]
        title = gettext(REPORT_TITLES[name]) if name in REPORT_TITLES else name.capitalize()
        found.append({"name": name, "title": title, "columns": columns, "headers": headers, "rows": rows})
    return found


def cap_of(manifest: Mapping[str, Any]) -> str:
    """The run's per-opponent cap as text (``N`` when the manifest does not say)."""
    try:
        return str(int(manifest["settings"]["validity"]["opponent_cap"]))
    except (KeyError, TypeError, ValueError):
        return "N"
