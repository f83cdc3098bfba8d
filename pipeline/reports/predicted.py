"""predicted: one rule set's predictions of the games it rated, made period by period as it replays them.

:func:`predictions` replays an ingested source under one plan (:func:`pipeline.run.stream.replayed`)
and keeps, for every game the rule set counted and rated for both players that is decisive (``B`` or
``W`` won) and not a no-show, four numbers: its ``seq`` (the game's place in the source, the same under
every plan), whether Black won, the rating difference before it (Black − White) and the predicted
P(Black wins) (:mod:`pipeline.reports.forecast`): from the rule set's own ``se`` when its changes carry
one (the GoR family, cga, and any rule set that writes the expected score before the game there), else
from the expanding logistic fit, refitted for each calendar month of the game's date on the games of
earlier months. Nothing else of a period is kept once it is read: some 25 bytes a game.

Knows nothing of other rule sets, of the evaluation set or of the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.audit import pieces
from pipeline.core.progress import SILENT, Steps
from pipeline.reports import forecast
from pipeline.rules.replay import PeriodTables
from pipeline.run import Plan
from pipeline.run.stream import replayed

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Predictions:
    """One rule set's scored games in ``seq`` order: ``seq``, ``black_won`` (1.0 or 0.0), ``diff`` (the
    rating difference before the game, Black − White) and ``p`` (the predicted P(Black wins));
    ``predictor``: ``se`` or ``logistic``; ``rows``: every ``seq`` is below it."""

    seq: Ints
    black_won: Floats
    diff: Floats
    p: Floats
    predictor: str
    rows: int

    def __len__(self) -> int:
        return len(self.seq)


class Outcomes:
    """Whether Black won each decisive game that is not a no-show, by ``seq``: :meth:`add` each audited
    piece, then read :meth:`of` (1 Black won, 0 White won, -1 not scored). One byte a game."""

    def __init__(self) -> None:
        self.found = np.zeros(0, dtype=np.int8)

    def add(self, games: pa.Table) -> None:
        """Add an audited piece (its ``seq`` following the pieces before)."""
        winner = games["winner"]
        black = pc.fill_null(pc.equal(winner, "B"), False).to_numpy(zero_copy_only=False)
        white = pc.fill_null(pc.equal(winner, "W"), False).to_numpy(zero_copy_only=False)
        no_show = _noted(games["notes"], "no_show")
        outcome = np.where(black, 1, np.where(white, 0, -1)).astype(np.int8)
        outcome[no_show] = -1
        seq = games["seq"].to_numpy()
        grown = np.full(max(len(self.found), int(seq.max()) + 1 if len(seq) else 0), -1, dtype=np.int8)
        grown[: len(self.found)] = self.found
        grown[seq] = outcome
        self.found = grown

    def of(self, seq: Ints) -> npt.NDArray[np.int8]:
        """The outcome of each game of ``seq`` (-1 for one never added)."""
        inside = seq < len(self.found)
        return np.where(inside, self.found[np.where(inside, seq, 0)], -1).astype(np.int8)


def _noted(notes: pa.ChunkedArray, note: str) -> npt.NDArray[np.bool_]:
    """True for the rows whose list of notes holds ``note``."""
    lists = notes.combine_chunks()
    hit = pc.equal(pc.list_flatten(lists), note).to_numpy(zero_copy_only=False)
    found = np.zeros(len(lists), dtype=bool)
    found[pc.list_parent_indices(lists).to_numpy()[hit]] = True
    return found


class Predictor:
    """The predictions of one rule set made from its periods' ``changes`` in order (:meth:`add`), then
    :meth:`result`. ``expected``: the changes carry ``se``."""

    def __init__(self, expected: bool) -> None:
        self.expected = expected
        self.window = forecast.LogisticWindow()
        self.parts: list[tuple[Ints, Floats, Floats, Floats]] = []

    def add(self, changes: pa.Table, outcomes: Outcomes) -> None:
        """Predict the scored games of one period's ``changes`` (in the order of the periods)."""
        seq, black, white = _paired(changes)
        won = outcomes.of(seq)
        kept = won >= 0
        seq, y = seq[kept], won[kept].astype(np.float64)
        black, white = {k: v[kept] for k, v in black.items()}, {k: v[kept] for k, v in white.items()}
        diff = black["rating_before"] - white["rating_before"]
        if self.expected:
            p = forecast.from_expected(black["se"], white["se"])
        else:
            p = self._by_month(black["month"], diff, y)
        self.parts.append((seq, y, diff, p))

    def _by_month(self, month: Ints, diff: Floats, y: Floats) -> Floats:
        """The logistic fit's predictions, month by month (``month`` ascending: ``seq`` follows the date)."""
        p = np.empty(len(diff))
        for label in np.unique(month):
            now = month == label
            p[now] = self.window.predict(diff[now])
            self.window.add(diff[now], y[now])
        return p

    def result(self, rows: int) -> Predictions:
        """Every period's predictions, ``rows`` the source's (see :class:`Predictions`)."""
        empty = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0), np.zeros(0))
        seq, y, diff, p = (np.concatenate(part) for part in zip(empty, *self.parts, strict=True))
        predictor = "se" if self.expected else "logistic"
        return Predictions(seq.astype(np.int64), y, diff, forecast.clip(p), predictor, rows)


def _paired(changes: pa.Table) -> tuple[Ints, dict[str, Any], dict[str, Any]]:
    """The games of ``changes`` with a row for each colour, in ``seq`` order: their ``seq`` and, for
    Black and for White, ``rating_before``, ``month`` (months since 1970 of the date) and ``se`` (when
    the changes have it)."""
    wanted = ["rating_before", *(["se"] if "se" in changes.column_names else [])]
    sides = []
    for colour in ("B", "W"):
        rows = changes.filter(pc.equal(changes["color"], colour))
        found = {name: rows[name].to_numpy() for name in wanted}
        found["seq"] = rows["seq"].to_numpy()
        days = rows["date"].to_numpy().astype("datetime64[D]")
        found["month"] = days.astype("datetime64[M]").astype(np.int64)
        sides.append(found)
    seq, at_black, at_white = np.intersect1d(
        sides[0]["seq"], sides[1]["seq"], assume_unique=True, return_indices=True
    )
    black = {k: v[at_black] for k, v in sides[0].items() if k != "seq"}
    white = {k: v[at_white] for k, v in sides[1].items() if k != "seq"}
    return seq.astype(np.int64), black, white


class Listener(Protocol):
    """Reads more of the same replay (``ratings compare``'s standings): each audited piece, then each
    period's tables."""

    def audited(self, games: pa.Table) -> None: ...

    def rated(self, period: PeriodTables) -> None: ...


def predictions(
    plan_: Plan,
    source: pieces.Source,
    steps: Steps = SILENT,
    label: str | None = None,
    also: Sequence[Listener] = (),
) -> Predictions:
    """The predictions of ``plan_``'s rule set over ``source`` (an ingested source), replayed period by
    period (told to ``steps`` under ``label``), each audited piece and rated period handed to ``also``
    too."""
    outcomes = Outcomes()

    def seen(games: pa.Table) -> None:
        outcomes.add(games)
        for listener in also:
            listener.audited(games)

    predictor = Predictor("se" in plan_.rules.change_fields.names)
    with replayed(plan_, source, seen, steps, label) as replay:
        for period in replay.periods:
            predictor.add(period.tables["changes"], outcomes)
            for listener in also:
                listener.rated(period)
            del period
        rows = replay.rows
    return predictor.result(rows)
