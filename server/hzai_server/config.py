"""Server settings from flags, with HZAI_* environment variables as defaults.

Hosted matches live in an SQLite database under `--data-dir` (HZAI_DATA_DIR; by default
$XDG_DATA_HOME/hzai, else ~/.local/share/hzai; created when missing). `--data-dir
:memory:` keeps them in memory only: lost when the process ends (tests). Idle matches
are removed by a background sweep every `--sweep-interval` seconds once idle for
`--match-ttl`; `--max-matches` caps the live matches in all, `--max-matches-per-client`
those of one client (the `hzai-client` metadata value, else the peer's host). A match
that ends stops counting against both at once; it stays readable for `--finished-ttl`
seconds, and at most `--max-finished` finished matches are kept (the oldest go first).
A process keeps at most `--match-cache` matches replayed in memory, the most recently
used; any other is rebuilt from the store when a call needs it.

`--store postgresql://USER@HOST:PORT/DB` (HZAI_STORE) keeps the matches in PostgreSQL
instead, so that several replicas behind a load balancer share them (any replica serves
any call of any match; docs/api.md, "Scaling out"); it needs the `cluster` extra.

Operations: `--metrics-address HOST:PORT` serves Prometheus metrics over HTTP (off by
default); `--rate-limit R` lets each client (as for the match cap) make R calls a second
on average, in bursts of up to `--rate-burst` (off by default).

Games: the server plays every game registered with hzai.core; `--load-games MODULE,...`
(HZAI_LOAD_GAMES) imports modules that register more (a plugin, a test's toy game).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from hzai_server.store import is_postgres_url

CORES = os.cpu_count() or 1


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), the default of --processes."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no sched_getaffinity (macOS)
        return CORES


@dataclass(frozen=True)
class ServerConfig:
    address: str = "127.0.0.1:50051"
    workers: int = 8
    max_searches: int = CORES
    max_iterations: int = 1_000_000
    max_millis: int = 30_000
    max_threads: int = CORES
    default_iterations: int = 1000
    default_millis: int = 0  # with it, a request that gives no budget also stops after this long (0: no)
    max_message_bytes: int = 4 * 1024 * 1024
    max_matches: int = 1000
    match_ttl: float = 1800.0
    max_matches_per_client: int = 20
    sweep_interval: float = 60.0
    finished_ttl: float = 600.0  # seconds a finished match stays readable
    max_finished: int = 1000  # finished matches kept at most (the oldest removed first)
    match_cache: int = 128  # matches kept replayed in memory, the most recently used
    data_dir: str = ""  # "" : the default directory (default_data_dir())
    store: str = ""  # "" : SQLite in data_dir; a postgresql:// URL: PostgreSQL shared by replicas
    replay_cache: int = 256
    cache_bytes: int = 64 * 1024 * 1024
    grace: float = 5.0
    # Seconds a client connection lives before the server asks the client to reconnect
    # (HTTP/2 GOAWAY; gRPC adds up to 10% jitter), so that the kernel spreads long-lived
    # channels over the workers again (--processes); 0: connections live for ever.
    max_connection_age: float = 30.0
    # Seconds the calls running on such a connection still get to finish before it closes:
    # the longest search (--max-millis, 30 s by default) with room for a wait in the queue.
    max_connection_age_grace: float = 120.0
    log_level: str = "info"
    metrics_address: str = ""  # "": no metrics endpoint
    rate_limit: float = 0.0  # calls a second per client; 0: no limit
    rate_burst: int = 20
    load_games: str = ""  # modules to import at start, comma-separated: each registers games
    search_queue: int = 0  # searches that may wait for a slot, per priority class; 0: refuse at once
    search_queue_per_client: int = 16  # of those, from one client
    max_analysis_work: int = 2_000_000  # positions x iterations of a batch; decisions x iterations x 2 of AnalyzeGame
    tls_cert: str = ""  # PEM certificate chain file: serve TLS (with tls_key); "": plain text
    tls_key: str = ""  # PEM private key file of tls_cert
    tls_client_ca: str = ""  # PEM CA file: mutual TLS, every client shows a certificate it signed
    processes: int = 1  # worker processes serving the address (hzai_server.workers); a config built in code: 1
    worker: int = -1  # this process's index among the workers of a supervisor; -1: not a worker
    ready_fd: int = -1  # a worker's socket to its supervisor (hzai_server.workers); -1: none


# flag name, env var, type, help
_SETTINGS = [
    ("address", "HZAI_ADDRESS", str, "host:port to listen on (port 0: any free port, logged at start)"),
    ("processes", "HZAI_PROCESSES", int,
     "server processes serving the one address (each binds it with SO_REUSEPORT; a supervisor restarts one "
     "that dies and sums their metrics); 1: a single process. Needs a shared store: not with --data-dir "
     ":memory:, where the default is 1 (default: the cores this process may use)"),
    ("workers", "HZAI_WORKERS", int, "RPC worker threads (in each process)"),
    ("max_searches", "HZAI_MAX_SEARCHES", int,
     "searches running at once; one more waits in its priority's queue (--search-queue) or, with no room "
     "there, is answered RESOURCE_EXHAUSTED at once"),
    ("search_queue", "HZAI_SEARCH_QUEUE", int,
     "searches that may wait for a slot, in each priority class (interactive ones are served first); "
     "0: none wait"),
    ("search_queue_per_client", "HZAI_SEARCH_QUEUE_PER_CLIENT", int,
     "of those, how many one client (metadata hzai-client, else the peer's host) may have waiting"),
    ("max_analysis_work", "HZAI_MAX_ANALYSIS_WORK", int,
     "largest positions x iterations one Analyze batch, or decisions x iterations x 2 one AnalyzeGame (a "
     "decision may also search its played move), may ask for (a time budget counts --default-iterations a "
     "decision)"),
    ("max_iterations", "HZAI_MAX_ITERATIONS", int, "largest iteration budget a request may ask for"),
    ("max_millis", "HZAI_MAX_MILLIS", int, "largest time budget (ms) a request may ask for; also caps iteration budgets"),
    ("max_threads", "HZAI_MAX_THREADS", int, "most search threads a request may ask for"),
    ("default_iterations", "HZAI_DEFAULT_ITERATIONS", int, "budget of a request that gives none"),
    ("max_message_bytes", "HZAI_MAX_MESSAGE_BYTES", int, "largest request or response message"),
    ("max_matches", "HZAI_MAX_MATCHES", int, "live (unfinished) hosted matches kept at once"),
    ("match_ttl", "HZAI_MATCH_TTL", float, "seconds a live hosted match may stay idle before it is dropped"),
    ("max_matches_per_client", "HZAI_MAX_MATCHES_PER_CLIENT", int,
     "live hosted matches one client (metadata hzai-client, else the peer's host) may keep at once"),
    ("sweep_interval", "HZAI_SWEEP_INTERVAL", float, "seconds between two sweeps for idle matches"),
    ("finished_ttl", "HZAI_FINISHED_TTL", float,
     "seconds a finished match stays readable (its view and record) before the sweep removes it; a finished "
     "match no longer counts against --max-matches or --max-matches-per-client"),
    ("max_finished", "HZAI_MAX_FINISHED", int,
     "finished matches kept at most; over it the sweep removes the ones that ended first, each client's "
     "newest kept before anyone's older ones"),
    ("match_cache", "HZAI_MATCH_CACHE", int,
     "matches this process keeps replayed in memory (the most recently used); any other is rebuilt from the "
     "store when a call needs it"),
    ("data_dir", "HZAI_DATA_DIR", str,
     "directory of the match database, created if missing (':memory:' keeps matches in memory only; "
     "by default $XDG_DATA_HOME/hzai, else ~/.local/share/hzai)"),
    ("store", "HZAI_STORE", str,
     "where hosted matches are kept: empty for SQLite in --data-dir, or a PostgreSQL URL "
     "(postgresql://USER:PASSWORD@HOST:PORT/DB, or postgresql:///DB?host=/socket/dir) shared by every "
     "replica of a cluster; needs pip install 'hzai[cluster]'"),
    ("replay_cache", "HZAI_REPLAY_CACHE", int,
     "records whose position to decide is kept, so that the same record again is not replayed (0: off)"),
    ("cache_bytes", "HZAI_CACHE_BYTES", int,
     "estimated bytes the cache of positions to decide may hold"),
    ("grace", "HZAI_GRACE", float, "seconds running calls get to finish on SIGTERM/SIGINT"),
    ("max_connection_age", "HZAI_MAX_CONNECTION_AGE", float,
     "seconds a client connection lives (gRPC adds up to 10%% jitter) before the server asks the client to "
     "reconnect (HTTP/2 GOAWAY; running calls go on, new ones take a new connection), so that long-lived "
     "channels are spread over the --processes workers again and a restarted worker gets its share; "
     "0: connections live for ever"),
    ("max_connection_age_grace", "HZAI_MAX_CONNECTION_AGE_GRACE", float,
     "seconds the calls still running on a connection past its --max-connection-age get to finish before it "
     "is closed (a call cut then ends UNAVAILABLE); enough for the longest search (--max-millis) and a wait "
     "in the queue"),
    ("log_level", "HZAI_LOG_LEVEL", str, "debug, info, warning or error"),
    ("metrics_address", "HZAI_METRICS_ADDRESS", str,
     "host:port of the Prometheus metrics endpoint over HTTP (port 0: any free port, logged at start; "
     "empty: no endpoint)"),
    ("rate_limit", "HZAI_RATE_LIMIT", float,
     "calls a second one client (metadata hzai-client, else the peer's host) may make on average; "
     "over it: RESOURCE_EXHAUSTED with a retry delay (0: no limit)"),
    ("rate_burst", "HZAI_RATE_BURST", int, "calls one client may make at once before --rate-limit holds it back"),
    ("tls_cert", "HZAI_TLS_CERT", str,
     "PEM file of the server's certificate chain: serve TLS instead of plain text (needs --tls-key)"),
    ("tls_key", "HZAI_TLS_KEY", str, "PEM file of the private key of --tls-cert"),
    ("tls_client_ca", "HZAI_TLS_CLIENT_CA", str,
     "PEM file of the CA(s) that sign client certificates: mutual TLS, a client without one is refused "
     "(needs --tls-cert)"),
    ("load_games", "HZAI_LOAD_GAMES", str,
     "Python modules to import at start, comma-separated, each registering games with "
     "hzai.core.register_game (the built-in games are always served)"),
]


class ConfigError(ValueError):
    pass


MEMORY = ":memory:"
MAX_CONNECTION_SECONDS = 24 * 3600.0  # --max-connection-age(-grace) at most: gRPC takes them in ms, in an int


def default_data_dir(env: dict | None = None) -> str:
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "hzai")


def parse_config(argv: list[str] | None = None, env: dict | None = None) -> ServerConfig:
    env = os.environ if env is None else env
    defaults = ServerConfig()
    parser = argparse.ArgumentParser(
        prog="hzai-server",
        description="The hzai gRPC service (BotService, MatchService, health, reflection).",
        epilog="Every flag can also be set by the environment variable in brackets.",
    )
    values = {}
    for name, var, kind, text in _SETTINGS:
        default = getattr(defaults, name)
        if name == "data_dir" and not default:
            default = default_data_dir(env)
        if name == "processes":
            default = None  # decided below: the usable cores, or 1 for a store in memory
        if var in env:
            try:
                default = kind(env[var])
            except ValueError:
                parser.error(f"{var}={env[var]!r} is not a valid {kind.__name__}")
        shown = default
        if name == "processes" and default is None:
            shown = f"{usable_cores()}, the usable cores"
        if name == "store":  # a URL may hold a password: never echoed
            shown = f"from {var}" if default else "SQLite"
        parser.add_argument("--" + name.replace("_", "-"), type=kind, default=default,
                            help=f"{text} [{var}] (default: {shown})")
    # Set by a supervisor on the processes it starts (hzai_server.workers); not for operators.
    parser.add_argument("--worker", type=int, default=-1, help=argparse.SUPPRESS)
    parser.add_argument("--ready-fd", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    values["worker"], values["ready_fd"] = args.worker, args.ready_fd
    for name, _, _, _ in _SETTINGS:
        values[name] = getattr(args, name)
    for name in ("workers", "max_searches", "max_iterations", "max_millis", "max_threads",
                 "default_iterations", "max_message_bytes", "max_matches", "max_matches_per_client",
                 "cache_bytes", "search_queue_per_client", "max_analysis_work", "max_finished", "match_cache"):
        if values[name] < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, not {values[name]}")
    host, _, port = values["address"].rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        parser.error(f"--address must be HOST:PORT (port 0..65535), not {values['address']!r}")
    if values["match_ttl"] <= 0 or values["sweep_interval"] <= 0 or values["grace"] < 0 or values["replay_cache"] < 0:
        parser.error("--match-ttl and --sweep-interval must be > 0, --grace and --replay-cache ≥ 0")
    for name in ("max_connection_age", "max_connection_age_grace"):
        if not 0 <= values[name] <= MAX_CONNECTION_SECONDS:
            parser.error(f"--{name.replace('_', '-')} must be between 0 and {MAX_CONNECTION_SECONDS:g} seconds, "
                         f"not {values[name]:g}")
    if not values["finished_ttl"] > 0:
        parser.error(f"--finished-ttl must be > 0 seconds, not {values['finished_ttl']:g}")
    if values["metrics_address"]:
        host, _, port = values["metrics_address"].rpartition(":")
        if not host or not port.isdigit() or int(port) > 65535:
            parser.error(f"--metrics-address must be HOST:PORT (port 0..65535) or empty, "
                         f"not {values['metrics_address']!r}")
    if values["rate_limit"] < 0 or values["rate_limit"] != values["rate_limit"] or values["rate_burst"] < 1:
        parser.error(f"--rate-limit must be ≥ 0 (0: off) and --rate-burst at least 1, "
                     f"not {values['rate_limit']:g} and {values['rate_burst']}")
    if not values["data_dir"]:
        values["data_dir"] = default_data_dir(env)
    in_memory = values["data_dir"] == MEMORY and not values["store"]
    if values["processes"] is None:
        values["processes"] = 1 if in_memory else usable_cores()
    elif values["processes"] < 1:
        parser.error(f"--processes must be at least 1, not {values['processes']}")
    elif values["processes"] > 1 and in_memory:
        parser.error(f"--processes {values['processes']}: with --data-dir :memory: each process would keep matches "
                     "of its own, and a call reaching another process would not find them; give a --data-dir "
                     "(SQLite shared by the processes) or a --store, or --processes 1")
    if values["store"] and not is_postgres_url(values["store"]):
        parser.error("--store must be empty (SQLite in --data-dir) or a URL starting postgresql:// "
                     "(the value given is not repeated: it may hold a password)")
    if values["search_queue"] < 0:
        parser.error(f"--search-queue must be ≥ 0 (0: no queue), not {values['search_queue']}")
    if values["default_iterations"] > values["max_iterations"]:
        parser.error("--default-iterations must not exceed --max-iterations")
    if bool(values["tls_cert"]) != bool(values["tls_key"]):
        parser.error("--tls-cert and --tls-key go together: give both (TLS) or neither (plain text)")
    if values["tls_client_ca"] and not values["tls_cert"]:
        parser.error("--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key")
    for name in ("tls_cert", "tls_key", "tls_client_ca"):
        if values[name] and not os.access(values[name], os.R_OK):
            parser.error(f"--{name.replace('_', '-')}: cannot read {values[name]!r}")
    if values["log_level"].lower() not in ("debug", "info", "warning", "error"):
        parser.error(f"--log-level must be debug, info, warning or error, not {values['log_level']!r}")
    return ServerConfig(**values)
