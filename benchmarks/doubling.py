"""What a doubling of the search budget is worth (issue 15's yardstick): ismcts-v1 with
2N iterations a decision against ismcts-v1 with N, seat-swapped, in the native arena.

    python -m benchmarks.doubling [--iterations 1000] [--games 400] [--seed 30000] [--threads 2]

The issue's targets are scores against ismcts-v1 at equal time; this says how many
iterations such a score is worth: a new search that scores what 2N iterations score
against N plays as if it had twice the budget. Deal i is seed + i, the bot with 2N
sits first in even games; the games are reproducible (iteration budgets, no clock).
Progress on stderr; writes benchmarks/results/doubling_<N>.json.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hzai.core import Limits, make_game
from hzai.search.arena import native_bot, native_results, summarize
from hzai.search.bot import make_bot

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

BOT = "ismcts-v1"
CHUNK = 20
OUT = Path(__file__).parent / "results"


def play(iterations: int, games: int, seed: int, threads: int, progress=None) -> dict:
    """The match of 2 * iterations against iterations: its score and per-game results."""
    game = make_game("hera_zeus")
    double = native_bot(make_bot(BOT), Limits(iterations=2 * iterations), game)
    single = native_bot(make_bot(BOT), Limits(iterations=iterations), game)
    started = time.perf_counter()
    results = []
    for lo in range(0, games, CHUNK):
        for result in native_results(game, [double, single], list(range(lo, min(games, lo + CHUNK))), seed, threads):
            if result is None:
                raise RuntimeError("a game of the native arena could not be played through")
            results.append(result)
        if progress:
            progress(len(results), games, sum(r.a_points for r in results) / len(results))
    match = summarize(BOT, BOT, Limits(iterations=iterations), seed, results, time.perf_counter() - started)
    return {"bot": BOT, "iterations": [2 * iterations, iterations], "games": match.games, "seed": seed,
            "score": match.a_score, "ci95": list(match.a_score_ci95), "seconds": match.seconds,
            "results": [{"index": r.index, "score": r.a_points, "moves": r.moves} for r in match.results]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=1000, help="N: the smaller budget (default 1000)")
    parser.add_argument("--games", type=int, default=400, help="games (default 400)")
    parser.add_argument("--seed", type=int, default=30000, help="deal i is seed + i (default 30000)")
    parser.add_argument("--threads", type=int, default=2, help="arena threads (default 2)")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for doubling_<N>.json")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.games < 1 or args.threads < 1:
        parser.error("--iterations, --games and --threads must be at least 1")

    def progress(done, total, score):
        print(f"\r[{done}/{total}] {2 * args.iterations} vs {args.iterations} iterations: {score:.1%}", end="",
              file=sys.stderr, flush=True)

    report = play(args.iterations, args.games, args.seed, args.threads, progress)
    print(file=sys.stderr)
    report["command"] = harness.command("doubling", argv)
    harness.write_json(args.out / f"doubling_{args.iterations}.json", report)
    low, high = report["ci95"]
    print(f"{BOT} at {2 * args.iterations} vs {args.iterations} iterations, {report['games']} games: "
          f"{report['score']:.1%} [95% {low:.1%}..{high:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
