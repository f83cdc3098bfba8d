"""identity.snippet: the suggested groups as ``[[player]]`` entries of the roster file, to review and paste.

One entry per group (:attr:`~pipeline.reports.identity.pairs.Suggestions.groups`): the name to keep,
the others as ``aliases`` (with their roster aliases; a spelling that differs from the name in case or
width only is no alias, the roster already matches it). A group with a roster player repeats that
player's entry (``rank``, ``member``, ``rating``, ``fixed``) with the aliases added, to replace it; the
other roster entries of the group are named in a comment, to delete. A group without one gets
``member = false`` when the run had a roster (they were not members: pasting changes names, not
membership). Comments give each group's evidence and score. The text parses with
:func:`pipeline.config.roster.load_roster` on its own. Nothing here merges anything: the text is
returned. Knows nothing of how the evidence was found.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import pandas as pd

from pipeline.config.roster import Player, Roster, name_key
from pipeline.core.i18n import _, ngettext
from pipeline.reports.identity.pairs import Suggestions


def roster_snippet(found: Suggestions, roster: Roster | None, source: str) -> str:
    """The roster entries of ``found``'s groups, as TOML text with comments (``source`` names the
    output folder in the heading); only the heading when there is no group."""
    lines = list(_heading(found, roster, source))
    info = found.players.set_index("player")
    for number, group in enumerate(found.groups, start=1):
        lines += ["", *_group_comments(number, group, found.pairs, info)]
        lines += _entry(group, roster)
    return "\n".join(lines) + "\n"


def _heading(found: Suggestions, roster: Roster | None, source: str) -> Iterator[str]:
    count = len(found.groups)
    said = ngettext(
        "Roster entries suggested by `ratings players --suggest` for {source}: {n} group.",
        "Roster entries suggested by `ratings players --suggest` for {source}: {n} groups.",
        count,
    )
    yield "# " + said.format(source=source, n=count)
    yield "# " + _(
        "Review each one; paste the right ones into the roster file ([run] roster). Nothing was merged."
    )
    if roster is None:
        yield "# " + _(
            "The run had no roster, so every player was a member; with a roster only its players are."
        )
    else:
        yield "# " + _("An entry of a player already in the roster replaces that entry.")


def _group_comments(number: int, group: Sequence[str], pairs: pd.DataFrame, info: pd.DataFrame) -> list[str]:
    """``# group n``, each member's records, and each pair's score and evidence."""
    lines = ["# " + _("group {n}: {players}").format(n=number, players=", ".join(group))]
    for name in group:
        player = info.loc[name]
        ranks = ", ".join(player["ranks"]) or _("none")
        games = int(str(player["games"]))
        records = ngettext("{n} record", "{n} records", games).format(n=games)
        if player["first"] is not None:
            dates = _("{first} to {last}").format(first=player["first"], last=player["last"])
        else:
            dates = _("no date")
        said = _("{name}: {records}, {dates}, ranks {ranks}")
        lines.append("#   " + said.format(name=name, records=records, dates=dates, ranks=ranks))
    chosen = pairs[pairs["a"].isin(group) & pairs["b"].isin(group)]  # a pair that met, too: against
    for pair in chosen.to_dict("records"):
        said = _("{a} ~ {b}: score {score}").format(a=pair["a"], b=pair["b"], score=f"{pair['score']:.2f}")
        lines.append("#   " + said)
        lines += [f"#     + {said}" for said in pair["evidence"]]
        lines += [f"#     - {said}" for said in pair["against"]]
    return lines


def _entry(group: Sequence[str], roster: Roster | None) -> list[str]:
    """The ``[[player]]`` table of ``group`` (kept name first), with a comment per roster entry to delete."""
    entries = [e for e in (roster.get(n) if roster is not None else None for n in group) if e is not None]
    kept = roster.get(group[0]) if roster is not None else None
    base = kept if kept is not None else Player(name=group[0], member=roster is None)
    lines = [
        "# " + _("delete the roster entry of {name!r}: it is an alias here").format(name=e.name)
        for e in entries
        if e is not kept
    ]
    lines += ["[[player]]", f"name = {_string(base.name)}"]
    aliases = _aliases(base, group, entries)
    lines.append(f"aliases = [{', '.join(_string(a) for a in aliases)}]")
    if base.rank is not None:
        lines.append(f"rank = {_string(base.rank)}")
    if not base.member:
        lines.append("member = false")
    lines += _rating_lines(base)
    if base.fixed:
        lines.append("fixed = true")
    return lines


def _aliases(base: Player, group: Sequence[str], entries: Sequence[Player]) -> list[str]:
    """The base entry's aliases, the group's other names and their roster aliases: one per
    :func:`~pipeline.config.roster.name_key`, none equal to the name's."""
    seen = {name_key(base.name)}
    found: list[str] = []
    others = [spelling for e in entries if e is not base for spelling in e.aliases]
    for spelling in (*base.aliases, *group[1:], *others):
        if name_key(spelling) not in seen:
            seen.add(name_key(spelling))
            found.append(spelling)
    return found


def _rating_lines(player: Player) -> list[str]:
    """``rating = ...`` as the roster entry gave it (a number or a table), or nothing."""
    if player.ratings:
        table = ", ".join(f"{_string(k)} = {v!r}" for k, v in player.ratings.items())
        return [f"rating = {{ {table} }}"]
    return [f"rating = {player.rating!r}"] if player.rating is not None else []


def _string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's; DEL, which TOML forbids raw, escaped)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
