"""awards: which configured awards fall in which rating period, and whom they name.

Titles (champion, runner-up) fall on the day their event ends: its ``ends`` date, else the date of
its last game in the records, counted or not (a final lost by forfeit still ends the event). Manual
awards fall on their own date. A name is resolved through the roster, else matched (case and width
aside) to a player of the records; a name that is neither gives a warning, and the award goes to the
name as written. Titles of an event with no game in the records are still awarded on its ``ends``
date, with a warning (a raw folder that lost the event's files must not pass unnoticed). Knows
nothing of what an award is worth: that is the rule set's business.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from pipeline.config.events import Award, Events
from pipeline.config.roster import Roster, name_key
from pipeline.core import periods
from pipeline.core.i18n import N_, Said
from pipeline.rules.base import DueAward


def due_awards(
    events: Events, ends: Mapping[str, dt.date], names: Iterable[str], kind: str, roster: Roster
) -> tuple[dict[str, list[DueAward]], list[str]]:
    """Awards by period label (periods of ``kind``) and warnings, from the audited games: ``ends``, the
    date of each event's last game (excluded games included), and ``names``, every player's canonical
    name in the order first seen (looked at only if an award names someone the roster does not)."""
    players = functools.cache(lambda: _players(names))
    due: dict[str, list[DueAward]] = defaultdict(list)
    warnings: list[str] = []
    for event in events.events:
        end = event.ends or ends.get(event.name)
        titles = [(k, p) for k, p in (("champion", event.champion), ("runner_up", event.runner_up)) if p]
        if titles and end is None:
            warnings.append(
                Said(
                    N_("event {event}: no games and no 'ends' date, titles not awarded"),
                    event=repr(event.name),
                )
            )
        elif titles and event.name not in ends:
            said = N_(
                "event {event}: titles awarded on its 'ends' date {end} with no game of the event in the "
                "records"
            )
            warnings.append(Said(said, event=repr(event.name), end=str(end)))
        found = [
            DueAward(Award(p, end, None, None, k.replace("_", "-"), event.name), k, event.kind)
            for k, p in titles
            if end is not None
        ]
        found += [DueAward(award, "manual", event.kind) for award in event.awards]
        for item in found:
            name, warning = _resolve(item.award.player, roster, players)
            warnings += [warning] if warning else []
            award = replace(item.award, player=name)
            due[periods.period_of(award.date, kind)].append(replace(item, award=award))
    return due, warnings


def _players(names: Iterable[str]) -> dict[str, str]:
    """name_key -> the canonical name of every player of the records (the first spelling seen)."""
    found: dict[str, str] = {}
    for name in names:
        found.setdefault(name_key(name), name)
    return found


def _resolve(name: str, roster: Roster, players: Callable[[], Mapping[str, str]]) -> tuple[str, str | None]:
    """(canonical name, warning or None) of an awarded ``name`` (``players``: :func:`_players`)."""
    if roster.get(name) is not None:
        return roster.resolve(name), None
    if name_key(name) in players():
        return players()[name_key(name)], None
    return name, Said(N_("award to {player}: no such player in the records or the roster"), player=repr(name))
