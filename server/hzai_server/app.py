"""Building, starting and stopping the server."""

from __future__ import annotations

import importlib
import json
import os
import signal
import ssl
import threading
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from hzai.core import game_names
from hzai.core.registry import DuplicateGameError
import hzai_proto
from hzai_proto.v3 import bot_pb2, match_pb2

from hzai_server.admission import DEFAULT_PRIORITY
from hzai_server.bot_service import BotServicer
from hzai_server.config import ServerConfig, default_data_dir
from hzai_server.logs import LOGGER, log
from hzai_server.hosting import HostedMatches
from hzai_server.matches import MatchServicer
from hzai_server.metrics import MetricsEndpoint, ServerMetrics
from hzai_server.ratelimit import RateLimiter
from hzai_server.rpc import CallHooks, Lifecycle, add_guarded, add_service
from hzai_server.searches import Searches
from hzai_server.stores import open_store  # here too: app.open_store, as before

SERVICES = (
    bot_pb2.DESCRIPTOR.services_by_name["BotService"],
    match_pb2.DESCRIPTOR.services_by_name["MatchService"],
)
SERVICE_NAMES = tuple(service.full_name for service in SERVICES)
# Every game's typed messages known to reflection from the start, so that a client that
# reads the `detail` Any fields through it (grpcurl) finds their types.
hzai_proto.load_all()


# The RPCs that take a search slot: the kinds of search request that are RPC names
# (AnalyzeBatch is an Analyze with several positions).
SEARCH_METHODS = frozenset(DEFAULT_PRIORITY) - {"AnalyzeBatch"}
SPARE_SEARCH_THREADS = 4  # search threads beyond the slots and queue places: for the calls being shed


def search_threads(config: ServerConfig) -> int:
    """Threads for the calls that search: one per slot and per queue place (each of the
    two priority classes has `search_queue`), and a few for the calls being refused."""
    return config.max_searches + 2 * config.search_queue + SPARE_SEARCH_THREADS


ANSWER_GRACE = 0.5  # seconds grpc gets to send answers whose handlers have returned


def search_stop_delay(grace: float) -> float:
    """Seconds after a stop request at which running searches are told to answer with
    their best move so far: late enough for most to finish, early enough (up to a
    second before the grace period ends) for the answers to be sent in time."""
    return max(0.0, grace - min(1.0, grace / 4))


def load_games(modules: str) -> list[str]:
    """Import each module of a comma-separated list (each registers games); OSError naming
    a module that cannot be imported, or a game name two sources give different factories.
    The names of the games then registered."""
    for name in filter(None, (part.strip() for part in modules.split(","))):
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - any failure of a plugin stops the start in one line
            raise OSError(f"--load-games: cannot import {name[:100]!r}: {type(exc).__name__}: {str(exc)[:200]}") from None
    try:
        return game_names()
    except DuplicateGameError as exc:  # two distributions give one name: the start stops in one line
        raise OSError(str(exc)) from None


def server_credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    """TLS credentials from --tls-cert/--tls-key (and --tls-client-ca: mutual TLS), None
    for plain text. OSError naming a file that cannot be read or is not PEM."""
    if not config.tls_cert:
        return None
    pem = {}
    for flag, path in (("--tls-cert", config.tls_cert), ("--tls-key", config.tls_key),
                       ("--tls-client-ca", config.tls_client_ca)):
        if not path:
            continue
        try:
            with open(path, "rb") as handle:
                pem[flag] = handle.read()
        except OSError as exc:
            raise OSError(f"{flag}: cannot read {path}: {exc.strerror}") from None
        if b"-----BEGIN " not in pem[flag]:
            raise OSError(f"{flag}: {path} is not a PEM file")
    # grpc only logs a key that does not go with its certificate, and then fails every
    # handshake: OpenSSL (Python's ssl) checks the pair, and the CA file, at start instead.
    check = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        check.load_cert_chain(config.tls_cert, config.tls_key)
    except ssl.SSLError as exc:
        raise OSError(f"--tls-key {config.tls_key} does not go with --tls-cert {config.tls_cert}, or one of them "
                      f"cannot be read as PEM ({exc.reason or exc})") from None
    if config.tls_client_ca:
        try:
            check.load_verify_locations(config.tls_client_ca)
        except ssl.SSLError as exc:
            raise OSError(f"--tls-client-ca: {config.tls_client_ca} holds no CA certificate OpenSSL can read "
                          f"({exc.reason or exc})") from None
    client_ca = pem.get("--tls-client-ca")
    return grpc.ssl_server_credentials([(pem["--tls-key"], pem["--tls-cert"])], root_certificates=client_ca,
                                       require_client_auth=client_ca is not None)


def connection_age_options(config: ServerConfig) -> list[tuple[str, int]]:
    """gRPC server options for --max-connection-age and its grace (none for an age of 0).
    Once a connection is that old, the server sends GOAWAY: the client's next calls take
    a new connection, which the kernel may hand to another worker (SO_REUSEPORT hashes
    connections, not calls), while the calls running on the old one get the grace to end."""
    if config.max_connection_age <= 0:
        return []
    return [("grpc.max_connection_age_ms", max(1, round(config.max_connection_age * 1000))),
            ("grpc.max_connection_age_grace_ms", round(config.max_connection_age_grace * 1000))]


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


def plain_text_warning(config: ServerConfig) -> str | None:
    """Why listening at config.address is unsafe: beyond loopback without TLS, where the
    seat tokens of hosted matches (and every request) travel in plain text."""
    host = config.address.rpartition(":")[0]
    if config.tls_cert or host in LOOPBACK_HOSTS or host.startswith("127."):
        return None
    return (f"listening on {config.address} without TLS: the seat tokens of hosted matches travel in plain "
            "text; give --tls-cert and --tls-key, or listen on 127.0.0.1 behind a proxy that terminates TLS "
            "(docs/tls.md)")


class HzaiServer:
    """The gRPC server with its servicers, health and reflection."""

    def __init__(self, config: ServerConfig, clock=None):
        """`clock`: the rate limiter's monotonic clock (a fake one in tests)."""
        self.config = config
        self.games = load_games(config.load_games)
        # Kept whether or not an endpoint serves them: cheap, and tests read them directly.
        self.metrics = ServerMetrics(config.max_searches)
        self.searches = Searches(config.max_searches, self.metrics, config.search_queue,
                                 config.search_queue_per_client)
        self.metrics.count_queued_from(self.searches.admission.queued)
        # A config built in code may leave the directory empty: the default one then.
        data_dir = config.data_dir or default_data_dir()
        store = open_store(config.store, data_dir)
        self.metrics.count_live_from(store.count_live)
        self.matches = HostedMatches(self.metrics.timed_store(store), config)
        limiter = None
        if config.rate_limit > 0:
            limiter = RateLimiter(config.rate_limit, config.rate_burst, clock or time.monotonic)
        # A worker of a supervisor (hzai_server.workers) names itself on every answer, and
        # shares its port with the other workers (SO_REUSEPORT: the kernel spreads the
        # connections); a lone server keeps the port to itself, so a second one fails to start.
        worker = config.worker >= 0
        hooks = CallHooks(self.metrics, limiter, config.max_message_bytes,
                          (("hzai-worker", str(config.worker)),) if worker else ())
        options = [
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            ("grpc.so_reuseport", int(worker)),
            *connection_age_options(config),
        ]
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=config.workers, thread_name_prefix="rpc"),
                                  options=options)
        # Calls that search run on threads of their own, enough for every search running
        # or waiting in the admission queues and a few more: a search call never waits
        # for a thread (it gets a slot, a place in the bounded queue, or RESOURCE_EXHAUSTED
        # at once), and the server's `workers` threads stay free for health checks,
        # reflection and the calls that do not search.
        self.search_pool = futures.ThreadPoolExecutor(max_workers=search_threads(config), thread_name_prefix="search")
        self.lifecycle = Lifecycle()
        # Not the generated add_*_to_server: add_service's deserializers answer an
        # undecodable request with INVALID_ARGUMENT instead of grpc's INTERNAL.
        for servicer, service in ((BotServicer(config, self.searches, self.matches), SERVICES[0]),
                                  (MatchServicer(config, self.searches, self.matches), SERVICES[1])):
            add_service(self.server, servicer, service, self.lifecycle, hooks, self.search_pool, SEARCH_METHODS)
        # Health and reflection as grpc makes them, but with deserializers that never raise
        # (rpc.add_guarded says why): undecodable bytes are INVALID_ARGUMENT there too.
        self.health = health.HealthServicer(experimental_non_blocking=True)
        add_guarded(self.server, health_pb2_grpc.add_HealthServicer_to_server, self.health)
        add_guarded(self.server, reflection_pb2_grpc.add_ServerReflectionServicer_to_server,
                    reflection.ReflectionServicer((*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME)))
        try:
            credentials = server_credentials(config)
            if credentials is None:
                self.port = self.server.add_insecure_port(config.address)
            else:
                self.port = self.server.add_secure_port(config.address, credentials)
        except RuntimeError:
            self.port = 0
        if self.port == 0:
            raise OSError(f"cannot listen on {config.address} (address in use, or not an address of this machine)")
        self._stopped = threading.Event()
        self.metrics_endpoint: MetricsEndpoint | None = None

    @property
    def address(self) -> str:
        host = self.config.address.rsplit(":", 1)[0]
        return f"{host}:{self.port}"

    @property
    def metrics_address(self) -> str | None:
        """HOST:PORT of the metrics endpoint once started, None without one."""
        return None if self.metrics_endpoint is None else self.metrics_endpoint.address

    def start(self) -> None:
        if self.config.metrics_address:  # first: a port in use stops the start before gRPC listens
            self.metrics_endpoint = MetricsEndpoint(self.metrics, self.config.metrics_address)
        self.server.start()
        self.matches.start_sweeper()
        for name in ("", *SERVICE_NAMES):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        warning = plain_text_warning(self.config)
        if warning:
            log("plain text", level=30, warning=warning)
        log("listening", address=self.address, port=self.port, workers=self.config.workers,
            tls="mutual" if self.config.tls_client_ca else bool(self.config.tls_cert),
            max_searches=self.config.max_searches, analysis=True, games=self.games,
            metrics=self.metrics_address, rate_limit=self.config.rate_limit or None,
            max_connection_age=self.config.max_connection_age or None)

    def stop(self, grace: float | None = None) -> None:
        """Report NOT_SERVING at once and refuse new calls (UNAVAILABLE) while running
        ones finish; searches still running near the end of the grace period are told to
        answer with their best move so far; whatever still runs at its end is cancelled."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        grace = self.config.grace if grace is None else grace
        start = time.monotonic()
        log("stopping", grace_seconds=grace, running_searches=self.searches.running, running_calls=self.lifecycle.active)
        self.lifecycle.draining.set()  # first: once health says NOT_SERVING, calls are refused
        self.searches.close()  # searches waiting for a slot are sent away at once
        self.health.enter_graceful_shutdown()
        if not self.lifecycle.wait_idle(search_stop_delay(grace)):
            self.lifecycle.stop_searches.set()
            log("stopping searches", running_searches=self.searches.running, running_calls=self.lifecycle.active)
            self.lifecycle.wait_idle(grace - (time.monotonic() - start))
        # The handlers have returned; grpc's own grace lets their answers finish sending.
        self.server.stop(max(ANSWER_GRACE, grace - (time.monotonic() - start))).wait()
        self.search_pool.shutdown(wait=False, cancel_futures=True)
        self.matches.close()
        if self.metrics_endpoint is not None:
            self.metrics_endpoint.close()
        log("stopped", cancelled_calls=self.lifecycle.active)

    def wait(self) -> None:
        self.server.wait_for_termination()


def serve(config: ServerConfig) -> int:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    server = HzaiServer(config)
    stop_requested = threading.Event()

    def on_signal(signum, _frame):
        log("signal", signal=signal.Signals(signum).name)
        stop_requested.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.start()
    if config.ready_fd >= 0:
        _report_to_supervisor(server, config.ready_fd, stop_requested)
    while not stop_requested.wait(0.5):
        pass
    # Whatever holds the process up (a call grpc never ends, a worker thread that never
    # returns), it ends within the grace period and a little more.
    watchdog = threading.Thread(target=_exit_after, args=(config.grace + EXIT_MARGIN,), name="exit-watchdog",
                                daemon=True)
    watchdog.start()
    server.stop()
    return 0


HEARTBEAT_S = 0.5  # a worker tells its supervisor it runs this often (hzai_server.workers)


def _report_to_supervisor(server: HzaiServer, fd: int, stop_requested: threading.Event) -> None:
    """A worker process (hzai_server.workers): tell the supervisor on the socket `fd` that
    this process serves (and where its own metrics are), then beat on it every HEARTBEAT_S,
    and watch it: it ends when the supervisor does, however it ended, and this worker then
    stops as on SIGTERM."""
    import socket

    link = socket.socket(fileno=fd)
    link.sendall(json.dumps({"pid": os.getpid(), "port": server.port, "metrics": server.metrics_address}).encode()
                 + b"\n")

    def watch():
        try:
            while link.recv(1024):
                pass
        except OSError:
            pass
        if not stop_requested.is_set():
            log("supervisor gone", level=30)
            stop_requested.set()

    def beat():  # a process that stops running (SIGSTOP, the interpreter stuck) stops beating
        try:
            while True:
                time.sleep(HEARTBEAT_S)
                link.sendall(b".")
        except OSError:
            pass

    threading.Thread(target=watch, name="supervisor-link", daemon=True).start()
    threading.Thread(target=beat, name="heartbeat", daemon=True).start()


EXIT_MARGIN = 0.75  # seconds past the grace period after which a stopping server exits regardless


def _exit_after(seconds: float) -> None:
    """End the process `seconds` from now if it is still running then (os._exit: no
    thread can hold it up). Its exit status stays 0: the stop was asked for."""
    time.sleep(seconds)
    log("exiting", level=30, reason=f"still running {seconds:g} s after the stop request; exiting regardless",
        threads=[thread.name for thread in threading.enumerate() if thread is not threading.current_thread()][:20])
    for handler in LOGGER.handlers:
        handler.flush()
    os._exit(0)
