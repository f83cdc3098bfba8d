"""reports.queries: which games of a finished output folder counted and why not, its standings at a
period's end or on a day, and the rule set's report tables, as pandas DataFrames (made when asked for:
importing this module imports no pandas, which ``audit --player`` and ``show --date`` do without).

Re-exported by :mod:`pipeline.reports` (the package's docstring says what these know and do not know).
Reads the output folder through :mod:`pipeline.output.folder`, and one player's games and changes
through its index by player (:mod:`pipeline.reports.player_rows`) when it has one; the standings on a
day are :mod:`pipeline.reports.asof`'s, the audit's rows :mod:`pipeline.reports.audit_query`'s. Knows
nothing of rendering.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.config.roster import Roster
from pipeline.core.activity import Span
from pipeline.core.i18n import _
from pipeline.core.provisional import Provisional
from pipeline.output import folder as outputs
from pipeline.output.folder import (
    ReportError,
    check_period,
    rated_periods,
)
from pipeline.reports import asof
from pipeline.reports.asof import DayStandings
from pipeline.reports.audit_query import audit_rows

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


def audit_games(
    out: Path,
    player: str | None = None,
    period: str | None = None,
    reasons: Sequence[str] | None = None,
    counted: bool | None = None,
    roster: Roster | None = None,
) -> pd.DataFrame:
    """Every game record in ``out`` that matches all the filters given, counted or not, in ``seq`` order.

    Args:
        out: an output folder written by ``ratings run``.
        player: a player name, resolved by :func:`resolve_player` (any spelling a record used, a rated
            name, a ``roster`` name or alias; case and width aside); a game matches when either side is
            that player, whichever spelling that game's record used.
        period: a period label (``2024-05``); records without a usable date have no period.
        reasons: reason codes (docs/rules.md ("Reason codes"), :data:`~pipeline.core.reasons.REASONS`); a game
            matches when one of them applies to it: it was excluded for it, or it was counted although the
            rule applies because the configuration counts such games (the code is then among its ``notes``).
        counted: True keeps the counted games only, False the games not counted (None: both).
        roster: the run's roster, for aliases no record used.

    Returns:
        One row per record, columns :data:`~pipeline.reports.audit_query.AUDIT_COLUMNS`:
        ``black``/``white`` the canonical names (the names as written when the run had none; None for
        a record that could not be parsed); ``source`` the file (``path#index`` for the second and
        later games of a collection); ``speed`` the speed class used and ``speed_known`` False when
        it was assumed; ``event`` the configured event's name, else the ``EV`` text, with
        ``event_listed`` saying which; ``reasons`` and ``notes`` lists of codes; ``parse_error`` the
        parser's message or None; ``changes`` a list of dicts (keys ``player color delta points bonus
        bonus_rule``, Black first) of what the game did to each rated player (empty for a game not
        counted); ``source_path`` and ``game_index`` the file and the game's place in it
        (0 for the first), as ``games.parquet`` has them.

    Raises:
        ReportError: if ``out`` holds no output, a reason is not a reason code (the message lists them),
            ``period`` is not a period of the run, or ``player`` names two players.
        UnknownPlayer: if ``player`` names no player (the message suggests close names).
    """
    return audit_rows(out, player, period, reasons, counted, roster).frame()


def standings(
    out: Path,
    period: str | None = None,
    top: int | None = None,
    provisional_games: int | None = None,
    everyone: bool = False,
) -> pd.DataFrame:
    """The ratings at the end of ``period`` (the latest rated period when None), best first: the active
    players (the run's ``[output] active_within``), or ``everyone``.

    Args:
        out: an output folder written by ``ratings run``.
        period: a rated period's label (``2024-05``).
        top: keep only the first ``top`` rows (None: every player).
        provisional_games: players with fewer counted games (all periods, ``games_total``) than this
            are ``provisional``; None: the run's ``[output] provisional_games`` (its manifest; 0, none
            provisional, for a run that does not say). Players whose deviation is above the run's
            ``[output] provisional_deviation`` are provisional too.
        everyone: list the inactive players too (``active`` False: no counted game within the run's
            ``[output] active_within`` before the period's end; their ``rating_place`` is null).

    Returns:
        Columns :data:`STANDINGS_COLUMNS`, one row per player listed, by rating (highest first, then
        name); ``rating_place`` is the place among the active players, shared by equal ratings
        (provisional players keep theirs). Empty when the run rated no period (and ``period`` is None).

    Raises:
        ReportError: if ``out`` holds no output, ``period`` is not a rated period of the run, or ``top``
            or ``provisional_games`` is less than 1 or 0.
    """
    return asof.frame(*standings_rows(out, period, top, provisional_games, everyone))


def standings_rows(
    out: Path,
    period: str | None = None,
    top: int | None = None,
    provisional_games: int | None = None,
    everyone: bool = False,
) -> tuple[pa.Table, int | None]:
    """:func:`standings` as an Arrow table (no pandas), with how many inactive players were left out
    (None: ``everyone``, or no standings). The arguments and errors are :func:`standings`'."""
    threshold = _threshold(out, top, provisional_games)
    rated = rated_periods(out)
    if period is None:
        if not rated:
            return asof.no_standings(), None
        period = rated[-1]
    check_period(period, rated, out)
    rows, inactive = asof.stored_rows(out, period, threshold, everyone)
    return (rows if top is None else rows.slice(0, top)), inactive


def standings_on(
    out: Path,
    day: dt.date,
    top: int | None = None,
    provisional_games: int | None = None,
    everyone: bool = False,
) -> DayStandings:
    """The standings on ``day``: of the period holding it, up to and including the day, when its ratings
    are the sum of its games' changes and awards; else of the latest period that ended by then
    (:func:`pipeline.reports.asof.standings_on` says how, and :class:`DayStandings` what comes back).

    ``top``, ``provisional_games`` and ``everyone`` as in :func:`standings` (a player is active on
    ``day`` with a counted game within the run's ``active_within`` before it). A day before the run's
    first rated game gives no period and no rows (``first_day`` says when that game was).

    Raises:
        ReportError: if ``out`` holds no output, or ``top`` or ``provisional_games`` is less than 1 or 0.
    """
    found = asof.standings_on(out, day, _threshold(out, top, provisional_games), everyone)
    return found if top is None else dataclasses.replace(found, rows=found.rows.slice(0, top))


def activity_span(out: Path) -> Span | None:
    """The run's ``[output] active_within`` (its manifest; None, everyone active, when it does not say)."""
    return asof.run_span(out)


def provisional_threshold(out: Path) -> int:
    """The run's ``[output] provisional_games`` (its manifest; 0, none provisional, when it does not say)."""
    return asof.run_threshold(out)


def provisional_rule(out: Path) -> Provisional:
    """The run's ``[output] provisional_games`` and ``provisional_deviation`` (its manifest; 0, off, for
    one it does not say)."""
    return asof.run_provisional(out)


def _threshold(out: Path, top: int | None, provisional_games: int | None) -> Provisional:
    """The provisional threshold to use (the run's when None). Raises ReportError if ``out`` holds no
    output, ``top`` is under 1 or ``provisional_games`` under 0."""
    outputs.require_output(out)  # the missing-output message, the same for every query
    if top is not None and top < 1:
        raise ReportError(_("--top must be 1 or more, got {top}").format(top=top))
    if provisional_games is not None and provisional_games < 0:
        raise ReportError(_("provisional_games must be 0 or more, got {n}").format(n=provisional_games))
    found = asof.run_provisional(out)
    return found if provisional_games is None else dataclasses.replace(found, games=provisional_games)


def rule_set_report(out: Path, name: str, top: int | None = None) -> pd.DataFrame:
    """A report table of the run, as written: ``promotions`` (with their evidence), ``fees`` or
    ``certification``, written by the rule sets of :data:`pipeline.reports.REPORT_RULE_SETS`.

    Args:
        out: an output folder written by ``ratings run``.
        name: a key of :data:`~pipeline.reports.REPORT_FILES`.
        top: keep only the first ``top`` rows (None: every row).

    Returns:
        The table of ``out/<REPORT_FILES[name]>``, its columns and row order as the rule set wrote them;
        the same under every rule set: no rows when there is nothing to report, also under a rule set
        that computes no such report (:func:`pipeline.output.folder.read_report`).

    Raises:
        ReportError: if ``out`` holds no output, ``name`` is not a report name or ``top`` is less than 1.
    """
    if top is not None and top < 1:
        raise ReportError(_("--top must be 1 or more, got {top}").format(top=top))
    from pipeline.reports.rule_sets import REPORT_FILES  # (every rule set's record: not for the others)

    table = outputs.read_report(out, name, REPORT_FILES)
    return table if top is None else table.head(top)
