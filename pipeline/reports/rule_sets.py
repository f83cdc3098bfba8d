"""reports.rule_sets: the rule sets' own report tables, as their records name them.

:data:`REPORT_FILES` (report name -> file in the output folder) and :data:`REPORT_RULE_SETS` (report name ->
the rule sets that write it) are read from the registry's records (:class:`pipeline.rules.family.Family`:
its ``reports``, and ``promotes`` for ``promotions.parquet``, which every run writes, with rows only under
the rule sets that promote), so that a rule set's reports are named once, in its module. The output layer
is handed :data:`REPORT_FILES` where it reads a report (:func:`pipeline.output.folder.read_report`).

Knows nothing of what the reports hold, nor of how they are computed or read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pipeline.output.folder import PROMOTIONS_FILE
from pipeline.rules import REGISTRY

#: The report every rule set that promotes fills (``promotions.parquet``, written by every run).
PROMOTIONS = "promotions"
_FILES = {PROMOTIONS: PROMOTIONS_FILE} | {r.name: r.file for f in REGISTRY.values() for r in f.reports}
#: The rule sets' own report tables (``ratings show --report NAME``) by name -> file in the output folder.
REPORT_FILES: Mapping[str, str] = MappingProxyType(dict(sorted(_FILES.items())))
#: The rule sets that write each report of :data:`REPORT_FILES` (``promotions.parquet`` is always written,
#: with rows only under these), in the registry's order.
REPORT_RULE_SETS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        report: tuple(
            name
            for name, f in REGISTRY.items()
            if (f.promotes if report == PROMOTIONS else any(r.name == report for r in f.reports))
        )
        for report in REPORT_FILES
    }
)
