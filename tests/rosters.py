"""The hand-made club of the end-to-end tests: its members, and the roster and events files that name them.

Every test club is drawn from one membership (:data:`MEMBERS`: each member's rank and aliases), so that a
test names who is in its roster, not how a roster file is written. It knows nothing of what a test checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: Each member's rank and the aliases their roster entry lists.
MEMBERS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "羽焰": ("1d", ("YuYan",)),
    "凝兰": ("5k", ()),
    "牛蛙": ("1d", ()),
    "阿扬": ("4d", ()),
    "fish": ("3d", ()),
    "二黑": ("2d", ()),
    "欧阳锦绣": ("3d", ()),
    "陳志明": ("2d", ()),
    "さくら": ("1d", ()),
    "김민준": ("1d", ()),
}
#: The team match of the club's events file: 飞扬 against 弈林, matched by its records' event names.
TEAM_MATCH = '[[event]]\nname = "飞扬-弈林对抗赛"\nmatch = ["飞扬对弈林*"]\nkind = "team_match"\n'


def roster(
    *names: str,
    aliases: Mapping[str, Sequence[str]] | None = None,
    lines: Mapping[str, str] | None = None,
) -> str:
    """A roster file (TOML) of the members ``names``, in that order, each with their rank and aliases
    (``aliases``: other aliases for some of them; ``lines``: TOML lines added to a member's entry, such
    as a starting rating). Raises KeyError naming a name that is no member."""
    entries = []
    for name in names:
        rank, listed = MEMBERS[name]
        said = (aliases or {}).get(name, listed)
        entry = [f'name = "{name}"', *([f"aliases = {list(said)!r}".replace("'", '"')] if said else [])]
        entry += [f'rank = "{rank}"', *([lines[name]] if lines and name in lines else [])]
        entries.append("[[player]]\n" + "\n".join(entry) + "\n")
    return "".join(entries)
