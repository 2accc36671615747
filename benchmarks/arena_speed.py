"""Games a second of the arena: the Python loop (hzai.search.arena.play_game, one process)
against the native arena (hzai/native/search/arena.hpp) for the same matches, which
play the same games move for move (tests/search/test_native_arena.py).

    python -m benchmarks.arena_speed                    # writes benchmarks/results/arena_speed.json
    python -m benchmarks.arena_speed --games 40 --ismcts-games 6

Both sides run on one thread and are timed in CPU seconds of this process, so other
work on the machine slows neither; the native arena is also timed on two threads (wall
clock). The matches: Hera and Zeus random vs random and ISMCTS at 100 iterations on
both sides; a Legends of Hellas team (mission 1, two heroes) of light bots and of ISMCTS
at 100 iterations (Legends' random bot plays in Python only).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hzai.core import Limits, make_game
from hzai.search.arena import (native_arena, native_results, native_team_results, play_game, play_team_game,
                               text_ranks)

from benchmarks import harness

CONCERN = "engine"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
LEGENDS = {"mission": 1, "heroes": ["Perseus", "Atalanta"]}


def _python(game_name: str, params: dict | None, specs: list[str], limits: Limits, games: int,
            seed: int) -> tuple[float, int]:
    cpu = time.process_time()
    if len(specs) == 1:  # a team
        moves = sum(play_team_game(game_name, params, specs[0], i, limits, seed).moves for i in range(games))
    else:
        moves = sum(play_game(game_name, params, specs[0], specs[1], i, limits, seed).moves for i in range(games))
    return time.process_time() - cpu, moves


def _native(game, specs: list[str], limits: Limits, games: int, seed: int, threads: int) -> tuple[float, float, int]:
    bots = native_arena(game, specs, limits)
    if bots is None:
        raise SystemExit(f"{specs} is not a native match")
    cpu, wall = time.process_time(), time.perf_counter()
    indices = list(range(games))
    if len(specs) == 1:
        results = native_team_results(game, bots[0], indices, seed, threads)
    else:
        results = native_results(game, bots, indices, seed, threads)
    if any(r is None for r in results):
        raise SystemExit("a game left the native arena")
    return time.process_time() - cpu, time.perf_counter() - wall, sum(r.moves for r in results)


def measure(game_name: str, label: str, specs: list[str], limits: Limits, games: int, python_games: int,
            seed: int, params: dict | None = None) -> dict:
    game = make_game(game_name, **(params or {}))
    if game.search.native.arena_needs_text_ranks:
        text_ranks(game)  # computed once per game, outside the timing
    py_cpu, py_moves = _python(game_name, params, specs, limits, python_games, seed)
    nat_cpu, _, nat_moves = _native(game, specs, limits, games, seed, 1)
    _, two_wall, _ = _native(game, specs, limits, games, seed, 2)
    py_rate, nat_rate = python_games / py_cpu, games / nat_cpu
    row = {
        "game": game_name, "params": params, "match": label, "specs": specs, "iterations": limits.iterations,
        "python_games": python_games, "python_cpu_s": py_cpu, "python_games_per_s": py_rate,
        "python_moves_per_game": py_moves / python_games,
        "native_games": games, "native_cpu_s": nat_cpu, "native_games_per_s": nat_rate,
        "native_moves_per_game": nat_moves / games,
        "native_2_threads_wall_s": two_wall, "native_2_threads_games_per_s": games / two_wall,
        "native_over_python": nat_rate / py_rate,
    }
    print(f"{game_name} {label}: python {py_rate:.2f} games/s, native {nat_rate:.2f} games/s "
          f"({row['native_over_python']:.1f}x); native on 2 threads {row['native_2_threads_games_per_s']:.2f} games/s")
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="native random games (default 400)")
    parser.add_argument("--python-games", type=int, default=40, help="Python random games (default 40)")
    parser.add_argument("--ismcts-games", type=int, default=8, help="ISMCTS games each side (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(RESULTS / "arena_speed.json"))
    args = parser.parse_args(argv)
    rows = [
        measure("hera_zeus", "random vs random", ["random", "random"], Limits(iterations=1), args.games,
                args.python_games, args.seed),
        measure("hera_zeus", "ismcts@100 vs ismcts@100", ["ismcts:infer=0", "ismcts:infer=0"], Limits(iterations=100),
                args.ismcts_games, args.ismcts_games, args.seed),
        measure("legends", "team of light bots", ["light"], Limits(iterations=1), args.games, args.python_games,
                args.seed, LEGENDS),
        measure("legends", "team of ismcts@100", ["ismcts"], Limits(iterations=100), args.ismcts_games,
                args.ismcts_games, args.seed, LEGENDS),
    ]
    out = {"machine": harness.machine(),
           "note": "one-thread figures per CPU second of the process; two-thread figures per wall second",
           "rows": rows}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
