"""pipeline.audit, columnar, gives exactly the table the pandas version with per-row Python gave.

The pandas version is kept here, verbatim but for its names (``reference_audit``), as the reference; the
benchmark (``bench/audit_bench.py``) imports it and :func:`games_table` from this module. The games come
from :mod:`pipeline.synth.server` through the real ingest, tiled to more rows (paths, ids and player
names carry the copy's number) and perturbed so that every reason code and note occurs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.audit import audit
from pipeline.config.events import INTER_CLUB, Event, Events
from pipeline.config.roster import Player, Roster
from pipeline.core.periods import period_of
from pipeline.core.reasons import REASONS, Validity
from pipeline.core.tables import GAMES
from pipeline.core.text import fold
from pipeline.ingest import IngestOptions, ingest
from pipeline.synth.records import write_records
from pipeline.synth.server import server_archive

pytestmark = pytest.mark.slow

# --- the reference: pipeline/audit/__init__.py as it was (pandas, per-row Python) ------------------

RefCheck = Callable[[pd.DataFrame, Validity, Roster], "pd.Series[bool]"]


def reference_audit(games: pa.Table, roster: Roster, events: Events, valid: Validity) -> pa.Table:
    df = _ref_order(games.to_pandas())
    named = {side: _ref_named(df[side]) for side in ("black", "white")}
    gone = _ref_unnamed(df, roster, valid)
    df = _ref_identify(df, roster, events)
    vague = (df["date_precision"] == "year") & (valid.period != "year")
    df["period"] = [
        None if pd.isna(d) or v else period_of(d, valid.period)
        for d, v in zip(df["date"], vague, strict=True)
    ]
    unknown_speed = df["speed"].isna() | (df["speed"] == "unknown")
    df["speed_used"] = df["speed"].where(~unknown_speed, valid.unknown_speed)
    flags = _ref_flags(df, valid, roster, named, gone)
    excluded = [code for code in REASONS[:-1] if valid.excludes(code)]
    flags["opponent_cap"] = _ref_over_cap(df, ~flags[excluded].any(axis=1), valid.opponent_cap)
    df["reasons"] = _ref_listed(flags, [c for c in REASONS if valid.excludes(c)])
    df["notes"] = _ref_listed(flags, [c for c in REASONS if not valid.excludes(c)])
    _ref_note(df, unknown_speed & ~flags["parse_error"], "speed_unknown")
    nameless = df["parse_error"].isna() & flags["parse_error"]
    _ref_note(df, nameless, "missing_player")
    _ref_nameless(df, nameless, named)
    df["counted"] = df["reasons"].map(len) == 0
    return pa.Table.from_pandas(df, schema=GAMES, preserve_index=False)


def _ref_unnamed(df: pd.DataFrame, roster: Roster, valid: Validity) -> dict[str, pd.Series]:
    """Each side whose name names nobody, and no roster player's: null name, the name kept in its raw."""
    # imported here: bench/audit_bench.py imports this module's helpers against older trees (--against)
    from pipeline.core.names import names_nobody, placeholder_keys

    keys = placeholder_keys(valid.placeholder_names)
    gone = {}
    for side in ("black", "white"):
        gone[side] = (
            df[side]
            .map(lambda n: isinstance(n, str) and names_nobody(n, keys) and roster.get(n) is None)
            .astype(bool)
        )
        df[f"{side}_raw"] = df[f"{side}_raw"].where(~gone[side], df[f"{side}_raw"].fillna(df[side]))
        df[side] = df[side].where(~gone[side], None)
    return gone


def _ref_nameless(df: pd.DataFrame, nameless: pd.Series, named: dict[str, pd.Series]) -> None:
    """A record read without both names: error_kind no_players, parse_error naming what is missing."""
    black, white = named["black"], named["white"]
    df.loc[nameless, "error_kind"] = "no_players"
    df.loc[nameless & ~black & ~white, "parse_error"] = "no player names: PB and PW are both missing or empty"
    df.loc[nameless & ~black & white, "parse_error"] = "no player name for Black: PB is missing or empty"
    df.loc[nameless & black & ~white, "parse_error"] = "no player name for White: PW is missing or empty"


def _ref_note(df: pd.DataFrame, where: pd.Series, note: str) -> None:
    df.loc[where, "notes"] = df.loc[where, "notes"].map(lambda n: [*n, note])


def _ref_order(df: pd.DataFrame) -> pd.DataFrame:
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


def _ref_identify(df: pd.DataFrame, roster: Roster, events: Events) -> pd.DataFrame:
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


def _ref_flags(
    df: pd.DataFrame, valid: Validity, roster: Roster, named: dict[str, pd.Series], gone: dict[str, pd.Series]
) -> pd.DataFrame:
    parsed = df["parse_error"].isna() & named["black"] & named["white"]
    unknown = parsed & (gone["black"] | gone["white"])
    players = ("non_member", "self_play", "duplicate")
    flags = pd.DataFrame(
        {
            code: check(df, valid, roster) & (parsed & ~unknown if code in players else parsed)
            for code, check in _REF_CHECKS.items()
        }
    )
    flags.insert(0, "parse_error", ~parsed)
    flags["unknown_player"] = unknown
    return flags


def _ref_named(names: pd.Series) -> pd.Series:
    return names.map(lambda n: isinstance(n, str) and bool(n.strip()))


def _ref_non_member(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series:
    if not roster.configured:
        return pd.Series(False, index=df.index)

    def member(name: Any) -> bool:
        return isinstance(name, str) and roster.is_member(name)

    black, white = df["black_player"].map(member), df["white_player"].map(member)
    inter_club = df["event_kind"].isin(list(INTER_CLUB))
    return ~(black & white) & ~(inter_club & (black | white))


def _ref_duplicate(df: pd.DataFrame, valid: Validity, roster: Roster) -> pd.Series:
    short = df["moves"].fillna(0) < valid.min_moves
    pair = [sorted((str(b), str(w))) for b, w in zip(df["black_player"], df["white_player"], strict=True)]
    key = pd.DataFrame(
        {
            "b": [p[0] for p in pair],
            "w": [p[1] for p in pair],
            "d": df["date"].map(lambda d: "" if pd.isna(d) else d.isoformat()),
            "m": df["move_signature"].fillna(""),
            "r": df["result"].fillna("").where(short, ""),
        }
    )
    return key.duplicated(keep="first")


_REF_CHECKS: dict[str, RefCheck] = {
    "wrong_game_type": lambda df, valid, roster: ~df["game_type"].fillna(1).isin(valid.game_types),
    "missing_date": lambda df, valid, roster: (
        df["date"].isna() | ((df["date_precision"] == "year") & (valid.period != "year"))
    ),
    "no_result": lambda df, valid, roster: df["winner"].isna(),
    "draw": lambda df, valid, roster: df["winner"] == "draw",
    "no_show": lambda df, valid, roster: (
        df["winner"].isin(["B", "W"])
        & ((df["result_how"] == "forfeit") | (df["moves"].fillna(0) < valid.min_moves))
    ),
    "handicap": lambda df, valid, roster: df["handicap"].fillna(0) >= valid.handicap_from,
    "non_member": _ref_non_member,
    "self_play": lambda df, valid, roster: (
        df["black_player"].notna() & (df["black_player"] == df["white_player"])
    ),
    "duplicate": _ref_duplicate,
}


def _ref_over_cap(df: pd.DataFrame, eligible: pd.Series, cap: int) -> pd.Series:
    if cap <= 0:
        return pd.Series(False, index=df.index)
    pair = [
        tuple(sorted((b, w))) if e else None
        for b, w, e in zip(df["black_player"], df["white_player"], eligible, strict=True)
    ]
    keys = pd.DataFrame({"period": df["period"], "pair": pair})[eligible]
    nth = keys.groupby(["period", "pair"]).cumcount()
    return (nth >= cap).reindex(df.index, fill_value=False)


def _ref_listed(flags: pd.DataFrame, codes: list[str]) -> pd.Series:
    chosen = flags[codes]
    return pd.Series(
        [[c for c, hit in zip(codes, row, strict=True) if hit] for row in chosen.itertuples(index=False)],
        index=flags.index,
        dtype=object,
    )


# --- the games: a real ingest of a synthetic server archive, tiled and perturbed -----------------

_TIMES = pa.array(["08:15:00", "12:00:00", "19:30:05", "23:59:59"])


def ingested_sample(n: int, root: Path, months: int = 120) -> pa.Table:
    """The games table of ``n`` records of :func:`server_archive`, through the pipeline's ingest."""
    write_records(server_archive(n, seed=1, months=months), root / "raw")
    return ingest(root / "raw", root / "out", IngestOptions(workers=1)).games


def _replaced(table: pa.Table, name: str, column: pa.Array | pa.ChunkedArray) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), table.field(name), column)


def _put(table: pa.Table, name: str, where: np.ndarray, value: object) -> pa.Table:
    """``table`` whose column ``name`` holds ``value`` (a scalar, None or a column) in the rows ``where``."""
    kind = table.field(name).type
    new = value if isinstance(value, pa.Array | pa.ChunkedArray) else pa.scalar(value, kind)
    return _replaced(table, name, pc.if_else(pa.array(where), new, table[name]).cast(kind))


def tiled(sample: pa.Table, rows: int) -> pa.Table:
    """``rows`` rows: copies of ``sample`` whose paths, ids and player names carry the copy's number (as
    many players again per copy: pairs and the cap keep the sample's rates)."""
    parts = []
    for k in range(-(-rows // len(sample))):
        part = _replaced(
            sample, "source_path", pc.binary_join_element_wise(f"c{k:03d}", sample["source_path"], "/")
        )
        for name in ("game_id", "black", "white"):
            part = _replaced(part, name, pc.binary_join_element_wise(sample[name], f"~{k}", ""))
        parts.append(part)
    return pa.concat_tables(parts).slice(0, rows).combine_chunks()


def perturbed(table: pa.Table, seed: int) -> pa.Table:
    """``table`` with work for every rule: times of day, vague and missing dates, draws, voids, forfeits,
    short games, handicaps, Gomoku, self-play, missing and blank names, names that name nobody (on the
    roster too, :func:`roster_for`: ``Black``), unknown speeds, errors."""
    rng = np.random.default_rng(seed)
    n = len(table)

    def some(rate: float) -> np.ndarray:
        return rng.random(n) < rate

    table = _put(table, "time_of_day", some(0.2), _TIMES.take(pa.array(rng.integers(0, len(_TIMES), n))))
    january = pc.strptime(
        pc.binary_join_element_wise(pc.strftime(table["date"], "%Y"), "-01-01", ""), "%Y-%m-%d", "s"
    )
    vague = some(0.004)
    table = _put(_put(table, "date", vague, january.cast(pa.date32())), "date_precision", vague, "year")
    table = _put(table, "date", some(0.003), None)
    draw, void = some(0.004), some(0.003)
    table = _put(_put(table, "winner", draw, "draw"), "result", draw, "Draw")
    table = _put(_put(table, "winner", void, None), "result", void, "Void")
    table = _put(table, "result_how", some(0.003), "forfeit")
    table = _put(table, "moves", some(0.004), pa.array(rng.integers(0, 2, n), pa.int32()))
    table = _put(table, "handicap", some(0.03), pa.array(rng.integers(1, 10, n), pa.int32()))
    table = _put(table, "game_type", some(0.003), 4)
    table = _put(table, "white", some(0.001), table["black"])
    table = _put(table, "black", some(0.001), None)
    table = _put(table, "white", some(0.0005), " ")
    table = _put(table, "black", some(0.002), "Black")
    table = _put(table, "white", some(0.001), "白")
    table = _put(table, "white", some(0.001), "??")
    table = _put(_put(table, "speed", some(0.02), None), "speed", some(0.02), "unknown")
    return _put(table, "parse_error", some(0.002), "bad")


def with_copies(table: pa.Table, rate: float, seed: int) -> pa.Table:
    """``table`` and second copies of a ``rate`` share of its rows under other paths (half with the colours
    swapped, half sorting before the original), as when both players upload a game."""
    rng = np.random.default_rng(seed)
    copies = table.take(pa.array(np.flatnonzero(rng.random(len(table)) < rate)))
    m = len(copies)
    prefix = pa.array(np.where(rng.random(m) < 0.5, "a-copy", "z-copy"))
    copies = _replaced(copies, "source_path", pc.binary_join_element_wise(prefix, copies["source_path"], "/"))
    copies = _replaced(copies, "game_id", pc.binary_join_element_wise(copies["game_id"], "copy", "~"))
    swap = rng.random(m) < 0.5
    copies = _put(_put(copies, "black", swap, copies["white"]), "white", swap, copies["black"])
    return pa.concat_tables([table, copies]).combine_chunks()


def games_table(sample: pa.Table, rows: int, seed: int = 1) -> pa.Table:
    """About ``rows`` games from ``sample``: tiled, perturbed, 1.5% second copies; by path and index."""
    table = with_copies(perturbed(tiled(sample, round(rows / 1.015)), seed), 0.015, seed + 1)
    return table.sort_by([("source_path", "ascending"), ("game_index", "ascending")])


def roster_for(games: pa.Table, share: float = 0.8, seed: int = 3) -> Roster:
    """A ``share`` of the names of ``games`` as roster players, each under a name of its own with the
    drawn name as an alias; every tenth also has a second drawn name as an alias, every tenth is no member."""
    names = sorted({fold(n) for n in pc.unique(games["black"]).drop_null().to_pylist()} - {""})
    drawn = [names[i] for i in np.random.default_rng(seed).permutation(len(names))]
    size = int(len(names) * share / 1.1)
    seconds = iter(drawn[size:])
    return Roster(
        tuple(
            Player(
                f"player {i}", aliases=(name, next(seconds)) if i % 10 == 0 else (name,), member=i % 10 != 5
            )
            for i, name in enumerate(drawn[:size])
        )
    )


def events_for(games: pa.Table) -> Events:
    """One event per ``event`` text of ``games``, the kinds in turn, qualifiers in rounds 1 and 2."""
    texts = sorted(pc.unique(games["event"]).drop_null().to_pylist())
    kinds = ("team_match", "arena", "server_open", "other")
    return Events(
        tuple(
            Event(t, (f"{t}*",), kinds[i % 4], qualifier_rounds=("第1轮", "第2*"))
            for i, t in enumerate(texts)
        )
    )


# --- the tests ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    """About 3,000 games in 2 months (pairs meet often enough for a cap of 10 to bite)."""
    return games_table(ingested_sample(800, tmp_path_factory.mktemp("sample"), months=2), 3000)


def both(games: pa.Table, valid: Validity, roster: Roster | None = None, events: Events | None = None):
    roster, events = roster or Roster(), events or Events()
    return audit(games, roster, events, valid), reference_audit(games, roster, events, valid)


def test_every_reason_and_note_occurs_in_the_generated_games(games: pa.Table) -> None:
    valid = Validity(excluded=frozenset({"no_show", "handicap", "non_member"}))  # draws counted: a note
    _, expected = both(games, valid, roster_for(games), events_for(games))
    found = Counter(
        c for column in ("reasons", "notes") for codes in expected[column].to_pylist() for c in codes
    )
    assert set(found) == {*REASONS, "speed_unknown", "missing_player"}


@pytest.mark.parametrize(
    "valid",
    [
        Validity(),
        Validity(period="quarter", opponent_cap=2),
        Validity(period="half", excluded=frozenset({"draw"}), min_moves=100),
        Validity(period="year", excluded=frozenset(), game_types=(1, 4), unknown_speed="slow"),
        Validity(opponent_cap=0, handicap_from=1),
    ],
    ids=["defaults", "quarter-cap-2", "half-long-min-moves", "year-all-counted", "no-cap"],
)
def test_audit_equals_the_pandas_reference(games: pa.Table, valid: Validity) -> None:
    got, expected = both(games, valid, roster_for(games), events_for(games))
    assert got.equals(expected)


def test_audit_equals_the_reference_without_roster_or_events(games: pa.Table) -> None:
    got, expected = both(games, Validity())
    assert got.equals(expected)


def test_audit_equals_the_reference_whatever_the_input_order(games: pa.Table) -> None:
    shuffled = games.take(pa.array(np.random.default_rng(5).permutation(len(games))))
    got, expected = both(shuffled, Validity(), roster_for(games), events_for(games))
    assert got.equals(expected)


@pytest.mark.filterwarnings("ignore:'and' operations between boolean dtype and str:DeprecationWarning")
def test_audit_of_no_games_is_an_empty_games_table(games: pa.Table) -> None:
    got, expected = both(games.slice(0, 0), Validity())
    assert got.equals(expected) and got.num_rows == 0


def test_audit_table_has_the_games_schema_with_its_descriptions(games: pa.Table) -> None:
    got, _ = both(games.slice(0, 50), Validity())
    assert got.schema.equals(GAMES, check_metadata=True)


def test_audit_of_games_already_in_seq_order_copies_no_column(games: pa.Table) -> None:
    in_order = audit(games, Roster(), Events(), Validity()).select(games.column_names)
    again = audit(in_order, Roster(), Events(), Validity())
    assert all(
        again[name].chunks[0].buffers()[-1].address == in_order[name].chunks[0].buffers()[-1].address
        for name in ("source_path", "move_signature", "date")
    )
