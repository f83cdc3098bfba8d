"""config: the run's TOML configuration, read and validated once at start-up.

Today it holds the ingest settings (``[ingest]``: ``raw``, ``out``, ``workers``,
``speed_threshold_minutes``); the audit and rule-set sections join it with those stages.
Knows nothing of what the stages do with the values.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path("config/ratings.toml")


class ConfigError(Exception):
    """Raised when a configuration file is missing, unreadable or holds a bad value.

    The message names the file, the key and what was expected.
    """


@dataclass(frozen=True, slots=True)
class RunConfig:
    """The run's settings after defaults: folders, worker processes (None: every core), speed threshold."""

    raw: Path = Path("data/raw")
    out: Path = Path("data/processed")
    workers: int | None = None
    speed_threshold_s: float = 1800.0


def load(path: Path | None) -> RunConfig:
    """Read ``path`` (or :data:`DEFAULT_PATH` when it exists, else the defaults).

    Raises :class:`ConfigError` if the file named is missing, is not TOML, or a value is bad.
    """
    if path is None:
        if not DEFAULT_PATH.exists():
            return RunConfig()
        path = DEFAULT_PATH
    data = _read(path)
    section = data.get("ingest", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [ingest] must be a table, got {section!r}")
    return RunConfig(
        raw=Path(_get(path, section, "raw", str, "data/raw")),
        out=Path(_get(path, section, "out", str, "data/processed")),
        workers=_workers(path, section),
        speed_threshold_s=60.0 * _minutes(path, section),
    )


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None


def _get(path: Path, section: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = section.get(key, default)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ConfigError(f"{path}: [ingest] {key} must be of type {kind.__name__}, got {value!r}")
    return value


def _workers(path: Path, section: dict[str, Any]) -> int | None:
    value = _get(path, section, "workers", int, 0)
    if value < 0:
        raise ConfigError(f"{path}: [ingest] workers must be 0 (every core) or more, got {value!r}")
    return value or None


def _minutes(path: Path, section: dict[str, Any]) -> float:
    value = section.get("speed_threshold_minutes", 30)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigError(f"{path}: [ingest] speed_threshold_minutes must be a number > 0, got {value!r}")
    return float(value)
