"""Prometheus series of one server, and the HTTP endpoint that serves them.

Each HzaiServer owns a ServerMetrics with a registry of its own (never the process-wide
default), so several servers in one process (tests, embedded play) keep separate counts.
The series are documented in docs/api.md ("Metrics"); SERIES below lists their names and
the tests check that the two agree. Where they are fed:

- hzai_server.rpc's handler wrapper: one latency observation per call (method, code),
  and a refusal for every RESOURCE_EXHAUSTED / draining answer (ApiError.reason);
- hzai_server.searches: searches in flight, iterations and seconds of every search;
- TimedStore: the latency of every match-store operation, measured from outside the
  store, whatever store is plugged in;
- the live-matches gauge asks the store at scrape time.
"""

from __future__ import annotations

import time
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

# Call latencies: from a refused call (well under a millisecond) to a long search.
RPC_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
STORE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

# name (as scraped, without the _bucket/_count/_sum/_total suffixes) -> type
SERIES = {
    "hzai_rpc_seconds": "histogram",
    "hzai_searches_in_flight": "gauge",
    "hzai_search_slots": "gauge",
    "hzai_refusals_total": "counter",
    "hzai_search_iterations_total": "counter",
    "hzai_search_seconds_total": "counter",
    "hzai_live_matches": "gauge",
    "hzai_store_seconds": "histogram",
    "hzai_search_queued": "gauge",
    "hzai_search_wait_seconds": "histogram",
}
PRIORITY_CLASSES = ("interactive", "batch")  # hzai_server.admission.PRIORITIES


class ServerMetrics:
    """Every series of one server, in its own registry."""

    def __init__(self, max_searches: int = 0):
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.rpc_seconds = Histogram("hzai_rpc_seconds", "Time from a call's arrival to its answer, by method and status code",
                                     ("method", "code"), buckets=RPC_BUCKETS, registry=r)
        self.in_flight = Gauge("hzai_searches_in_flight", "Searches running now", registry=r)
        self.slots = Gauge("hzai_search_slots", "Searches this server runs at once at most (--max-searches)", registry=r)
        self.slots.set(max_searches)
        self.refusals = Counter("hzai_refusals", "Calls refused before their work, by reason", ("reason",), registry=r)
        self.iterations = Counter("hzai_search_iterations", "Search iterations run", registry=r)
        self.search_seconds = Counter("hzai_search_seconds", "Wall time spent searching", registry=r)
        self.live = Gauge("hzai_live_matches", "Hosted matches kept (read from the store at scrape time)", registry=r)
        self.store_seconds = Histogram("hzai_store_seconds", "Time of one match-store operation", ("operation",),
                                       buckets=STORE_BUCKETS, registry=r)
        self.queued = Gauge("hzai_search_queued", "Searches waiting for a slot now, by priority class", ("priority",),
                            registry=r)
        self.wait_seconds = Histogram("hzai_search_wait_seconds", "Time a search waited for its slot (those that "
                                      "waited), by priority class", ("priority",), buckets=RPC_BUCKETS, registry=r)
        for priority in PRIORITY_CLASSES:  # every class is scraped from the start, at 0
            self.queued.labels(priority)
            self.wait_seconds.labels(priority)

    def waited(self, priority: str, seconds: float) -> None:
        self.wait_seconds.labels(priority).observe(seconds)

    def count_queued_from(self, queued) -> None:
        """`queued(priority)` is read at each scrape (the admission's queue lengths)."""
        for priority in PRIORITY_CLASSES:
            self.queued.labels(priority).set_function(lambda p=priority: float(queued(p)))

    def observe_call(self, method: str, code: str, seconds: float) -> None:
        self.rpc_seconds.labels(method, code).observe(seconds)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason).inc()

    def searched(self, iterations: int, seconds: float) -> None:
        self.iterations.inc(max(0, iterations))
        self.search_seconds.inc(max(0.0, seconds))

    def count_live_from(self, count) -> None:
        """The live-matches gauge reads `count()` at each scrape (NaN once it fails,
        e.g. after the store closed)."""
        def read() -> float:
            try:
                return float(count())
            except Exception:  # noqa: BLE001 - a scrape must not fail for a closed store
                return float("nan")

        self.live.set_function(read)

    def timed_store(self, store):
        return TimedStore(store, self.store_seconds)


class TimedStore:
    """A match store that times each of its operations (the methods MatchStore declares)
    into a histogram labelled by operation; everything else passes straight through.
    The operations are read from the ABC, so a method added there is timed too."""

    def __init__(self, store, histogram: Histogram):
        from hzai_server.store import MatchStore

        self._store = store
        self._histogram = histogram
        self._operations = set(MatchStore.__abstractmethods__) | {"close"}

    def __getattr__(self, name: str):
        value = getattr(self._store, name)
        if name not in self._operations or not callable(value):
            return value
        observe = self._histogram.labels(name).observe

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return value(*args, **kwargs)
            finally:
                observe(time.perf_counter() - start)

        return timed


class MetricsEndpoint:
    """GET /metrics (any path, in fact) on HOST:PORT over plain HTTP, in a daemon thread."""

    def __init__(self, metrics: ServerMetrics, address: str):
        host, _, port = address.rpartition(":")
        self._server: WSGIServer
        try:
            self._server, self._thread = start_http_server(int(port), host.strip("[]"), registry=metrics.registry)
        except OSError as exc:
            raise OSError(f"cannot serve metrics on {address}: {exc.strerror or exc}") from None
        self.host = host
        self.port = self._server.server_port

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
