"""identity.pairs: likely same-person pairs of an output folder, each with its evidence and a score.

The score is a noisy-or of the evidence's weights (:mod:`~pipeline.reports.identity.weights`; co-opponents
weigh by their overlap), lowered when the declared ranks differ, and 0 when the two played each other:
such a pair is listed with that evidence against it, and never grouped. A pair is a candidate by its names
or by its co-opponents (:mod:`pipeline.reports.identity.evidence`); the same rank only adds to a
candidate. Groups are the connected pairs of at least ``min_score`` that never met. The weights are
judgement, not measurement: a person reviews every suggestion. Knows nothing of how the roster file is
written (:mod:`pipeline.reports.identity.snippet`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from pipeline.config.roster import Roster, name_key
from pipeline.core.i18n import N_, _, ngettext
from pipeline.output.folder import read_games
from pipeline.reports.identity import evidence, records
from pipeline.reports.identity.weights import CO_WEIGHT, LIST_SCORE, MIN_SCORE, RANK_DIFFERS, WEIGHTS

#: The columns of :attr:`Suggestions.pairs`, in order.
PAIR_COLUMNS = ("group", "a", "b", "score", "evidence", "against", "kinds", "games_a", "games_b", "met")
_NAME_TEXT = {
    "case_width": N_("the same name in another case or width"),
    "script": N_("the same name in traditional and simplified Chinese"),
    "tail": N_("the same name with an appended part removed"),
    "nickname": N_("a nickname beside the name"),
    "romanisation": N_("the pinyin of the name"),
}


@dataclass(frozen=True, slots=True)
class Suggestions:
    """What :func:`suggest` found.

    ``pairs``: columns :data:`PAIR_COLUMNS`, best score first: ``group`` the number (from 1) of the
    group both players are in, 0 when they are not in one (pairs of ``min_score`` or more that
    never met make the groups; a pair that met scores 0); ``evidence`` and ``against``
    lists of sentences; ``kinds`` the evidence codes (:data:`~pipeline.reports.identity.keys.KINDS`,
    ``co_opponents``, ``same_rank``, and against: ``met``, ``ranks_differ``); ``met`` the records of a
    game between them. ``groups``: the players of each group (the first the one to keep, see
    :func:`keeper`). ``players``: :func:`pipeline.reports.identity.records.players`. ``skipped``: the
    buckets too crowded to pair (columns :data:`~pipeline.reports.identity.evidence.SKIPPED_COLUMNS`).
    """

    pairs: pd.DataFrame
    groups: tuple[tuple[str, ...], ...]
    players: pd.DataFrame
    skipped: pd.DataFrame


def suggest(
    out: Path,
    roster: Roster | None = None,
    min_score: float = MIN_SCORE,
    list_score: float = LIST_SCORE,
    max_bucket: int = evidence.MAX_BUCKET,
) -> Suggestions:
    """Likely same-person pairs and groups among the players of the output folder ``out``: see
    :func:`suggest_games`, on ``out``'s games table.

    Raises:
        ReportError: if ``out`` holds no output.
    """
    games = read_games(out, columns=records.READ_COLUMNS)
    return suggest_games(games, roster, min_score, list_score, max_bucket)


def suggest_games(
    games: pd.DataFrame,
    roster: Roster | None = None,
    min_score: float = MIN_SCORE,
    list_score: float = LIST_SCORE,
    max_bucket: int = evidence.MAX_BUCKET,
) -> Suggestions:
    """Likely same-person pairs and groups among the players of ``games``.

    Args:
        games: a games table with the :data:`~pipeline.reports.identity.records.READ_COLUMNS` (rows of
            :func:`~pipeline.output.folder.read_games`).
        roster: the run's roster: its aliases are spellings too, its declared ranks count, and a group
            keeps its roster player's name (None: the records only).
        min_score: the least score of a pair that joins a group.
        list_score: pairs under it (or under ``min_score``, when lower) are left out, unless they met
            (listed with that against them).
        max_bucket: see :mod:`pipeline.reports.identity.evidence`.
    """
    seen = records.appearances(games)
    listed = records.players(seen, roster)
    names, skipped_names = evidence.name_pairs(_spellings(seen, listed, roster), max_bucket)
    co, skipped_co = evidence.co_opponents(seen, max_bucket=max_bucket)
    pairs = _scored(_candidates(names, co, evidence.meetings(seen)), listed)
    pairs = pairs[(pairs["score"] >= min(min_score, list_score)) | (pairs["met"] > 0)]
    found = groups(pairs[(pairs["score"] >= min_score) & (pairs["met"] == 0)], listed, roster)
    skipped = pd.concat([skipped_names, skipped_co], ignore_index=True)
    return Suggestions(_with_groups(pairs, found), found, listed, skipped)


def _spellings(seen: pd.DataFrame, listed: pd.DataFrame, roster: Roster | None) -> pd.DataFrame:
    """(player, spelling): the records' spellings, the names, and the roster's names and aliases of the
    listed players."""
    extra = [
        (entry.name, spelling)
        for entry in (roster.players if roster is not None else ())
        if entry.name in set(listed["player"])
        for spelling in (entry.name, *entry.aliases)
    ]
    frames = [
        seen[["player", "spelling"]],
        pd.DataFrame({"player": listed["player"], "spelling": listed["player"]}),
    ]
    frames.append(pd.DataFrame(extra, columns=["player", "spelling"]))
    return pd.concat(frames, ignore_index=True).drop_duplicates(ignore_index=True)


def _candidates(names: pd.DataFrame, co: pd.DataFrame, met: pd.DataFrame) -> pd.DataFrame:
    """Every pair with name or co-opponent evidence, with both, and ``met`` (0 when never)."""
    pairs = names.merge(co, on=["a", "b"], how="outer").merge(met, on=["a", "b"], how="left")
    pairs["met"] = pairs["met"].fillna(0).astype(int)
    return pairs.reset_index(drop=True)


def _scored(pairs: pd.DataFrame, listed: pd.DataFrame) -> pd.DataFrame:
    """``pairs`` with the :data:`PAIR_COLUMNS` but ``group``, best score first."""
    info = listed.set_index("player")
    rows = [_judged({str(k): v for k, v in row.items()}, info) for row in pairs.to_dict("records")]
    frame = pd.DataFrame(rows, columns=[c for c in PAIR_COLUMNS if c != "group"])
    return frame.sort_values(["score", "a", "b"], ascending=[False, True, True], ignore_index=True)


class Finding(NamedTuple):
    """One piece of evidence about a pair: its code (``kinds``), its weight for the pair (0 for
    evidence against), its sentence, and the factor it puts on the score (1 for evidence for)."""

    kind: str
    weight: float
    sentence: str
    factor: float = 1.0


def _judged(pair: dict[str, Any], info: pd.DataFrame) -> dict[str, Any]:
    """One pair's score, evidence, against and kinds (``info``: the players table by name)."""
    a, b = info.loc[pair["a"]], info.loc[pair["b"]]
    found = [*_candidate_findings(pair), *_rank_findings(_declared(a), _declared(b)), *_met_findings(pair)]
    factor = math.prod(f.factor for f in found)
    return {
        "a": pair["a"],
        "b": pair["b"],
        "score": round(score([f.weight for f in found]) * factor, 2),
        "evidence": [f.sentence for f in found if f.factor == 1.0],
        "against": [f.sentence for f in found if f.factor != 1.0],
        "kinds": [f.kind for f in found],
        "games_a": int(a["games"]),
        "games_b": int(b["games"]),
        "met": int(pair["met"]),
    }


def _candidate_findings(pair: dict[str, Any]) -> list[Finding]:
    """The name evidence and the co-opponents evidence of ``pair`` (a row of :func:`_candidates`)."""
    found = []
    if isinstance(pair["kind"], str):
        found.append(Finding(pair["kind"], WEIGHTS[pair["kind"]], _name_sentence(pair)))
    if pd.notna(pair["shared"]):
        weight = CO_WEIGHT[0] + CO_WEIGHT[1] * float(pair["overlap"])
        found.append(Finding("co_opponents", weight, _co_sentence(pair)))
    return found


def _rank_findings(ranks_a: set[str], ranks_b: set[str]) -> list[Finding]:
    """The same declared rank, or (both declaring some) none the same."""
    same = sorted(ranks_a & ranks_b)
    if same:
        said = _("the same declared rank: {ranks}").format(ranks=", ".join(same))
        return [Finding("same_rank", WEIGHTS["same_rank"], said)]
    if not ranks_a or not ranks_b:
        return []
    differ = _("declared ranks differ: {a} / {b}").format(
        a=", ".join(sorted(ranks_a)), b=", ".join(sorted(ranks_b))
    )
    return [Finding("ranks_differ", 0.0, differ, RANK_DIFFERS)]


def _met_findings(pair: dict[str, Any]) -> list[Finding]:
    """They played each other: the score is 0."""
    if not pair["met"]:
        return []
    count = int(pair["met"])
    said = ngettext(
        "they played each other ({n} record): two people, or a game against oneself",
        "they played each other ({n} records): two people, or a game against oneself",
        count,
    ).format(n=count)
    return [Finding("met", 0.0, said, 0.0)]


def score(weights: Sequence[float]) -> float:
    """The noisy-or of ``weights`` (each in [0, 1]): ``1 - prod(1 - w)``; 0 for none."""
    remaining = 1.0
    for weight in weights:
        remaining *= 1.0 - weight
    return 1.0 - remaining


def _declared(player: pd.Series[Any]) -> set[str]:
    """The ranks a player's records and roster entry declare."""
    found = set(player["ranks"])
    return found | {player["roster_rank"]} if isinstance(player["roster_rank"], str) else found


def _name_sentence(pair: dict[str, Any]) -> str:
    """``the same name ...: "x" (note) / "y"``."""
    sides = [
        f'"{pair[f"spelling_{s}"]}"' + (f" ({pair[f'note_{s}']})" if pair[f"note_{s}"] else "") for s in "ab"
    ]
    return _("{evidence}: {spellings}").format(
        evidence=_(_NAME_TEXT[pair["kind"]]), spellings=" / ".join(sides)
    )


def _co_sentence(pair: dict[str, Any]) -> str:
    """``never met; both played x, y in the weeks of ... (n opponent-weeks, p% of the fewer)``."""
    opponents, weeks = pair["opponents"], pair["weeks"]
    return _(
        "never played each other, but both played {opponents} in the same weeks ({weeks}): "
        "{shared} opponent-weeks, {overlap} of the quieter one's"
    ).format(
        opponents=_listed(opponents),
        weeks=_listed(weeks),
        shared=int(pair["shared"]),
        overlap=f"{float(pair['overlap']):.0%}",
    )


def _listed(items: Sequence[str]) -> str:
    """The first three of ``items``, and how many more."""
    shown = ", ".join(items[:3])
    return _("{items} and {n} more").format(items=shown, n=len(items) - 3) if len(items) > 3 else shown


def groups(pairs: pd.DataFrame, listed: pd.DataFrame, roster: Roster | None) -> tuple[tuple[str, ...], ...]:
    """The connected groups of the ``pairs`` that never met (columns ``a``, ``b``, ``met``), each with
    the player to keep first (:func:`keeper`), then the others by name; groups by their first name."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    for a, b in pairs.loc[pairs["met"] == 0, ["a", "b"]].itertuples(index=False):
        parent[root(a)] = root(b)
    members: dict[str, list[str]] = {}
    for name in list(parent):
        members.setdefault(root(name), []).append(name)
    games = dict(zip(listed["player"], listed["games"], strict=True))
    ordered = [keeper(sorted(group), games, roster) for group in members.values()]
    return tuple(sorted(ordered, key=lambda g: name_key(g[0])))


def keeper(group: Sequence[str], games: dict[str, int], roster: Roster | None) -> tuple[str, ...]:
    """``group`` with the name to keep first: its first player in the ``roster``'s order, else the one
    with the most ``games`` (then the first by name); the others follow by name."""
    order = {p.name: i for i, p in enumerate(roster.players)} if roster is not None else {}
    listed = [name for name in group if name in order]
    first = min(listed, key=order.__getitem__) if listed else min(group, key=lambda n: (-games.get(n, 0), n))
    return (first, *sorted(n for n in group if n != first))


def _with_groups(pairs: pd.DataFrame, found: Sequence[Sequence[str]]) -> pd.DataFrame:
    """``pairs`` with the ``group`` column: the group number of both players, else 0."""
    number = {name: i for i, group in enumerate(found, start=1) for name in group}
    group = [
        number.get(a, 0) if met == 0 and number.get(a) == number.get(b) else 0
        for a, b, met in zip(pairs["a"], pairs["b"], pairs["met"], strict=True)
    ]
    return pairs.assign(group=pd.Series(group, index=pairs.index, dtype="int64"))[list(PAIR_COLUMNS)]
