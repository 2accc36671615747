"""Shared pieces of the service benchmarks: a local hzai-server started and stopped by
the benchmark itself, its CPU use, test positions and latency summaries.

Every server here listens on 127.0.0.1 on a port the system picks (port 0); nothing is
sent anywhere else.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import percentile

CONCERN = None  # a shared piece, not a benchmark: `python -m benchmarks list` shows it apart

LOOPBACK = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def check_loopback(target: str) -> None:
    """Refuse any target outside the loopback range: these benchmarks load a server."""
    host = target.rsplit(":", 1)[0].strip("[]")
    if not (host in ("localhost", "::1") or host.startswith("127.")):
        raise ValueError(f"benchmarks only send traffic to loopback addresses, not {target!r}")


# The game every service benchmark plays: the records below are its records.
GAME = "hera_zeus"


def positions(count: int) -> list[str]:
    """Records (hzai-record/1 JSON text) 20+ moves into dealt games of GAME, the seat to
    move deciding: the positions of `python -m hzai_client.loadcheck`."""
    from hzai_client.loadcheck import positions as loadcheck_positions

    return loadcheck_positions(count)


def summary_ms(values: list[float]) -> dict:
    """count, mean, p50/p95/p99, max of latencies in milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return {"count": 0}
    return {
        "count": len(ordered),
        "mean_ms": sum(ordered) / len(ordered),
        "min_ms": ordered[0],
        "p50_ms": percentile(ordered, 0.5),
        "p95_ms": percentile(ordered, 0.95),
        "p99_ms": percentile(ordered, 0.99),
        "max_ms": ordered[-1],
    }


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _stop_with_parent() -> None:
    """In the server's process before it starts: SIGTERM it when the benchmark dies, so
    that no server outlives a benchmark that was killed (Linux; elsewhere a no-op)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class LocalServer:
    """`python -m hzai_server` on 127.0.0.1 and a free port, for the life of a `with`.

        with LocalServer(workers=2, max_searches=2) as server:
            client = HzaiClient(server.target)
    """

    def __init__(self, *, workers: int | None = None, max_searches: int | None = None, extra: list[str] | None = None,
                 start_timeout: float = 30.0, launcher: list[str] | None = None):
        # `launcher`: the command that runs the server instead of `python -m hzai_server`
        # (benchmarks.request_path_ab: another commit's server); the flags follow it.
        self.launcher = launcher or [sys.executable, "-m", "hzai_server"]
        # The metrics endpoint too, on a free loopback port: `scrape()` reads it.
        self.args = ["--address", f"{LOOPBACK}:0", "--grace", "1", "--metrics-address", f"{LOOPBACK}:0"]
        if workers is not None:
            self.args += ["--workers", str(workers)]
        if max_searches is not None:
            self.args += ["--max-searches", str(max_searches)]
        self.args += extra or []
        self.start_timeout = start_timeout
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.metrics_address: str | None = None
        self.worker_pids: list[int] = []  # with --processes N: the workers' pids
        self._logdir = None

    @property
    def target(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def cpu_seconds(self) -> float:
        """The server's CPU time: with --processes N, the supervisor's and its workers'."""
        return sum(cpu_seconds(pid) for pid in (self.pid, *self.worker_pids))

    def __enter__(self) -> "LocalServer":
        self._logdir = tempfile.TemporaryDirectory(prefix="hzai-bench-")
        self.log_path = Path(self._logdir.name) / "server.log"
        if "--processes" not in self.args:  # one process, as before --processes, unless `extra` asks for more
            self.args = ["--processes", "1", *self.args]
        if "--data-dir" not in self.args:  # hosted matches in a database of this run, not the user's
            self.args += ["--data-dir", str(Path(self._logdir.name) / "data")]
        log = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen([*self.launcher, *self.args],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            preexec_fn=_stop_with_parent)
        finally:
            log.close()
        deadline = time.monotonic() + self.start_timeout
        while self.port is None:
            if self.process.poll() is not None:
                raise RuntimeError(f"hzai-server exited with {self.process.returncode}: {self.log_tail()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"hzai-server did not start within {self.start_timeout:.0f}s: {self.log_tail()}")
            for line in self.log_path.read_text(errors="replace").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("event") == "listening" and "worker" not in entry:  # the whole server
                    self.port = int(entry["port"])
                    self.metrics_address = entry.get("metrics")
                    self.worker_pids = list(entry.get("pids", []))
                    break
            else:
                time.sleep(0.05)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import grpc

        with grpc.insecure_channel(self.target) as channel:
            grpc.channel_ready_future(channel).result(timeout=self.start_timeout)

    def scrape(self) -> dict:
        """The key series of the server's metrics endpoint now (see metrics_summary)."""
        import urllib.request

        check_loopback(self.metrics_address or "")
        with urllib.request.urlopen(f"http://{self.metrics_address}/metrics", timeout=10) as reply:
            return metrics_summary(reply.read().decode())

    def log_tail(self, lines: int = 5) -> str:
        try:
            return " | ".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def rpc_log(self) -> list[dict]:
        """The server's `rpc` log lines (method, code, milliseconds)."""
        out = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if "method" in entry:
                out.append(entry)
        return out

    def kill(self) -> None:
        """SIGKILL: the server ends at once, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __exit__(self, *exc) -> None:
        self.stop()
        if self._logdir is not None:
            self._logdir.cleanup()
            self._logdir = None


def histogram_quantile(q: float, buckets: list[tuple[float, float]]) -> float:
    """The q-quantile of a Prometheus histogram given as ascending (upper bound,
    cumulative count), interpolated within its bucket as Prometheus does; NaN when empty.
    A quantile in the +Inf bucket is reported as the last finite bound."""
    total = buckets[-1][1] if buckets else 0
    if total <= 0:
        return float("nan")
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * ((rank - below) / (count - below) if count > below else 1.0)
        lower, below = bound, count
    return lower


def metrics_summary(text: str) -> dict:
    """From the Prometheus text of hzai-server: calls by method and code with p50/p99 (ms,
    from the latency histogram), refusals by reason, search iterations per second of
    search time."""
    from prometheus_client.parser import text_string_to_metric_families

    buckets: dict[tuple[str, str], list] = {}
    calls: dict[tuple[str, str], float] = {}
    refusals: dict[str, float] = {}
    totals = {"hzai_search_iterations_total": 0.0, "hzai_search_seconds_total": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == "hzai_rpc_seconds_bucket":
                buckets.setdefault((labels["method"], labels["code"]), []).append((float(labels["le"]), sample.value))
            elif sample.name == "hzai_rpc_seconds_count":
                calls[(labels["method"], labels["code"])] = sample.value
            elif sample.name == "hzai_refusals_total":
                refusals[labels["reason"]] = sample.value
            elif sample.name in totals:
                totals[sample.name] = sample.value
    rpcs = []
    for (method, code), count in sorted(calls.items()):
        series = sorted(buckets.get((method, code), []))
        rpcs.append({"method": method, "code": code, "calls": int(count),
                     "p50_ms": 1000 * histogram_quantile(0.5, series), "p99_ms": 1000 * histogram_quantile(0.99, series)})
    seconds = totals["hzai_search_seconds_total"]
    return {"rpcs": rpcs, "refusals": refusals, "search_iterations": totals["hzai_search_iterations_total"],
            "search_seconds": seconds,
            "iterations_per_search_second": totals["hzai_search_iterations_total"] / seconds if seconds else float("nan")}
