"""site: the club's static web site of a finished output folder (``ratings site DIR``).

:func:`build_site` writes the standings of every rated period (a year picker, then the year's periods),
a page per player (rating history chart, every game with its reasons and points, the derivation of each
period), the games ledger a page per period with a filter in the browser, the leaderboards, the rules in
words and the rule set's reports, as plain HTML files with relative links, reading the output in one pass
(:mod:`pipeline.site.build`; reading: :mod:`pipeline.site.source`; the period pass:
:mod:`pipeline.site.periods`; players' pages: :mod:`pipeline.site.players`, from the rows kept by
:mod:`pipeline.site.spill`; rows and cells: :mod:`pipeline.site.pages` and :mod:`pipeline.site.rows`;
file names: :mod:`pipeline.site.slugs`). Knows nothing of how the run rated, or of the command line.
"""

from __future__ import annotations

from pipeline.site.build import MARKER, SiteError, SiteSummary, build_site

__all__ = ["MARKER", "SiteError", "SiteSummary", "build_site"]
