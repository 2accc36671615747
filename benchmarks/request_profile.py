"""Where a SuggestMove call's time goes in the server (issue 46 item 2, issue 45 item 3).

    python -m benchmarks.request_profile --iterations 1 1000 --calls 160 --cpu-calls 400

Three measures, each on the load check's positions (records 20+ moves into dealt games):

1. A profile of the server's own thread per call (cProfile), through the real gRPC
   server run in this process: the profiler is switched on when the request's bytes are
   decoded and off when the answer's bytes are made, on the thread that serves the call
   (request decoding, the handler, the search, the answer's encoding: all of them run on
   that thread). At each of --iterations, with the decision cache (the same position sent
   again: the cache answers the view) and without it (`--replay-cache 0`: the record is
   parsed, replayed and its view built every call). The top functions by own time and by
   cumulative time, per call; the search's share (the native `run` of the tree).

2. The path of one call (`sys.setprofile` on the same thread): every function of the
   project (hzai, hzai_server) entered during a cold call at 1 iteration, the search
   not followed inside. Places: the stays, in the order the functions are entered with
   consecutive entries of one module merged (A A B A C B: 5). Modules: distinct modules
   (3). Returns: stays in a module already stayed in, places less modules (2).

   Counted at five granularities: the service's (hzai_server's functions, and each
   call from them into hzai counted in that hzai module, not followed inside); the data
   path (the same less the modules every call passes through whatever it asks, PLUMBING:
   the RPC wrapper, errors, logs, metrics, admission, the caller's key); the server's
   modules (the service's with the calls into hzai left out: the path through
   hzai_server alone, the count issue 45 item 3 states its target in, "the path a
   SuggestMove takes through the server's modules"), whole and less PLUMBING; and every
   project function (everything but the search). The search is the bot's decide.
   Each is counted twice: a cold call (`--replay-cache 0`: no position remembered), and
   a call with the server's default decision cache that misses (a position not sent
   before: looked up as sent, read, looked up by its canonical key, replayed and
   remembered). `--only-path` counts the paths alone; with `--server-from COMMIT`, those
   of another commit's server/hzai_server (this tree's library).

3. Server CPU per call beyond the search's own, in a server of its own process
   (`hzai-server --processes 1`), at each of --cpu-iterations: the server's CPU time (all its
   threads, from /proc) over --cpu-calls SuggestMove calls sent back to back by one
   client in this process, less its CPU over the same wall time idle before, divided by
   the calls; less the CPU time of the same searches (same views, seeds and budget) run
   in this process (thread CPU time). Warm (decision cache) and cold (--replay-cache 0).
   The load generator (this process) is not the server's process: its CPU is not counted.

Writes benchmarks/results/request_profile.json and request_profile.md (--out).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import threading
import time
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import machine
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parents[1]
METHOD = "hzai.v3.BotService/SuggestMove"


class _Taken:
    """A finished profile's stats in the shape pstats.Stats reads."""

    def __init__(self, stats: dict):
        self.stats = stats

    def create_stats(self) -> None:
        pass


class Observed:
    """Observes every thread that serves a SuggestMove while `window` is set: the
    request is decoded on grpc's poller thread, the handler runs and the answer is
    encoded on a pool thread. Each such thread, when it next passes one of the hooks
    (the request's decoding, the handler's start, the answer's encoding), switches on
    its own observer: a cProfile.Profile timed by the thread's CPU clock (the time a
    thread waits costs nothing), or a sys.setprofile tracer; and off once `window` is
    cleared."""

    def __init__(self):
        self.window = False
        self.tracer = None  # a sys.setprofile function instead of profiling
        self.local = threading.local()
        self.profilers: list[cProfile.Profile] = []
        self.lock = threading.Lock()

    def touch(self) -> None:
        on = getattr(self.local, "on", False)
        if self.window and not on:
            self.local.on = True
            if self.tracer is not None:
                sys.setprofile(self.tracer)
            else:
                if getattr(self.local, "profiler", None) is None:
                    self.local.profiler = cProfile.Profile(time.thread_time_ns, 1e-9)
                    with self.lock:
                        self.profilers.append(self.local.profiler)
                self.local.profiler.enable()
        elif not self.window and on:
            self.local.on = False
            if self.tracer is not None:
                sys.setprofile(None)
            else:
                self.local.profiler.disable()

    def stats(self) -> pstats.Stats:
        """The profiles of every thread so far, merged (read while they may still run)."""
        merged = None
        for profiler in self.profilers:
            profiler.snapshot_stats()
            taken = pstats.Stats(_Taken(dict(profiler.stats)))
            merged = taken if merged is None else merged.add(taken) or merged
        return merged

    def install(self) -> None:
        from hzai_server import bot_service, rpc

        plain_deserializer, plain_serialize = rpc._safe_deserializer, rpc._serialize
        plain_suggest = bot_service.BotServicer.SuggestMove
        observed = self

        def deserializer(message_class):
            parse = plain_deserializer(message_class)
            if message_class.DESCRIPTOR.full_name != "hzai.v3.SuggestMoveRequest":
                return parse

            def observed_parse(data: bytes):
                observed.touch()
                return parse(data)

            return observed_parse

        def serialize(message) -> bytes:
            try:
                return plain_serialize(message)
            finally:
                observed.touch()

        def suggest(servicer, request, context):
            observed.touch()
            return plain_suggest(servicer, request, context)

        rpc._safe_deserializer = deserializer
        rpc._serialize = serialize
        bot_service.BotServicer.SuggestMove = suggest


def serve_from(commit: str) -> Path:
    """Import hzai_server from `commit`'s server/hzai_server (taken from git into a
    temporary folder) instead of this tree's, for the path counts of that server with this
    tree's library; its modules are counted under their own names."""
    import importlib.machinery
    import tempfile

    from benchmarks.request_path_ab import snapshot

    if "hzai_server" in sys.modules:
        raise RuntimeError("--server-from: hzai_server was imported already")
    folder = snapshot(commit, Path(tempfile.mkdtemp(prefix="hzai-server-from-"))).resolve()

    class Snapshot:
        def find_spec(self, name, path, target=None):
            if name != "hzai_server" and not name.startswith("hzai_server."):
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, [str(folder)] if name == "hzai_server" else path)
            if spec is None:  # never this tree's server in its place
                raise ImportError(f"{name} is not in {folder}")
            return spec

    sys.meta_path.insert(0, Snapshot())
    SERVER_FROM.append(folder)
    return folder


def in_process_server(observed: Observed, replay_cache: int):
    from hzai_server.app import HzaiServer
    from hzai_server.config import ServerConfig

    observed.install()
    config = ServerConfig(address="127.0.0.1:0", data_dir=":memory:", replay_cache=replay_cache)
    server = HzaiServer(config)
    server.start()
    return server


# What every call passes through whatever it asks (the RPC wrapper, its logs and metrics,
# admission, the error table, the caller's key): left out of the data path's count.
PLUMBING = frozenset({"hzai_server.rpc", "hzai_server.errors", "hzai_server.logs", "hzai_server.metrics",
                      "hzai_server.admission", "hzai_server.hosting"})


SERVER_FROM: list[Path] = []  # --server-from: the folder holding another commit's hzai_server


def module_of(filename: str) -> str | None:
    """The project module of a source file (hzai..., hzai_server...), None for others."""
    path = Path(filename).resolve()
    for root in SERVER_FROM:
        if path.is_relative_to(root):
            path = REPO / "server" / path.relative_to(root)
    try:
        rel = path.relative_to(REPO)
    except ValueError:
        return None
    parts = rel.with_suffix("").parts
    if parts[0] == "server":
        parts = parts[1:]
    if not parts or parts[0] not in ("hzai", "hzai_server"):
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def trace_path(client, record: str) -> dict:
    """A sys.setprofile function recording the project functions one SuggestMove enters,
    and the list it fills: (module, function, inside the library, inside the search).
    "Inside the library": called, directly or not, from a function of hzai (not
    hzai_server) that the service called; "inside the search": called from the bot's
    decide. Depths are per thread (the poller thread's own calls go on while the handler
    searches)."""
    entered: list[tuple[str, str, bool, bool]] = []
    local = threading.local()

    def tracer(frame, event, arg):
        library = getattr(local, "library", 0)
        search = getattr(local, "search", 0)
        if event == "call":
            module = module_of(frame.f_code.co_filename)
            name = frame.f_code.co_qualname
            if module is not None and not search:
                entered.append((module, name, bool(library), False))
            if library or (module is not None and not module.startswith("hzai_server")):
                local.library = library + 1
            if search or (module is not None and module.startswith("hzai.search")
                          and name.endswith(("Bot.decide", "Bot.analyze"))):
                local.search = search + 1
        elif event == "return":
            if library:
                local.library = library - 1
            if search:
                local.search = search - 1

    return tracer, entered


def stays(entered: list[tuple[str, str]]) -> dict:
    """Places (stays: entries in order, consecutive ones of one module merged), modules,
    and returns (stays in a module already stayed in: places less modules)."""
    runs: list[str] = []
    for module, _ in entered:
        if not runs or runs[-1] != module:
            runs.append(module)
    modules = list(dict.fromkeys(runs))
    by_module: dict[str, int] = {}
    for module in runs:
        by_module[module] = by_module.get(module, 0) + 1
    return {"places": len(runs), "modules": len(modules), "returns": len(runs) - len(modules),
            "stays_by_module": {m: n for m, n in by_module.items()}, "module_order": runs,
            "functions": list(dict.fromkeys(f"{m}:{f}" for m, f in entered))}


def path_counts(entered: list[tuple[str, str, bool, bool]]) -> dict:
    """The granularities of the module docstring: the service's (hzai_server's functions,
    and each call from them into hzai, not followed inside), its data path (less
    PLUMBING), the server's modules alone (whole, and less PLUMBING) and every project
    function (but the search's)."""
    service = [(m, f) for m, f, library, _ in entered if not library]
    server = [(m, f) for m, f in service if m.startswith("hzai_server")]
    return {"service": stays(service),
            "data_path": stays([(m, f) for m, f in service if m not in PLUMBING]),
            "server_modules": stays(server),
            "server_data_path": stays([(m, f) for m, f in server if m not in PLUMBING]),
            "every_function": stays([(m, f) for m, f, _, search in entered if not search])}


# The counts a report may lack (written before they were counted): derived from its
# service path's modules in order, which holds them all.
DERIVED = {"data_path": lambda m: m not in PLUMBING,
           "server_modules": lambda m: m.startswith("hzai_server"),
           "server_data_path": lambda m: m.startswith("hzai_server") and m not in PLUMBING}


def profile_rows(stats: pstats.Stats, calls: int, key: int, top: int) -> list[dict]:
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][key])[:top]
    out = []
    for (filename, line, name), (_, ncalls, own, cum, _) in rows:
        where = module_of(filename) or Path(filename).name
        out.append({"function": f"{where}:{line}:{name}" if line else name, "calls_per_call": round(ncalls / calls, 2),
                    "own_ms": round(own * 1000 / calls, 4), "cum_ms": round(cum * 1000 / calls, 4)})
    return out


def profile(records: list[str], iterations: int, calls: int, replay_cache: int, top: int) -> dict:
    """cProfile of the serving thread over `calls` SuggestMove calls (item 1)."""
    from hzai_client import HzaiClient

    observed = Observed()
    server = in_process_server(observed, replay_cache)
    try:
        with HzaiClient(f"127.0.0.1:{server.port}", timeout=60) as client:
            for i, record in enumerate(records):  # warm: imports, connections, the first searches
                client.suggest_move(record, iterations=iterations, seed=i)
            observed.window = True
            start = time.perf_counter()
            for n in range(calls):
                client.suggest_move(records[n % len(records)], iterations=iterations, seed=n)
            wall = time.perf_counter() - start
            observed.window = False
            made = calls
            stats = observed.stats()
            total = sum(own for (_, _, _), (_, _, own, _, _) in stats.stats.items())
            search = sum(own for (_, _, name), (_, _, own, _, _) in stats.stats.items()
                         if name == "<built-in method hzai._native.run>")
            return {"iterations": iterations, "replay_cache": replay_cache, "calls": made,
                    "client_ms_per_call": round(wall * 1000 / max(1, made), 3),
                    "profiled_ms_per_call": round(total * 1000 / max(1, made), 4),
                    "native_search_run_ms_per_call": round(search * 1000 / max(1, made), 4),
                    "top_own": profile_rows(stats, max(1, made), 2, top),
                    "top_cumulative": profile_rows(stats, max(1, made), 3, top)}
    finally:
        server.stop(0)


def one_path(records: list[str], replay_cache: int = 0) -> dict:
    """The path counts of one call of a position the server has not seen (with
    `replay_cache` 0, none is remembered; with the default, 256, the decision cache is
    asked and misses, then remembers it)."""
    from hzai_client import HzaiClient

    observed = Observed()
    server = in_process_server(observed, replay_cache)
    try:
        with HzaiClient(f"127.0.0.1:{server.port}", timeout=60) as client:
            client.suggest_move(records[0], iterations=1, seed=0)  # warm
            tracer, entered = trace_path(client, records[1])
            observed.tracer = tracer
            observed.window = True
            client.suggest_move(records[1], iterations=1, seed=1)
            observed.window = False
            client.suggest_move(records[0], iterations=1, seed=2)  # each thread switches its tracer off
            return path_counts(entered)
    finally:
        server.stop(0)


def search_cpu(records: list[str], iterations: int, calls: int) -> float:
    """Thread CPU seconds of the bare searches the CPU measure's calls make."""
    from hzai.search import Limits, make_bot
    from hzai_server import convert
    from hzai_proto.v3 import common_pb2

    bot = make_bot("ismcts")
    views = []
    for text in records:
        record, _ = convert.record_from_position(common_pb2.Position(game="hera_zeus", record_json=text))
        views.append(record.game.records.view_to_decide(record))
    for i, view in enumerate(views):
        bot.decide(view, Limits(iterations=iterations), seed=i)  # warm
    start = time.thread_time()
    for n in range(calls):
        bot.decide(views[n % len(views)], Limits(iterations=iterations), seed=n)
    return time.thread_time() - start


def server_cpu(records: list[str], iterations: int, calls: int, replay_cache: int) -> dict:
    """Server CPU per call, its own process (item 3)."""
    from hzai_client import HzaiClient

    extra = [] if replay_cache < 0 else ["--replay-cache", str(replay_cache)]
    with LocalServer(extra=extra) as server, HzaiClient(server.target, timeout=60) as client:
        for i, record in enumerate(records):
            client.suggest_move(record, iterations=iterations, seed=i)
        idle_start, idle_cpu = time.perf_counter(), server.cpu_seconds()
        time.sleep(2.0)
        idle_rate = (server.cpu_seconds() - idle_cpu) / (time.perf_counter() - idle_start)
        start, cpu0 = time.perf_counter(), server.cpu_seconds()
        for n in range(calls):
            client.suggest_move(records[n % len(records)], iterations=iterations, seed=n)
        wall, cpu = time.perf_counter() - start, server.cpu_seconds() - cpu0
    return {"calls": calls, "wall_s": round(wall, 3), "server_cpu_s": round(cpu, 3),
            "idle_cpu_per_s": round(idle_rate, 4),
            "server_cpu_ms_per_call": round((cpu - idle_rate * wall) * 1000 / calls, 4)}


def count_of(path: dict, name: str) -> dict:
    """A report's count `name` (an earlier report's, written before that count: derived
    from its service path's modules in order)."""
    if name in path:
        return path[name]
    runs: list[str] = []
    for module in path["service"]["module_order"]:
        if DERIVED[name](module) and (not runs or runs[-1] != module):
            runs.append(module)
    return {"places": len(runs), "modules": len(set(runs)), "returns": len(runs) - len(set(runs)),
            "module_order": runs}


def comparison(before: dict, after: dict) -> list[str]:
    """Markdown rows: the path counts and the CPU figures of `before` and `after`."""
    rows = ["| measure | before | after |", "|---|---|---|"]
    for key, label in (("path", "path"), ("path_cache_miss", "path with the decision cache (a miss)")):
        if key not in before or key not in after:
            continue
        for name in ("service", "data_path", "server_modules", "server_data_path", "every_function"):
            b, a = count_of(before[key], name), count_of(after[key], name)
            rows.append(f"| {label}, {name.replace('_', ' ')}: places / modules / returns | "
                        f"{b['places']} / {b['modules']} / {b['returns']} | {a['places']} / {a['modules']} / {a['returns']} |")
    by_b = before.get("cpu_by_iterations") or ({str(before["cpu"]["iterations"]): before["cpu"]} if "cpu" in before else {})
    by_a = after.get("cpu_by_iterations", {})
    for budget in by_a:
        if budget not in by_b:
            continue
        for name in ("warm", "cold"):
            b, a = by_b[budget][name], by_a[budget][name]
            rows.append(f"| server CPU beyond the search, {budget} iterations, {name} (ms a call) | "
                        f"{b['beyond_search_ms_per_call']:.3f} | {a['beyond_search_ms_per_call']:.3f} |")
    for run in after.get("profiles", []):
        match = [r for r in before.get("profiles", []) if (r["iterations"], r["replay_cache"]) == (run["iterations"],
                                                                                                 run["replay_cache"])]
        if match:
            rows.append(f"| profiled CPU of the serving threads, {run['iterations']} iterations, "
                        f"{'cache' if run['replay_cache'] else 'no cache'} (ms a call, cProfile's cost included) | "
                        f"{match[0]['profiled_ms_per_call']:.3f} | {run['profiled_ms_per_call']:.3f} |")
    return rows


def shown(function: str) -> str:
    """A profile row's function as the table writes it: a file outside the project by its
    name without `.py` (grpc's `_server`, `threading`), so it is not read as a path here."""
    return function.replace(".py:", ":")


def write_md(out: Path, report: dict) -> None:
    lines = ["# Where a SuggestMove's time goes in the server", "", f"Command: `{report['command']}`", "",
             f"Machine: {json.dumps(report['machine'])}. {report.get('note', '')}", ""]
    if report.get("server_from"):
        lines += [f"The server measured: `{report['server_from']}`'s server/hzai_server, with this tree's library.", ""]
    if report.get("before"):
        lines += ["## Before and after", "", f"Before: `{report['before']['command']}` "
                  f"({report['before'].get('commit', 'the code before')}); after: this run.", ""]
        lines += comparison(report["before"], report) + [""]
    for cpu in report.get("cpu_by_iterations", {}).values():
        lines += [f"## Server CPU per call beyond the search's own, {cpu['iterations']} iterations", "",
                  "| path | server CPU ms/call | bare search CPU ms/call | beyond the search ms/call | over the search |",
                  "|---|---|---|---|---|"]
        for name in ("warm", "cold"):
            row = cpu[name]
            lines.append(f"| {name} ({'decision cache' if name == 'warm' else '--replay-cache 0'}) | "
                         f"{row['server_cpu_ms_per_call']:.3f} | {cpu['search_cpu_ms_per_call']:.3f} | "
                         f"{row['beyond_search_ms_per_call']:.3f} | {row['over_search']:+.1%} |")
        lines.append("")
    if "path" in report:
        lines += ["## The path of one cold call (1 iteration)", "",
                  "Counted with `sys.setprofile` on the threads serving the call: the project's functions in the "
                  "order they are entered; a place is a stay in one module (consecutive entries of one module "
                  "merged), a return a stay in a module already stayed in (places less modules). At the service's "
                  "granularity a call from hzai_server into hzai counts as a stay in that hzai module and is not "
                  "followed inside; the data path is the same less the modules every call passes through whatever "
                  f"it asks ({', '.join(sorted(PLUMBING))}); the server's modules are the service's less the calls "
                  "into hzai (hzai_server alone: the count issue 45 item 3 states its target in), whole and less "
                  "the same modules (server data path); at every function's, everything is followed but the "
                  "search (the bot's decide).", ""]
        for name, path in report["path"].items():
            lines += [f"### {name.replace('_', ' ')}: {path['places']} places over {path['modules']} modules, "
                      f"{path['returns']} returns", "",
                      "Stays by module: " + ", ".join(f"{m} {n}" for m, n in path["stays_by_module"].items()), "",
                      "Modules in order: " + " → ".join(path["module_order"]), ""]
            if name == "service":
                lines += ["Functions: " + ", ".join(f"`{f}`" for f in path["functions"]), ""]
    if "path_cache_miss" in report:
        lines += ["## The path of one call with the decision cache (the server's default), a position not seen before",
                  "", "The same counts, the server's default --replay-cache (256): the call looks the position "
                  "up as sent, reads it, looks it up by its canonical key, replays it and remembers it.", ""]
        for name, path in report["path_cache_miss"].items():
            lines += [f"### {name.replace('_', ' ')}: {path['places']} places over {path['modules']} modules, "
                      f"{path['returns']} returns", "",
                      "Modules in order: " + " → ".join(path["module_order"]), ""]
    for run in report.get("profiles", []):
        lines += [f"## Profile: {run['iterations']} iterations, "
                  f"{'decision cache' if run['replay_cache'] else 'no decision cache (--replay-cache 0)'}", "",
                  f"{run['calls']} calls; profiled CPU time of the serving threads {run['profiled_ms_per_call']} "
                  f"ms a call (cProfile's own cost included), of which the native search's run {run['native_search_run_ms_per_call']} ms; "
                  f"the client saw {run['client_ms_per_call']} ms a call.", "",
                  "| top by own time | calls/call | own ms | cum ms |", "|---|---|---|---|"]
        lines += [f"| `{shown(r['function'])}` | {r['calls_per_call']} | {r['own_ms']} | {r['cum_ms']} |"
                  for r in run["top_own"]]
        lines += ["", "| top by cumulative time | calls/call | own ms | cum ms |", "|---|---|---|---|"]
        lines += [f"| `{shown(r['function'])}` | {r['calls_per_call']} | {r['own_ms']} | {r['cum_ms']} |"
                  for r in run["top_cumulative"]]
        lines.append("")
    out.with_suffix(".md").write_text("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, nargs="+", default=[1, 1000], help="budgets profiled")
    parser.add_argument("--calls", type=int, default=160, help="calls profiled at each budget and path")
    parser.add_argument("--cpu-iterations", type=int, nargs="+", default=[200],
                        help="budgets of the CPU measure (the first is `cpu` in the report, every one in cpu_by_iterations)")
    parser.add_argument("--only-cpu", action="store_true", help="the CPU measure alone (no path, no profiles)")
    parser.add_argument("--only-path", action="store_true", help="the path of one call alone (no profiles, no CPU)")
    parser.add_argument("--server-from", default=None, metavar="COMMIT",
                        help="with --only-path: count the path of COMMIT's server/hzai_server (this tree's library)")
    parser.add_argument("--cpu-calls", type=int, default=400, help="calls of the CPU measure (0: skip it)")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--note", default="")
    parser.add_argument("--before", default=None, metavar="JSON",
                        help="a report of this script on the code before a change: a before/after table, and the "
                             "report kept inside this one")
    parser.add_argument("--before-commit", default="", help="the commit the --before report measured")
    parser.add_argument("--out", default=str(RESULTS / "request_profile.json"), help="the JSON; the .md beside it")
    args = parser.parse_args(argv)
    if args.server_from and not args.only_path:
        parser.error("--server-from counts the path alone: give --only-path with it")
    if args.only_cpu and args.only_path:
        parser.error("--only-cpu and --only-path leave nothing to measure together: give one")
    if args.calls < 1 or args.cpu_calls < 0 or args.positions < 2 or any(b < 1 for b in args.iterations):
        parser.error("--calls >= 1, --cpu-calls >= 0, --positions >= 2, --iterations >= 1")
    if args.server_from:
        serve_from(args.server_from)
    from benchmarks.service import positions
    from hzai_server.config import ServerConfig

    records = positions(args.positions)
    report = {"command": harness.command("request_profile", argv),
              "machine": machine(), "note": args.note, "positions": len(records)}
    if args.server_from:
        report["server_from"] = args.server_from
    if not args.only_cpu:
        report["path"] = one_path(records)
        report["path_cache_miss"] = one_path(records, ServerConfig.replay_cache)
        for key, label in (("path", "path"), ("path_cache_miss", "path, cache miss")):
            for name, path in report[key].items():
                print(f"{label} ({name}): {path['places']} places, {path['modules']} modules, {path['returns']} "
                      "returns", flush=True)
    report["profiles"] = []
    for iterations in ([] if args.only_cpu or args.only_path else args.iterations):
        for cache in (1000, 0):
            run = profile(records, iterations, args.calls, cache, args.top)
            report["profiles"].append(run)
            print(f"profile {iterations} it, cache {cache}: {run['profiled_ms_per_call']} ms profiled a call, "
                  f"search run {run['native_search_run_ms_per_call']} ms", flush=True)
    for budget in (args.cpu_iterations if args.cpu_calls and not args.only_path else []):
        search = search_cpu(records, budget, args.cpu_calls) * 1000 / args.cpu_calls
        cpu = {"iterations": budget, "search_cpu_ms_per_call": round(search, 4)}
        for name, cache in (("warm", -1), ("cold", 0)):
            row = server_cpu(records, budget, args.cpu_calls, cache)
            row["beyond_search_ms_per_call"] = round(row["server_cpu_ms_per_call"] - search, 4)
            row["over_search"] = round(row["server_cpu_ms_per_call"] / search - 1, 4)
            cpu[name] = row
            print(f"cpu {budget} it, {name}: server {row['server_cpu_ms_per_call']:.3f} ms a call, search "
                  f"{search:.3f}, beyond {row['beyond_search_ms_per_call']:.3f} ({row['over_search']:+.1%})",
                  flush=True)
        report.setdefault("cpu", cpu)
        report.setdefault("cpu_by_iterations", {})[str(budget)] = cpu
    if args.before:
        before = json.loads(Path(args.before).read_text())
        if args.before_commit:
            before["commit"] = args.before_commit
        before.pop("before", None)
        report["before"] = before
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    write_md(out, report)
    print(f"wrote {out} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
