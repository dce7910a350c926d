"""Helpers shared by the subcommands: GC paused during start-up, back as it was after."""

from __future__ import annotations

import gc

import pytest

from forge.runtime.startup import startup_without_gc


def test_gc_is_off_during_start_up_and_back_on_after_even_on_error() -> None:
    assert gc.isenabled()
    with startup_without_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), startup_without_gc():
        raise RuntimeError("a usage error during start-up")
    assert gc.isenabled()


def test_gc_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with startup_without_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
