"""fonts: a font that has the glyphs of Chinese, Japanese and Korean names, for the charts.

The Noto Sans CJK SC that the ``mplfonts`` package ships when it is installed, else a system font whose
character map covers :data:`CJK_PROBE`. Knows nothing of charts or of the output folder.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from pipeline.core.i18n import _

#: Characters a CJK font must have to be chosen: Simplified and Traditional Chinese, kana, hangul.
CJK_PROBE = "羽焰凝兰阿扬宜城老僧陳志明鄭龍ひらがなカタカナ한국어"

#: The font file in the ``mplfonts`` package (Noto Sans CJK SC: every CJK ideograph, kana and hangul).
PACKAGED_FONT = ("mplfonts", "fonts/NotoSansCJKsc-Regular.otf")


class PlotError(RuntimeError):
    """A chart cannot be drawn on this machine: no font with CJK glyphs is installed."""


def cjk_font() -> Path:
    """The file of a font that has every character of :data:`CJK_PROBE`, registered with matplotlib.

    The font the ``mplfonts`` package ships when it is installed, else the first system font matplotlib
    finds whose character map covers the probe. Registering is idempotent.

    Raises:
        PlotError: if no such font is installed (the message says how to get one).
    """
    from matplotlib import font_manager

    path = _packaged_font() or _system_cjk_font()
    if path is None:
        raise PlotError(
            _(
                "no font with Chinese, Japanese and Korean glyphs ({probe}) is installed: "
                "`pip install mplfonts` (a dependency of sgf-ratings) or install a system CJK font"
            ).format(probe=CJK_PROBE)
        )
    if not any(entry.fname == str(path) for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(path))
    return path


def covered(font: Path, text: str) -> str:
    """The characters of ``text`` (white space aside) that ``font`` has no glyph for, in order, once each."""
    from matplotlib.ft2font import FT2Font

    charmap = FT2Font(str(font)).get_charmap()
    missing = dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in charmap)
    return "".join(missing)


def _packaged_font() -> Path | None:
    """The ``mplfonts`` package's font file, found without importing the package; None if absent."""
    package, relative = PACKAGED_FONT
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / relative
        if path.is_file():
            return path
    return None


def _system_cjk_font() -> Path | None:
    """The first system font file (by path) whose character map has every :data:`CJK_PROBE` character."""
    from matplotlib import font_manager

    for name in sorted(font_manager.findSystemFonts()):
        try:
            if not covered(Path(name), CJK_PROBE):
                return Path(name)
        except (OSError, RuntimeError, ValueError):  # a file FreeType cannot read
            continue
    return None


def family(font: Path) -> str:
    """The family name matplotlib knows ``font`` by."""
    from matplotlib import font_manager

    return str(font_manager.get_font(str(font)).family_name)
