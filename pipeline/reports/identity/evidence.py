"""identity.evidence: candidate pairs of players that may be one person, and what speaks for or against.

Candidates come from buckets, never from comparing every pair: players whose spellings share a name key
(:func:`name_pairs`, keys of :mod:`pipeline.reports.identity.keys`), and players who played the same
opponents in the same weeks (:func:`co_opponents`, a self-join of the (player, opponent, week) table on
(opponent, week)). A bucket (a key, or an opponent's week) with more than ``max_bucket`` players says
little and would make pairs by the square of its size: it is not paired, and comes back in ``skipped``
with its size. :func:`meetings` counts the games two players played against each other (two people, not
one). All pandas merges and groupbys. Knows nothing of scores or of the roster file.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.core.i18n import _
from pipeline.reports.identity.keys import KINDS, name_keys

#: A bucket with more players than this is not paired (see the module's docstring).
MAX_BUCKET = 50
#: The columns of :func:`name_pairs`.
NAME_PAIR_COLUMNS = ("a", "b", "kind", "spelling_a", "spelling_b", "note_a", "note_b")
#: The columns of :func:`co_opponents`.
CO_COLUMNS = ("a", "b", "shared", "overlap", "opponents", "weeks")
#: The columns of the ``skipped`` frames: what was not paired and why.
SKIPPED_COLUMNS = ("evidence", "key", "players")


def empty(columns: tuple[str, ...]) -> pd.DataFrame:
    """A frame without rows with ``columns``."""
    return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})


def name_pairs(spellings: pd.DataFrame, max_bucket: int = MAX_BUCKET) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Pairs of players with a name key in common, and the keys too common to pair.

    Args:
        spellings: columns ``player`` (canonical) and ``spelling`` (any spelling of them).
        max_bucket: the most players a key may have and still be paired.

    Returns:
        (pairs, skipped). ``pairs``: columns :data:`NAME_PAIR_COLUMNS`, one row per pair ``a < b`` with
        the strongest kind of :data:`~pipeline.reports.identity.keys.KINDS` they share and the two
        spellings that share it, with the notes of what their keys removed (a ``romanisation`` key
        pairs a Chinese spelling with a Latin one only). ``skipped``: columns
        :data:`SKIPPED_COLUMNS`, one row per key of more than ``max_bucket`` players.
    """
    keys = name_keys(spellings["spelling"]).merge(spellings[["player", "spelling"]], on="spelling")
    keys = keys[keys["key"] != ""].drop_duplicates(["kind", "key", "player"])
    size = keys.groupby(["kind", "key"])["player"].transform("size")
    skipped = keys[size > max_bucket].groupby(["kind", "key"]).size().reset_index(name="players")
    skipped = skipped.assign(evidence="name " + skipped["kind"])[list(SKIPPED_COLUMNS)]
    keys = keys[(size > 1) & (size <= max_bucket)]
    joined = keys.merge(keys, on=["kind", "key"], suffixes=("_a", "_b"))
    joined = joined[joined["player_a"] < joined["player_b"]]
    joined = joined[(joined["kind"] != "romanisation") | (joined["note_a"] != joined["note_b"])]
    joined = joined.assign(strength=joined["kind"].map({k: i for i, k in enumerate(KINDS)}))
    joined = joined.sort_values(["player_a", "player_b", "strength"], kind="stable")
    best = joined.drop_duplicates(["player_a", "player_b"]).rename(columns={"player_a": "a", "player_b": "b"})
    return best[list(NAME_PAIR_COLUMNS)].reset_index(drop=True), skipped.reset_index(drop=True)


def meetings(seen: pd.DataFrame) -> pd.DataFrame:
    """Columns ``a``, ``b`` (``a < b``) and ``met``: the records of a game between them, from the
    appearances ``seen`` (:func:`~pipeline.reports.identity.records.appearances`)."""
    games = seen[seen["opponent"].notna() & (seen["player"] < seen["opponent"])]
    met = games.groupby(["player", "opponent"])["game_id"].nunique().reset_index(name="met")
    return met.rename(columns={"player": "a", "opponent": "b"})


def co_opponents(
    seen: pd.DataFrame, min_weeks: int = 2, min_overlap: float = 0.5, max_bucket: int = MAX_BUCKET
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Pairs of players who never played each other but played the same opponents in the same weeks.

    The slots must fall in ``min_weeks`` different weeks at least: the players of one team match, or of
    one weekend's tournament, share every opponent in that one week without being one person.

    Args:
        seen: the appearances (:func:`~pipeline.reports.identity.records.appearances`).
        min_weeks: the fewest different weeks of the (opponent, week) slots two players must share.
        min_overlap: the least share of the slots of the player with fewer slots that the shared
            slots must be (1.0: every opponent-week of one is one of the other's).
        max_bucket: an (opponent, week) with more players than this is not paired.

    Returns:
        (pairs, skipped). ``pairs``: columns :data:`CO_COLUMNS`, ``a < b``, ``shared`` the slots in
        common, ``overlap`` ``shared`` over the smaller player's slots, ``opponents`` and ``weeks`` the
        shared opponents and weeks (sorted lists; weeks as ISO dates of their Monday); pairs that met
        are left out. ``skipped``: columns :data:`SKIPPED_COLUMNS`, one row per crowded slot.
    """
    slots = seen.loc[seen["opponent"].notna() & seen["week"].notna(), ["player", "opponent", "week"]]
    slots = slots[slots["player"] != slots["opponent"]].drop_duplicates()
    size = slots.groupby(["opponent", "week"])["player"].transform("size")
    crowded = slots[size > max_bucket].groupby(["opponent", "week"]).size().reset_index(name="players")
    skipped = pd.DataFrame(
        {
            "evidence": "co_opponents",
            "key": [
                _("{opponent} in the week of {week}").format(opponent=o, week=w)
                for o, w in zip(crowded["opponent"], crowded["week"].dt.strftime("%Y-%m-%d"), strict=True)
            ],
            "players": crowded["players"],
        },
        columns=list(SKIPPED_COLUMNS),
    )
    counts = slots.groupby("player").size()
    paired = slots[(size > 1) & (size <= max_bucket)]
    joined = paired.merge(paired, on=["opponent", "week"], suffixes=("_a", "_b"))
    joined = joined[joined["player_a"] < joined["player_b"]].rename(
        columns={"player_a": "a", "player_b": "b"}
    )
    grouped = joined.groupby(["a", "b"])
    pairs = grouped.agg(shared=("week", "size"), spread=("week", "nunique")).reset_index()
    pairs = pairs[pairs["spread"] >= min_weeks].drop(columns="spread")
    smaller = np.minimum(
        pairs["a"].map(counts).to_numpy(dtype=float), pairs["b"].map(counts).to_numpy(dtype=float)
    )
    pairs = pairs.assign(overlap=pairs["shared"].to_numpy(dtype=float) / smaller)
    pairs = pairs[pairs["overlap"] >= min_overlap]
    pairs = _not_met(pairs, meetings(seen))
    return _with_lists(pairs, joined), skipped.reset_index(drop=True)


def _not_met(pairs: pd.DataFrame, met: pd.DataFrame) -> pd.DataFrame:
    """``pairs`` without the pairs of ``met``."""
    found = pairs.merge(met, on=["a", "b"], how="left")
    return found[found["met"].isna()].drop(columns="met")


def _with_lists(pairs: pd.DataFrame, joined: pd.DataFrame) -> pd.DataFrame:
    """``pairs`` with the sorted lists of the opponents and weeks of their shared slots (``joined``)."""
    if pairs.empty:
        return empty(CO_COLUMNS)
    chosen = joined.merge(pairs[["a", "b"]], on=["a", "b"])
    chosen = chosen.assign(week=chosen["week"].dt.strftime("%Y-%m-%d"))
    lists = chosen.groupby(["a", "b"]).agg(opponents=("opponent", _sorted), weeks=("week", _sorted))
    return pairs.merge(lists.reset_index(), on=["a", "b"])[list(CO_COLUMNS)].reset_index(drop=True)


def _sorted(values: pd.Series[str]) -> list[str]:
    return sorted(set(values))
