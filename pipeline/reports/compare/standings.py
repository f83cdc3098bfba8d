"""compare.standings: two sides' standings set side by side, per period and overall, with pandas merges.

Side A is the baseline, side B the alternative. A player's ``moved`` is ``place_a − place_b``: +3 means
three places higher in B's standings. Ratings of the two sides are compared (``rating_diff`` = B − A) only
when they are on the same scale (``same_scale``: the same rule set, or rule sets of one scale family such
as hkga and egf, :data:`pipeline.rules.scales.SCALES`); otherwise each side's rating is shown on its own
scale and ``rating_diff`` is missing.

Per period: the periods both sides rated (two period kinds, month against half, have none in common).
Overall (period :data:`OVERALL`): each side's standings at the end of its last period, and its promotions
and counted games over the whole run. Rank-order agreement: Kendall's τ-b (``scipy.stats.kendalltau``) of
the two sides' places, over the players both rated; missing with fewer than two such players, or when one
side has them all level.

Knows nothing of how the ratings were made, nor of rendering.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

OVERALL = "overall"
#: The columns of :func:`players`, in order.
PLAYER_COLUMNS = (
    "period", "player", "side", "place_a", "place_b", "moved", "rank_a", "rank_b", "rank_changed",
    "promotions_a", "promotions_b", "rating_a", "rating_b", "rating_diff", "changed",
)  # fmt: skip
#: The columns of :func:`periods`, in order.
PERIOD_COLUMNS = (
    "period", "games_a", "games_b", "players", "only_a", "only_b", "moved", "rank_changed",
    "promotion_changed", "largest", "tau",
)  # fmt: skip
_SIDES = {"both": "both", "left_only": "a", "right_only": "b"}


def standings(ratings: pd.DataFrame, promotions: pd.DataFrame) -> pd.DataFrame:
    """One side's standings per period and overall: ``period player place rank rating promotions``.

    ``ratings``: the rate stage's ratings (``period player rank rating rating_place``, every player rated
    by the end of each period); ``promotions``: its promotions (``period player``, one row each).
    """
    shown = ratings[["period", "player", "rating_place", "rank", "rating"]].rename(
        columns={"rating_place": "place"}
    )
    counts = promotions.groupby(["period", "player"]).size().rename("promotions").reset_index()
    per_period = shown.merge(counts, on=["period", "player"], how="left")
    last = shown[shown["period"] == _last(shown["period"])].assign(period=OVERALL)
    totals = promotions.groupby("player").size().rename("promotions").reset_index()
    overall = last.merge(totals, on="player", how="left")
    both = pd.concat([per_period, overall], ignore_index=True)
    return both.assign(promotions=both["promotions"].fillna(0).astype("int64"))


def _last(period: pd.Series) -> str | None:
    """The latest label of ``period`` (labels of one kind sort in time), None for none."""
    return max(period, default=None)


def players(a: pd.DataFrame, b: pd.DataFrame, same_scale: bool) -> pd.DataFrame:
    """Both sides' :func:`standings` merged per (period, player), over the periods both have and
    :data:`OVERALL`: columns :data:`PLAYER_COLUMNS` (``side`` both, a or b: who rated the player;
    ``changed``: place, rank or promotions differ, or one side alone rated the player), in period order,
    then by A's place."""
    common = set(a["period"]) & set(b["period"])
    merged = a[a["period"].isin(common)].merge(
        b[b["period"].isin(common)],
        on=["period", "player"],
        how="outer",
        suffixes=("_a", "_b"),
        indicator=True,
    )
    merged["side"] = merged.pop("_merge").map(_SIDES).astype(str)
    merged["moved"] = (merged["place_a"] - merged["place_b"]).astype("Int64")
    merged["rank_changed"] = _differs(merged, "rank")
    merged["rating_diff"] = merged["rating_b"] - merged["rating_a"] if same_scale else np.nan
    for column in ("place_a", "place_b", "promotions_a", "promotions_b"):
        merged[column] = merged[column].astype("Int64")
    moved = merged["moved"].fillna(0) != 0
    promoted = merged["promotions_a"].fillna(0) != merged["promotions_b"].fillna(0)
    merged["changed"] = moved | merged["rank_changed"] | promoted | (merged["side"] != "both")
    merged["_order"] = merged["period"].eq(OVERALL)
    ordered = merged.sort_values(["_order", "period", "place_a", "place_b", "player"], na_position="last")
    return ordered[list(PLAYER_COLUMNS)].reset_index(drop=True)


def _differs(merged: pd.DataFrame, column: str) -> pd.Series:
    """True where both sides rated the player and their ``column`` values differ (a missing value on one
    side only differs)."""
    left, right = merged[f"{column}_a"], merged[f"{column}_b"]
    both = merged["side"].eq("both")
    same = (left == right) | (left.isna() & right.isna())
    return both & ~same.fillna(False).astype(bool)


def periods(compared: pd.DataFrame, games_a: pd.Series, games_b: pd.Series) -> pd.DataFrame:
    """One row per period of :func:`players`' ``compared`` (then :data:`OVERALL`): columns
    :data:`PERIOD_COLUMNS`. ``games_a``/``games_b``: each side's counted games per period label (the
    overall row: all of them); ``players``: rated by both; ``only_a``/``only_b``: by one side alone;
    ``moved``, ``rank_changed``, ``promotion_changed``: players rated by both whose place, rank or number
    of promotions differ; ``largest``: the largest move in places (signed, the first player's of the
    largest size); ``tau``: see the module docstring."""
    rows = [period_row(str(label), group) for label, group in compared.groupby("period", sort=False)]
    frame = pd.DataFrame(rows, columns=[c for c in PERIOD_COLUMNS if not c.startswith("games")])
    totals = {OVERALL: (int(games_a.sum()), int(games_b.sum()))}
    counts = [totals.get(p, (int(games_a.get(p, 0)), int(games_b.get(p, 0)))) for p in frame["period"]]
    frame.insert(1, "games_a", [a for a, _ in counts])
    frame.insert(2, "games_b", [b for _, b in counts])
    return frame[list(PERIOD_COLUMNS)]


def period_row(label: str, group: pd.DataFrame) -> dict[str, object]:
    """The row of :func:`periods` (but the games) of one period's rows ``group`` of :func:`players`."""
    both = group[group["side"] == "both"]
    moves = both["moved"].astype("int64")
    promoted = both["promotions_a"] != both["promotions_b"]
    return {
        "period": label,
        "players": len(both),
        "only_a": int((group["side"] == "a").sum()),
        "only_b": int((group["side"] == "b").sum()),
        "moved": int((moves != 0).sum()),
        "rank_changed": int(both["rank_changed"].sum()),
        "promotion_changed": int(promoted.sum()),
        "largest": int(moves.iloc[int(np.argmax(moves.abs().to_numpy()))]) if len(moves) else 0,
        "tau": kendall_tau(both["place_a"].astype("int64"), both["place_b"].astype("int64")),
    }


def kendall_tau(place_a: pd.Series, place_b: pd.Series) -> float:
    """Kendall's τ-b of two rankings of the same players (NaN for fewer than two, or no variation)."""
    if len(place_a) < 2:
        return float("nan")
    # here, not at import: scipy.stats loads slowly and every command imports us (docs/design.md#lazy-imports)
    from scipy import stats

    return float(stats.kendalltau(place_a.to_numpy(), place_b.to_numpy()).statistic)


def movers(compared: pd.DataFrame, period: str = OVERALL) -> pd.DataFrame:
    """The players whose place, rank, promotions or (on one scale) rating differ in any period or
    overall, the largest movers first (in places in ``period``, then in rating, then in places in one
    period): the ``period`` row of each (columns of :data:`PLAYER_COLUMNS` but ``period``) with
    ``largest`` (the largest move in places in one period, signed) and ``largest_in`` (its period)."""
    per_period = compared[(compared["period"] != OVERALL) & compared["moved"].notna()]
    size = per_period["moved"].astype("int64").abs()
    peaks = per_period.loc[size.groupby(per_period["player"]).idxmax()] if len(per_period) else per_period
    peak = peaks.set_index("player")[["moved", "period"]]
    peak = peak.rename(columns={"moved": "largest", "period": "largest_in"})
    rated = compared["rating_diff"].fillna(0) != 0
    changed = (compared["changed"] | rated).groupby(compared["player"]).any()
    return ranked(compared[compared["period"] == period], peak, changed)


def ranked(rows: pd.DataFrame, peak: pd.DataFrame, changed: pd.Series) -> pd.DataFrame:
    """:func:`movers` of one period's ``rows`` (of :func:`players`), given each player's largest move
    in one period (``peak``: ``largest``, ``largest_in``, indexed by player) and whether the player
    changed in any period or overall (``changed``, indexed by player)."""
    shown = rows.drop(columns="period").set_index("player")
    found = shown.join(peak, how="left")
    found = found[changed.reindex(found.index, fill_value=False).astype(bool)]
    keys = {
        "_size": found["moved"].abs(),
        "_rating": found["rating_diff"].abs(),
        "_peak": found["largest"].abs(),
    }
    found = found.assign(**keys).sort_values(
        [*keys, "place_a"], ascending=[False, False, False, True], na_position="last"
    )
    return found.drop(columns=list(keys)).reset_index()
