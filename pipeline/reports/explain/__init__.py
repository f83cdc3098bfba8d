"""explain: how one player's rating came about in one period, in words and numbers.

Reads an output folder written by ``ratings run`` (``ratings/``, ``changes/``, ``awards/``,
``promotions.parquet``, ``games.parquet``, ``manifest.json``) through :mod:`pipeline.output.folder`, the
player's ratings rows and games through the output's index by player
(:mod:`pipeline.reports.player_rows`; an output without one is read whole, to the same explanation),
and builds an :class:`Explanation`: the equation from the rating at the period's start to the rating
at its end, one line per counted game with the rule set's own quantities, the player's games that were
not counted and why, and the period's awards and promotions. The equation's shape follows the run's
rule set (from the manifest), one family of rule sets each (:mod:`pipeline.reports.explain.families`);
the numbers are written out by :mod:`pipeline.reports.explain.terms`, the values are those of
:mod:`pipeline.reports.explain.model`. The rows are read as Arrow tables and handed on as records, without
pandas (its import would be a fifth of the command's time: ``tests/test_per_player_imports.py``).

Knows nothing of how the rule sets compute (it reads what they wrote), of the configuration beyond an
optional roster (for aliases the records never used), or of rendering (:mod:`pipeline.cli.explain`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.config.roster import Roster
from pipeline.core.i18n import N_, _
from pipeline.core.strings import text
from pipeline.output import folder as outputs
from pipeline.output.folder import ReportError
from pipeline.reports import player_rows
from pipeline.reports.explain.model import Excluded, Explanation, GameLine, Row
from pipeline.reports.explain.names import UnknownPlayer, resolve_player
from pipeline.reports.explain.terms import award_line, missing, number, optional_text, promotion_line, summary

__all__ = [
    "REASON_WORDS",
    "Excluded",
    "Explanation",
    "GameLine",
    "UnknownPlayer",
    "explain",
    "number",
    "reason_words",
    "resolve_player",
]

#: A reason code (docs/rules.md ("Reason codes")) in words.
REASON_WORDS = {
    "parse_error": N_("the record could not be read"),
    "wrong_game_type": N_("not the game type the run rates"),
    "missing_date": N_("no usable date"),
    "no_result": N_("no result (unknown, void or annulled)"),
    "draw": N_("draws are not valid games"),
    "no_show": N_("a no-show (a forfeit, or too few moves played)"),
    "handicap": N_("only even games count"),
    "unknown_player": N_("a side names nobody: a placeholder such as 'Black', or a name not decoded"),
    "non_member": N_("a player not on the roster, outside an inter-club event"),
    "self_play": N_("the same player on both sides"),
    "duplicate": N_("a second copy of a game already counted"),
    "opponent_cap": N_(
        "beyond the per-opponent cap: only the first {cap} games against one opponent in a period count"
    ),
}


def reason_words(code: str, cap: int | str | None) -> str:
    """Reason ``code`` in words (:data:`REASON_WORDS`) in the language spoken, the per-opponent ``cap``
    filled in (``N`` when unknown); an unknown code as it is."""
    words = _(REASON_WORDS[code]) if code in REASON_WORDS else code
    return words.format(cap=cap if cap is not None else "N")


#: The games columns read: the queries' (:data:`pipeline.output.folder.GAMES_COLUMNS`) and the winner.
_GAMES_COLUMNS = (*outputs.GAMES_COLUMNS, "winner")


def explain(out: Path, player: str, period: str | None = None, roster: Roster | None = None) -> Explanation:
    """The derivation of ``player``'s rating in ``period`` from the output folder ``out``.

    Args:
        out: an output folder written by ``ratings run``.
        player: a name as typed: canonical, an alias of ``roster``, or any spelling a record used;
            compared NFKC-folded and casefolded (:func:`pipeline.config.roster.name_key`).
        period: a period label (``2024-05``); None: the latest period in which the player's rating or
            rank changed, or they had counted games or awards (:func:`active_period`).
        roster: the run's roster, for aliases no record used (None: only the records' spellings).

    Returns:
        The :class:`Explanation`.

    Raises:
        UnknownPlayer: if no player of ``out`` is spelled ``player`` (the message suggests close names).
        ReportError: if ``out`` holds no output, the spelling names two players, the player was never
            rated, or has no ratings row in ``period``.
    """
    index = player_rows.index_of(out)
    if index is not None:
        try:
            return _indexed(out, index, player, period, roster)
        except player_rows.Unreadable:
            pass  # (the tables read whole below give the same explanation)
    games = outputs.read_games_table(out, columns=_GAMES_COLUMNS)
    name = resolve_player(out, player, roster, games)
    rated = _rated_in(out, name)
    _check_rated(out, name, rated, None)
    period = period or active_period(out, name, rated)
    _check_rated(out, name, rated, period)
    rating = _rows_of(outputs.read_partition_table(out, "ratings", period), name)[0] | {"period": period}
    return _explained(out, name, period, rating, games)


def _indexed(
    out: Path, index: player_rows.PlayerIndex, player: str, period: str | None, roster: Roster | None
) -> Explanation:
    """:func:`explain` from ``out``'s player index: the player's ratings rows where they first appear or
    moved give the periods they are rated in (every period from the first) and the latest they moved
    in; their games come from the index; the period's changes, awards and promotions are read as
    written (a partition each)."""
    outputs.require_output(out)
    name = resolve_player(out, player, roster)
    everyone = outputs.rated_periods(out)
    rows = [_clean(r) for r in player_rows.ratings_table(index, name, everyone).to_pylist()]
    rated = everyone[everyone.index(rows[0]["period"]) :] if rows else []
    _check_rated(out, name, rated, None)
    moved = [str(r["period"]) for r in rows if r["moved"]]
    period = period or (moved[-1] if moved else rated[-1])
    _check_rated(out, name, rated, period)
    mine = [{k: v for k, v in r.items() if k != "moved"} for r in rows if r["period"] == period]
    if not mine:  # a period in which they did not move: their row as the partition holds it
        mine = _rows_of(outputs.read_partition_table(out, "ratings", period), name)
    return _explained(out, name, period, mine[0] | {"period": period}, player_rows.games_table(index, name))


def _check_rated(out: Path, name: str, rated: list[str], period: str | None) -> None:
    """Raise ReportError if ``name`` was never rated (``rated``: the periods they are rated in), or
    ``period`` (None: any) is not one of them."""
    if not rated:
        raise ReportError(
            _("{name!r} has no rating in {out}: no counted game of theirs was rated").format(
                name=name, out=out
            )
        )
    if period is not None and period not in rated:
        raise ReportError(
            _("{name!r} has no rating in period {period!r} (rated in: {periods})").format(
                name=name, period=period, periods=", ".join(rated)
            )
        )


def _explained(out: Path, name: str, period: str, rating: Row, games: pa.Table) -> Explanation:
    """The explanation of ``name``'s ``rating`` row of ``period``; ``games`` their game records (or
    every record: only theirs are read)."""
    manifest = outputs.read_manifest(out)
    rule_set = str(manifest.get("rule_set", "unknown"))
    changes = _rows_of(outputs.read_partition_table(out, "changes", period), name, ["seq", "color"])
    awards = _rows_of(outputs.read_partition_table(out, "awards", period), name)
    promotions = _promotions(out, name, period)
    excluded = _excluded(games, name, period, _cap(manifest))
    return explanation(rule_set, name, rating, changes, awards, promotions, excluded)


def _rows_of(table: pa.Table, name: str, order: Sequence[str] = ()) -> list[Row]:
    """The rows of ``table`` whose ``player`` is ``name`` (none when it has no rows), sorted by the
    columns ``order`` (stably: as written within a tie), missing values as None."""
    if not table.num_rows:
        return []
    mine = table.filter(pc.equal(table.column("player"), text(name)))
    if order:
        mine = mine.sort_by([(column, "ascending") for column in order])
    return [_clean(r) for r in mine.to_pylist()]


def explanation(
    rule_set: str,
    name: str,
    rating: Row,
    changes: Sequence[Row],
    awards: Sequence[Row],
    promotions: Sequence[Row],
    not_counted: Sequence[Excluded],
) -> Explanation:
    """How ``name``'s rating moved in ``rating['period']``: ``rating`` their ratings row, ``changes``
    their changes rows in ``seq`` and colour order, ``awards`` and ``promotions`` (by date) their rows of
    the period, ``not_counted`` their games of the period that did not count."""
    from pipeline.reports.explain.families import family_for, style  # (the rule sets: not for a name)

    equation, workings, lines = family_for(rule_set)(
        rule_set, rating, list(changes), list(awards), list(promotions)
    )
    period = str(rating["period"])
    return Explanation(
        player=name,
        period=period,
        rule_set=rule_set,
        rank_before=optional_text(rating.get("rank_before")),
        rank=optional_text(rating.get("rank")),
        rating_before=float(rating["rating_before"]),
        rating=float(rating["rating"]),
        summary=summary(style(rule_set), name, period, rating, len(not_counted)),
        equation=equation,
        workings=tuple(workings),
        games=tuple(lines),
        not_counted=tuple(not_counted),
        awards=tuple(award_line(a) for a in awards),
        promotions=tuple(promotion_line(p) for p in promotions),
    )


def _excluded(games: pa.Table, name: str, period: str, cap: int | None) -> list[Excluded]:
    black, white, who = games.column("black_player"), games.column("white_player"), text(name)
    mine = pc.or_kleene(pc.equal(black, who), pc.equal(white, who))
    uncounted = pc.and_kleene(pc.equal(games.column("period"), text(period)), pc.invert(games["counted"]))
    chosen = games.filter(pc.and_kleene(uncounted, mine))
    found = []
    for g in chosen.to_pylist():
        color = "B" if g["black_player"] == name else "W"
        opponent = g["white_player"] if color == "B" else g["black_player"]
        winner = g["winner"]
        result = "draw" if winner == "draw" else "no result" if winner not in ("B", "W") else ""
        result = result or ("win" if winner == color else "loss")
        reasons = tuple(g["reasons"] or ())
        why = _("; ").join(reason_words(c, cap) for c in reasons)
        source = g["source_path"] if not g["game_index"] else f"{g['source_path']}#{g['game_index']}"
        speed = optional_text(g["speed_used"])
        found.append(Excluded(g["date"], str(opponent), color, result, speed, str(source), reasons, why))
    return found


def active_period(out: Path, name: str, rated: list[str]) -> str:
    """The latest of the periods ``rated`` (in time order, each with a ratings row of ``name``) in
    which ``name`` had a counted game or an award, or their rating or rank changed; the latest of
    ``rated`` when there is none (a player carried unchanged from a roster)."""
    for label in reversed(rated):
        row = _rows_of(outputs.read_partition_table(out, "ratings", label), name)[0]
        awards = outputs.read_partition_table(out, "awards", label, columns=["player"])
        moved = row["delta"] != 0 or str(row["rank"]) != str(row["rank_before"]) or row["games"] > 0
        if moved or _holds(awards, name):
            return label
    return rated[-1]


def _rated_in(out: Path, name: str) -> list[str]:
    """The periods (in order) whose ratings hold a row of ``name``."""
    return [
        p
        for p in outputs.rated_periods(out)
        if _holds(outputs.read_partition_table(out, "ratings", p, columns=["player"]), name)
    ]


def _holds(table: pa.Table, name: str) -> bool:
    """Whether a row of ``table`` (a ``player`` column at least) is ``name``'s."""
    return bool(table.num_rows) and bool(pc.any(pc.equal(table.column("player"), text(name))).as_py())


def _promotions(out: Path, name: str, period: str) -> list[Row]:
    path = out / outputs.PROMOTIONS_FILE
    if not path.exists():
        return []
    table = outputs.with_dates(pq.ParquetFile(path).read())  # (pq.read_table imports pandas)
    if not table.num_rows or "period" not in table.column_names:
        return []
    table = table.filter(pc.equal(table.column("period").cast(pa.string()), text(period)))
    return _rows_of(table, name, ["date"])


def _cap(manifest: Mapping[str, Any]) -> int | None:
    try:
        return int(manifest["settings"]["validity"]["opponent_cap"])
    except (KeyError, TypeError, ValueError):
        return None


def _clean(row: Mapping[Any, Any]) -> Row:
    """A record with pandas' missing values as None."""
    return {str(k): None if missing(v) else v for k, v in row.items()}
