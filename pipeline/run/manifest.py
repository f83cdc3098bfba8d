"""run.manifest: what a run records of itself in ``manifest.json`` (the output contract's manifest: rule
set, settings and their digest, input files, games, counts by reason, periods, warnings, what was
carried from the previous generation, timings, package and parser versions).

Knows nothing of how the numbers were found: the run hands them over, typed; :meth:`Manifest.as_json`
writes the contract's keys in their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.audit.counts import Counts
from pipeline.core.i18n import Said
from pipeline.run.planning import Settings

FILE = "manifest.json"


@dataclass(frozen=True, slots=True)
class Incremental:
    """How much of the previous generation a run reused: the whole of it (``reused_generation``: nothing
    changed), or the periods carried and replayed and the audited pieces carried and audited again."""

    reused_generation: bool
    periods_replayed: int
    periods_carried: int
    pieces_audited: int | None = None  # (None: the generation was reused whole, no piece was looked at)
    pieces_carried: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The manifest's ``incremental`` (the pieces only when they were looked at)."""
        found: dict[str, Any] = {"reused_generation": self.reused_generation}
        found |= {"periods_replayed": self.periods_replayed, "periods_carried": self.periods_carried}
        if self.pieces_audited is not None:
            found |= {"pieces_audited": self.pieces_audited, "pieces_carried": self.pieces_carried}
        return found


@dataclass(frozen=True, slots=True)
class Manifest:
    """A run's ``manifest.json``. ``raw`` is absolute (a reader elsewhere finds it: ``ratings backtest
    --out``); ``warnings`` are the planning's and the rating's, ``rated_warnings`` the rating's alone
    (what a run that reuses the generation whole repeats), in English; ``rated_warnings_said`` beside them
    the words of each (:class:`~pipeline.core.i18n.Said`, None for a plain one), so that such a run says
    them again in its own language; ``timings`` in seconds by stage."""

    package_version: str
    parser_version: str
    settings: Settings
    raw: str
    state_digest: str
    input_files: int
    files_parsed: int
    files_reused: int
    counts: Counts
    periods: list[str]
    warnings: list[str]
    rated_warnings: list[str]
    incremental: Incremental
    timings: Mapping[str, float]

    def as_json(self) -> dict[str, Any]:
        """The manifest's JSON object, its keys in the contract's order."""
        return {
            "package_version": self.package_version,
            "parser_version": self.parser_version,
            "rule_set": self.settings.rule_set,
            "raw": self.raw,
            "settings": self.settings.as_json(),
            "config_digest": self.settings.digest(),
            "state_digest": self.state_digest,
            "input_files": self.input_files,
            "files_parsed": self.files_parsed,
            "files_reused": self.files_reused,
            "games": self.counts.games,
            "counts": self.counts.as_json(),
            "periods": self.periods,
            "warnings": self.warnings,
            "rated_warnings": self.rated_warnings,
            "rated_warnings_said": [_said(w) for w in self.rated_warnings],
            "incremental": self.incremental.as_json(),
            "timings_s": {k: round(v, 3) for k, v in self.timings.items()},
        }


def _said(warning: str) -> dict[str, object] | None:
    """A warning's words for saying it again in another language (:class:`Said`), None for a plain one."""
    return warning.as_json() if isinstance(warning, Said) else None
