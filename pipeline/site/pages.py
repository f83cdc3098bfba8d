"""site.pages: what each page of the club's site shows, read from a finished output folder.

:func:`collect` asks the query API (:mod:`pipeline.reports`: standings, every game with its reasons and
points, the rule set's reports, the manifest) once; the other functions turn its answer into the plain
rows the templates print (text cells, links as paths relative to the site's root). A player's page adds
:func:`pipeline.reports.explain.explain` of each period in which their rating or rank moved or they
played. Knows nothing of HTML (the templates), of writing files or charts (:mod:`pipeline.site.build`),
or of how the run rated.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from pipeline import reports
from pipeline.output import folder as outputs
from pipeline.reports import explain as explain_mod
from pipeline.reports.explain.terms import number, signed
from pipeline.rules.base import REASONS
from pipeline.site.slugs import period_file, slugs

#: Links of the site's pages, relative to its root.
Links = Mapping[str, str]


@dataclass(frozen=True, slots=True)
class SiteData:
    """The output folder ``out`` as the site shows it: ``periods`` the rated periods in time order with
    their ``standings``; ``games`` every record (:func:`pipeline.reports.audit_games`); ``players`` every
    name that played (sorted), ``rated`` the periods each has a ratings row in, ``active`` those in which
    they played or their rating or rank moved; ``reports`` the rule set's report tables by name."""

    out: Path
    rule_set: str
    manifest: dict[str, Any]
    periods: list[str]
    standings: dict[str, pd.DataFrame]
    games: pd.DataFrame
    players: list[str]
    rated: dict[str, list[str]]
    active: dict[str, list[str]]
    reports: dict[str, pd.DataFrame]


def collect(out: Path) -> SiteData:
    """Read everything the site shows from ``out``.

    Raises:
        ReportError: if ``out`` holds no output of ``ratings run``.
    """
    games = reports.audit_games(out)
    periods = reports.rated_periods(out)
    standings = {p: reports.standings(out, p) for p in periods}
    rated: dict[str, list[str]] = {}
    active: dict[str, list[str]] = {}
    for label, table in standings.items():
        moved = (table["games"] > 0) | (table["delta"] != 0) | (table["rank"] != table["rank_before"])
        for name, was_active in zip(table["player"], moved, strict=True):
            rated.setdefault(str(name), []).append(label)
            if was_active:
                active.setdefault(str(name), []).append(label)
    played = {str(n) for n in pd.concat([games["black"], games["white"]]).dropna()}
    rule_set = reports.run_rule_set(out)
    return SiteData(
        out=out,
        rule_set=rule_set,
        manifest=outputs.read_manifest(out),
        periods=periods,
        standings=standings,
        games=games,
        players=sorted(played | set(rated)),
        rated=rated,
        active=active,
        reports={
            n: reports.rule_set_report(out, n)
            for n, sets in reports.REPORT_RULE_SETS.items()
            if rule_set in sets
        },
    )


def player_links(data: SiteData) -> dict[str, str]:
    """Every player's page: name -> ``players/<slug>.html``."""
    return {name: f"players/{s}.html" for name, s in slugs(data.players).items()}


def period_links(data: SiteData) -> dict[str, str]:
    """Every rated period's standings page: label -> file (the latest also is ``index.html``)."""
    return {label: period_file(label) for label in data.periods}


def text(value: Any, places: int = 2) -> str:
    """A cell: numbers rounded to ``places`` (trailing zeros dropped), lists joined by commas, dates
    ISO, booleans yes/no, missing values empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number(value, places)
    if isinstance(value, list | tuple):
        return ", ".join(text(v, places) for v in value)
    if isinstance(value, dt.date | pd.Timestamp):
        return value.isoformat()[:10]
    return str(value)


def standings_rows(table: pd.DataFrame, links: Links) -> list[dict[str, Any]]:
    """The standings table's rows as text cells, ``link`` the player's page."""
    return [
        {
            "place": text(r["rating_place"]),
            "player": r["player"],
            "link": links.get(r["player"]),
            "rank": text(r["rank"]),
            "rating": text(r["rating"]),
            "delta": signed(float(r["delta"]), 2),
            "games": text(r["games"]),
            "record": f"{r['wins']}–{r['losses']}–{r['draws']}",
            "bonus": text(r["bonus"]),
            "member": text(bool(r["member"])),
        }
        for r in table.to_dict("records")
    ]


def points_text(change: Mapping[str, Any]) -> str:
    """``羽焰 +30`` or, with a bonus, ``羽焰 +30 (+10 team match win)``."""
    said = f"{change['player']} {signed(float(change['delta']), 2)}"
    if change["bonus"]:
        said += f" ({signed(float(change['bonus']), 2)} {change['bonus_rule'] or 'bonus'})"
    return said


def ledger_rows(games: pd.DataFrame, links: Links) -> list[dict[str, Any]]:
    """Every game as the ledger shows it: text cells, the players' links, and the values the filter
    reads (``names``, ``codes`` its reasons and notes, ``counted`` yes/no)."""
    rows = []
    for g in games.to_dict("records"):
        names = [text(n) for n in (g["black"], g["white"]) if text(n)]
        event = " · ".join(text(v) for v in (g["event"], g["stage"]) if text(v))
        rows.append(
            {
                "date": text(g["date"]),
                "period": text(g["period"]),
                "black": text(g["black"]),
                "white": text(g["white"]),
                "black_link": links.get(g["black"]),
                "white_link": links.get(g["white"]),
                "result": text(g["result"]),
                "event": event,
                "counted": text(bool(g["counted"])),
                "reasons": ", ".join(g["reasons"]),
                "notes": ", ".join(g["notes"]),
                "points": [points_text(c) for c in g["changes"]],
                "source": text(g["source"]),
                "error": text(g["parse_error"]),
                "names": names,
                "codes": " ".join(dict.fromkeys([*g["reasons"], *g["notes"]])),
            }
        )
    return rows


def reason_codes(games: pd.DataFrame) -> list[str]:
    """The reason codes that apply to some game (as a reason or a note), in the order of REASONS."""
    seen = {c for codes in (*games["reasons"], *games["notes"]) for c in codes}
    return [c for c in REASONS if c in seen]


def player_games(data: SiteData, name: str, links: Links) -> list[dict[str, Any]]:
    """Every game of ``name`` (counted or not) as their page shows it: their colour, the opponent and
    link, the result, counted, the reasons in words, the points the game gave them."""
    mine = data.games[(data.games["black"] == name) | (data.games["white"] == name)]
    rows = []
    for row, g in zip(ledger_rows(mine, links), mine.to_dict("records"), strict=True):
        colour = "B" if g["black"] == name else "W"
        opponent = g["white"] if colour == "B" else g["black"]
        own = [points_text(c) for c in g["changes"] if c["player"] == name]
        why = "; ".join(explain_mod.REASON_WORDS.get(c, c).format(cap=_cap(data)) for c in g["reasons"])
        rows.append(
            row
            | {"colour": colour, "opponent": text(opponent), "opponent_link": links.get(opponent)}
            | {"own_points": ", ".join(p.removeprefix(f"{name} ") for p in own), "why": why}
        )
    return rows


def explanations(data: SiteData, name: str) -> list[explain_mod.Explanation]:
    """The derivation of ``name``'s rating in each period they were active in, latest first."""
    return [explain_mod.explain(data.out, name, p) for p in reversed(data.active.get(name, []))]


def player_summary(data: SiteData, name: str) -> dict[str, Any] | None:
    """``name``'s row in the latest period's standings (text cells, with the ``period``), or None when
    they have no rating."""
    periods = data.rated.get(name)
    if not periods:
        return None
    table = data.standings[periods[-1]]
    row = standings_rows(table[table["player"] == name], {})[0]
    return row | {"period": periods[-1]}


def report_tables(data: SiteData, links: Links) -> list[dict[str, Any]]:
    """The rule set's reports: ``name``, ``columns`` and ``rows`` (lists of ``(text, link)`` cells, a
    link for a cell naming a player with a page)."""
    found = []
    for name, table in data.reports.items():
        columns = [str(c) for c in table.columns]
        rows = [
            [(text(v), links.get(v) if c == "player" else None) for c, v in zip(columns, r, strict=True)]
            for r in table.itertuples(index=False)
        ]
        found.append({"name": name, "columns": columns, "rows": rows})
    return found


def run_facts(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest's entries a reader of the rules page wants: the settings, the counts and the run's
    versions and periods (not its timings or paths)."""
    keep = ("rule_set", "package_version", "parser_version", "config_digest", "periods", "games", "counts")
    return {k: manifest[k] for k in keep if k in manifest}


def _cap(data: SiteData) -> str:
    try:
        return str(int(data.manifest["settings"]["validity"]["opponent_cap"]))
    except (KeyError, TypeError, ValueError):
        return "N"
