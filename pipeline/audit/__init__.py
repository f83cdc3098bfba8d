"""audit: the validity rules of RULES.md §0 over the ingested games table.

Adds to every row its canonical player names (roster aliases), configured event and stage, the
period, a deterministic order (``seq``), whether it is counted and every reason it is not. Pure:
a table, the roster, the events and the :class:`~pipeline.rules.base.Validity` in, a table out.

Knows nothing of SGF text or of ratings: it reads the normalised columns of ingest and decides
which games count. Decisions (RULES.md is silent):

- a parse error is the only reason given for a game that could not be parsed;
- a game without a player name on either side (no ``PB``/``PW``) cannot be rated: it gets
  ``parse_error`` and the note ``missing_player`` (RULES.md has no code of its own for it);
- a record without ``GM`` is Go (GM 1), as the SGF specification says;
- a date of year precision only (``DT[2024]``) is ``missing_date`` unless the periods are years;
- an inter-club event exempts a game from ``non_member`` only when one side is a member;
- ``duplicate`` compares the two players (either colour), the date and the main-line moves; for
  games with fewer than ``min_moves`` moves (no moves to compare) the result must match too; the
  earlier copy in ``seq`` order is kept;
- the opponent cap counts only games that pass every other rule, per unordered pair and period.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import pyarrow as pa

from pipeline.audit.periods import period_of
from pipeline.config.events import INTER_CLUB, Event, Events
from pipeline.config.roster import Roster
from pipeline.output.tables import GAMES
from pipeline.rules.base import REASONS, Validity

Check = Callable[[pd.DataFrame, Validity, Roster], "pd.Series[bool]"]


def audit(games: pa.Table, roster: Roster, events: Events, valid: Validity) -> pa.Table:
    """``games`` (schema :data:`~pipeline.ingest.schema.GAMES_INGEST`) with the audit columns of
    :data:`~pipeline.output.tables.GAMES`, in ``seq`` order. Never raises for any row's values."""
    df = _order(games.to_pandas())
    df = _identify(df, roster, events)
    vague = (df["date_precision"] == "year") & (valid.period != "year")  # a year only: no month to file it in
    df["period"] = [
        None if pd.isna(d) or v else period_of(d, valid.period)
        for d, v in zip(df["date"], vague, strict=True)
    ]
    unknown_speed = df["speed"].isna() | (df["speed"] == "unknown")
    df["speed_used"] = df["speed"].where(~unknown_speed, valid.unknown_speed)
    flags = _flags(df, valid, roster)
    excluded = [code for code in REASONS[:-1] if valid.excludes(code)]  # all but the cap itself
    flags["opponent_cap"] = _over_cap(df, ~flags[excluded].any(axis=1), valid.opponent_cap)
    df["reasons"] = _listed(flags, [c for c in REASONS if valid.excludes(c)])
    df["notes"] = _listed(flags, [c for c in REASONS if not valid.excludes(c)])
    _note(df, unknown_speed & ~flags["parse_error"], "speed_unknown")
    _note(df, df["parse_error"].isna() & flags["parse_error"], "missing_player")
    df["counted"] = df["reasons"].map(len) == 0
    return pa.Table.from_pandas(df, schema=GAMES, preserve_index=False)


def _note(df: pd.DataFrame, where: pd.Series[bool], note: str) -> None:
    """Append ``note`` to the ``notes`` of the rows ``where`` is true (in place)."""
    df.loc[where, "notes"] = df.loc[where, "notes"].map(lambda n: [*n, note])


def _order(df: pd.DataFrame) -> pd.DataFrame:
    """Rows by date (undated last), time of day (unknown first), path and index; ``seq`` numbers them."""
    keys = pd.DataFrame(
        {
            "undated": df["date"].isna(),
            "date": df["date"].map(lambda d: "" if pd.isna(d) else d.isoformat()),
            "time": df["time_of_day"].fillna(""),
            "path": df["source_path"],
            "index": df["game_index"],
        }
    )
    order = keys.sort_values(list(keys.columns), kind="stable").index
    df = df.loc[order].reset_index(drop=True)
    df["seq"] = range(len(df))
    return df


def _identify(df: pd.DataFrame, roster: Roster, events: Events) -> pd.DataFrame:
    """Canonical player names through the roster; the configured event, its kind and the stage."""
    for side in ("black", "white"):
        df[f"{side}_player"] = df[side].map(lambda n: None if pd.isna(n) else roster.resolve(n))
    found = {ev: events.match(ev) for ev in df["event"].dropna().unique()}
    matched: list[Event | None] = [None if pd.isna(ev) else found[ev] for ev in df["event"]]
    df["event_name"] = [e.name if e else None for e in matched]
    df["event_kind"] = [e.kind if e else None for e in matched]
    df["stage"] = [
        events.stage(e, r if isinstance(r, str) else None) if e else None
        for e, r in zip(matched, df["round"], strict=True)
    ]
    return df


def _flags(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.DataFrame:
    """One boolean column per reason code (except the opponent cap): does the rule apply?"""
    parsed = df["parse_error"].isna() & _named(df["black_player"]) & _named(df["white_player"])
    flags = pd.DataFrame({code: check(df, valid, roster) & parsed for code, check in _CHECKS.items()})
    flags.insert(0, "parse_error", ~parsed)
    return flags


def _named(names: pd.Series[Any]) -> pd.Series[bool]:
    return names.map(lambda n: isinstance(n, str) and bool(n.strip()))


def _wrong_type(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    return ~df["game_type"].fillna(1).isin(valid.game_types)


def _missing_date(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    """No date, or only a year where the periods are shorter than a year (``DT[2024]``: which month?)."""
    return df["date"].isna() | ((df["date_precision"] == "year") & (valid.period != "year"))


def _no_result(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    return df["winner"].isna()


def _draw(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    return df["winner"] == "draw"


def _no_show(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    decisive = df["winner"].isin(["B", "W"])
    return decisive & ((df["result_how"] == "forfeit") | (df["moves"].fillna(0) < valid.min_moves))


def _handicap(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    return df["handicap"].fillna(0) >= valid.handicap_from


def _non_member(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    if not roster.configured:
        return pd.Series(False, index=df.index)
    black, white = df["black_player"].map(_member(roster)), df["white_player"].map(_member(roster))
    inter_club = df["event_kind"].isin(list(INTER_CLUB))
    return ~(black & white) & ~(inter_club & (black | white))  # an inter-club game needs one member


def _member(roster: Roster) -> Callable[[Any], bool]:
    return lambda name: isinstance(name, str) and roster.is_member(name)


def _self_play(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    return df["black_player"].notna() & (df["black_player"] == df["white_player"])


def _duplicate(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series[bool]:
    short = df["moves"].fillna(0) < valid.min_moves
    pair = [sorted((str(b), str(w))) for b, w in zip(df["black_player"], df["white_player"], strict=True)]
    key = pd.DataFrame(
        {
            "b": [p[0] for p in pair],  # the pair unordered: the same game written with the colours swapped
            "w": [p[1] for p in pair],
            "d": df["date"].map(lambda d: "" if pd.isna(d) else d.isoformat()),
            "m": df["move_signature"].fillna(""),
            "r": df["result"].fillna("").where(short, ""),
        }
    )
    return key.duplicated(keep="first")


_CHECKS: dict[str, Check] = {
    "wrong_game_type": _wrong_type,
    "missing_date": _missing_date,
    "no_result": _no_result,
    "draw": _draw,
    "no_show": _no_show,
    "handicap": _handicap,
    "non_member": _non_member,
    "self_play": _self_play,
    "duplicate": _duplicate,
}


def _over_cap(df: pd.DataFrame, eligible: pd.Series[bool], cap: int) -> pd.Series[bool]:
    """Games beyond the first ``cap`` between the same two players in a period (0: no cap)."""
    if cap <= 0:
        return pd.Series(False, index=df.index)
    pair = [
        tuple(sorted((b, w))) if e else None
        for b, w, e in zip(df["black_player"], df["white_player"], eligible, strict=True)
    ]
    keys = pd.DataFrame({"period": df["period"], "pair": pair})[eligible]
    nth = keys.groupby(["period", "pair"]).cumcount()
    return (nth >= cap).reindex(df.index, fill_value=False)


def _listed(flags: pd.DataFrame, codes: list[str]) -> pd.Series[Any]:
    """Per row, the codes among ``codes`` whose flag is set, in the order given."""
    chosen = flags[codes]
    return pd.Series(
        [[c for c, hit in zip(codes, row, strict=True) if hit] for row in chosen.itertuples(index=False)],
        index=flags.index,
        dtype=object,
    )
