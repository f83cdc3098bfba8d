"""site.slugs: file names for the site's pages that any file system and web server take.

A player's page is ``<ascii stem>-<hash>.html``: the stem is the name's letters and digits folded to
lower-case ASCII (``LIN Chun-Chieh`` -> ``lin-chun-chieh``; ``player`` for a name with none, as most
Chinese, Japanese and Korean names), the hash a short SHA-256 of the name's UTF-8 bytes, so that names
that fold alike (``Fish`` and ``fish``) and names with no ASCII at all get pages of their own, also on a
case-insensitive file system. Knows nothing of what the pages hold.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

_STEM_CHARS = 32
_DIGITS = (8, 16, 64)  # hash digits tried in turn until every name of a site has its own slug
_SAFE_LABEL = re.compile(r"[0-9A-Za-z][0-9A-Za-z-]*")


def slug(name: str, digits: int = _DIGITS[0]) -> str:
    """``name`` as a file-name stem: lower-case ASCII words joined by ``-`` (at most 32 characters;
    ``player`` when none), ``-``, then the first ``digits`` hex digits of the SHA-256 of ``name``."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    stem = "-".join(re.findall(r"[a-z0-9]+", folded))[:_STEM_CHARS].strip("-") or "player"
    return f"{stem}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:digits]}"


def slugs(names: Iterable[str]) -> dict[str, str]:
    """Each distinct name of ``names`` -> its :func:`slug`, with as many hash digits (8, else 16, else
    64) as it takes for no two names to share one."""
    distinct = list(dict.fromkeys(names))
    for digits in _DIGITS:
        found = {name: slug(name, digits) for name in distinct}
        if len(set(found.values())) == len(found):
            break
    return found


def period_file(label: str) -> str:
    """The standings page of the period ``label``: ``period-2024-05.html``; a label with other
    characters than ASCII letters, digits and ``-`` gets a :func:`slug` instead."""
    stem = label if _SAFE_LABEL.fullmatch(label) else slug(label)
    return f"period-{stem}.html"
