"""identity: who is who in an output folder: its players, and which of them are likely one person.

:func:`list_players` lists the players of an output (records, counted games, first and last dates,
declared ranks, spellings); :func:`suggest` finds likely same-person pairs and groups with their evidence
and a score (:mod:`~pipeline.reports.identity.pairs`): the same name after case and width folding, in
traditional and simplified Chinese (OpenCC), with a romanisation or a country code appended, a nickname
beside the name, the same opponents in the same weeks without ever meeting, the same declared rank;
:func:`roster_snippet` writes the groups as roster entries to review and paste. Nothing is ever merged:
the roster is the user's to change. Knows nothing of rule sets, ratings or the command line.

The names are imported when first used (:mod:`pipeline.reports.lazy`): importing the package, for
:data:`MIN_SCORE` say, imports no pandas, OpenCC or pycountry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.reports import lazy

if TYPE_CHECKING:
    from pipeline.reports.identity.keys import KINDS, name_keys
    from pipeline.reports.identity.pairs import PAIR_COLUMNS, Suggestions, score, suggest, suggest_games
    from pipeline.reports.identity.records import PLAYER_COLUMNS, list_players
    from pipeline.reports.identity.snippet import roster_snippet
    from pipeline.reports.identity.weights import LIST_SCORE, MIN_SCORE, WEIGHTS

__all__ = [
    "KINDS",
    "LIST_SCORE",
    "MIN_SCORE",
    "PAIR_COLUMNS",
    "PLAYER_COLUMNS",
    "WEIGHTS",
    "Suggestions",
    "list_players",
    "name_keys",
    "roster_snippet",
    "score",
    "suggest",
    "suggest_games",
]

__getattr__ = lazy.exports(
    __name__,
    {
        "pipeline.reports.identity.keys": ("KINDS", "name_keys"),
        "pipeline.reports.identity.pairs": (
            "PAIR_COLUMNS",
            "Suggestions",
            "score",
            "suggest",
            "suggest_games",
        ),
        "pipeline.reports.identity.records": ("PLAYER_COLUMNS", "list_players"),
        "pipeline.reports.identity.snippet": ("roster_snippet",),
        "pipeline.reports.identity.weights": ("LIST_SCORE", "MIN_SCORE", "WEIGHTS"),
    },
)
