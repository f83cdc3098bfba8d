"""site.boards: the leaderboards pages, from ``leaderboards/`` as the run wrote it.

One page per board period (a rating period, or a calendar year under scope ``year``), with the first
:data:`TOP` of each board: most games, most wins, best win rate (players with enough games only) and
longest winning streak; ``leaderboards.html`` is the latest period's. Each partition is read once.
Knows nothing of how the boards are computed (:mod:`pipeline.boards.leaderboards`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.i18n import N_, gettext
from pipeline.core.progress import SILENT, Steps
from pipeline.output import folder as outputs
from pipeline.reports.explain.terms import number
from pipeline.site.periods import Picker
from pipeline.site.slugs import period_file
from pipeline.site.source import Source, partition

#: The players shown on each board.
TOP = 10
#: (title, place column, value column, how the value is written, the value's heading) of each board.
BOARDS = (
    (N_("Most games"), "games_place", "games", "{:d}", N_("games")),
    (N_("Most wins"), "wins_place", "wins", "{:d}", N_("wins")),
    (N_("Best win rate"), "win_rate_place", "win_rate", "pct", N_("win rate")),
    (N_("Longest winning streak"), "streak_place", "longest_streak", "{:d}", N_("longest streak")),
)
Write = Callable[[str, str, dict[str, Any]], None]
INDEX = "leaderboards.html"


def board_file(label: str) -> str:
    """The page of the boards of ``label``: ``boards/2024-05.html``."""
    return "boards/" + period_file(label).removeprefix("period-")


def write_boards(source: Source, links: Mapping[str, str], write: Write, steps: Steps = SILENT) -> int:
    """Every board period's page and ``leaderboards.html`` (the latest) through ``write``; return the
    number of pages."""
    labels = sorted(outputs.partition_labels(source.out, "leaderboards"))  # 2024 before 2024-01: by first day
    files = {label: board_file(label) for label in labels}
    written = 0
    pick = Picker(labels, files, "")  # no page of every board period: the picker and its steps reach them
    context: dict[str, Any] = {
        "section": "leaderboards",
        "period": None,
        "boards": [],
        "picker": None,
        "scope": "",
    }
    with steps.step(gettext("writing leaderboards"), total=len(labels)) as advance:
        for label in labels:
            table = partition(source.out, "leaderboards", label)
            year = (
                table is not None
                and table.num_rows > 0
                and bool(pc.all(pc.equal(table.column("scope"), "year")).as_py())
            )
            context = {
                "section": "leaderboards",
                "period": label,
                "scope": "year" if year else "period",
                "boards": boards(table, links, "../"),
                "picker": pick(label, "../"),
            }
            write(files[label], "leaderboards.html.j2", context | {"root": "../"})
            written += 1
            advance(1)
    latest = dict(context) | {"picker": pick(context["period"], "") if labels else None}
    if latest["boards"]:
        latest["boards"] = [
            b | {"rows": [r | {"link": _up(r["link"])} for r in b["rows"]]} for b in latest["boards"]
        ]
    write(INDEX, "leaderboards.html.j2", latest | {"root": ""})
    return written + 1


def _up(link: str | None) -> str | None:
    return link.removeprefix("../") if link else link


def boards(table: pa.Table | None, links: Mapping[str, str], root: str) -> list[dict[str, Any]]:
    """The boards of one period's rows: ``title``, ``column`` (what is counted), ``column_words`` (its
    heading in the language) and ``rows`` (place, player, link, value, games), the first :data:`TOP`
    places of each."""
    found = []
    for title, place, value, shape, heading in BOARDS:
        rows: list[dict[str, Any]] = []
        if table is not None and table.num_rows:
            chosen = table.filter(pc.is_valid(table.column(place)))
            rows = chosen.sort_by([(place, "ascending"), ("player", "ascending")]).slice(0, TOP).to_pylist()
        found.append(
            {
                "title": gettext(title),
                "column": value.replace("_", " "),
                "column_words": gettext(heading),
                "rows": [
                    {
                        "place": int(r[place]),
                        "player": r["player"],
                        "link": root + links[r["player"]] if r["player"] in links else None,
                        "value": f"{number(100 * float(r[value]), 1)}%"
                        if shape == "pct"
                        else shape.format(int(r[value])),
                        "games": int(r["games"]),
                    }
                    for r in rows
                ],
            }
        )
    return found
