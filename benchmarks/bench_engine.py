"""Engine speed: random playouts per second, native core vs reference engine.

    python benchmarks/bench_engine.py [--seconds 5] [--out benchmarks/results/engine.json]

Measured in one run on the same positions: games from the start position (right after
the deal, setup moves included) and from mid-game positions (reached by random play),
the reference engine (hzai.games.hera_zeus.rules.random_playout) against the native core's batch API
(hzai.games.hera_zeus.native.state.random_playouts) on 1 thread, then the batch API on 2 threads against 1
(alternating rounds, best round of each). Run it on an otherwise idle machine: the
2-thread figure needs both cores.
Prints a table and writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from hzai.games.hera_zeus.native.state import NativeState, random_playouts
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, random_playout
from hzai.games.hera_zeus.rules.playout import random_step

from benchmarks import harness

CONCERN = "engine"  # its group in `python -m benchmarks list`

ROOT = Path(__file__).resolve().parents[1]


def start_positions(game: Game, n: int) -> list:
    return [Record(game, seed=seed).start() for seed in range(n)]


def mid_positions(game: Game, n: int) -> list:
    """Play-phase positions 10..40 moves into a random game (no chance pending)."""
    out, seed = [], 0
    while len(out) < n:
        state = Record(game, seed=10_000 + seed).start()
        rng = SplitMix64(seed)
        target = 10 + seed % 31
        steps = 0
        while not state.is_over and (steps < target or state.is_chance):
            random_step(state, rng)
            steps += 1
        seed += 1
        if not state.is_over:
            out.append(state)
    return out


def bench_python(positions: list, seconds: float) -> dict:
    games = moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = positions[games % len(positions)].copy()
        before = len(state.history)
        random_playout(state, games)
        moves += len(state.history) - before
        games += 1
    took = time.perf_counter() - t0
    return {"games": games, "seconds": round(took, 3), "games_per_s": games / took, "moves_per_s": moves / took}


def bench_native(positions: list, seconds: float, threads: int, per_call: int | None = None) -> dict:
    natives = [NativeState.from_state(s) for s in positions]
    # size the batches so that one call takes a good fraction of a second
    random_playouts(natives[0], 200, seed=0, threads=1)  # warm up
    probe = time.perf_counter()
    random_playouts(natives[0], 1000, seed=0, threads=1)
    per_game = (time.perf_counter() - probe) / 1000
    batch = per_call or max(4000, int(0.25 / max(per_game, 1e-7)) // 2 * 2)
    games = moves = calls = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, lengths, _ = random_playouts(natives[calls % len(natives)], batch, seed=games, threads=threads)
        games += batch
        moves += int(lengths.sum())
        calls += 1
    took = time.perf_counter() - t0
    return {"games": games, "seconds": round(took, 3), "games_per_s": games / took, "moves_per_s": moves / took,
            "threads": threads, "batch": batch}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating 1- and 2-thread rounds")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "engine.json"))
    args = parser.parse_args(argv)

    game = Game.create()
    positions = {"start": start_positions(game, 64), "mid": mid_positions(game, 64)}
    results: dict = {
        "machine": harness.machine(),
        "seconds_per_measurement": args.seconds,
        "positions": {},
    }
    print(f"{'positions':<10}{'engine':<22}{'games/s':>12}{'moves/s':>14}")
    results["load_average_before"] = os.getloadavg()
    for label, states in positions.items():
        py = bench_python(states, args.seconds)
        # 1 and 2 threads alternate over a few rounds and the best round of each counts,
        # so that a burst of other work on the machine spoils one round, not the figure
        rounds = max(1, args.rounds)
        ones, twos = [], []
        for _ in range(rounds):
            ones.append(bench_native(states, args.seconds / rounds, threads=1, per_call=ones[0]["batch"] if ones else None))
            twos.append(bench_native(states, args.seconds / rounds, threads=2, per_call=ones[0]["batch"]))
        n1 = max(ones, key=lambda r: r["games_per_s"])
        n2 = max(twos, key=lambda r: r["games_per_s"])
        entry = {
            "reference": py,
            "native_1_thread": n1,
            "native_2_threads": n2,
            "speedup_native_vs_reference": n1["games_per_s"] / py["games_per_s"],
            "scaling_2_vs_1_threads": n2["games_per_s"] / n1["games_per_s"],
        }
        results["positions"][label] = entry
        for name, r in (("reference (Python)", py), ("native, 1 thread", n1), ("native, 2 threads", n2)):
            print(f"{label:<10}{name:<22}{r['games_per_s']:>12,.0f}{r['moves_per_s']:>14,.0f}")
        print(f"{label:<10}native/reference {entry['speedup_native_vs_reference']:,.0f}x, "
              f"2 threads/1 thread {entry['scaling_2_vs_1_threads']:.2f}x")
    results["load_average_after"] = os.getloadavg()
    print(f"load average before {results['load_average_before'][0]:.2f}, after {results['load_average_after'][0]:.2f}"
          " (other work on the machine lowers the 2-thread figure)")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
