"""The per-file time budget sets its timer once for files of equal budgets (issue 11, item 3: speed).

:class:`pipeline.ingest.budget.FileBudget` in the main thread: two ``setitimer`` calls a file were a
tenth of the reading of a small record. The timer is set when a call's budget ends before the time
it rings; a ring that comes while the call being read still has time left sets it again for that time.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from pipeline.ingest.budget import FileBudget

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no SIGALRM timer")


def test_files_of_equal_budgets_set_the_timer_once(monkeypatch: pytest.MonkeyPatch) -> None:
    settings: list[float] = []
    real = signal.setitimer

    def noted(which: int, seconds: float, interval: float = 0.0) -> Any:
        settings.append(seconds)
        return real(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", noted)
    with FileBudget(30.0) as budget:
        settings.clear()  # what entering the batch did (stopping a timer that was running)
        for _ in range(50):
            budget.run(lambda: None)
    assert [s for s in settings if s > 0] == [pytest.approx(30.0, abs=1.0)]


def test_a_ring_while_the_call_has_time_left_sets_the_timer_again_for_it() -> None:
    def rung_early() -> float:
        os.kill(os.getpid(), signal.SIGALRM)  # as the timer set for an earlier file would ring
        return signal.getitimer(signal.ITIMER_REAL)[0]

    with FileBudget(30.0) as budget:
        left = budget.run(rung_early)
    assert 25.0 < left <= 30.0
