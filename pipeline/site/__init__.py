"""site: the club's static web site of a finished output folder (``ratings site DIR``).

:func:`build_site` writes the standings of every rated period, a page per player (rating history chart,
every game with its reasons and points, the derivation of each period), the games ledger with a filter
in the browser, the rule set's settings and its reports, as plain HTML files with relative links
(:mod:`pipeline.site.build`; what each page shows: :mod:`pipeline.site.pages`; file names:
:mod:`pipeline.site.slugs`). Knows nothing of how the run rated, or of the command line.
"""

from __future__ import annotations

from pipeline.site.build import MARKER, SiteError, SiteSummary, build_site

__all__ = ["MARKER", "SiteError", "SiteSummary", "build_site"]
