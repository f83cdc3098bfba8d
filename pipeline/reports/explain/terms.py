"""explain.terms: the numbers and lines of an explanation, written out.

Numbers rounded with trailing zeros dropped (:func:`number`), with a true minus sign where they stand
in an equation (:func:`eq_number`, :func:`signed`); the terms and the equation ``end = start + terms``;
the note when the terms do not add up to the run's rating; a counted game's :class:`GameLine`; one
line per award and promotion; the summary sentence. Takes records as the output tables hold them
(:data:`~pipeline.reports.explain.model.Row`). Knows nothing of the rule sets' shapes
(:mod:`pipeline.reports.explain.families`) or of reading the output folder (:mod:`pipeline.reports.explain`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from pipeline.core.i18n import _, ngettext
from pipeline.reports.explain.model import GameLine, Row
from pipeline.reports.rule_words import said

MINUS, TIMES = "−", "×"


def number(value: float, places: int = 6) -> str:
    """``value`` rounded to ``places`` decimals, trailing zeros dropped: 0.1, 10, 128, -11.07."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def eq_number(value: float, places: int) -> str:
    """:func:`number` with a true minus sign: ``−11.07``."""
    text = number(value, places)
    return MINUS + text[1:] if text.startswith("-") else text


def signed(value: float, places: int = 6) -> str:
    """``+30``, ``−5`` (a true minus sign), ``0``."""
    text = eq_number(value, places)
    return text if text == "0" or text.startswith(MINUS) else f"+{text}"


def factor(value: float) -> str:
    """``value`` as a factor or term: ``3``, ``(−3)``."""
    text = eq_number(value, 6)
    return f"({text})" if text.startswith(MINUS) else text


def term(sign: float, text: str) -> str:
    """``text`` as a term of an equation: `` + text``, or `` − text`` when ``sign`` is negative."""
    return f" {MINUS if sign < 0 else '+'} {text}"


def times(n: int) -> str:
    """``×n`` for a group of ``n`` identical games, nothing for one."""
    return f"{TIMES}{n}" if n > 1 else ""


def n_games(n: int) -> str:
    """``1 game``, ``3 games``."""
    return ngettext("{n} game", "{n} games", n).format(n=n)


def equation(rating: Row, terms: list[str], places: int) -> str:
    """``end = start + terms`` from a ratings row (negative numbers with a true minus sign)."""
    end, start = (eq_number(rating[k], places) for k in ("rating", "rating_before"))
    return f"{end} = {start}{''.join(terms)}"


def mismatch(rating: Row, total: float, floor: float | None, why: str = "") -> list[str]:
    """A note when start + ``total`` is not the rating the run wrote: the floor when the rating is
    at a known ``floor`` and the sum below it, else ``why`` (what else moves the rating) when given;
    empty when they agree to within 0.005."""
    start, end = float(rating["rating_before"]), float(rating["rating"])
    if abs(start + total - end) < 0.005:
        return []
    summed = number(start + total, 2)
    if floor is not None and abs(end - floor) < 0.005 and start + total < end:
        return [
            _("the terms sum to {sum}, but a rating never falls below {floor}: the floor clipped it").format(
                sum=summed, floor=number(floor)
            )
        ]
    return [
        _("the terms sum to {sum}, but the run's rating is {rating}").format(
            sum=summed, rating=number(end, 2)
        )
        + why
    ]


def rounding(rating: Row, shown: list[float], places: int) -> list[str]:
    """The term that makes an equation add up as printed: the start and the terms ``shown``, each
    rounded to ``places`` decimals, may miss the rounded end by a few hundredths; then the
    difference is a term of its own (`` + 0.01 (rounding)``). Empty when they add up."""
    start, end = (_rounded(float(rating[k]), places) for k in ("rating_before", "rating"))
    residue = _rounded(end - start - sum(_rounded(v, places) for v in shown), places)
    return (
        [term(residue, _("{value} (rounding)").format(value=number(abs(residue), places)))] if residue else []
    )


def _rounded(value: float, places: int) -> float:
    """``value`` rounded as :func:`number` writes it."""
    return float(f"{value:.{places}f}") + 0.0  # + 0.0: no negative zero


def game_line(r: Row, opponent_rank: str | None, working: str, signed_points: bool = True) -> GameLine:
    """The :class:`GameLine` of the changes row ``r``, its points signed (``+30``) when
    ``signed_points``, else as they are (``1.2``)."""
    result = {1.0: "win", 0.0: "loss"}.get(float(r["score"]), "draw")
    return GameLine(
        date=r["date"],
        opponent=str(r["opponent"]),
        opponent_rank=opponent_rank,
        color=str(r["color"]),
        result=result,
        speed=optional_text(r.get("speed")),
        event=optional_text(r.get("event")),
        points=float(r["delta"]),
        points_text=signed(r["delta"], 2) if signed_points else eq_number(r["delta"], 2),
        working=working,
    )


def award_label(award: Row) -> str:
    """What an awards row is for: ``champion, <event>``, ``runner-up, <event>``, or its note."""
    kind = {"champion": _("champion"), "runner_up": _("runner-up")}.get(str(award["kind"]))
    label = kind or (said("note", str(award["note"])) if award.get("note") else _("award"))
    return _("{label}, {event}").format(label=label, event=award["event"])


def award_line(award: Row) -> str:
    """An awards row in one line: date, signed points, label and note."""
    label = award_label(award)
    written = str(award["note"]) if award.get("note") else ""
    words = said("note", written) if written.replace("-", "_") != award["kind"] else ""
    note = _(": {note}").format(note=words) if words and not label.startswith(words) else ""
    return f"{_day(award['date'])} {signed(award['points'], 2)} ({label}){note}"


def _day(value: object) -> str:
    """A date as ``2024-08-17``: a timestamp's midnight is not shown."""
    text = str(value)
    return text[:10] if text.endswith(" 00:00:00") else text


def promotion_line(p: Row) -> str:
    """A promotions row in one line: ``date: from → to (rule): evidence``, the rule and the evidence
    in the language spoken (:mod:`pipeline.reports.rule_words`)."""
    rule, change = str(p["rule"]), f"{p.get('from_rank') or '?'} → {p['to_rank']}"
    evidence = said("evidence", str(p["evidence"]), rule)
    return _("{date}: {change} ({rule}): {evidence}").format(
        date=_day(p["date"]), change=change, rule=said("rule", rule), evidence=evidence
    )


def summary(style: str, name: str, period: str, rating: Row, excluded: int) -> str:
    """The explanation in one sentence: how the rating (the rank when the explanation's ``style`` is
    ``rank``: :data:`pipeline.rules.family.Explanation`) moved (to ``rating ± 2·deviation`` under a rule set
    with a deviation), the tally of counted games from the ratings row, and how many were ``excluded``."""
    before, after = rating.get("rank_before"), rating.get("rank")
    if style == "rank":
        moved = _("{name} was {before} at the start of {period} and {after} at its end")
    elif style == "dan-points":
        moved = _(
            "{name} ({before}) began {period} with an average since the last promotion of {start} and ended "
            "it at {end} ({after})"
        )
    else:
        moved = _("{name} ({before}) began {period} with rating {start} and ended it at {end} ({after})")
    start, end = number(rating["rating_before"], 2), number(rating["rating"], 2)
    deviation = rating.get("deviation")
    if style != "rank" and deviation is not None and not missing(deviation):  # rating ± 2·deviation
        end = f"{end} ± {number(2 * float(deviation), 2)}"
    moved = moved.format(name=name, before=before, after=after, period=period, start=start, end=end)
    games = int(rating["games"])
    tally = ngettext(
        "{n} counted game: {wins} won, {losses} lost", "{n} counted games: {wins} won, {losses} lost", games
    ).format(n=games, wins=rating["wins"], losses=rating["losses"])
    if rating["draws"]:
        tally = _("{tally}, {draws} drawn").format(tally=tally, draws=rating["draws"])
    return _("{moved}; {tally}; {excluded} not counted.").format(moved=moved, tally=tally, excluded=excluded)


def missing(value: Any) -> bool:
    """Whether ``value`` is None, NaN or pandas' NaT (a datetime unequal to itself, as NaN is)."""
    return value is None or (isinstance(value, float | dt.datetime) and value != value)


def optional_text(value: Any) -> str | None:
    """``value`` as text, None when missing."""
    return None if missing(value) else str(value)
