"""Search and sampling speed, native vs reference where both exist, in one run.

    python -m benchmarks.bench_search [--seconds 2]

- determinizations per second: the Python sampler (hzai.games.hera_zeus.belief) and the native one;
- ISMCTS iterations per second by game phase (early / mid / late positions of random
  games), 1 thread and 2 threads, and the 2-thread speed-up.
Writes benchmarks/results/search.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

from hzai import _native
from hzai.games.hera_zeus.belief import Determinizer, view_of
from hzai.games.hera_zeus.native.state import native_game
from hzai.games.hera_zeus.native.search import flat_view, new_search
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.playout import random_step

from benchmarks import harness

CONCERN = "engine"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
PHASES = {"early": (3, 6), "mid": (10, 16), "late": (20, 40)}  # turn ranges


def positions(game: Game, phase: str, count: int, seed: int) -> list:
    """Views of the player to decide, from random games at turns in the phase's range."""
    low, high = PHASES[phase]
    found = []
    s = seed
    while len(found) < count and s < seed + 50 * count:
        state = Record(game, seed=s).start()
        rng = SplitMix64(s)
        while not state.is_over and state.turn < low:
            random_step(state, rng)
        if not state.is_over and state.turn <= high and not state.is_chance and not state.pending:
            found.append(view_of(state, state.to_move))
        s += 1
    return found


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(fn, seconds: float) -> tuple[int, float]:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        count += fn()
    return count, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--positions", type=int, default=6, help="positions per phase (default 6)")
    parser.add_argument("--out", default=str(RESULTS / "search.json"))
    args = parser.parse_args(argv)
    game = Game.create()
    core = native_game(game)
    report = {
        "machine": harness.machine(),
        "load_average_at_start": os.getloadavg()[0],
        "seconds_per_measurement": args.seconds,
        "phases": {},
    }
    for phase in PHASES:
        views = positions(game, phase, args.positions, seed=500)
        flats = [flat_view(v, game) for v in views]
        share = args.seconds / len(views)
        py = nat = 0
        py_t = nat_t = 0.0
        for view, flat in zip(views, flats):
            d = Determinizer(view, game)
            n, t = timed(lambda: (d.sample(7), 1)[1], share / 2)
            py, py_t = py + n, py_t + t
            start = time.perf_counter()
            _native.sample_speed(core, flat, 7, 2000)
            nat, nat_t = nat + 2000, nat_t + time.perf_counter() - start
        row = {
            "positions": len(views),
            "python_samples_per_s": py / py_t,
            "native_samples_per_s": nat / nat_t,
        }
        row["sampler_speedup"] = row["native_samples_per_s"] / row["python_samples_per_s"]
        for threads in (1, 2, 1, 2):  # alternate, so load changes hit both alike
            done = spent = cpu = 0.0
            for flat in flats:
                search = new_search(game, flat, seed=3, threads=threads)
                start, used = time.perf_counter(), _cpu_seconds()
                done += search.run(-1, 1000 * share / 2)
                spent += time.perf_counter() - start
                cpu += _cpu_seconds() - used
            suffix = f"{threads}_thread{'s' if threads > 1 else ''}"
            row.setdefault(f"iterations_per_s_{suffix}", []).append(done / spent)
            row.setdefault(f"iterations_per_cpu_s_{suffix}", []).append(done / cpu if cpu else 0.0)
        for key in [k for k in row if k.startswith("iterations_per")]:
            row[key] = max(row[key])
        row["speedup_2_vs_1_threads"] = row["iterations_per_s_2_threads"] / row["iterations_per_s_1_thread"]
        # Work per CPU second at 2 threads against 1: near 1.0 means the threads do not
        # slow each other down, whatever share of the cores other jobs leave them.
        row["parallel_efficiency"] = row["iterations_per_cpu_s_2_threads"] / row["iterations_per_cpu_s_1_thread"]
        report["phases"][phase] = row
        print(
            f"{phase:>5}: sampler python {row['python_samples_per_s']:,.0f}/s, native {row['native_samples_per_s']:,.0f}/s "
            f"({row['sampler_speedup']:.0f}x); ISMCTS {row['iterations_per_s_1_thread']:,.0f} it/s on 1 thread, "
            f"{row['iterations_per_s_2_threads']:,.0f} on 2 ({row['speedup_2_vs_1_threads']:.2f}x; "
            f"work per CPU second at 2 threads vs 1: {row['parallel_efficiency']:.2f})"
        )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
