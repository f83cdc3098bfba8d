"""sgfprops: one node's properties, as the grammar matched them (``PB[Li]BR[3d]AB[dd][pp]``), ->
identifier -> values.

Identifiers in FF4 form (FF1/FF3 ``PlayerBlack`` -> ``PB``, ``GaMe`` -> ``GM``); values unescaped (soft
line breaks removed, ``\\]`` -> ``]``). Knows nothing of nodes, trees or moves
(:mod:`pipeline.ingest.sgftext` finds the properties), nor of what the values mean.
"""

from __future__ import annotations

import functools
import re

# One value of a node's properties, with the identifier before it when it is the property's first.
_PROP_VALUE = re.compile(r"(?:([A-Za-z]++)\s*+)?\[([^\\\]]*+(?:\\.[^\\\]]*+)*+)\]", re.S)
# The same where the properties hold no backslash (most): a simpler program, the same pairs, as every
# identifier of a node's properties (as the grammar matches them) is followed by space and a value.
_PLAIN_PROP_VALUE = re.compile(r"([A-Za-z]*+)\s*+\[([^\]]*+)\]")
_SOFT_BREAK = re.compile(r"\\(?:\r\n|\n\r|\n|\r)")
_ESCAPE = re.compile(r"\\(.)", re.S)

Properties = dict[str, list[str]]


def parse_properties(props: str) -> Properties:
    """Parse the properties of one node (``PB[Li]BR[3d]AB[dd][pp]``) into identifier -> values.

    ``props`` is a node's properties as the grammar matched them (``_PROPS`` of
    :mod:`pipeline.ingest.sgftext`). Identifiers lose their lower-case letters (FF1/FF3 ``PlayerBlack``
    -> ``PB``); values are unescaped (soft line breaks removed, ``\\]`` -> ``]``). A repeated identifier
    gathers its values.
    """
    # Most nodes give each identifier one value: one comprehension reads them; a value without its
    # identifier (key "") or an identifier given twice (fewer keys than values) is read value by value.
    out: Properties
    if "\\" in props:
        pairs = _PROP_VALUE.findall(props)
        out = {(i if i.isupper() else _ident(i)): [unescape(v)] for i, v in pairs}
    else:  # most: no value to unescape
        pairs = _PLAIN_PROP_VALUE.findall(props)
        out = {(i if i.isupper() else _ident(i)): [v] for i, v in pairs}
    if len(out) == len(pairs) and "" not in out:
        return out
    out = {}
    values: list[str] = []
    for ident, value in pairs:
        if ident:
            values = out.setdefault(_ident(ident), [])
        values.append(unescape(value))
    return out


def unescape(value: str) -> str:
    """Remove SGF escapes: soft line breaks vanish, ``\\x`` becomes ``x``."""
    if "\\" not in value:
        return value
    return _ESCAPE.sub(r"\1", _SOFT_BREAK.sub("", value))


@functools.lru_cache(maxsize=4096)
def _ident(ident: str) -> str:  # an all upper-case one (letters only: _PROP_VALUE) is itself
    upper = "".join(c for c in ident if c.isupper())
    return upper or ident.upper()
