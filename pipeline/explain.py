"""explain: how one player's rating came about in one period, in words and numbers.

Reads an output folder written by ``ratings run`` (``ratings/``, ``changes/``, ``awards/``,
``promotions.parquet``, ``games.parquet``, ``manifest.json``) and builds an :class:`Explanation`: the
equation from the rating at the period's start to the rating at its end, one line per counted game with
the rule set's own quantities, the player's games that were not counted and why, and the period's awards
and promotions. The equation's shape follows the run's rule set (from the manifest):

- ``club`` (seed 001): ``128 = 100 + 0.1×10×3 − 1×5 − …``: one term per group of identical games (same
  opponent, result, speed and coefficient), in the order of their first game; then the bonus points,
  then the awards' points;
- the GoR/Elo family (``hkga``, ``egf``, ``egf2021``, ``cga``): the start plus each game's change, and
  a note when the rating floor clipped the sum;
- ``cga-dan``: the average of the points since the last promotion; ``tga``: the rank before and after,
  with the Article 8 criterion of each event.

Knows nothing of how the rule sets compute (it reads what they wrote), of the configuration beyond an
optional roster (for aliases the records never used), or of rendering (:mod:`pipeline.cli.explain`).
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline import reports
from pipeline.normalise.text import fold
from pipeline.reports import ReportError
from pipeline.roster import Roster, name_key
from pipeline.rules import gor

PART = "part-0.parquet"
MINUS, TIMES = "−", "×"
GOR_FAMILY = frozenset({"hkga", "egf", "egf2021", "cga"})
#: The lowest rating of the GoR rule sets (pipeline.rules.gor), for the note when it clipped a sum.
FLOORS = {"hkga": gor.Classic(0.014, False).floor, "egf": gor.Classic(0.016, True).floor}
FLOORS |= {"egf2021": gor.Egd2021().floor}
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
_GAMES_COLUMNS = (
    "seq",
    "source_path",
    "game_index",
    "date",
    "period",
    "black",
    "white",
    "black_player",
    "white_player",
    "winner",
    "result",
    "speed_used",
    "event_name",
    "event",
    "counted",
    "reasons",
    "notes",
)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One counted game of the player: ``result`` win, loss or draw (the player's view), ``points`` the
    change it made (bonus included; for ``cga-dan`` the game's points, for ``tga`` its part of the
    Article 8 criterion) and ``points_text`` it written out (signed where it is a rating change),
    ``working`` how the rule set got it, in numbers."""

    date: dt.date
    opponent: str
    opponent_rank: str | None
    color: str
    result: str
    speed: str | None
    event: str | None
    points: float
    points_text: str
    working: str


@dataclass(frozen=True, slots=True)
class Excluded:
    """One game of the player in the period that was not counted: ``reasons`` the codes, ``why`` them
    in words; ``source`` the file (``path#index`` for a later game of a collection)."""

    date: dt.date | None
    opponent: str
    color: str
    result: str
    speed: str | None
    source: str
    reasons: tuple[str, ...]
    why: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """How ``player``'s rating moved in ``period`` under ``rule_set``.

    ``summary`` says it in words; ``equation`` in numbers (the end on the left); ``workings`` adds lines
    (the rule in words, per-event criteria, a note when the terms do not add up, e.g. the rating floor);
    ``games`` the counted games in order, ``not_counted`` the others; ``awards`` and ``promotions`` one
    line each.
    """

    player: str
    period: str
    rule_set: str
    rank_before: str | None
    rank: str | None
    rating_before: float
    rating: float
    summary: str
    equation: str
    workings: tuple[str, ...]
    games: tuple[GameLine, ...]
    not_counted: tuple[Excluded, ...]
    awards: tuple[str, ...]
    promotions: tuple[str, ...]


class UnknownPlayer(ReportError):
    """No player of the output folder is spelled that way; ``suggestions`` the closest names (may be
    empty), already named in the message."""

    def __init__(self, message: str, suggestions: Sequence[str]) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


def explain(out: Path, player: str, period: str | None = None, roster: Roster | None = None) -> Explanation:
    """The derivation of ``player``'s rating in ``period`` from the output folder ``out``.

    Args:
        out: an output folder written by ``ratings run``.
        player: a name as typed: canonical, an alias of ``roster``, or any spelling a record used;
            compared NFKC-folded and casefolded (:func:`pipeline.roster.name_key`).
        period: a period label (``2024-05``); None: the latest period with a ratings row of the player.
        roster: the run's roster, for aliases no record used (None: only the records' spellings).

    Returns:
        The :class:`Explanation`.

    Raises:
        UnknownPlayer: if no player of ``out`` is spelled ``player`` (the message suggests close names).
        ReportError: if ``out`` holds no output, the spelling names two players, the player was never
            rated, or has no ratings row in ``period``.
    """
    games = reports.read_games(out, columns=_GAMES_COLUMNS)
    name = find_player(out, player, games, roster)
    rated = _rated_in(out, name)
    if not rated:
        raise ReportError(f"{name!r} has no rating in {out}: no counted game of theirs was rated")
    period = period or rated[-1]
    if period not in rated:
        raise ReportError(f"{name!r} has no rating in period {period!r} (rated in: {', '.join(rated)})")
    row = _partition(out, "ratings", period)
    rating = _clean(row[row["player"] == name].iloc[0].to_dict()) | {"period": period}
    manifest = _manifest(out)
    rule_set = str(manifest.get("rule_set", "unknown"))
    changes = _partition(out, "changes", period)
    mine = (
        changes[changes["player"] == name].sort_values(["seq", "color"], kind="stable")
        if len(changes)
        else changes
    )
    rows = [_clean(r) for r in mine.to_dict("records")]
    awards = _partition(out, "awards", period)
    award_rows = (
        [_clean(r) for r in awards[awards["player"] == name].to_dict("records")] if len(awards) else []
    )
    promotions = _promotions(out, name, period)
    family = _FAMILIES.get("gor" if rule_set in GOR_FAMILY else rule_set, _generic)
    equation, workings, lines = family(rule_set, rating, rows, award_rows, promotions)
    excluded = _excluded(games, name, period, _cap(manifest))
    return Explanation(
        player=name,
        period=period,
        rule_set=rule_set,
        rank_before=_text(rating.get("rank_before")),
        rank=_text(rating.get("rank")),
        rating_before=float(rating["rating_before"]),
        rating=float(rating["rating"]),
        summary=_summary(rule_set, name, period, rating, len(excluded)),
        equation=equation,
        workings=tuple(workings),
        games=tuple(lines),
        not_counted=tuple(excluded),
        awards=tuple(_award_line(a) for a in award_rows),
        promotions=tuple(_promotion_line(p) for p in promotions),
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
        games = reports.read_games(out, columns=("black", "white", "black_player", "white_player"))
    spellings: dict[str, set[str]] = {}

    def add(spelling: Any, canonical: Any) -> None:
        if isinstance(spelling, str) and isinstance(canonical, str):
            spellings.setdefault(name_key(spelling), set()).add(canonical)

    for side in ("black", "white"):
        for raw, canonical in zip(games[side], games[f"{side}_player"], strict=True):
            add(raw, canonical)
            add(canonical, canonical)
    for label in reports.rated_periods(out):
        for name in _partition(out, "ratings", label)["player"]:
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


def number(value: float, places: int = 6) -> str:
    """``value`` rounded to ``places`` decimals, trailing zeros dropped: 0.1, 10, 128, -11.07."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# --- one function per rule-set family: (rule set, ratings row, changes rows, awards rows, promotions)
#     -> (equation, workings, game lines)

Row = dict[str, Any]
Family = Callable[[str, Row, list[Row], list[Row], list[Row]], tuple[str, list[str], list[GameLine]]]


def _club(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """Seed 001's worked example: wins ``coefficient×points[×count]``, losses ``− own×points[×count]``."""
    groups: dict[tuple[Any, ...], int] = {}
    bonuses: dict[tuple[float, str], int] = {}
    for r in rows:
        if r["points"]:
            coefficient = r["opponent_coefficient"] if r["points"] > 0 else r["coefficient"]
            key = (r["opponent"], r["score"], r["speed"], coefficient, r["game_points"], r["points"] > 0)
            groups[key] = groups.get(key, 0) + 1
        if r["bonus"]:
            bonus = (r["bonus"], r["bonus_rule"] or "bonus")
            bonuses[bonus] = bonuses.get(bonus, 0) + 1
    terms = [
        _term(1.0 if win else -1.0, f"{number(c)}{TIMES}{number(p)}" + _count(n))
        for (_, _, _, c, p, win), n in groups.items()
    ]
    terms += [_term(b, f"{number(abs(b))}{_count(n)} ({rule})") for (b, rule), n in bonuses.items()]
    terms += [
        _term(a["points"], f"{number(abs(a['points']))} ({_award_label(a)})") for a in awards if a["points"]
    ]
    total = sum(r["delta"] for r in rows) + sum(a["points"] for a in awards)
    workings = [
        "a win earns the opponent's coefficient × the game points, a loss costs one's own coefficient × the "
        "game points (slow 10, fast 5); coefficients are those of the ranks fixed at the previous computation"
    ]
    workings += _mismatch(rating, total, None)
    return _equation(rating, terms, 6), workings, [_club_line(r) for r in rows]


def _club_line(r: Row) -> GameLine:
    if r["bonus_rule"] == "fixed rating":
        working = "fixed rating: no change"
    elif r["score"] == 1:
        working = f"win: opponent's {number(r['opponent_coefficient'])}{TIMES}{number(r['game_points'])}"
        working += f" = {_signed(r['points'])}"
    elif r["score"] == 0:
        working = f"loss: own {MINUS}{number(r['coefficient'])}{TIMES}{number(r['game_points'])}"
        working += f" = {_signed(r['points'])}"
    else:
        working = "draw: 0"
    if r["bonus"] and r["bonus_rule"] != "fixed rating":
        working += f", {_signed(r['bonus'])} ({r['bonus_rule'] or 'bonus'})"
    return _line(r, _text(r.get("opponent_rank")), working)


def _gor(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """The start plus each game's change (2 decimals); a note when the floor clipped the sum."""
    elo = rule_set == "cga"
    terms = [_term(r["delta"], number(abs(r["delta"]), 2)) for r in rows if round(r["delta"], 2)]
    rule = "K × (result − We)" if elo else "con × (result − Se)"
    workings = [f"each game: change = {rule} × class weight × stage weight"]
    if rule_set == "egf2021":
        workings[0] += " + bonus"
    workings += _mismatch(rating, sum(r["delta"] for r in rows), FLOORS.get(rule_set))
    return _equation(rating, terms, 2), workings, [_gor_line(r, elo) for r in rows]


def _gor_line(r: Row, elo: bool) -> GameLine:
    se, con = ("We", "K") if elo else ("Se", "con")
    parts = [f"rating {number(r['rating_before'], 2)} vs {number(r['opponent_rating'], 2)}"]
    if (r["adjusted_rating"], r["opponent_adjusted_rating"]) != (r["rating_before"], r["opponent_rating"]):
        parts.append(
            f"adjusted {number(r['adjusted_rating'], 2)} vs {number(r['opponent_adjusted_rating'], 2)}"
        )
    parts.append(f"{se} {number(r['se'], 4)}")
    if r.get("a") is not None:
        parts.append(f"a {number(r['a'], 2)}")
    parts += [f"{con} {number(r['con'], 2)}", f"class {r['event_class']} {TIMES}{number(r['class_weight'])}"]
    parts.append(f"stage {TIMES}{number(r['stage_weight'])}")
    formula = (
        f"{number(r['con'], 2)}{TIMES}({number(r['score'])} {MINUS} {number(r['se'], 4)})"
        f"{TIMES}{number(r['class_weight'])}{TIMES}{number(r['stage_weight'])} = {_signed(r['points'], 2)}"
    )
    if r["bonus"]:
        formula += f" + bonus {number(r['bonus'], 2)}"
    if r.get("note"):
        formula = f"{r['note']}: {_signed(r['delta'], 2)}"
    return _line(r, None, ", ".join(parts) + ": " + formula)


def _cga_dan(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """The rating is the average of the points since the last promotion."""
    end = number(rating["rating"], 2)
    cut = _after_last_promotion(rows, promotions)
    run = rows[cut:]
    if not run and promotions:
        equation = f"{end} = the average of no games since the promotion to {promotions[-1]['to_rank']}"
    elif not run:
        equation = f"{end} = {number(rating['rating_before'], 2)} (no games in {rating['period']})"
    else:
        games = int(run[-1]["games_since_promotion"])
        earlier = games - len(run)
        terms = [number(r["points"]) for r in run]
        if earlier:
            total = float(run[-1]["average_since_promotion"]) * games - sum(r["points"] for r in run)
            terms.insert(0, f"{number(total, 2)} ({earlier} earlier games)")
        summed = f"({' + '.join(terms)})" if len(terms) > 1 else terms[0]
        equation = f"{end} = {summed} / {games}"
    workings = [
        "points per game by the dan difference (段位赛记分标准); the rating is the average of the points "
        "since the last promotion"
    ]
    return equation, workings, [_cga_dan_line(r) for r in rows]


def _cga_dan_line(r: Row) -> GameLine:
    working = (
        f"dan {r['dan']} vs {r['opponent_dan']} ({r['role']}, difference {r['dan_difference']}): "
        f"{number(r['points'])} points; {_games(int(r['games_since_promotion']))} since the last promotion, "
        f"average {number(r['average_since_promotion'], 2)}"
    )
    return _line(r, f"{r['opponent_dan']}d", working, signed=False)


def _after_last_promotion(rows: list[Row], promotions: list[Row]) -> int:
    """The index in ``rows`` of the first game after the period's last promotion (0 with none)."""
    if not promotions:
        return 0
    last = promotions[-1]
    ids = [r["game_id"] for r in rows]
    if last.get("game_id") in ids:
        return ids.index(last["game_id"]) + 1
    return sum(1 for r in rows if r["date"] <= last["date"])


def _tga(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """The rank before and after; the Article 8 criterion of each event."""
    before, after = rating.get("rank_before"), rating.get("rank")
    if promotions:
        equation = f"{after} = {before} " + " ".join(f"→ {p['to_rank']} ({p['rule']})" for p in promotions)
    else:
        equation = f"{after} = {before} (no promotion in {rating['period']})"
    events: dict[str, list[Row]] = {}
    for r in rows:
        if r["article8"]:
            events.setdefault(r["event"], []).append(r)
    workings = []
    for event, counted in events.items():
        value, n = sum(r["points"] for r in counted), len(counted)
        sign = "≥" if value >= 0.7 * n - 1e-9 else "<"
        parts = " + ".join(_factor(r["points"]) for r in counted)
        games = f"{n} valid game{'' if n == 1 else 's'}"
        workings.append(
            f"{event}: Article 8, {games}: {_eq_number(value, 6)} = {parts} {sign} 0.7 {TIMES} {n} = "
            f"{number(0.7 * n)}"
        )
    return equation, workings, [_tga_line(r) for r in rows]


def _tga_line(r: Row) -> GameLine:
    estimated = " (estimated)" if r["estimated_opponent"] else ""
    delta = r["delta_dan"]
    working = f"dan {number(r['dan'])} vs {number(r['opponent_dan'])}{estimated}, Δ {_eq_number(delta, 6)}: "
    if not r["article8"]:
        working += "not an Article 8 game"
    elif r["score"] == 1:
        working += f"1 + 0.2{TIMES}{_factor(delta)} = {number(r['points'])}"
    elif r["score"] == 0.5:
        working += f"0.5 + 0.1{TIMES}{_factor(delta)} = {number(r['points'])}"
    else:
        working += "0"
    return _line(r, f"dan {number(r['opponent_dan'])}{estimated}", working, signed=False)


def _generic(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """Any other rule set: the start plus each game's change plus the awards."""
    terms = [_term(r["delta"], number(abs(r["delta"]), 2)) for r in rows if round(r["delta"], 2)]
    terms += [
        _term(a["points"], f"{number(abs(a['points']), 2)} ({_award_label(a)})")
        for a in awards
        if a["points"]
    ]
    total = sum(r["delta"] for r in rows) + sum(a["points"] for a in awards)
    lines = [_line(r, None, f"{_signed(r['delta'], 2)}") for r in rows]
    return _equation(rating, terms, 2), _mismatch(rating, total, None), lines


_FAMILIES: Mapping[str, Family] = {"club": _club, "gor": _gor, "cga-dan": _cga_dan, "tga": _tga}


# --- helpers


def _term(sign: float, text: str) -> str:
    return f" {MINUS if sign < 0 else '+'} {text}"


def _games(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def _factor(value: float) -> str:
    """``value`` as a factor or term: ``3``, ``(−3)``."""
    text = _eq_number(value, 6)
    return f"({text})" if text.startswith(MINUS) else text


def _count(n: int) -> str:
    return f"{TIMES}{n}" if n > 1 else ""


def _equation(rating: Row, terms: list[str], places: int) -> str:
    """``end = start + terms`` (negative numbers with a true minus sign)."""
    end, start = (_eq_number(rating[k], places) for k in ("rating", "rating_before"))
    return f"{end} = {start}{''.join(terms)}"


def _eq_number(value: float, places: int) -> str:
    text = number(value, places)
    return MINUS + text[1:] if text.startswith("-") else text


def _signed(value: float, places: int = 6) -> str:
    """``+30``, ``−5`` (a true minus sign), ``0``."""
    text = _eq_number(value, places)
    return text if text == "0" or text.startswith(MINUS) else f"+{text}"


def _mismatch(rating: Row, total: float, floor: float | None) -> list[str]:
    """A note when start + ``total`` is not the rating the run wrote (the floor, when one is known)."""
    start, end = float(rating["rating_before"]), float(rating["rating"])
    if abs(start + total - end) < 0.005:
        return []
    summed = number(start + total, 2)
    if floor is not None and end >= floor and start + total < end:
        return [
            f"the terms sum to {summed}, but a rating never falls below {number(floor)}: the floor clipped it"
        ]
    return [f"the terms sum to {summed}, but the run's rating is {number(end, 2)}"]


def _line(r: Row, opponent_rank: str | None, working: str, signed: bool = True) -> GameLine:
    result = {1.0: "win", 0.0: "loss"}.get(float(r["score"]), "draw")
    return GameLine(
        date=r["date"],
        opponent=str(r["opponent"]),
        opponent_rank=opponent_rank,
        color=str(r["color"]),
        result=result,
        speed=_text(r.get("speed")),
        event=_text(r.get("event")),
        points=float(r["delta"]),
        points_text=_signed(r["delta"], 2) if signed else _eq_number(r["delta"], 2),
        working=working,
    )


def _award_label(award: Row) -> str:
    kind = {"champion": "champion", "runner_up": "runner-up"}.get(str(award["kind"]))
    label = kind or (award.get("note") or "award")
    return f"{label}, {award['event']}"


def _award_line(award: Row) -> str:
    label = _award_label(award)
    note = f": {award['note']}" if award.get("note") and not label.startswith(str(award["note"])) else ""
    return f"{award['date']} {_signed(award['points'], 2)} ({label}){note}"


def _promotion_line(p: Row) -> str:
    return f"{p['date']}: {p.get('from_rank') or '?'} → {p['to_rank']} ({p['rule']}): {p['evidence']}"


def _summary(rule_set: str, name: str, period: str, rating: Row, excluded: int) -> str:
    before, after = rating.get("rank_before"), rating.get("rank")
    if rule_set == "tga":
        moved = f"was {before} at the start of {period} and {after} at its end"
    else:
        word = "average since the last promotion" if rule_set == "cga-dan" else "rating"
        start, end = number(rating["rating_before"], 2), number(rating["rating"], 2)
        moved = f"({before}) began {period} with {word} {start} and ended it at {end} ({after})"
    games = int(rating["games"])
    tally = f"{games} counted game{'' if games == 1 else 's'}: {rating['wins']} won, {rating['losses']} lost"
    tally += f", {rating['draws']} drawn" if rating["draws"] else ""
    return f"{name} {moved}; {tally}; {excluded} not counted."


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
        speed = _text(g["speed_used"])
        found.append(Excluded(g["date"], str(opponent), color, result, speed, str(source), reasons, why))
    return found


def _rated_in(out: Path, name: str) -> list[str]:
    """The periods (in order) whose ratings hold a row of ``name``."""
    return [p for p in reports.rated_periods(out) if (_partition(out, "ratings", p)["player"] == name).any()]


def _partition(out: Path, dataset: str, period: str) -> pd.DataFrame:
    """``out/<dataset>/period=<period>``'s table (empty, no columns, when the period has none)."""
    path = out / dataset / f"period={period}" / PART
    return pd.read_parquet(path) if path.exists() else pd.DataFrame()


def _promotions(out: Path, name: str, period: str) -> list[Row]:
    path = out / "promotions.parquet"
    if not path.exists():
        return []
    table = pd.read_parquet(path)
    if not len(table) or "period" not in table:
        return []
    mine = table[(table["player"] == name) & (table["period"] == period)].sort_values("date", kind="stable")
    return [_clean(r) for r in mine.to_dict("records")]


def _manifest(out: Path) -> dict[str, Any]:
    try:
        found = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _cap(manifest: Mapping[str, Any]) -> int | None:
    try:
        return int(manifest["settings"]["validity"]["opponent_cap"])
    except (KeyError, TypeError, ValueError):
        return None


def _clean(row: Mapping[Any, Any]) -> Row:
    """A record with pandas' missing values as None."""
    return {str(k): None if _missing(v) else v for k, v in row.items()}


def _missing(value: Any) -> bool:
    return value is None or value is pd.NaT or (isinstance(value, float) and value != value)


def _text(value: Any) -> str | None:
    return None if _missing(value) else str(value)
