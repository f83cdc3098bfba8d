"""identity: who is who in an output folder: its players, and which of them are likely one person.

:func:`list_players` lists the players of an output (records, counted games, first and last dates,
declared ranks, spellings); :func:`suggest` finds likely same-person pairs and groups with their evidence
and a score (:mod:`~pipeline.reports.identity.suggest`): the same name after case and width folding, in
traditional and simplified Chinese (OpenCC), with a romanisation or a country code appended, a nickname
beside the name, the same opponents in the same weeks without ever meeting, the same declared rank;
:func:`roster_snippet` writes the groups as roster entries to review and paste. Nothing is ever merged:
the roster is the user's to change. Knows nothing of rule sets, ratings or the command line.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pipeline.config.roster import Roster
from pipeline.reports.identity.keys import KINDS, name_keys
from pipeline.reports.identity.records import PLAYER_COLUMNS, players, read_appearances
from pipeline.reports.identity.snippet import roster_snippet
from pipeline.reports.identity.suggest import (
    LIST_SCORE,
    MIN_SCORE,
    PAIR_COLUMNS,
    WEIGHTS,
    Suggestions,
    score,
    suggest,
    suggest_games,
)

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


def list_players(out: Path, roster: Roster | None = None) -> pd.DataFrame:
    """The players of the output folder ``out`` by name, columns :data:`PLAYER_COLUMNS`
    (:func:`pipeline.reports.identity.records.players`; ``roster`` gives ``roster_rank``).

    Raises:
        ReportError: if ``out`` holds no output.
    """
    return players(read_appearances(out), roster)
