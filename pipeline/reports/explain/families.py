"""explain.families: one function per shape of explanation, shaping the equation, workings and game lines.

Each rule set's record names its shape (:data:`pipeline.rules.family.Explanation`); :func:`family_for` gives
the function of that shape. Each takes (rule set, ratings row, changes rows, awards rows, promotions rows)
of one player and period, as the run wrote them, and returns (equation, workings, game lines):

- ``club`` (the worked example of docs/rules.md ("club")): ``128 = 100 + 0.1×10×3 − 1×5 − …``: one term per
  group of identical games (same opponent, result, speed and coefficient), in the order of their first game;
  then the bonus points, then the awards' points;
- ``gor``, ``gor-bonus`` and ``elo`` (``hkga`` and ``egf``, ``egf2021``, ``cga``): the start plus each
  game's change, and a note when the rating floor (the record's) clipped the sum;
- ``dan-points`` (``cga-dan``): the average of the points since the last promotion; ``rank`` (``tga``):
  the rank before and after, with the Article 8 criterion of each event;
- ``generic``, and any rule set that is not registered: the start plus each game's change plus the awards.

Knows nothing of how the rule sets compute (it reads what they wrote, and their records) or of reading
the output folder (:mod:`pipeline.reports.explain`).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping
from typing import Any

from pipeline.core.i18n import N_, _, ngettext
from pipeline.reports.explain.model import GameLine, Row
from pipeline.reports.explain.terms import (
    MINUS,
    TIMES,
    award_label,
    eq_number,
    equation,
    factor,
    game_line,
    mismatch,
    n_games,
    number,
    optional_text,
    rounding,
    signed,
    term,
    times,
)
from pipeline.reports.rule_words import bonus_words, said
from pipeline.rules import REGISTRY
from pipeline.rules.family import Explanation

#: Why a GoR period's changes may not sum to its move (docs/rules.md ("hkga"): events are rated together).
_EVENTS_APPLY = N_(
    ": an event's changes apply together after its last game, so those of an event still open at the"
    " period's end move the rating in the period the event ends (each game is listed in its own period)"
)
#: (rule set, ratings row, changes rows, awards rows, promotions rows) -> (equation, workings, game lines)
Explainer = Callable[[str, Row, list[Row], list[Row], list[Row]], tuple[str, list[str], list[GameLine]]]


def style(rule_set: str) -> Explanation:
    """The shape of ``rule_set``'s explanation, as its record names it (``generic`` if not registered)."""
    record = REGISTRY.get(rule_set)
    return record.explanation if record is not None else "generic"


def family_for(rule_set: str) -> Explainer:
    """The function that explains ``rule_set``: the one of its record's shape (:func:`style`)."""
    return _FAMILIES[style(rule_set)]


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
            bonus = (r["bonus"], bonus_words(r["bonus_rule"]))
            bonuses[bonus] = bonuses.get(bonus, 0) + 1
    terms = [
        term(1.0 if win else -1.0, f"{number(c)}{TIMES}{number(p)}" + times(n))
        for (_, _, _, c, p, win), n in groups.items()
    ]
    terms += [term(b, f"{number(abs(b))}{times(n)} ({rule})") for (b, rule), n in bonuses.items()]
    terms += [
        term(a["points"], f"{number(abs(a['points']))} ({award_label(a)})") for a in awards if a["points"]
    ]
    total = sum(r["delta"] for r in rows) + sum(a["points"] for a in awards)
    workings = [
        _(
            "a win earns the opponent's coefficient × the game points, a loss costs one's own coefficient × "
            "the game points (slow 10, fast 5); coefficients are those of the ranks fixed at the previous "
            "computation"
        )
    ]
    workings += mismatch(rating, total, None)
    return equation(rating, terms, 6), workings, [_club_line(r) for r in rows]


def _club_line(r: Row) -> GameLine:
    if r["bonus_rule"] == "fixed rating":
        working = _("fixed rating: no change")
    elif r["score"] == 1:
        working = _("win: opponent's {coefficient}×{points} = {change}").format(
            coefficient=number(r["opponent_coefficient"]),
            points=number(r["game_points"]),
            change=signed(r["points"]),
        )
    elif r["score"] == 0:
        working = _("loss: own {coefficient}×{points} = {change}").format(
            coefficient=MINUS + number(r["coefficient"]),
            points=number(r["game_points"]),
            change=signed(r["points"]),
        )
    else:
        working = _("draw: 0")
    if r["bonus"] and r["bonus_rule"] != "fixed rating":
        working += _(", {bonus} ({rule})").format(bonus=signed(r["bonus"]), rule=bonus_words(r["bonus_rule"]))
    return game_line(r, optional_text(r.get("opponent_rank")), working)


def _gor(
    rule_set: str,
    rating: Row,
    rows: list[Row],
    awards: list[Row],
    promotions: list[Row],
    elo: bool = False,
    bonus: bool = False,
) -> tuple[str, list[str], list[GameLine]]:
    """The start plus each game's change (2 decimals); a note when the floor clipped the sum. ``elo``: the
    change is ``K × (result − We)``; ``bonus``: a bonus is added to it."""
    shown = [float(r["delta"]) for r in rows if round(r["delta"], 2)]
    terms = [term(d, number(abs(d), 2)) for d in shown]
    rule = _("K × (result − We)") if elo else _("con × (result − Se)")
    workings = [_("each game: change = {rule} × class weight × stage weight").format(rule=rule)]
    if bonus:
        workings[0] += _(" + bonus")
    record = REGISTRY.get(rule_set)
    floor = record.floor if record is not None else None
    notes = mismatch(rating, sum(r["delta"] for r in rows), floor, _(_EVENTS_APPLY))
    terms += [] if notes else rounding(rating, shown, 2)
    return equation(rating, terms, 2), workings + notes, [_gor_line(r, elo) for r in rows]


def _gor_line(r: Row, elo: bool) -> GameLine:
    se, con = ("We", "K") if elo else ("Se", "con")
    parts = [
        _("rating {own} vs {opponent}").format(
            own=number(r["rating_before"], 2), opponent=number(r["opponent_rating"], 2)
        )
    ]
    if (r["adjusted_rating"], r["opponent_adjusted_rating"]) != (r["rating_before"], r["opponent_rating"]):
        parts.append(
            _("adjusted {own} vs {opponent}").format(
                own=number(r["adjusted_rating"], 2), opponent=number(r["opponent_adjusted_rating"], 2)
            )
        )
    parts.append(f"{se} {number(r['se'], 4)}")
    if r.get("a") is not None:
        parts.append(f"a {number(r['a'], 2)}")
    parts.append(f"{con} {number(r['con'], 2)}")
    parts.append(
        _("class {event_class} {weight}").format(
            event_class=r["event_class"], weight=TIMES + number(r["class_weight"])
        )
    )
    parts.append(_("stage {weight}").format(weight=TIMES + number(r["stage_weight"])))
    formula = (
        f"{number(r['con'], 2)}{TIMES}({number(r['score'])} {MINUS} {number(r['se'], 4)})"
        f"{TIMES}{number(r['class_weight'])}{TIMES}{number(r['stage_weight'])} = {signed(r['points'], 2)}"
    )
    if r["bonus"]:
        formula += _(" + bonus {bonus}").format(bonus=number(r["bonus"], 2))
    if r.get("note"):
        note = said("note", str(r["note"]))
        formula = _("{note}: {change}").format(note=note, change=signed(r["delta"], 2))
    return game_line(r, None, _("{parts}: {formula}").format(parts=_(", ").join(parts), formula=formula))


def _cga_dan(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """The rating is the average of the points since the last promotion."""
    end = number(rating["rating"], 2)
    cut = _after_last_promotion(rows, promotions)
    run = rows[cut:]
    if not run and promotions:
        shown = _("{end} = the average of no games since the promotion to {rank}").format(
            end=end, rank=promotions[-1]["to_rank"]
        )
    elif not run:
        shown = _("{end} = {start} (no games in {period})").format(
            end=end, start=number(rating["rating_before"], 2), period=rating["period"]
        )
    else:
        games = int(run[-1]["games_since_promotion"])
        earlier = games - len(run)
        terms = [number(r["points"]) for r in run]
        if earlier:
            total = float(run[-1]["average_since_promotion"]) * games - sum(r["points"] for r in run)
            before = ngettext("{total} ({n} earlier game)", "{total} ({n} earlier games)", earlier)
            terms.insert(0, before.format(total=number(total, 2), n=earlier))
        summed = f"({' + '.join(terms)})" if len(terms) > 1 else terms[0]
        shown = f"{end} = {summed} / {games}"
    workings = [
        _(
            "points per game by the dan difference (段位赛记分标准); the rating is the average of the points "
            "since the last promotion"
        )
    ]
    return shown, workings, [_cga_dan_line(r) for r in rows]


def _cga_dan_line(r: Row) -> GameLine:
    working = _(
        "dan {dan} vs {opponent_dan} ({role}, difference {difference}): {points} points; {games} since "
        "the last promotion, average {average}"
    ).format(
        dan=r["dan"],
        opponent_dan=r["opponent_dan"],
        role=_role(r["role"]),
        difference=r["dan_difference"],
        points=number(r["points"]),
        games=n_games(int(r["games_since_promotion"])),
        average=number(r["average_since_promotion"], 2),
    )
    return game_line(r, f"{r['opponent_dan']}d", working, signed_points=False)


def _after_last_promotion(rows: list[Row], promotions: list[Row]) -> int:
    """The index in ``rows`` of the first game after the period's last promotion (0 with none); a
    promotion of no game (a manual award) comes after the games of its day. Days compare whatever
    they were read as (a date, or a timestamp at midnight)."""
    if not promotions:
        return 0
    last = promotions[-1]
    ids = [r["game_id"] for r in rows]
    if last.get("game_id") in ids:
        return ids.index(last["game_id"]) + 1
    day = _day(last["date"])
    return sum(1 for r in rows if _day(r["date"]) <= day)


def _day(value: dt.date) -> dt.date:
    """The day of ``value``, a date or a timestamp (pandas' too: a datetime)."""
    return value.date() if isinstance(value, dt.datetime) else value


def _tga(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """The rank before and after; the Article 8 criterion of each event."""
    before, after = rating.get("rank_before"), rating.get("rank")
    if promotions:
        move = _("→ {rank} ({rule})")
        moves = (move.format(rank=p["to_rank"], rule=said("rule", p["rule"])) for p in promotions)
        shown = f"{after} = {before} " + " ".join(moves)
    else:
        shown = _("{after} = {before} (no promotion in {period})").format(
            after=after, before=before, period=rating["period"]
        )
    events: dict[str, list[Row]] = {}
    for r in rows:
        if r["article8"]:
            events.setdefault(r["event"], []).append(r)
    workings = []
    for event, counted in events.items():
        value, n = sum(r["points"] for r in counted), len(counted)
        sign = "≥" if value >= 0.7 * n - 1e-9 else "<"
        parts = " + ".join(factor(r["points"]) for r in counted)
        games = ngettext("{n} valid game", "{n} valid games", n).format(n=n)
        line = _("{event}: Article 8, {games}: ").format(event=event, games=games)
        line += f"{eq_number(value, 6)} = {parts} {sign} 0.7 {TIMES} {n} = "
        promoted = any(p.get("event") == event and "article 8" in str(p.get("rule")) for p in promotions)
        workings.append(line + number(0.7 * n) + _article8_outcome(sign == "≥", promoted, n))
    return shown, workings, [_tga_line(r) for r in rows]


def _article8_outcome(met: bool, promoted: bool, n: int) -> str:
    """Why a met criterion gave no promotion (the criterion alone does not promote)."""
    if not met or promoted:
        return ""
    if n < 5:
        return _(" — not promoted: fewer than 5 valid games (4 count only after a bye or a forfeit win)")
    return _(" — not promoted: the event's games were not all completed, or 7d is the top by points")


def _tga_line(r: Row) -> GameLine:
    estimated = _(" (estimated)") if r["estimated_opponent"] else ""
    delta = r["delta_dan"]
    working = _("dan {dan} vs {opponent_dan}{estimated}, Δ {delta}: ").format(
        dan=number(r["dan"]),
        opponent_dan=number(r["opponent_dan"]),
        estimated=estimated,
        delta=eq_number(delta, 6),
    )
    if not r["article8"]:
        working += _("not an Article 8 game")
    elif r["score"] == 1:
        working += f"1 + 0.2{TIMES}{factor(delta)} = {number(r['points'])}"
    elif r["score"] == 0.5:
        working += f"0.5 + 0.1{TIMES}{factor(delta)} = {number(r['points'])}"
    else:
        working += "0"
    opponent = _("dan {dan}").format(dan=number(r["opponent_dan"])) + estimated
    return game_line(r, opponent, working, signed_points=False)


def _generic(
    rule_set: str, rating: Row, rows: list[Row], awards: list[Row], promotions: list[Row]
) -> tuple[str, list[str], list[GameLine]]:
    """Any other rule set: the start plus each game's change plus the awards."""
    deltas = [float(r["delta"]) for r in rows if round(r["delta"], 2)]
    terms = [term(d, number(abs(d), 2)) for d in deltas]
    terms += [
        term(a["points"], f"{number(abs(a['points']), 2)} ({award_label(a)})") for a in awards if a["points"]
    ]
    total = sum(r["delta"] for r in rows) + sum(a["points"] for a in awards)
    lines = [game_line(r, None, f"{signed(r['delta'], 2)}") for r in rows]
    notes = mismatch(rating, total, None)
    terms += [] if notes else rounding(rating, deltas + [float(a["points"]) for a in awards], 2)
    return equation(rating, terms, 2), notes, lines


#: The function of each shape of explanation.
_FAMILIES: Mapping[Explanation, Explainer] = {
    "club": _club,
    "gor": _gor,
    "gor-bonus": functools.partial(_gor, bonus=True),
    "elo": functools.partial(_gor, elo=True),
    "dan-points": _cga_dan,
    "rank": _tga,
    "generic": _generic,
}


#: The side a ``cga-dan`` game was played from (the changes' ``role``), in words.
_ROLES = {"stronger": N_("stronger"), "weaker": N_("weaker"), "equal": N_("equal")}


def _role(role: object) -> str:
    """A ``cga-dan`` role in the language spoken (an unknown one as it is)."""
    return _(_ROLES[role]) if isinstance(role, str) and role in _ROLES else str(role)
