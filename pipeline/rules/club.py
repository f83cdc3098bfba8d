"""rules.club: the club proposal's points system (docs/rules.md ("club")), the default rule set.

Monthly. Every game of the month uses the ranks fixed at the previous computation; a win earns
the opponent's coefficient times the game points (slow 10, fast 5), a loss costs the player's own
coefficient times the game points; bonus points come from configured events; after the month the
rank floats to the highest whose base score the rating reaches. Knows nothing of SGF or files.

Decisions (the proposal is silent; docs/rules.md ("club"), "Decisions"): a player with no declared
rank and none in the record starts "below 5k" (0); a counted draw (only if the configuration counts
draws) gives 0 points; the arena streak runs across months within one event; professional ranks are
"above 5d".
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from pipeline.config.toml import Table
from pipeline.core.ranks import Rank
from pipeline.core.reasons import Validity
from pipeline.core.schema import described as _f
from pipeline.core.standings import PlayerState
from pipeline.rules.base import AwardGiven, Change, Context, DueAward, Game, PeriodOutcome, RosterRules, noted
from pipeline.rules.family import Family, Scale

#: (label, base score, coefficient), from the lowest rank up (the club proposal's internal rank table).
TABLE: tuple[tuple[str, float, float], ...] = (
    ("below 5k", 0, 0.05),
    ("5k", 10, 0.1),
    ("4k", 30, 0.3),
    ("3k", 50, 0.5),
    ("2k", 70, 0.7),
    ("1k", 90, 0.9),
    ("1d", 100, 1),
    ("2d", 200, 2),
    ("3d", 300, 3),
    ("4d", 400, 4),
    ("5d", 500, 5),
    ("above 5d", 1000, 10),
)
_BASE = {label: base for label, base, _ in TABLE}
_COEFFICIENT = {label: coefficient for label, _, coefficient in TABLE}
_BASES = tuple(base for _, base, _ in TABLE)
GAME_POINTS = {"slow": 10.0, "fast": 5.0}
#: Bonus per win by event kind; the arena adds ARENA_STEP for each further consecutive win.
WIN_BONUS = {"team_match": 10.0, "arena": 10.0, "server_open": 20.0}
#: The ``extra`` of every player with no arena run going: one object shared by all of them (a state's
#: ``extra`` is never changed, only replaced), not two dicts a player (docs/design.md#club-state).
NO_RUNS: Mapping[str, dict[str, int]] = {"arena": {}}
QUALIFIER_WIN, MAIN_STAGE_WIN, ARENA_STEP = 10.0, 50.0, 5.0
TITLE_BONUS = {"champion": 500.0, "runner_up": 100.0}
TITLE_KINDS = frozenset({"server_qualifiers", "server_open"})
DEFAULTS = Validity()


def club_rank(rank: Rank | None) -> str:
    """The internal rank label for a declared or recorded rank (None: "below 5k")."""
    if rank is None or (rank.kind == "k" and rank.value > 5):
        return "below 5k"
    if rank.kind == "k":
        return f"{rank.value}k"
    return f"{rank.value}d" if rank.kind == "d" and rank.value <= 5 else "above 5d"


def rank_for_rating(rating: float) -> str:
    """The highest rank whose base score is at most ``rating`` ("below 5k" under 10, negative or NaN)."""
    above = bisect_right(_BASES, rating) if rating == rating else 0  # NaN reaches no base score
    return TABLE[above - 1 if above else 0][0]


def coefficient(label: str) -> float:
    """The coefficient of an internal rank label. Raises KeyError if ``label`` is not in :data:`TABLE`."""
    return _COEFFICIENT[label]


def start_rating(rank: Rank | None) -> float:
    """The base score of a rank (docs/rules.md ("club"), internal ranks): the rating it starts at."""
    return _BASE[club_rank(rank)]


def build(context: Context, params: Table) -> ClubRules:
    """The rule set for the registry. Raises ConfigError if ``[rules]`` holds any key (it takes none)."""
    params.check_keys(())
    return ClubRules(context)


#: The record (:mod:`pipeline.rules.family`). Club points start at 0 to 1000, may go negative and have no
#: top: the roster's ratings are plausible from -1000 to 5000. They are exact multiples of 0.25 (coefficient
#: 0.05 x 5 game points at the least) and mostly whole: written without trailing zeros.
FAMILY = Family(
    "club",
    build,
    DEFAULTS,
    "the 飞扬 Go club's monthly points (2004): a win earns the opponent's rank coefficient times the "
    "game's points (slow 10, fast 5), a loss costs one's own; ranks float with the rating; team matches, "
    "arenas and server events give bonus points",
    scale=Scale("club", "club", -1000.0, 5000.0, start_rating),
    trim=True,
    explanation="club",
)


class ClubRules(RosterRules):
    """The ``club`` rule set. Configured once with the run's context; :meth:`rate_period` is pure."""

    name = "club"
    report_columns: tuple[str, ...] = ()
    change_fields = pa.schema(
        [
            _f("rank", pa.string(), "the player's rank the game was rated at"),
            _f("coefficient", pa.float64(), "the coefficient of that rank (a loss costs it x game_points)"),
            _f("opponent_rank", pa.string(), "the opponent's rank the game was rated at"),
            _f(
                "opponent_coefficient",
                pa.float64(),
                "the coefficient of that rank (a win earns it x game_points)",
            ),
            _f("game_points", pa.float64(), "points of a game of its speed: slow 10, fast 5"),
        ]
    )

    def rate_period(
        self, period: str, games: Sequence[Game], awards: Sequence[DueAward], state: Mapping[str, PlayerState]
    ) -> PeriodOutcome:
        """Rate one month: see the module docstring. ``period`` is only a label here."""
        month = _Month(self, state)
        changes = [c for game in games for c in month.rate(game)]
        given = [month.award(due) for due in awards]
        end = month.close(given)
        return PeriodOutcome(month.before, end, changes, given)

    def reports(self, changes: pa.Table, promotions: pa.Table) -> dict[str, pa.Table]:
        """The club has no report tables of its own (leaderboards are every rule set's)."""
        return {}

    def newcomer(self, name: str, recorded: Rank | None) -> PlayerState:
        """The state of a player first seen now: the roster's declared rank (its base score, or the
        roster's ``rating``); a roster ``rating`` without a rank gives the rank that rating reaches;
        else the rank ``recorded``."""
        declared, player = self.declared(name)
        rating = player.rating if player is not None else None
        if declared is None and rating is not None:
            label = rank_for_rating(rating)
        else:
            label = club_rank(declared or recorded)
        start = rating if rating is not None else _BASE[label]
        return PlayerState(start, label, fixed=player is not None and player.fixed)


#: (the ``changes`` detail, points of a win, points of a loss) for one (own rank, opponent's rank, speed).
_Terms = tuple[dict[str, Any], float, float]


class _Month:
    """The working ledger of one :meth:`ClubRules.rate_period` call: standings at the start (read,
    never copied: docs/design.md#club-state), the newcomers as they appear, the arena streaks
    (carried in ``PlayerState.extra``), each player's points and games so far this month, and the
    :data:`_Terms` of each pair of ranks and speed met this month (computed once; the ``detail`` dicts
    are shared by the changes, read-only)."""

    def __init__(self, rules: ClubRules, start: Mapping[str, PlayerState]) -> None:
        self.rules, self.start = rules, start
        self.new: dict[str, PlayerState] = {}  # the newcomers, in the order they came
        self.before: dict[str, PlayerState] = {}  # after close(): the start states of those who moved
        self.streaks: dict[str, dict[str, int]] = {}  # filled from ``extra`` as players play in an arena
        self.gained: dict[str, float] = {}
        self.played: dict[str, int] = {}
        self.terms: dict[tuple[str, str, str], _Terms] = {}

    def rate(self, game: Game) -> list[Change]:
        """The changes ``game`` makes to its rated players (none for an unrated side)."""
        black, white = game.black, game.white
        own_black = self.enter(black, game.black_rank) if game.black_rated else None
        own_white = self.enter(white, game.white_rank) if game.white_rated else None
        changes = []
        if own_black is not None:
            their = own_white.rank if own_white is not None else club_rank(game.white_rank)
            changes.append(self._change(game, "B", (black, white), own_black, their))
        if own_white is not None:
            their = own_black.rank if own_black is not None else club_rank(game.black_rank)
            changes.append(self._change(game, "W", (white, black), own_white, their))
        return changes

    def _change(
        self, game: Game, color: str, players: tuple[str, str], own: PlayerState, their: str
    ) -> Change:
        """The change of ``color``'s player (``players``: they and their opponent; ``own``: their state
        at the month's start; ``their``: the opponent's rank label), counted in their month's points."""
        player, opponent = players
        winner = game.winner
        score = 0.5 if winner == "draw" else float(winner == color)
        key = (own.rank, their, game.speed)
        detail, win, loss = self.terms.get(key) or self._terms(key)
        points = win if score == 1 else loss if score == 0 else 0.0
        bonus, rule = (0.0, None) if game.event is None else self._bonus(game, player, score)
        if own.fixed:  # a reference player: the game moves the opponent, never them
            points, bonus, rule = 0.0, 0.0, "fixed rating"
        self.gained[player] = self.gained.get(player, 0.0) + (points + bonus)
        self.played[player] = self.played.get(player, 0) + 1
        return Change(game.game_id, player, opponent, color, score, own.rating, points, bonus, rule, detail)

    def _terms(self, key: tuple[str, str, str]) -> _Terms:
        """The :data:`_Terms` of ``key`` (own rank, opponent's rank, speed), remembered for the month.
        Raises KeyError if the speed is not one of :data:`GAME_POINTS`."""
        own_rank, their, speed = key
        game_points = GAME_POINTS[speed]
        own_coefficient, their_coefficient = _COEFFICIENT[own_rank], _COEFFICIENT[their]
        detail = {
            "rank": own_rank,
            "coefficient": own_coefficient,
            "opponent_rank": their,
            "opponent_coefficient": their_coefficient,
            "game_points": game_points,
        }
        win = _points(1.0, own_coefficient, their_coefficient, game_points)
        found = self.terms[key] = (detail, win, _points(0.0, own_coefficient, their_coefficient, game_points))
        return found

    def enter(self, name: str, recorded: Rank | None) -> PlayerState:
        """``name``'s state at the month's start, adding a newcomer from ``recorded`` if needed."""
        found = self.start.get(name) or self.new.get(name)
        if found is None:
            found = self.new[name] = self.rules.newcomer(name, recorded)
            self.streaks[name] = {}
        return found

    def streak(self, name: str) -> dict[str, int]:
        """``name``'s arena runs by event (copied from their start state the first time)."""
        found = self.streaks.get(name)
        if found is None:
            state = self.start.get(name) or self.new[name]
            found = self.streaks[name] = dict(state.extra.get("arena", {}))
        return found

    def _bonus(self, game: Game, player: str, score: float) -> tuple[float, str | None]:
        event = game.event
        if event is None:
            return 0.0, None
        if event.kind == "arena":
            return self._arena(event.name, player, score, game.streak_reset)
        if score != 1:
            return 0.0, None
        if event.kind == "server_qualifiers":
            qualifier = game.stage == "qualifier"
            return (QUALIFIER_WIN, "qualifier win") if qualifier else (MAIN_STAGE_WIN, "main-stage win")
        bonus = WIN_BONUS.get(event.kind, 0.0)
        return (bonus, f"{event.kind.replace('_', ' ')} win") if bonus else (0.0, None)

    def _arena(
        self, event: str, player: str, score: float, reset: frozenset[str]
    ) -> tuple[float, str | None]:
        """The k-th consecutive win in an arena earns 10 + 5(k-1); a loss or a draw ends the run, also
        one the club does not count (``reset``: see :attr:`Game.streak_reset`)."""
        streak = self.streak(player)
        before = 0 if player in reset else streak.get(event, 0)
        run = before + 1 if score == 1 else 0
        streak[event] = run
        if not run:
            return 0.0, None
        return WIN_BONUS["arena"] + ARENA_STEP * (run - 1), f"arena win {run} in a row"

    def award(self, due: DueAward) -> AwardGiven:
        """The points ``due`` gives: titles of server events, or a manual award's points; none to a
        player the club does not rate (not a member). A title worth nothing says why in its note."""
        award, rated = self.rules.awarded(due)
        points = due.award.points or 0.0
        why = None
        if due.kind in TITLE_BONUS:
            points = TITLE_BONUS[due.kind] if due.event_kind in TITLE_KINDS else 0.0
            why = None if points else f"no points for a {due.event_kind} title"
        if points and not rated:
            points, why = 0.0, "not a member, not rated"
        if points and self.enter(award.player, None).fixed:
            points, why = 0.0, "fixed rating"
        return AwardGiven(noted(award, why) if why else award, due.kind, points)

    def close(self, awards: list[AwardGiven]) -> dict[str, PlayerState]:
        """The standings at the month's end, after its games and then ``awards``: ratings moved, ranks
        floated, streaks carried. A player with no game and no award this month is carried as is (their
        rank already floated); so is one not rated (an award to a non-member). Fills :attr:`before`
        with the newcomers and the start state of every player who moved."""
        gained, played = self.gained, self.played
        for award in awards:
            gained[award.award.player] = gained.get(award.award.player, 0.0) + award.points
        end = {**self.start, **self.new}  # every player in start order, then the newcomers
        self.before = dict(self.new)
        for name, amount in gained.items():
            state = end.get(name)  # (still the start state: each name moves once)
            if state is not None:
                self.before[name] = state
                end[name] = self._closed(name, state, amount, played.get(name, 0))
        return end

    def _closed(self, name: str, state: PlayerState, gained: float, played: int) -> PlayerState:
        """``state`` after the month: rating moved by ``gained``, rank floated (unless fixed)."""
        rating = state.rating if state.fixed else round(state.rating + gained, 6)  # no 99.99999 at an edge
        rank = state.rank if state.fixed else rank_for_rating(rating)
        kept = state.extra  # no arena game this month: the streaks it holds, as they are (read-only)
        same = name not in self.streaks and kept.keys() == {"arena"} and type(kept["arena"]) is dict
        runs = self.streak(name) if not same else kept["arena"]
        extra = kept if same else {"arena": runs} if runs else NO_RUNS  # (one dict for 10^6 players)
        return PlayerState(rating, rank, state.games_total + played, state.fixed, extra)


def _points(score: float, own: float, their: float, game_points: float) -> float:
    """Win: the opponent's coefficient x game points; loss: minus one's own; a draw: 0."""
    if score == 1:
        return round(their * game_points, 6)
    return round(-own * game_points, 6) if score == 0 else 0.0
