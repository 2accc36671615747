"""Latency discipline: response times of a time budget B under N concurrent clients, up
to the server's limit of concurrent searches and beyond it.

    python -m benchmarks.latency --millis 100 --max-searches 2 --clients 1 2 3 4 --seconds 10

A local hzai-server (127.0.0.1, free port) runs with `--max-searches M`. For each client
count N, N threads (each with its own channel) send SuggestMove with a budget of B
milliseconds back to back for `--seconds`; a refused call (RESOURCE_EXHAUSTED) is retried
after `--backoff` ms. Targets: p99 ≤ B + 50 ms while N ≤ M; past M the extra calls are
refused at once (their own response times are reported) and the accepted calls' times
do not grow. Bounded: at most 32 clients and 120 s a level. Writes
benchmarks/results/latency.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

from benchmarks.harness import machine
from benchmarks.service import GAME, LocalServer, positions, summary_ms

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SLACK_MS = 50


def level(target: str, records: list[str], clients: int, millis: int, seconds: float, backoff_ms: float) -> dict:
    import grpc
    from hzai_client import HzaiClient

    accepted: list[float] = []
    refused: list[float] = []
    other: dict[str, int] = {}
    lock = threading.Lock()
    start_line = threading.Barrier(clients)
    stop_at = [0.0]

    def worker(k: int):
        with HzaiClient(target, timeout=max(10.0, 20 * millis / 1000)) as client:
            client.wait_ready(10)
            start_line.wait()
            i = k
            while time.perf_counter() < stop_at[0]:
                record = records[i % len(records)]
                t0 = time.perf_counter()
                try:
                    client.suggest_move(record, game=GAME, millis=millis, seed=i)
                    took = (time.perf_counter() - t0) * 1000
                    with lock:
                        accepted.append(took)
                except grpc.RpcError as exc:
                    took = (time.perf_counter() - t0) * 1000
                    with lock:
                        if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                            refused.append(took)
                        else:
                            other[exc.code().name] = other.get(exc.code().name, 0) + 1
                    time.sleep(backoff_ms / 1000)
                i += clients

    stop_at[0] = time.perf_counter() + seconds + 1.0  # the second for connecting is not measured
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "clients": clients,
        "accepted": summary_ms(accepted),
        "refused": summary_ms(refused),
        "other_errors": other,
        "accepted_per_s": len(accepted) / seconds,
        "samples_accepted_ms": sorted(round(x, 2) for x in accepted),
        "samples_refused_ms": sorted(round(x, 2) for x in refused),
    }


def measure(millis: int, max_searches: int, clients: list[int], seconds: float, backoff_ms: float) -> dict:
    records = positions(8)
    report = {"machine": machine(), "budget_ms": millis, "max_searches": max_searches, "seconds_per_level": seconds,
              "backoff_ms": backoff_ms, "target_p99_ms": millis + SLACK_MS, "levels": []}
    with LocalServer(max_searches=max_searches) as server:
        for n in clients:
            print(f"  latency: {n} client{'s' if n > 1 else ''}, budget {millis} ms, limit {max_searches} searches ...",
                  flush=True)
            row = level(server.target, records, n, millis, seconds, backoff_ms)
            a, r = row["accepted"], row["refused"]
            row["within_limit"] = n <= max_searches
            row["meets_target"] = bool(a.get("count")) and a["p99_ms"] <= millis + SLACK_MS
            report["levels"].append(row)
            line = (f"    accepted {a.get('count', 0)}: p50 {a.get('p50_ms', float('nan')):.1f} "
                    f"p95 {a.get('p95_ms', float('nan')):.1f} p99 {a.get('p99_ms', float('nan')):.1f} ms")
            if r.get("count"):
                line += f"; refused {r['count']}: p50 {r['p50_ms']:.1f} p99 {r['p99_ms']:.1f} ms"
            if row["other_errors"]:
                line += f"; other errors {row['other_errors']}"
            print(line, flush=True)
    inside = [lv for lv in report["levels"] if lv["within_limit"]]
    report["meets_target_within_limit"] = bool(inside) and all(lv["meets_target"] for lv in inside)
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--millis", type=int, default=100, help="time budget B per move (ms)")
    parser.add_argument("--max-searches", type=int, default=2, help="the server's --max-searches")
    parser.add_argument("--clients", type=int, nargs="+", default=None,
                        help="client counts (default 1..M, then M+1 and 2M)")
    parser.add_argument("--seconds", type=float, default=10, help="time per client count (1..120)")
    parser.add_argument("--backoff", type=float, default=20, help="ms a refused client waits before its next call")
    parser.add_argument("--out", default=str(RESULTS / "latency.json"))
    args = parser.parse_args(argv)
    m = args.max_searches
    clients = args.clients or sorted({*range(1, m + 1), m + 1, 2 * m})
    if not all(1 <= n <= 32 for n in clients) or not 1 <= args.seconds <= 120:
        parser.error("clients must be 1..32 and --seconds 1..120")
    report = measure(args.millis, m, clients, args.seconds, args.backoff)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
