"""Service load with locust: requests/s, latency percentiles, errors and server CPU,
for 1 and N server worker threads.

    python -m benchmarks.load --seconds 20 --users 2 --workers 1 2

For each worker count a fresh hzai-server starts on 127.0.0.1 (free port) with
`--workers W --max-searches USERS`; each scenario of benchmarks/locustfile.py then runs
headless for `--seconds` with `--users` users (all spawned at once), after which the
server is stopped. Locust runs in its own process (it patches the standard library with
gevent); every request it made comes back as a sample for exact percentiles. Server CPU
is read from /proc before and after each run. Bounded: at most 64 users and 600 s a run.
Writes benchmarks/results/load.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import machine
from benchmarks.service import LocalServer, summary_ms

CONCERN = "service"  # its group in `python -m benchmarks list`

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
LOCUSTFILE = HERE / "locustfile.py"
SCENARIOS = {
    "suggest-small": ["SuggestSmall"],
    "suggest-large": ["SuggestLarge"],
    "analyze": ["AnalyzeUser"],
    "match": ["MatchUser"],
    "mixed": ["SuggestSmall", "SuggestLarge", "AnalyzeUser", "MatchUser"],
}


def locust_available() -> bool:
    """Whether locust is installed; not imported here: importing it patches the standard
    library with gevent, which only its own process may have."""
    import importlib.util

    return importlib.util.find_spec("locust") is not None


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_locust(target: str, classes: list[str], users: int, seconds: float, budgets: dict, workdir: Path) -> dict:
    """One headless locust run; the samples of every request and the locust process's CPU."""
    samples_path = workdir / "samples.json"
    samples_path.unlink(missing_ok=True)
    env = dict(os.environ)
    env.update({
        "HZAI_BENCH_SAMPLES": str(samples_path),
        "HZAI_BENCH_SMALL": str(budgets["small"]),
        "HZAI_BENCH_LARGE": str(budgets["large"]),
        "HZAI_BENCH_ANALYZE": str(budgets["analyze"]),
        "HZAI_BENCH_MATCH": str(budgets["match"]),
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p),
    })
    command = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--host", target,
               "-u", str(users), "-r", str(users), "-t", f"{seconds:g}s", "--stop-timeout", "0",
               "--only-summary", "--loglevel", "WARNING", "--exit-code-on-error", "0", *classes]
    cpu_before = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=workdir, capture_output=True, text=True, timeout=seconds + 120)
    wall = time.perf_counter() - started
    if done.returncode != 0 or not samples_path.exists():
        raise RuntimeError(f"locust exited with {done.returncode}: {done.stderr[-2000:]}")
    samples = json.loads(samples_path.read_text())["samples"]
    return {"samples": samples, "client_cpu_seconds": children_cpu() - cpu_before, "process_seconds": wall,
            "summary_text": done.stdout[-6000:]}


def digest(samples: list[list], window: float) -> dict:
    """Per request name: count, requests/s, errors by status, latency percentiles of the
    successful calls."""
    out: dict[str, dict] = {}
    for name in sorted({s[0] for s in samples}):
        rows = [s for s in samples if s[0] == name]
        ok = [s[2] for s in rows if s[3] == "OK"]
        errors: dict[str, int] = {}
        for s in rows:
            if s[3] != "OK":
                errors[s[3]] = errors.get(s[3], 0) + 1
        out[name] = {"requests": len(rows), "ok": len(ok), "errors": errors, "error_count": sum(errors.values()),
                     "requests_per_s": len(rows) / window if window > 0 else float("nan"),
                     "ok_per_s": len(ok) / window if window > 0 else float("nan"), **summary_ms(ok)}
    return out


def run(workers: list[int], scenarios: list[str], users: int, seconds: float, budgets: dict) -> dict:
    report = {"machine": machine(), "users": users, "seconds": seconds, "budgets": budgets, "runs": []}
    with tempfile.TemporaryDirectory(prefix="hzai-locust-") as tmp:
        for w in workers:
            with LocalServer(workers=w, max_searches=users) as server:
                for scenario in scenarios:
                    print(f"  load: {w} worker thread{'s' if w > 1 else ''}, {scenario}, {users} users, {seconds:g}s ...",
                          flush=True)
                    cpu0, t0 = server.cpu_seconds(), time.perf_counter()
                    result = run_locust(server.target, SCENARIOS[scenario], users, seconds, budgets, Path(tmp))
                    cpu1, t1 = server.cpu_seconds(), time.perf_counter()
                    samples = result["samples"]
                    if samples:
                        first = min(s[1] for s in samples)
                        last = max(s[1] + s[2] / 1000 for s in samples)
                        window = max(last - first, 1e-9)
                    else:
                        window = float(seconds)
                    requests = digest(samples, window)
                    row = {
                        "workers": w,
                        "scenario": scenario,
                        "users": users,
                        "window_seconds": window,
                        # CPU over the whole locust process life (start-up included), in cores
                        "server_cpu_cores": (cpu1 - cpu0) / (t1 - t0),
                        "client_cpu_cores": result["client_cpu_seconds"] / result["process_seconds"],
                        "requests": requests,
                        "total_requests": len(samples),
                        "total_errors": sum(r["error_count"] for r in requests.values()),
                    }
                    report["runs"].append(row)
                    for name, r in requests.items():
                        print(f"    {name:<34} {r['requests_per_s']:7.1f} req/s  p50 {r.get('p50_ms', float('nan')):7.1f}"
                              f"  p95 {r.get('p95_ms', float('nan')):7.1f}  p99 {r.get('p99_ms', float('nan')):7.1f} ms"
                              f"  errors {r['error_count']}", flush=True)
                    print(f"    server CPU {row['server_cpu_cores']:.2f} cores, locust {row['client_cpu_cores']:.2f} cores",
                          flush=True)
                # What the server itself counted over all its scenarios, from its metrics endpoint.
                report.setdefault("metrics", []).append({"workers": w, **server.scrape()})
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="server worker threads to compare")
    parser.add_argument("--scenarios", nargs="+", choices=sorted(SCENARIOS),
                        default=["suggest-small", "suggest-large", "analyze", "match"])
    parser.add_argument("--users", type=int, default=2, help="simulated users (1..64)")
    parser.add_argument("--seconds", type=float, default=20, help="length of one run (1..600)")
    parser.add_argument("--small", type=int, default=200, help="SuggestMove small budget (iterations)")
    parser.add_argument("--large", type=int, default=5000, help="SuggestMove large budget (iterations)")
    parser.add_argument("--analyze", type=int, default=1000, help="Analyze budget (iterations)")
    parser.add_argument("--match", type=int, default=200, help="hosted-match bot budget (iterations)")
    parser.add_argument("--out", default=str(RESULTS / "load.json"))
    args = parser.parse_args(argv)
    if not 1 <= args.users <= 64:
        parser.error("--users must be 1..64")
    if not 1 <= args.seconds <= 600:
        parser.error("--seconds must be 1..600")
    if not locust_available():
        parser.error("locust is not installed: pip install -e '.[bench]'")
    budgets = {"small": args.small, "large": args.large, "analyze": args.analyze, "match": args.match}
    report = run(args.workers, args.scenarios, args.users, args.seconds, budgets)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
