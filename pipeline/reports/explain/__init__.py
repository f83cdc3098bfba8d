"""explain: how one player's rating came about in one period, in words and numbers.

Reads an output folder written by ``ratings run`` (``ratings/``, ``changes/``, ``awards/``,
``promotions.parquet``, ``games.parquet``, ``manifest.json``) through :mod:`pipeline.output.folder` and
builds an :class:`Explanation`: the equation from the rating at the period's start to the rating at its
end, one line per counted game with the rule set's own quantities, the player's games that were not
counted and why, and the period's awards and promotions. The equation's shape follows the run's rule
set (from the manifest), one family of rule sets each (:mod:`pipeline.reports.explain.families`); the numbers
are written out by :mod:`pipeline.reports.explain.terms`, the values are those of
:mod:`pipeline.reports.explain.model`.

Knows nothing of how the rule sets compute (it reads what they wrote), of the configuration beyond an
optional roster (for aliases the records never used), or of rendering (:mod:`pipeline.cli.explain`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline.config.roster import Roster, name_key
from pipeline.ingest.normalise.text import fold
from pipeline.output import folder as outputs
from pipeline.output.folder import ReportError
from pipeline.reports.explain.families import FLOORS, GOR_FAMILY, family_for
from pipeline.reports.explain.model import Excluded, Explanation, GameLine, Row, UnknownPlayer
from pipeline.reports.explain.terms import award_line, missing, number, optional_text, promotion_line, summary

__all__ = [
    "FLOORS",
    "GOR_FAMILY",
    "REASON_WORDS",
    "Excluded",
    "Explanation",
    "GameLine",
    "UnknownPlayer",
    "explain",
    "find_player",
    "number",
]

#: A reason code of RULES.md §0 in words.
REASON_WORDS = {
    "parse_error": "the record could not be read",
    "wrong_game_type": "not the game type the run rates",
    "missing_date": "no usable date",
    "no_result": "no result (unknown, void or annulled)",
    "draw": "draws are not valid games",
    "no_show": "a no-show (a forfeit, or too few moves played)",
    "handicap": "only even games count",
    "non_member": "a player not on the roster, outside an inter-club event",
    "self_play": "the same player on both sides",
    "duplicate": "a second copy of a game already counted",
    "opponent_cap": "beyond the per-opponent cap: only the first {cap} games against one opponent "
    "in a period count",
}
#: The games columns read: the queries' (:data:`pipeline.output.folder.GAMES_COLUMNS`) and the winner.
_GAMES_COLUMNS = (*outputs.GAMES_COLUMNS, "winner")


def explain(out: Path, player: str, period: str | None = None, roster: Roster | None = None) -> Explanation:
    """The derivation of ``player``'s rating in ``period`` from the output folder ``out``.

    Args:
        out: an output folder written by ``ratings run``.
        player: a name as typed: canonical, an alias of ``roster``, or any spelling a record used;
            compared NFKC-folded and casefolded (:func:`pipeline.config.roster.name_key`).
        period: a period label (``2024-05``); None: the latest period with a ratings row of the player.
        roster: the run's roster, for aliases no record used (None: only the records' spellings).

    Returns:
        The :class:`Explanation`.

    Raises:
        UnknownPlayer: if no player of ``out`` is spelled ``player`` (the message suggests close names).
        ReportError: if ``out`` holds no output, the spelling names two players, the player was never
            rated, or has no ratings row in ``period``.
    """
    games = outputs.read_games(out, columns=_GAMES_COLUMNS)
    name = find_player(out, player, games, roster)
    rated = _rated_in(out, name)
    if not rated:
        raise ReportError(f"{name!r} has no rating in {out}: no counted game of theirs was rated")
    period = period or rated[-1]
    if period not in rated:
        raise ReportError(f"{name!r} has no rating in period {period!r} (rated in: {', '.join(rated)})")
    row = outputs.read_partition(out, "ratings", period)
    rating = _clean(row[row["player"] == name].iloc[0].to_dict()) | {"period": period}
    manifest = outputs.read_manifest(out)
    rule_set = str(manifest.get("rule_set", "unknown"))
    changes = outputs.read_partition(out, "changes", period)
    mine = (
        changes[changes["player"] == name].sort_values(["seq", "color"], kind="stable")
        if len(changes)
        else changes
    )
    rows = [_clean(r) for r in mine.to_dict("records")]
    awards = outputs.read_partition(out, "awards", period)
    award_rows = (
        [_clean(r) for r in awards[awards["player"] == name].to_dict("records")] if len(awards) else []
    )
    promotions = _promotions(out, name, period)
    equation, workings, lines = family_for(rule_set)(rule_set, rating, rows, award_rows, promotions)
    excluded = _excluded(games, name, period, _cap(manifest))
    return Explanation(
        player=name,
        period=period,
        rule_set=rule_set,
        rank_before=optional_text(rating.get("rank_before")),
        rank=optional_text(rating.get("rank")),
        rating_before=float(rating["rating_before"]),
        rating=float(rating["rating"]),
        summary=summary(rule_set, name, period, rating, len(excluded)),
        equation=equation,
        workings=tuple(workings),
        games=tuple(lines),
        not_counted=tuple(excluded),
        awards=tuple(award_line(a) for a in award_rows),
        promotions=tuple(promotion_line(p) for p in promotions),
    )


def find_player(
    out: Path, player: str, games: pd.DataFrame | None = None, roster: Roster | None = None
) -> str:
    """The canonical name ``player`` spells in ``out``: a rated player's name, a spelling a record used,
    or a ``roster`` name or alias, compared NFKC-folded and casefolded (when that finds two players, one
    of them spelled exactly as ``player``, NFKC-folded, is the one).

    ``games`` is ``out``'s games table when already read (``black``, ``white``, ``black_player`` and
    ``white_player`` columns at least).
    Raises UnknownPlayer (with close names) if nothing matches, ReportError if two players match.
    """
    if games is None:
        games = outputs.read_games(out, columns=("black", "white", "black_player", "white_player"))
    spellings: dict[str, set[str]] = {}

    def add(spelling: Any, canonical: Any) -> None:
        if isinstance(spelling, str) and isinstance(canonical, str):
            spellings.setdefault(name_key(spelling), set()).add(canonical)

    for side in ("black", "white"):
        for raw, canonical in zip(games[side], games[f"{side}_player"], strict=True):
            add(raw, canonical)
            add(canonical, canonical)
    for label in outputs.rated_periods(out):
        for name in outputs.read_partition(out, "ratings", label)["player"]:
            add(name, name)
    for entry in roster.players if roster is not None else ():
        for spelling in (entry.name, *entry.aliases):
            add(spelling, entry.name)
    found = spellings.get(name_key(player), set())
    if len(found) > 1 and fold(player) in found:  # "Fish" and "fish" both played: the exact one
        return fold(player)
    if len(found) > 1:
        raise ReportError(f"{player!r} names more than one player in {out}: {', '.join(sorted(found))}")
    if found:
        return found.pop()
    close = difflib.get_close_matches(name_key(player), list(spellings), n=5, cutoff=0.5)
    names = list(dict.fromkeys(sorted(spellings[k])[0] for k in close))
    hint = f" (did you mean: {', '.join(names)}?)" if names else ""
    raise UnknownPlayer(f"no player {player!r} in {out}{hint}", names)


def _excluded(games: pd.DataFrame, name: str, period: str, cap: int | None) -> list[Excluded]:
    chosen = games[
        (games["period"] == period)
        & ~games["counted"].astype(bool)
        & ((games["black_player"] == name) | (games["white_player"] == name))
    ]
    found = []
    for g in chosen.to_dict("records"):
        color = "B" if g["black_player"] == name else "W"
        opponent = g["white_player"] if color == "B" else g["black_player"]
        winner = g["winner"]
        result = "draw" if winner == "draw" else "no result" if winner not in ("B", "W") else ""
        result = result or ("win" if winner == color else "loss")
        reasons = tuple(g["reasons"])
        why = "; ".join(REASON_WORDS.get(c, c).format(cap=cap if cap is not None else "N") for c in reasons)
        source = g["source_path"] if not g["game_index"] else f"{g['source_path']}#{g['game_index']}"
        speed = optional_text(g["speed_used"])
        found.append(Excluded(g["date"], str(opponent), color, result, speed, str(source), reasons, why))
    return found


def _rated_in(out: Path, name: str) -> list[str]:
    """The periods (in order) whose ratings hold a row of ``name``."""
    return [
        p
        for p in outputs.rated_periods(out)
        if (outputs.read_partition(out, "ratings", p)["player"] == name).any()
    ]


def _promotions(out: Path, name: str, period: str) -> list[Row]:
    path = out / outputs.PROMOTIONS_FILE
    if not path.exists():
        return []
    table = pd.read_parquet(path)
    if not len(table) or "period" not in table:
        return []
    mine = table[(table["player"] == name) & (table["period"] == period)].sort_values("date", kind="stable")
    return [_clean(r) for r in mine.to_dict("records")]


def _cap(manifest: Mapping[str, Any]) -> int | None:
    try:
        return int(manifest["settings"]["validity"]["opponent_cap"])
    except (KeyError, TypeError, ValueError):
        return None


def _clean(row: Mapping[Any, Any]) -> Row:
    """A record with pandas' missing values as None."""
    return {str(k): None if missing(v) else v for k, v in row.items()}
