"""tables: the two generations' games and ratings read and compared, columnar (pandas merges).

Knows nothing of causes: it says which games and which ratings differ, :mod:`.causes` says why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pipeline.core.schema import GAMES_INGEST
from pipeline.output.folder import GAMES_FILE, in_order

FILE_COLUMNS = ("source_path", "change", "games", "counted", "periods")
_TOLERANCE = 1e-9  # ratings closer than this are equal (the same sums in another order)

_AUDIT = ("period", "counted", "reasons", "black_player", "white_player", "event_name", "stage", "speed_used")
_KEYS = ("game_id", "source_path")
_RATED = ("player", "rating", "rank", "place")


def _games(generation: Path) -> pd.DataFrame:
    """``generation``'s games: the keys, a digest of the record's values and one of the audit's."""
    path = generation / GAMES_FILE
    names = set(pq.read_schema(path).names)
    table = pq.read_table(path, columns=[c for c in (*GAMES_INGEST.names, *_AUDIT) if c in names])
    if "reasons" in names:  # a list: as one text, to be hashed
        where = table.schema.get_field_index("reasons")
        table = table.set_column(where, "reasons", pc.binary_join(table["reasons"], "|"))
    frame = table.to_pandas()
    record = [c for c in GAMES_INGEST.names if c in names and c not in _KEYS]
    return pd.DataFrame(
        {
            **{k: frame[k] for k in _KEYS},
            "period": frame["period"],
            "counted": frame["counted"].astype(bool),
            "record": pd.util.hash_pandas_object(frame[record], index=False),
            "audit": pd.util.hash_pandas_object(frame[[c for c in _AUDIT if c in names]], index=False),
        }
    )


def _game_changes(before: Path, after: Path, reparsed: bool) -> pd.DataFrame:
    """Each game whose record or audit differs between the two generations: the keys, ``period_before``
    and ``period_after``, ``counted`` (in either), ``status`` (added, removed, corrected, re-audited)."""
    old, new = _games(before), _games(after)
    both = old.merge(new, on="game_id", how="outer", suffixes=("_before", "_after"), indicator=True)
    side = both["_merge"].astype(str)
    corrected = (side == "both") & (both["record_before"] != both["record_after"])
    reaudited = (side == "both") & ~corrected & (both["audit_before"] != both["audit_after"])
    status = np.select(
        [side == "right_only", side == "left_only", corrected, reaudited],
        ["added", "removed", "parser changed" if reparsed else "corrected file", "re-audited"],
        default="",
    )
    path = both["source_path_after"].fillna(both["source_path_before"])
    had, has = path.isin(set(old["source_path"])), path.isin(set(new["source_path"]))
    removed = side == "left_only"
    found = pd.DataFrame(
        {
            "source_path": path,
            "file": np.select([~had, ~has], ["added", "removed"], default="corrected"),
            "period_before": both["period_before"],
            "period_after": both["period_after"],
            "counted": _true(both["counted_before"]) | _true(both["counted_after"]),
            "status": np.where(removed & ~has, "removed file", np.where(removed, "corrected file", status)),
        }
    )
    return found[found["status"] != ""].reset_index(drop=True)


def _true(values: pd.Series[Any]) -> pd.Series[bool]:
    return values.astype("boolean").fillna(False).astype(bool)


def _files(games: pd.DataFrame) -> pd.DataFrame:
    """The :data:`FILE_COLUMNS` of the files whose records changed (not those only re-audited)."""
    changed = games[games["status"] != "re-audited"]
    reparsed = changed["status"] == "parser changed"
    change = changed["file"].where(
        changed["file"] != "corrected", reparsed.map({True: "re-parsed", False: "corrected"})
    )
    grouped = changed.assign(change=change, periods=changed["period_after"].fillna(changed["period_before"]))
    found = grouped.groupby("source_path", sort=True).agg(
        change=("change", "first"),
        games=("status", "size"),
        counted=("counted", "sum"),
        periods=("periods", lambda p: ", ".join(in_order(p.dropna().unique()))),
    )
    return found.reset_index()[list(FILE_COLUMNS)]


def _ratings(generation: Path) -> pd.DataFrame:
    """``generation``'s ratings of every period: ``period`` (text) and :data:`_RATED` (``place``: the
    ratings' ``rating_place``, or ``place`` in a generation written before it had that name)."""
    folder = generation / "ratings"
    schema = pa.schema([("period", pa.string())])
    if not folder.is_dir():
        return pd.DataFrame(columns=["period", *_RATED])
    found = ds.dataset(folder, format="parquet", partitioning=ds.partitioning(schema, flavor="hive"))
    place = "rating_place" if "rating_place" in found.schema.names else "place"  # (older generations)
    columns = ["period", *_RATED[:-1], place]
    frame: pd.DataFrame = found.to_table(columns=columns).to_pandas().rename(columns={place: "place"})
    return frame


def _rating_changes(before: Path, after: Path) -> pd.DataFrame:
    """Each period and player whose rating, rank or place differs, or who is in one generation only:
    ``period player change old_rating new_rating old_rank new_rank old_place new_place``."""
    old, new = _ratings(before), _ratings(after)
    both = old.merge(new, on=["period", "player"], how="outer", suffixes=("_old", "_new"), indicator=True)
    side = both["_merge"].astype(str)
    rating = ~np.isclose(both["rating_old"], both["rating_new"], rtol=0, atol=_TOLERANCE)
    rank = both["rank_old"].fillna("") != both["rank_new"].fillna("")
    place = both["place_old"].astype("Float64").fillna(-1) != both["place_new"].astype("Float64").fillna(-1)
    changed = (side != "both") | rating | rank | place
    both = both[changed.to_numpy()]
    kinds = np.select(
        [side[changed] == "left_only", side[changed] == "right_only"], ["removed", "added"], "changed"
    )
    return pd.DataFrame(
        {
            "period": both["period"].astype(str),
            "player": both["player"],
            "change": kinds,
            "old_rating": both["rating_old"],
            "new_rating": both["rating_new"],
            "old_rank": both["rank_old"],
            "new_rank": both["rank_new"],
            "old_place": both["place_old"].astype("Int64"),
            "new_place": both["place_new"].astype("Int64"),
        }
    ).reset_index(drop=True)
