"""Legends of Hellas speed: the native twin against the reference engine.

    python benchmarks/legends_speed.py [--seconds 3] [--out benchmarks/results/legends_speed.json]

Three measures, each in one run on the same positions:
- random playouts a second: the reference engine (hzai.games.legends.rules, uniform
  choices from SplitMix64) against the twin's batch API (`_native.legends_random_playouts`)
  on 1 thread, and the batch on 2 threads;
- light playouts a second (the heuristic playing every seat, ties drawn from
  SplitMix64): the reference engine scoring with hzai.games.legends.heuristic against the
  twin's light policy (`_native.legends_light_playouts`, the search's default for
  Legends), on 1 and 2 threads;
- ISMCTS iterations a second on Legends views: before, the generic search calling the
  Python game back (`_native.PySearch`, one thread only), and after, the same search
  on the twin (`_native.LegendsSearch`) on 1 and 2 threads.
Positions: the start (after the deal) and mid-game positions of missions 1, 6 and 10
with 2 and 4 seats. One-thread rates are per CPU second of the process, two-thread
rates per wall second, set against the one-thread wall rate (best of three rounds);
the 2-thread figures need two idle cores. Prints a table and
writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai import _native
from hzai.games.legends.game import LegendsGame
from hzai.games.legends.heuristic import best_moves
from hzai.games.legends.native.check import _Whole
from hzai.games.legends.native.twin import native_state, native_view
from hzai.native.tables import PLAYOUTS
from hzai.rng import SplitMix64

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

ROOT = Path(__file__).resolve().parents[1]
HEROES = ["Perseus", "Jason", "Achilles", "Hercules", "Atalanta"]
CELLS = [(1, 2), (1, 4), (6, 2), (6, 4), (10, 2), (10, 4)]


def random_choice(state, rng: SplitMix64):
    options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
    return options[rng.below(len(options))]


def light_choice(state, rng: SplitMix64):
    """The heuristic's move on the whole state (ties drawn from `rng`), or a chance outcome."""
    if state.is_chance:
        return random_choice(state, rng)
    moves = state.legal_moves()
    best = best_moves(state.game.search.heuristic_scores(_Whole(state), moves))
    return moves[best[rng.below(len(best))]]


def reference_playout(state, seed: int, choice=random_choice) -> int:
    state = state.clone()
    rng = SplitMix64(seed)
    while not state.is_terminal:
        state.apply(choice(state, rng))
    return state.turn


def positions(mid: bool) -> list:
    """One position per cell: the start, or 20 random steps in (a seat to decide)."""
    out = []
    for mission, seats in CELLS:
        game = LegendsGame(mission=mission, heroes=HEROES[:seats])
        state = game.new_state(1000 + mission * 10 + seats)
        rng = SplitMix64(mission * 7 + seats)
        steps = 0
        while mid and (steps < 20 or state.current_seat is None):
            state.apply(random_choice(state, rng))
            steps += 1
            if state.is_terminal:
                state, steps = game.new_state(steps + 5000), 0
        out.append(state)
    return out


def timed(fn, seconds: float, clock=time.process_time) -> float:
    """Units of work a second of `clock`: fn(n) does n units; n doubles until a round
    takes `seconds`/4, then the best of three rounds. One-thread figures use the
    process's CPU time (fair on a shared machine), two-thread ones the wall clock."""
    n = 1
    while True:
        t = clock()
        fn(n)
        dt = max(clock() - t, 1e-9)
        if dt >= seconds / 4 or n >= 1 << 22:
            break
        n *= 2
    best = n / dt
    for _ in range(2):
        t = clock()
        fn(n)
        best = max(best, n / max(clock() - t, 1e-9))
    return best


def playout_rates(states: list, seconds: float, light: bool = False) -> dict:
    choice = light_choice if light else random_choice
    batch = _native.legends_light_playouts if light else _native.legends_random_playouts

    def ref(n):
        for i in range(n):
            reference_playout(states[i % len(states)], i, choice)

    twins = [native_state(s) for s in states]

    def nat(threads):
        def run(n):
            per = max(1, n // len(twins))
            for t in twins:
                batch(t, per, 1, threads)
        return run

    r = timed(ref, seconds)
    n1 = timed(nat(1), seconds)
    n1_wall = timed(nat(1), seconds, time.perf_counter)
    n2 = timed(nat(2), seconds, time.perf_counter)
    return {"reference": r, "native_1": n1, "native_1_wall": n1_wall, "native_2": n2, "speedup": n1 / r,
            "threads_2_over_1": n2 / n1_wall}


def search_rates(states: list, seconds: float, playout: str = "random") -> dict:
    views = [s.view(s.current_seat) for s in states]

    def py(n):
        for v in views:
            _native.PySearch(v, _native.SearchOptions(seed=1)).run(max(1, n // len(views)))

    def nat(threads):
        specs = [native_view(v) for v in views]

        def run(n):
            for v, spec in zip(views, specs):
                v.game.search.native.search(spec, _native.SearchOptions(seed=1, threads=threads, playout=PLAYOUTS[playout])).run(max(1, n // len(views)))
        return run

    # the Python-callback search has no light policy (its playouts are random): the
    # light rates are the twin's only
    before = timed(py, seconds) if playout == "random" else None
    after1 = timed(nat(1), seconds)
    after1_wall = timed(nat(1), seconds, time.perf_counter)
    after2 = timed(nat(2), seconds, time.perf_counter)
    return {"python_callback_1": before, "native_1": after1, "native_1_wall": after1_wall, "native_2": after2,
            "speedup": None if before is None else after1 / before, "threads_2_over_1": after2 / after1_wall}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="rough time of one measured round set")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "legends_speed.json"))
    args = parser.parse_args(argv)
    start, mid = positions(False), positions(True)
    result = {
        "machine": harness.machine(),
        "cells": [f"mission {m}, {s} seats" for m, s in CELLS],
        "playouts_per_s": {"start": playout_rates(start, args.seconds), "mid": playout_rates(mid, args.seconds)},
        "light_playouts_per_s": {"start": playout_rates(start, args.seconds, light=True),
                                 "mid": playout_rates(mid, args.seconds, light=True)},
        "ismcts_iterations_per_s": {"mid": search_rates(mid, args.seconds)},
        "ismcts_light_iterations_per_s": {"mid": search_rates(mid, args.seconds, "light")},
    }
    for kind in ("random", "light"):
        print(f"{kind} playouts a second (reference | native 1 thread | native 2 threads wall / 1 thread wall | "
              "native/reference)")
        for where, r in result["playouts_per_s" if kind == "random" else "light_playouts_per_s"].items():
            print(f"  {where:5} {r['reference']:10.0f} | {r['native_1']:10.0f} | {r['native_2']:8.0f} / "
                  f"{r['native_1_wall']:8.0f} | {r['speedup']:6.0f}x")
    for key, kind in (("ismcts_iterations_per_s", "random"), ("ismcts_light_iterations_per_s", "light")):
        s = result[key]["mid"]
        print(f"ISMCTS iterations a second on Legends views, {kind} playouts (Python callback | native 1 thread | "
              "native 2 threads wall / 1 thread wall | native/callback)")
        before = "-" if s["python_callback_1"] is None else f"{s['python_callback_1']:.0f}"
        speedup = "-" if s["speedup"] is None else f"{s['speedup']:.1f}x"
        print(f"  mid   {before:>10} | {s['native_1']:10.0f} | {s['native_2']:8.0f} / "
              f"{s['native_1_wall']:8.0f} | {speedup:>6}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
