"""names: player names that name nobody. Editors and servers write a placeholder where nobody typed a
name (``Black``, ``黑``, ``先手``, ``흑``, ``?``: :data:`PLACEHOLDER_NAMES`), and a name that lost its bytes
in decoding cannot say who played (:func:`pipeline.core.text.undecodable`).

Names are compared as the roster compares them: NFKC-folded (full-width forms, the ideographic space),
white space collapsed, ends stripped, casefolded (:func:`name_key`). Knows nothing of rosters (whether a
roster's player called ``黑`` wins over the list is the audit's decision: docs/rules.md ("Names that name
nobody")), of games, or of where a name was read.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.core.text import fold, undecodable

#: The placeholders written where nobody typed a name, as ``[validity] placeholder_names`` defaults to
#: (docs/rules.md ("Names that name nobody")): the colours in English, Chinese, Japanese and Korean, the
#: Japanese first and second player, question marks, a dash, ``unknown``, ``Anonymous``. Compared by
#: :func:`name_key`, so ``BLACK``, ``Ｂｌａｃｋ`` and `` black `` are ``Black``. An empty name is no name
#: at all (a record without ``PB``/``PW``), not a placeholder.
PLACEHOLDER_NAMES: tuple[str, ...] = (
    "Black",
    "White",
    "黑",
    "白",
    "黒",
    "黑方",
    "白方",
    "黑棋",
    "白棋",
    "先手",
    "後手",
    "后手",
    "흑",
    "백",
    "?",
    "-",
    "unknown",
    "Anonymous",
)


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, white space collapsed, ends stripped, casefolded."""
    return fold(name).casefold()


def placeholder_keys(names: Iterable[str]) -> frozenset[str]:
    """The :func:`name_key` of each of ``names`` (a placeholder list), for :func:`names_nobody`."""
    return frozenset(name_key(name) for name in names)


def names_nobody(name: str, placeholders: frozenset[str]) -> bool:
    """True when ``name`` (as read from a record) is one of ``placeholders`` (:func:`placeholder_keys`)
    or could not be decoded (:func:`~pipeline.core.text.undecodable`): it says nobody's name."""
    return name_key(name) in placeholders or undecodable(name)
