"""SIGKILL at random points of play, restart on the same data directory: nothing
acknowledged is lost, nothing half-written appears (benchmarks/crash_soak.py runs the
same check for longer)."""

from __future__ import annotations

from benchmarks.crash_soak import soak


def test_every_acknowledged_move_survives_kill_9():
    lines: list[str] = []
    figures = soak(kills=20, clients=3, seed=7, report=lines.append)
    assert figures.kill_points == 20 and len(lines) == 20
    assert figures.problems == []
    assert figures.lost == 0
    assert figures.moves_checked >= 20  # every round checks the moves of all the rounds before
    # Moves were in flight at some kills (clients keep sending while the server dies); each
    # is wholly there, and then a retry is answered, or wholly absent.
    assert figures.unacked_applied + figures.unacked_absent >= 1
    assert figures.retries_answered == figures.unacked_applied
