"""SuggestMove throughput of one hzai-server address served by 1 process and by N
(`hzai-server --processes N`), within one run (issue 46, item 1).

    python -m benchmarks.processes --processes 1 2 --iterations 200 --seconds 15 --rounds 2

For each round and each process count (in turn, 1 2 1 2 ...), a fresh server on a free
loopback port with a fresh SQLite directory, then `--clients` load-generating processes
of `--threads` threads each, every thread with a connection of its own (so the kernel
spreads the connections over the workers), sending SuggestMove at `--iterations`
iterations on the load check's positions. Calls are counted over a window of `--seconds`
after `--warmup` seconds, every client on one clock (CLOCK_MONOTONIC is system-wide).
Reported per run: calls/s, the split of the calls over the workers (the `hzai-worker`
trailing metadata), p50/p99, refusals, the server's CPU (supervisor and workers) and the
load generator's own CPU in the window, and the machine's load average before it.

The load generator is on the same machine: its CPU is measured and reported, not kept
out. On a machine with few cores it competes with the server for them, which caps the
ratio below what a machine with cores to spare would show; the server's CPU seconds per
call and the cores it used say what the processes themselves did.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import machine, percentile
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def client_main(args) -> int:
    """One load-generating process: read the start time on stdin, run, print JSON."""
    import grpc

    from hzai_client import HzaiClient
    from hzai_client import messages as m
    from benchmarks.service import positions

    records = positions(8)
    clients = [HzaiClient(args.client, timeout=60, options=[("grpc.use_local_subchannel_pool", 1)])
               for _ in range(args.threads)]
    for client in clients:  # connected before the clock starts
        client.list_games()
    start = float(sys.stdin.readline())
    begin, end = start + args.warmup, start + args.warmup + args.seconds
    done: list[tuple[float, float, str]] = []  # (finished at, seconds, worker)
    errors: dict[str, int] = {}
    lock = threading.Lock()

    def run(k: int, client: HzaiClient) -> None:
        # Built before the clock starts: the loop only sends (a different seed each call).
        requests = [m.suggest_request(client._position(records[n % len(records)], None, None),
                                      iterations=args.iterations, seed=n) for n in range(64)]
        n = k
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                _, call = client.bots.SuggestMove.with_call(requests[n % len(requests)], timeout=60)
                worker = dict(call.trailing_metadata() or ()).get("hzai-worker", "-")
                with lock:
                    done.append((time.monotonic(), time.monotonic() - t0, worker))
            except grpc.RpcError as exc:
                with lock:
                    errors[exc.code().name] = errors.get(exc.code().name, 0) + 1
            n += 1

    time.sleep(max(0.0, start - time.monotonic()))
    cpu_at = {}
    threads = [threading.Thread(target=run, args=(k, c)) for k, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, begin - time.monotonic()))
    cpu_at["begin"] = _own_cpu()
    time.sleep(max(0.0, end - time.monotonic()))
    cpu_at["end"] = _own_cpu()
    for thread in threads:
        thread.join()
    window = [(s, w) for at, s, w in done if begin <= at < end]
    by_worker: dict[str, int] = {}
    for _, worker in window:
        by_worker[worker] = by_worker.get(worker, 0) + 1
    print(json.dumps({"calls": len(window), "latencies": [s for s, _ in window], "by_worker": by_worker,
                      "errors": errors, "cpu_seconds": cpu_at["end"] - cpu_at["begin"]}))
    return 0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(processes: int, args) -> dict:
    flags = ["--processes", str(processes), "--max-searches", str(args.max_searches),
             "--search-queue", str(args.clients * args.threads), "--search-queue-per-client",
             str(args.clients * args.threads)]
    load = os.getloadavg()[0]
    with LocalServer(extra=flags, start_timeout=120) as server:
        command = [sys.executable, "-m", "benchmarks.processes", "--client", server.target,
                   "--threads", str(args.threads), "--iterations", str(args.iterations),
                   "--seconds", str(args.seconds), "--warmup", str(args.warmup)]
        clients = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                   for _ in range(args.clients)]
        time.sleep(args.client_start)  # the clients import and connect
        start = time.monotonic() + 0.5
        for client in clients:
            client.stdin.write(f"{start}\n")
            client.stdin.flush()
        time.sleep(max(0.0, start + args.warmup - time.monotonic()))
        cpu_begin = server.cpu_seconds()
        time.sleep(max(0.0, start + args.warmup + args.seconds - time.monotonic()))
        cpu_end = server.cpu_seconds()
        reports = []
        for client in clients:
            out, _ = client.communicate(timeout=180)
            reports.append(json.loads(out.strip().splitlines()[-1]))
    latencies = sorted(s * 1000 for r in reports for s in r["latencies"])
    calls = sum(r["calls"] for r in reports)
    by_worker: dict[str, int] = {}
    errors: dict[str, int] = {}
    for report in reports:
        for key, n in report["by_worker"].items():
            by_worker[key] = by_worker.get(key, 0) + n
        for key, n in report["errors"].items():
            errors[key] = errors.get(key, 0) + n
    server_cpu = cpu_end - cpu_begin
    client_cpu = sum(r["cpu_seconds"] for r in reports)
    return {
        "processes": processes, "calls": calls, "calls_per_s": round(calls / args.seconds, 1),
        "by_worker": dict(sorted(by_worker.items())), "errors": errors,
        "p50_ms": round(percentile(latencies, 0.5), 2) if latencies else None,
        "p99_ms": round(percentile(latencies, 0.99), 2) if latencies else None,
        "server_cores": round(server_cpu / args.seconds, 2),
        "server_cpu_ms_per_call": round(1000 * server_cpu / calls, 3) if calls else None,
        "client_cores": round(client_cpu / args.seconds, 2),
        "load_average_before": round(load, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.processes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0, help="the measured window of each run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2, help="load-generating processes")
    parser.add_argument("--threads", type=int, default=4, help="threads (connections) per client process")
    parser.add_argument("--max-searches", type=int, default=2, help="each server process's --max-searches")
    parser.add_argument("--client-start", type=float, default=6.0, help="seconds the clients get to start")
    parser.add_argument("--out", default=str(RESULTS / "processes.json"))
    parser.add_argument("--client", help=argparse.SUPPRESS)  # a load-generating process: the target
    args = parser.parse_args(argv)
    if args.client:
        return client_main(args)
    runs = []
    for round_ in range(args.rounds):
        for processes in args.processes:
            run = measure(processes, args)
            run["round"] = round_
            runs.append(run)
            print(json.dumps(run), flush=True)
    base = [r["calls_per_s"] for r in runs if r["processes"] == args.processes[0]]
    ratios = {}
    for processes in args.processes[1:]:
        mine = [r["calls_per_s"] for r in runs if r["processes"] == processes]
        ratios[str(processes)] = [round(m / b, 2) for m, b in zip(mine, base)]
    result = {
        "command": harness.command("processes", argv),
        "machine": machine(), "iterations": args.iterations, "clients": args.clients, "threads": args.threads,
        "runs": runs, f"ratio_vs_{args.processes[0]}_by_round": ratios,
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({"ratios": ratios}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
