"""A quick latency and throughput check of SuggestMove against a running server.

    python -m hzai_client.loadcheck --server 127.0.0.1:50051 --budget 1000 \\
        --requests 40 --concurrency 1 2 4

For each concurrency: that many client threads (each with its own channel, so the
connections are separate) send `--requests` SuggestMove calls in all, on positions from
a few dealt-and-played records. Prints requests per second, latency percentiles, and
how many calls the server refused with RESOURCE_EXHAUSTED (over --max-searches).
Bounded: at most --requests calls per concurrency level, loopback addresses only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time

import grpc

from hzai.cli_options import JSON_STDOUT, UsageError, add_json_option, json_file, write_json_option
from hzai.core import Limits, LimitsError
from hzai_client.sync import HzaiClient

GAME = "hera_zeus"  # the game of the positions below


def positions(count: int) -> list[str]:
    """Records (JSON text) of dealt games of GAME 20 and more moves in, each at a
    decision, played at random through the library's core (no game named here)."""
    from hzai.core import make_game
    from hzai.rng import SplitMix64

    game = make_game(GAME)
    out = []
    for seed in range(count):
        record = game.records.new(100 + seed)
        state = game.records.start_of(record)
        rng = SplitMix64(seed)
        while len(record.moves) < 20 + seed and not state.is_terminal:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
            move = options[rng.below(len(options))]
            state.apply(move)
            record.moves.append(game.move_text(move))
        if not state.is_terminal and not state.is_chance:
            out.append(json.dumps(game.records.write(record)))
    return out


def run_level(target: str, records: list[str], concurrency: int, requests: int, budget: dict, bot: str) -> dict:
    """`budget`: suggest_move's iterations and millis."""
    latencies: list[float] = []
    refused = failed = 0
    lock = threading.Lock()
    counter = iter(range(requests))

    def worker():
        nonlocal refused, failed
        with HzaiClient(target, timeout=60) as client:
            client.wait_ready(10)
            for i in counter:
                start = time.perf_counter()
                try:
                    client.suggest_move(records[i % len(records)], game=GAME, seed=i, bot=bot, **budget)
                except grpc.RpcError as exc:
                    with lock:
                        if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                            refused += 1
                        else:
                            failed += 1
                    continue
                with lock:
                    latencies.append((time.perf_counter() - start) * 1000)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else float("nan")

    return {
        "concurrency": concurrency,
        "ok": len(latencies),
        "refused": refused,
        "failed": failed,
        "seconds": round(wall, 2),
        "ok_per_second": round(len(latencies) / wall, 1) if wall else 0.0,
        "p50_ms": round(pct(0.5), 1),
        "p95_ms": round(pct(0.95), 1),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hzai_client.loadcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="127.0.0.1:50051")
    parser.add_argument("--budget", default=None,
                        help="each call's search budget: 1000 (iterations, the default), 250ms, 2s or 1000,250ms")
    parser.add_argument("--iterations", type=int, default=None, help=argparse.SUPPRESS)  # the old name of --budget N
    parser.add_argument("--requests", type=int, default=40, help="calls per concurrency level (at most 10000)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--bot", default="ismcts")
    add_json_option(parser, "the figures of every level")
    args = parser.parse_args(argv)
    if args.budget is not None and args.iterations is not None:
        parser.error("--budget and --iterations say the same thing: give one")
    text = args.budget if args.budget is not None else str(args.iterations if args.iterations is not None else 1000)
    try:
        limits = Limits.parse(text)
    except LimitsError as exc:
        parser.error(f"--budget: {str(exc).removeprefix('budget ')}")
    budget = {"iterations": limits.iterations, "millis": limits.millis}
    host = args.server.rsplit(":", 1)[0].strip("[]")
    if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
        parser.error("this check only sends traffic to loopback addresses")
    if not 1 <= args.requests <= 10_000:
        parser.error("--requests must be 1..10000")
    try:
        out = json_file(args)  # opened before the load runs: a path it cannot write is said at once
    except UsageError as exc:
        parser.error(str(exc))
    records = positions(8)
    results = [run_level(args.server, records, c, args.requests, budget, args.bot) for c in args.concurrency]
    if out is not None:
        with out:
            out.write(json.dumps(results, indent=2) + "\n")
    elif args.json is not None:
        write_json_option(args, results, indent=2)
    if args.json != JSON_STDOUT:
        print(f"SuggestMove, bot {args.bot}, budget {text}, {args.requests} calls per level")
        print(f"{'clients':>7} {'ok':>5} {'refused':>7} {'calls/s':>8} {'p50 ms':>8} {'p95 ms':>8}")
        for r in results:
            print(f"{r['concurrency']:>7} {r['ok']:>5} {r['refused']:>7} {r['ok_per_second']:>8} "
                  f"{r['p50_ms']:>8} {r['p95_ms']:>8}")
    return 0 if all(r["failed"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
