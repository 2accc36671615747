"""`hzai-server --processes N`: one address served by N worker processes.

gRPC's Python server holds the interpreter for its own work on every call, so one process
tops out near one and a third cores for small searches whatever its thread count. N
processes each serving the same port use N cores. This module is the supervisor, the
parent process; it never imports grpc, so no gRPC object exists in it:

- it reserves the port first (a socket bound with SO_REUSEPORT and kept, never listening:
  port 0 becomes one port all workers share, and no other program takes it while a worker
  restarts);
- it starts each worker as `python -m hzai_server` with the operator's flags plus
  `--processes 1 --address HOST:PORT --worker I --ready-fd FD`: a fresh interpreter (no
  fork of a process with threads), which binds the port with SO_REUSEPORT, so the kernel
  spreads new connections over the workers (app.HzaiServer). Each names itself in every
  log line (`worker`) and in the trailing metadata of every answer (`hzai-worker`);
- a worker reports on a socket pair once it serves (its pid, port and private metrics
  address) and watches that socket: when the supervisor ends, however, the worker stops;
- a worker that dies is logged (`worker died`), counted (hzai_worker_restarts_total) and
  started again (at once, or after a growing pause, up to 30 s, if it keeps dying young);
  one that stops beating on its socket (every 0.5 s) for SILENCE_LIMIT seconds, stopped
  or stuck while the kernel still hands it connections, is killed first
  (`worker unresponsive`);
- SIGTERM or SIGINT is passed on to every worker, which drains as a lone server does; one
  still running at the grace period + 0.9 s is killed, so the whole exits within the
  grace period + 1 s;
- `--metrics-address` is the supervisor's: each scrape reads every worker's own endpoint
  (on loopback, port 0) and serves the sums, with the supervisor's series beside them.

Hosted matches live in the store (SQLite in WAL mode or PostgreSQL), which every worker
reads and writes with a compare-and-set on the match's version, exactly as replicas of a
cluster do; the caches (decisions, replays, replayed matches) are each worker's own.
"""

from __future__ import annotations

import json
import math
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from prometheus_client import CollectorRegistry, Counter, Gauge, start_http_server
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from hzai_server.config import ServerConfig
from hzai_server.logs import LOGGER, log
from hzai_server.stores import open_store

START_TIMEOUT = 120.0  # seconds a worker may take to serve (imports on a loaded machine)
STOP_MARGIN = 0.9  # seconds past the grace period after which a worker still running is killed
YOUNG = 10.0  # a worker that dies sooner after its start waits before the next try
MAX_PAUSE = 30.0
SCRAPE_TIMEOUT = 5.0
SILENCE_LIMIT = 5.0  # seconds without a heartbeat (sent every 0.5 s) after which a worker is killed
# Series every worker reads from the shared store: the same value in each, taken once.
SHARED_SERIES = frozenset({"hzai_live_matches"})


def reserve_port(address: str) -> tuple[socket.socket, int]:
    """A socket bound to `address` with SO_REUSEPORT (not listening: it takes no
    connection), and its port. OSError saying why the address cannot be used."""
    if not hasattr(socket, "SO_REUSEPORT"):
        raise OSError("--processes above 1 needs SO_REUSEPORT, which this system lacks: give --processes 1")
    host, _, port = address.rpartition(":")
    try:
        infos = socket.getaddrinfo(host.strip("[]") or None, int(port), type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OSError(f"cannot listen on {address}: {exc.strerror}") from None
    reason = "no address"
    for family, kind, proto, _, where in infos:
        held = socket.socket(family, kind, proto)
        try:
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            held.bind(where)
            return held, held.getsockname()[1]
        except OSError as exc:
            held.close()
            reason = exc.strerror or str(exc)
    raise OSError(f"cannot listen on {address}: {reason}")


def signal_name(number: int) -> str:
    """SIGKILL, SIGTERM, ...; a signal with no name here (a real-time one) by its number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"

class Worker:
    """One worker process and the socket it reports on."""

    def __init__(self, index: int, process: subprocess.Popen, link: socket.socket):
        self.index = index
        self.process = process
        self.link = link
        self.started = time.monotonic()
        self.ready: dict | None = None  # what it reported once serving: pid, port, metrics
        self.last_beat = self.started
        self._reader = threading.Thread(target=self._read, name=f"worker-{index}-link", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """The worker's report once it serves, then its heartbeats until the socket ends."""
        data = b""
        try:
            while b"\n" not in data:
                chunk = self.link.recv(4096)
                if not chunk:
                    return
                data += chunk
            self.last_beat = time.monotonic()
            self.ready = json.loads(data.split(b"\n", 1)[0])
            while self.link.recv(4096):
                self.last_beat = time.monotonic()
        except (OSError, ValueError):
            pass

    def silent_for(self, now: float) -> float:
        """Seconds since the last heartbeat of a worker that serves (0 before it serves)."""
        return now - self.last_beat if self.ready else 0.0

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        self.link.close()


def merged_families(texts: list[str]) -> list[Metric]:
    """The metric families of several workers' scrapes as one: every sample summed over
    the workers, but `_created` (the earliest) and SHARED_SERIES (read from the one store:
    taken once)."""
    families: dict[str, tuple[str, str, dict]] = {}
    for text in texts:
        for family in text_string_to_metric_families(text):
            _, _, samples = families.setdefault(family.name, (family.documentation, family.type, {}))
            for sample in family.samples:
                key = (sample.name, tuple(sorted(sample.labels.items())))
                value = sample.value
                if key not in samples or math.isnan(samples[key]):
                    samples[key] = value
                elif math.isnan(value):
                    pass
                elif family.name in SHARED_SERIES:
                    samples[key] = max(samples[key], value)
                elif sample.name.endswith("_created"):
                    samples[key] = min(samples[key], value)
                else:
                    samples[key] += value
    merged = []
    for name, (documentation, kind, samples) in families.items():
        metric = Metric(name, documentation, kind)
        for (sample_name, labels), value in samples.items():
            metric.add_sample(sample_name, dict(labels), value)
        merged.append(metric)
    return merged


class _WorkersCollector:
    """A prometheus_client collector: every worker's series, read at scrape time."""

    def __init__(self, supervisor: "Supervisor"):
        self.supervisor = supervisor

    def collect(self):
        texts = []
        for worker in list(self.supervisor.workers):
            address = worker.ready and worker.ready.get("metrics") if worker is not None else None
            if not address or not worker.alive:
                continue
            try:
                with urllib.request.urlopen(f"http://{address}/metrics", timeout=SCRAPE_TIMEOUT) as reply:
                    texts.append(reply.read().decode())
            except OSError as exc:  # a worker that died or stalls: the others are still served
                log("worker metrics unread", level=30, worker=worker.index, error=str(exc)[:200])
        return merged_families(texts)


class Supervisor:
    """The parent of `config.processes` workers serving `config.address`."""

    def __init__(self, config: ServerConfig, argv: list[str]):
        self.config = config
        self.argv = list(argv)
        self.host = config.address.rpartition(":")[0]
        self.held, self.port = reserve_port(config.address)
        self.workers: list[Worker | None] = [None] * config.processes
        self._due: dict[int, float] = {}  # worker index -> when to start it again
        self._failures = [0] * config.processes
        self.stop_requested = threading.Event()
        self.registry = CollectorRegistry(auto_describe=False)
        self.restarts = Counter("hzai_worker_restarts", "Worker processes that died and were started again",
                                registry=self.registry)
        self.running = Gauge("hzai_workers", "Worker processes serving now", registry=self.registry)
        self.running.set_function(lambda: float(sum(1 for w in self.workers if w and w.ready and w.alive)))
        self.registry.register(_WorkersCollector(self))
        self._metrics_server = None
        self.metrics_address = None

    # ----- workers -----
    def _command(self, index: int, fd: int) -> list[str]:
        return [sys.executable, "-m", "hzai_server", *self.argv, "--processes", "1",
                "--address", f"{self.host}:{self.port}",
                "--metrics-address", "127.0.0.1:0" if self.config.metrics_address else "",
                "--worker", str(index), "--ready-fd", str(fd)]

    def _spawn(self, index: int) -> Worker:
        mine, theirs = socket.socketpair()
        try:
            process = subprocess.Popen(self._command(index, theirs.fileno()), pass_fds=(theirs.fileno(),),
                                       stdin=subprocess.DEVNULL)
        except OSError:
            mine.close()
            raise
        finally:
            theirs.close()
        worker = Worker(index, process, mine)
        self.workers[index] = worker
        return worker

    def _start_all(self) -> str | None:
        """Start every worker and wait until each serves; why not, or None."""
        for index in range(self.config.processes):
            self._spawn(index)
        deadline = time.monotonic() + START_TIMEOUT
        while not all(w.ready for w in self.workers):
            for worker in self.workers:
                if not worker.alive and not worker.ready:
                    return f"worker {worker.index} exited with status {worker.process.returncode} before serving"
            if self.stop_requested.is_set():
                return "stopped while starting"
            if time.monotonic() > deadline:
                return f"a worker did not serve within {START_TIMEOUT:g} s"
            time.sleep(0.05)
        return None

    def _watch(self) -> None:
        """Restart the workers that died, until a stop is requested."""
        now = time.monotonic()
        for worker in self.workers:
            # Its connections would wait for ever: killed, then restarted as any worker that dies.
            if worker is not None and worker.alive and worker.silent_for(now) > SILENCE_LIMIT:
                log("worker unresponsive", level=40, worker=worker.index, pid=worker.process.pid,
                    silent_seconds=round(worker.silent_for(now), 1))
                worker.process.kill()
                worker.process.wait()
        for index, worker in enumerate(self.workers):
            if worker is not None and not worker.alive:
                code = worker.process.returncode
                lived = now - worker.started
                self._failures[index] = self._failures[index] + 1 if lived < YOUNG else 0
                pause = 0.0 if not self._failures[index] else min(MAX_PAUSE, 0.5 * 2 ** (self._failures[index] - 1))
                how = {"signal": signal_name(-code)} if code < 0 else {"exit_code": code}
                log("worker died", level=40, worker=index, pid=worker.process.pid, lived_seconds=round(lived, 1),
                    restart_in_seconds=pause, **how)
                self.restarts.inc()
                worker.close()
                self.workers[index] = None
                self._due[index] = now + pause
        for index, when in list(self._due.items()):
            if now >= when:
                del self._due[index]
                try:
                    worker = self._spawn(index)
                except OSError as exc:
                    log("worker not started", level=40, worker=index, error=str(exc))
                    self._due[index] = now + MAX_PAUSE
                    continue
                log("worker restarted", worker=index, pid=worker.process.pid)

    def _stop_all(self) -> None:
        """SIGTERM to every worker; kill those still running at the grace + STOP_MARGIN."""
        start = time.monotonic()
        live = [w for w in self.workers if w is not None and w.alive]
        log("stopping", grace_seconds=self.config.grace, workers=len(live))
        for worker in live:
            try:
                worker.process.send_signal(signal.SIGTERM)
            except OSError:
                pass
        deadline = start + self.config.grace + STOP_MARGIN
        while any(w.alive for w in live) and time.monotonic() < deadline:
            time.sleep(0.02)
        killed = [w.index for w in live if w.alive]
        for worker in live:
            if worker.alive:
                worker.process.kill()
            worker.process.wait()
            worker.close()
        if killed:
            log("workers killed", level=30, workers=killed, reason="still running after the grace period")

    # ----- the whole -----
    def run(self) -> int:
        def on_signal(signum, _frame):
            log("signal", signal=signal.Signals(signum).name)
            self.stop_requested.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        # The store opened once here first: a database that cannot be opened stops the start
        # in one line, and the schema is created or migrated once, not by N workers at once.
        try:
            open_store(self.config.store, self.config.data_dir).close()
        except OSError as exc:
            log("cannot start", level=40, error=str(exc))
            self._close()
            return 1
        if self.config.metrics_address:  # first: a port in use stops the start before any worker runs
            host, _, port = self.config.metrics_address.rpartition(":")
            try:
                self._metrics_server, _ = start_http_server(int(port), host.strip("[]"), registry=self.registry)
            except OSError as exc:
                log("cannot start", level=40,
                    error=f"cannot serve metrics on {self.config.metrics_address}: {exc.strerror or exc}")
                self._close()
                return 1
            self.metrics_address = f"{host}:{self._metrics_server.server_port}"
        problem = self._start_all()
        if problem and not self.stop_requested.is_set():
            log("cannot start", level=40, error=problem)
            self._stop_all()
            self._close()
            return 1
        if not problem:
            log("listening", address=f"{self.host}:{self.port}", port=self.port, processes=self.config.processes,
                pids=[w.process.pid for w in self.workers], metrics=self.metrics_address)
        while not self.stop_requested.wait(0.2):
            try:
                self._watch()
            except Exception as exc:  # noqa: BLE001 - the supervisor outlives a fault of its own bookkeeping
                log("supervisor fault", level=40, error=f"{type(exc).__name__}: {exc}")
        self._stop_all()
        self._close()
        log("stopped")
        return 0

    def _close(self) -> None:
        # The metrics endpoint is left to the process's exit: its shutdown() would wait up to
        # half a second for the server's poll, time the grace period + 1 s does not have.
        self.held.close()
        for handler in LOGGER.handlers:
            handler.flush()


def supervise(config: ServerConfig, argv: list[str]) -> int:
    """Serve `config.address` from `config.processes` worker processes until SIGTERM."""
    try:
        supervisor = Supervisor(config, argv)
    except OSError as exc:
        log("cannot start", level=40, error=str(exc))
        return 1
    return supervisor.run()


