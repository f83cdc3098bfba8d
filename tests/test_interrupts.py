"""A stop signal inside ``with hold:`` raises KeyboardInterrupt as the stretch ends, never within it."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from pipeline.core.interrupts import deferring, held

pytestmark = pytest.mark.usefixtures("ctrl_c_raises")


def ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)


def test_a_signal_inside_a_hold_raises_only_as_the_hold_ends() -> None:
    done = []
    with deferring() as hold, pytest.raises(KeyboardInterrupt):
        with hold:
            ctrl_c()
            done.append("after the signal")
        done.append("after the hold")
    assert done == ["after the signal"]


def test_a_signal_outside_a_hold_raises_at_once() -> None:
    done = []
    with deferring(), pytest.raises(KeyboardInterrupt):
        ctrl_c()
        done.append("after the signal")
    assert done == []


def test_nested_holds_raise_as_the_outermost_ends() -> None:
    done = []
    with deferring() as hold, pytest.raises(KeyboardInterrupt):
        with hold:
            with hold:
                ctrl_c()
            done.append("after the inner hold")
        done.append("after the outer hold")
    assert done == ["after the inner hold"]


def test_the_handlers_are_restored_after_deferring() -> None:
    before = signal.getsignal(signal.SIGINT)
    with deferring():
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before


def test_an_ignored_signal_stays_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with deferring() as hold, hold:
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        ctrl_c()


def test_deferring_from_another_thread_changes_no_handler() -> None:
    before, seen = signal.getsignal(signal.SIGINT), []

    def enter() -> None:
        with deferring() as hold, hold:
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join()
    assert seen == [before]


def test_a_signal_inside_held_raises_as_it_ends() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with held():
            ctrl_c()
            done.append("after the signal")
        done.append("after held")
    assert done == ["after the signal"]
