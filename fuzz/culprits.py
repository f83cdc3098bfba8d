"""culprits: which inputs of a batch make ``ratings run`` crash, by bisection.

:func:`bisect` is generic: it splits a failing group in halves and follows the halves that still fail,
down to single inputs; a group whose halves both pass is reported whole (the fault needs inputs from
both). :func:`crash_culprits` applies it to ``ratings run`` on sub-folders of hard links.

Knows nothing of mutation or of the report.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from fuzz.batch import run_ratings

T = TypeVar("T")


def bisect(
    group: Sequence[T], fails: Callable[[Sequence[T]], bool], max_found: int, max_tests: int
) -> list[list[T]]:
    """The failing sub-groups of ``group`` (which fails as a whole), smallest first found.

    Stops after ``max_found`` groups or ``max_tests`` calls of ``fails``; returns the groups found, each
    a single element unless its halves passed on their own.
    """
    found: list[list[T]] = []
    stack, tests = [list(group)], 0
    while stack and len(found) < max_found and tests < max_tests:
        current = stack.pop()
        if len(current) == 1:
            found.append(current)
            continue
        halves = [current[: len(current) // 2], current[len(current) // 2 :]]
        failing = [half for half in halves if fails(half)]
        tests += 2
        if not failing:
            found.append(current)
        stack.extend(reversed(failing))
    return found


def link_subset(raw: Path, names: Sequence[bytes], target: Path) -> None:
    """``target`` (emptied first) holding ``raw/name`` for each of ``names``, as hard links (else copies)."""
    shutil.rmtree(target, ignore_errors=True)
    source, dest = os.fsencode(raw), os.fsencode(target)
    for name in names:
        path = os.path.join(dest, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            os.link(os.path.join(source, name), path)
        except OSError:
            shutil.copyfile(os.path.join(source, name), path)


def crash_culprits(
    raw: Path, work: Path, names: Sequence[bytes], run: tuple[str, int, float], max_found: int = 5
) -> list[list[bytes]]:
    """The groups of ``names`` (files under ``raw``) on which ``ratings run`` crashes, ``run`` being
    (rule set, workers, limit in seconds); ``work`` holds the sub-folders. At most ``max_found`` groups."""
    rules, workers, limit_s = run
    sub = work / "bisect"
    sub.mkdir(exist_ok=True)

    def crashes(subset: Sequence[bytes]) -> bool:
        link_subset(raw, subset, sub / "raw")
        return run_ratings(sub / "raw", sub, rules, workers, limit_s).crashed

    return bisect(names, crashes, max_found, max_tests=40 * max_found)
