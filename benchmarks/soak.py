"""A soak under mixed load, for --minutes, with bot moves (small and, 5%, large),
analyses, hosted matches and 1% garbage, and a server process killed (SIGKILL) every
--kill-every minutes. Two targets:

- the cluster (default): replicas behind nginx, PostgreSQL; the killed replica is started
  again by this script;
- `--processes N`: ONE `hzai-server --processes N` on a loopback port, its matches in
  SQLite (WAL mode) in a directory of this run; a WORKER process is killed and the
  server's supervisor restarts it (the restarts are read from the server's log: `worker
  died`, `worker restarted`).

    python -m benchmarks.soak --minutes 30                 # the cluster
    python -m benchmarks.soak --processes 2 --minutes 30 --kill-every 3 \
        --out benchmarks/results/soak_processes.json       # one server, two worker processes
    python -m benchmarks.soak --minutes 0.5 --kill-every 0.2 --out /tmp/soak.json   # a smoke

The load generator is this script's own process (threads, one connection each), separate
from the server's processes; its CPU time, the server's (every process of it, the dead
ones included up to their last sample) and the whole machine's are read from /proc and
reported, so that what the rest of the machine did during the soak (other programs on a
shared machine) is stated too.

Every call is timed and counted by kind and status; every --sample seconds the RSS of
each replica (and of nginx and PostgreSQL) is read from /proc. Written: the JSON (every
window and sample), a markdown table by window (calls, p50/p99 of the OK calls, errors,
RSS) and a plot (p50/p99 and RSS over time), next to --out. Checked, and printed with
the verdicts: acknowledged moves lost (0: a finished match's record must hold every
acknowledged move; a match the service stops knowing, NOT_FOUND, loses them all; those of
matches still unfinished at the end are counted as unverified), INTERNAL answers (0), the RSS slope of each
replica process after warm-up (the first fifth; at most 1 MB a minute), and the p99 of
the last 5 minutes against the first 5 (within 20%; a run under 15 minutes compares its
first and last sixths). Seeded: --seed fixes every choice of every traffic thread.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import harness

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
FORBIDDEN = ("INTERNAL", "UNKNOWN")
# Each traffic thread on a connection of its own (gRPC shares one between channels to one
# address otherwise): with --processes the kernel spreads connections, not calls, over workers.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
NOT_RSS = ("t", "load1", "machine_busy_cores", "loadgen_cpu_s")  # a sample's keys that are no process's RSS


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def percentile(values: list[float], q: float) -> float | None:
    """The q-quantile (harness rule "floor") of latencies; None when none."""
    return harness.percentile(values, q, rule="floor")


def slope_per_minute(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, MB) points, in MB a minute."""
    if len(points) < 3:
        return None
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return None
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / var * 60


class Recorder:
    """Every call: (seconds since start, kind, status, milliseconds)."""

    def __init__(self):
        self.start = time.monotonic()
        self.calls: list[tuple[float, str, str, float]] = []
        self.lock = threading.Lock()
        self.acknowledged = 0  # acknowledged moves of finished matches, checked against their records
        self.lost = 0
        self.vanished = 0  # acknowledged moves of matches the service stopped knowing (NOT_FOUND): lost
        self.unverified = 0  # acknowledged moves of matches still unfinished when the soak stopped
        self.forbidden: list[dict] = []  # the first INTERNAL/UNKNOWN answers, with their messages
        self.create_refused: dict[str, int] = {}  # CreateMatch refusals by message (the cap's)

    def call(self, kind: str, function, *args, **kwargs):
        import grpc

        t0 = time.monotonic()
        try:
            result = function(*args, **kwargs)
            code = "OK"
            return result
        except grpc.RpcError as exc:
            code = exc.code().name
            if code in FORBIDDEN:
                with self.lock:
                    if len(self.forbidden) < 20:
                        self.forbidden.append({"t": round(t0 - self.start, 1), "kind": kind, "code": code,
                                               "details": (exc.details() or "")[:500]})
            raise
        finally:
            with self.lock:
                self.calls.append((t0 - self.start, kind, code, (time.monotonic() - t0) * 1000))


def _plain(text: str) -> str:
    import re

    return re.sub(r"@\w+", "", text)


def player(address: str, seed: int, rec: Recorder, stop: threading.Event) -> None:
    """Hosted matches, Hera played at random, Zeus by the bot; every acknowledged move is
    checked against the final record."""
    import grpc

    from hzai.rng import SplitMix64
    from hzai_client import HzaiClient

    rng = SplitMix64(seed)
    with HzaiClient(address, timeout=30, options=OWN_CONNECTION) as client:
        while not stop.is_set():
            try:
                created = rec.call("CreateMatch", client.create_match, game="hera_zeus", bot_seats=[1], bot="ismcts",
                                   iterations=100)
            except grpc.RpcError as exc:
                if exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                    with rec.lock:
                        reason = (exc.details() or "")[:120]
                        rec.create_refused[reason] = rec.create_refused.get(reason, 0) + 1
                time.sleep(0.5)
                continue
            match_id, token, status = created.status.match_id, created.seats[0].token, created.status
            acknowledged: dict[int, str] = {}
            while not status.over and not stop.is_set():
                try:
                    if status.HasField("to_move") and status.to_move == 0:
                        legal = rec.call("ListLegalMoves", client.legal_moves, match_id, token=token)
                        reply = rec.call("PlayMove", client.play_move, match_id, legal[rng.below(len(legal))].text,
                                         token=token, move_number=status.moves_played)
                        texts = [reply.played.text, *(c.text for c in reply.chance)]
                    else:
                        reply = rec.call("BotPlayTurn", client.bot_play_turn, match_id, token=token,
                                         move_number=status.moves_played)
                        texts = [m.text for m in reply.moves]
                except grpc.RpcError:
                    time.sleep(0.2)
                    try:
                        status = rec.call("GetView", client.get_view, match_id, token=token).status
                    except grpc.RpcError as exc:
                        if exc.code() == grpc.StatusCode.NOT_FOUND:  # the match is gone: its moves are lost
                            with rec.lock:
                                rec.vanished += len(acknowledged)
                            acknowledged = {}
                            break
                    continue
                first = reply.status.moves_played - len(texts)
                for offset, text in enumerate(texts):
                    acknowledged[first + offset] = text
                status = reply.status
            if status.over:
                final = json.loads(status.record_json)["moves"]
                lost = sum(1 for i, t in acknowledged.items()
                           if "?" not in t and (i >= len(final) or _plain(final[i]) != _plain(t)))
                with rec.lock:
                    rec.acknowledged += len(acknowledged)
                    rec.lost += lost
            else:
                with rec.lock:
                    rec.unverified += len(acknowledged)


def asker(address: str, seed: int, rec: Recorder, stop: threading.Event, records: list[dict]) -> None:
    """Bot moves and analyses on records, and 1% garbage of every kind (benchmarks.fuzz_soak)."""
    import grpc

    from benchmarks.fuzz_soak import Fuzzer, call, sample_record
    from hzai.rng import SplitMix64
    from hzai_client import HzaiClient

    rng = SplitMix64(seed)
    fuzzer = Fuzzer(seed, sample_record())
    with HzaiClient(address, timeout=30, options=OWN_CONNECTION) as client:
        while not stop.is_set():
            roll = rng.below(100)
            record = records[rng.below(len(records))]
            try:
                if roll == 0:
                    path, data, metadata = fuzzer.request()
                    t0 = time.monotonic()
                    code = call(client.channel, path, data, metadata)
                    with rec.lock:
                        rec.calls.append((t0 - rec.start, "garbage", code, (time.monotonic() - t0) * 1000))
                elif roll < 5:
                    rec.call("SuggestMove large", client.suggest_move, record, iterations=2000,
                             seed=rng.below(1 << 30))
                elif roll < 60:
                    rec.call("SuggestMove", client.suggest_move, record, iterations=200, seed=rng.below(1 << 30))
                else:
                    rec.call("Analyze", client.analyze, record, iterations=300, seed=rng.below(1 << 30))
            except grpc.RpcError:
                time.sleep(0.1)


def sample_records(count: int) -> list[dict]:
    from hzai.games.hera_zeus.rules import Game, Record, deal
    from hzai.rng import SplitMix64

    game = Game.create()
    out = []
    for seed in range(count):
        record = Record(game, setup=deal(game, seed))
        state = record.start()
        rng = SplitMix64(seed)
        target = 8 + rng.below(30)
        while (len(record.moves) < target or state.is_chance) and not state.is_over:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
            move = options[rng.below(len(options))]
            state.push(move)
            record.moves.append(str(move))
        if not state.is_over:
            out.append(record.to_json())
    return out


def windows(rec: Recorder, samples: list[dict], seconds: float, width: float) -> list[dict]:
    rows = []
    t = 0.0
    while t < seconds - 1e-9:
        last_window = t + width >= seconds - 1e-9  # it also takes the calls begun as the soak ended
        calls = [c for c in rec.calls if t <= c[0] and (last_window or c[0] < t + width)]
        ok = [c[3] for c in calls if c[2] == "OK" and c[1] != "garbage"]
        errors: dict[str, int] = {}
        for c in calls:
            if c[2] != "OK":
                errors[c[2]] = errors.get(c[2], 0) + 1
        rss = [s for s in samples if t <= s["t"] < t + width]
        last = rss[-1] if rss else None
        loads = [s["load1"] for s in rss if s.get("load1") is not None]
        rows.append({"from_s": round(t, 1), "to_s": round(min(t + width, seconds), 1), "calls": len(calls),
                     "ok": len(ok), "p50_ms": percentile(ok, 0.5), "p99_ms": percentile(ok, 0.99), "errors": errors,
                     "rss_mb": None if last is None else {k: v for k, v in last.items() if k not in NOT_RSS},
                     "load1_max": max(loads) if loads else None})
        t += width
    return rows


SERVING_MB = 80.0  # a worker serves once its RSS reaches this (an idle one holds about 50 MB here)
SERVING_WARM_S = 60.0  # its first minute of serving (imports, models, caches) is not counted


def serving_slopes(samples: list[dict]) -> dict:
    """With --processes: the RSS slope of each worker process while it serves, from
    SERVING_WARM_S after its RSS first reached SERVING_MB to its last sample. A killed worker's connections move to the one still running and a
    restarted one idles until clients connect again, so a process' whole life mixes
    idle and serving memory; this is the serving part alone."""
    lives: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for sample in samples:
        for name, value in sample.items():
            if name.startswith("worker") and not name.endswith("_pid") and value is not None:
                lives.setdefault((name, sample.get(f"{name}_pid")), []).append((sample["t"], value))
    out = {}
    for (name, pid), points in lives.items():
        began = next((t for t, v in points if v >= SERVING_MB), None)
        if began is None:
            continue
        serving = [(t, v) for t, v in points if t >= began + SERVING_WARM_S]
        slope = slope_per_minute(serving)
        if slope is not None:
            out[f"{name} pid {pid}"] = {"slope_mb_per_min": round(slope, 3), "from_s": serving[0][0],
                                        "to_s": serving[-1][0], "rss_from_mb": round(serving[0][1], 1),
                                        "rss_to_mb": round(serving[-1][1], 1)}
    return out


def verdicts(rec: Recorder, samples: list[dict], seconds: float, pids: dict) -> dict:
    warm = seconds / 5
    slopes = {}
    for name, lives in pids.items():  # a replica restarted after a kill is a new process
        for pid, born, died in lives:
            points = [(s["t"], s[name]) for s in samples
                      if s.get(name) is not None and s["t"] >= max(warm, born + 30) and s["t"] <= died
                      and s.get(f"{name}_pid") == pid]
            slope = slope_per_minute(points)
            if slope is not None:
                slopes[f"{name} pid {pid}"] = round(slope, 3)
    edge = 300.0 if seconds >= 900 else seconds / 6
    ok = [c for c in rec.calls if c[2] == "OK" and c[1] != "garbage"]
    first = percentile([c[3] for c in ok if c[0] < edge], 0.99)
    last = percentile([c[3] for c in ok if c[0] >= seconds - edge], 0.99)
    internal = sum(1 for c in rec.calls if c[2] in FORBIDDEN)
    cap_refusals = sum(n for reason, n in rec.create_refused.items() if "matches" in reason)
    ratio = None if not first or last is None else round(last / first, 3)
    return {
        "create_match_refused_over_cap": cap_refusals, "p99_last_over_first": ratio,
        "acknowledged_moves": rec.acknowledged, "acknowledged_moves_lost": rec.lost + rec.vanished,
        "acknowledged_moves_of_vanished_matches": rec.vanished,
        "acknowledged_moves_unverified": rec.unverified,
        "internal_or_unknown": internal, "rss_slope_mb_per_min": slopes,
        "rss_slope_max": max(slopes.values()) if slopes else None,
        "p99_first_ms": first, "p99_last_ms": last, "p99_window_s": edge,
        "p99_change": None if not first or last is None else round(last / first - 1, 3),
        "pass": {"no_lost_moves": rec.lost + rec.vanished == 0, "no_internal": internal == 0,
                 "rss_slope_le_1mb_min": bool(slopes) and max(slopes.values()) <= 1.0,
                 "p99_within_20pct": first is not None and last is not None and abs(last / first - 1) <= 0.2,
                 "p99_last_le_1_5x_first": ratio is not None and ratio <= 1.5,
                 "no_create_match_refused_over_cap": cap_refusals == 0},
    }


def write_outputs(out: Path, report: dict) -> None:
    out.write_text(json.dumps(report, indent=1))
    processes = report["args"].get("processes")
    target = (f"one `hzai-server --processes {processes}` (SQLite, WAL)" if processes
              else "the cluster (replicas behind nginx, PostgreSQL)")
    lines = [f"# Soak: {report['args']['minutes']} minutes, {target}", "", f"Command: `{report['command']}`", "",
             f"Started {report['started']}. " + (report.get("note") or ""), ""]
    if report.get("rewritten_by"):
        lines += [f"Table and plot written again from the JSON by `{report['rewritten_by']}` (what this script "
                  "now computes from the samples, the serving RSS slopes, added).", ""]
    if report.get("cpu"):
        cpu = report["cpu"]
        lines += [f"CPU over the soak ({cpu['cores']} cores, {cpu['wall_s']:.0f} s): server {cpu['server_s']} s "
                  f"({cpu['server_cores']} cores), load generator {cpu['loadgen_s']} s ({cpu['loadgen_cores']} cores), "
                  f"the rest of the machine {cpu['others_s']} s ({cpu['others_cores']} cores). {cpu['how']}.", ""]
    if report.get("restarts"):
        r = report["restarts"]
        lines += [f"Workers killed (SIGKILL): {r['kills']}; the supervisor logged `worker died` {r['worker_died']} "
                  f"times and `worker restarted` {r['worker_restarted']} times.", ""]
    serving = report["verdicts"].get("rss_slope_serving")
    if serving:
        lines += [f"RSS slope of each worker while it serves (from {SERVING_WARM_S:.0f} s after its RSS reached "
                  f"{SERVING_MB:.0f} MB, to its last sample; an idle worker holds about 50 MB; connections stay on the worker that "
                  "accepted them, so a restarted worker idles until clients connect again):", "",
                  "| process | from s | to s | RSS MB | slope MB/min |", "|---|---|---|---|---|"]
        lines += [f"| {name} | {v['from_s']:.0f} | {v['to_s']:.0f} | {v['rss_from_mb']:.0f} → {v['rss_to_mb']:.0f} | "
                  f"{v['slope_mb_per_min']:.2f} |" for name, v in serving.items()]
        lines.append("")
    lines += [f"Calls by kind and status: `{json.dumps(report['calls_by_kind'])}`", "",
              f"CreateMatch refused (by message): `{json.dumps(report.get('create_match_refused', {}))}`", "",
              "| window (s) | calls | OK | p50 ms | p99 ms | errors | RSS MB | load1 max |",
              "|---|---|---|---|---|---|---|---|"]
    for row in report["windows"]:
        def ms(x):
            return "-" if x is None else f"{x:.0f}"

        rss = "-" if row["rss_mb"] is None else ", ".join(
            f"{k}={v:.0f}" for k, v in row["rss_mb"].items() if v is not None and not k.endswith("_pid"))
        errors = ", ".join(f"{k} {v}" for k, v in sorted(row["errors"].items())) or "-"
        lines.append(f"| {row['from_s']:.0f}-{row['to_s']:.0f} | {row['calls']} | {row['ok']} | {ms(row['p50_ms'])} | "
                     f"{ms(row['p99_ms'])} | {errors} | {rss} | {row.get('load1_max') or '-'} |")
    lines += ["", "Kills: " + ", ".join(f"{k.get('replica') or 'worker%s' % k.get('worker')} at {k['t']:.0f} s"
                                        for k in report["kills"]), "",
              "Verdicts: `" + json.dumps(report["verdicts"]) + "`", ""]
    out.with_suffix(".md").write_text("\n".join(lines))
    plt = harness.pyplot()
    if plt is None:
        return
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    mids = [(r["from_s"] + r["to_s"]) / 120 for r in report["windows"]]
    for key in ("p50_ms", "p99_ms"):
        top.plot(mids, [r[key] for r in report["windows"]], marker="o", label=key.replace("_ms", ""))
    top.set_ylabel("OK call latency (ms)")
    top.legend()
    names = sorted({k for s in report["samples"] for k in s if k not in NOT_RSS and not k.endswith("_pid")})
    for name in names:
        bottom.plot([s["t"] / 60 for s in report["samples"]], [s.get(name) for s in report["samples"]], label=name)
    for kill in report["kills"]:
        for axis in (top, bottom):
            axis.axvline(kill["t"] / 60, color="grey", linestyle=":")
    bottom.set_ylabel("RSS (MB)")
    bottom.set_xlabel("minutes (dotted: a server process killed)")
    bottom.legend(fontsize=7)
    fig.tight_layout()
    harness.save_plot(fig, out.with_suffix(".png"), dpi=100)


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores (/proc/stat)."""
    from benchmarks.service import CLOCK_TICKS

    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields) - idle) / CLOCK_TICKS, sum(fields) / CLOCK_TICKS


def drive(address: str, args, rec: Recorder, stop: threading.Event, seconds: float, helpers: list) -> None:
    """The traffic threads (players and askers) and `helpers` for `seconds`, then stop."""
    records = sample_records(40)
    threads = [threading.Thread(target=player, args=(address, args.seed * 1000 + k, rec, stop), daemon=True)
               for k in range(args.players)]
    threads += [threading.Thread(target=asker, args=(address, args.seed * 1000 + 500 + k, rec, stop, records),
                                 daemon=True) for k in range(args.askers)]
    helpers = [threading.Thread(target=h, daemon=True) for h in helpers]
    for thread in threads + helpers:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads + helpers:
        thread.join(60)


def summarise(rec: Recorder, samples: list[dict], seconds: float, kills: list[dict], lives: dict) -> dict:
    report = {"windows": windows(rec, samples, seconds, max(60.0, seconds / 30) if seconds >= 600 else seconds / 6),
              "samples": samples, "kills": kills,
              "verdicts": verdicts(rec, samples, seconds, {k: [tuple(x) for x in v] for k, v in lives.items()}),
              "calls_total": len(rec.calls)}
    by_kind: dict[str, dict[str, int]] = {}
    for _, kind, code, _ in rec.calls:
        by_kind.setdefault(kind, {})
        by_kind[kind][code] = by_kind[kind].get(code, 0) + 1
    report["calls_by_kind"] = by_kind
    report["create_match_refused"] = dict(rec.create_refused)
    report["internal_answers"] = list(rec.forbidden)
    return report


CLUSTER_FLAGS = ["--max-searches", "2", "--max-threads", "1", "--max-matches-per-client", "1000", "--search-queue", "8",
                 "--grace", "2"]


def soak(args, workdir: Path) -> dict:
    from hzai_server.cluster import Cluster, start_replica
    from hzai_server.devcluster import Nginx

    seconds = args.minutes * 60
    flags = CLUSTER_FLAGS
    cluster = Cluster(workdir / "cluster")
    state = cluster.up(args.replicas, flags=flags)
    stop = threading.Event()
    rec = Recorder()
    samples: list[dict] = []
    kills: list[dict] = []
    replicas = [dict(r) for r in state["replicas"]]
    lives = {f"replica{i}": [[r["pid"], 0.0, float("inf")]] for i, r in enumerate(replicas)}

    def postgres_pid() -> int | None:
        try:
            return int((Path(state["postgres"]) / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def sampler() -> None:
        nginx = Nginx(state["nginx"], state["address"], [])
        while not stop.wait(args.sample):
            row = {"t": round(time.monotonic() - rec.start, 1)}
            for i, replica in enumerate(replicas):
                row[f"replica{i}"] = rss_mb(replica["pid"])
                row[f"replica{i}_pid"] = replica["pid"]
            nginx_pid = nginx.pid()
            row["nginx"] = None if nginx_pid is None else rss_mb(nginx_pid)
            pg = postgres_pid()
            row["postgres"] = None if pg is None else rss_mb(pg)
            samples.append(row)

    def killer() -> None:
        index = 0
        while not stop.wait(args.kill_every * 60):
            victim = replicas[index % len(replicas)]
            name = f"replica{index % len(replicas)}"
            t = time.monotonic() - rec.start
            os.kill(victim["pid"], signal.SIGKILL)
            kills.append({"replica": name, "t": round(t, 1)})
            lives[name][-1][2] = t
            time.sleep(2)
            try:
                new = start_replica(Path(state["directory"]), index % len(replicas), state["store"],
                                    [*flags, "--address", victim["address"]])
            except Exception as exc:  # noqa: BLE001 - reported, the soak goes on with one replica less
                kills[-1]["restart_error"] = str(exc)[:300]
            else:
                victim.update(new)
                lives[name].append([new["pid"], time.monotonic() - rec.start, float("inf")])
            index += 1

    try:
        drive(state["address"], args, rec, stop, seconds, [sampler, killer])
    finally:
        stop.set()
        # the state file names the first replicas: the restarted ones are stopped here
        for replica in replicas:
            try:
                os.kill(replica["pid"], signal.SIGTERM)
            except ProcessLookupError:
                pass
        cluster.down()
    return summarise(rec, samples, seconds, kills, lives)


def soak_processes(args, workdir: Path) -> dict:
    """One `hzai-server --processes N` (SQLite in WAL mode in `workdir`); a worker killed
    every --kill-every minutes, restarted by the server's supervisor."""
    import psutil

    from benchmarks.service import LocalServer, cpu_seconds

    seconds = args.minutes * 60
    flags = ["--processes", str(args.processes), "--data-dir", str(workdir / "data"),
             "--max-matches", str(args.max_matches), *CLUSTER_FLAGS]
    stop = threading.Event()
    samples: list[dict] = []
    kills: list[dict] = []
    cpu_last: dict[int, tuple[float, float]] = {}  # pid -> (first, last) CPU seconds read
    with LocalServer(extra=flags, start_timeout=120) as server:
        rec = Recorder()
        supervisor = psutil.Process(server.pid)

        def workers() -> dict[int, int]:
            """worker index -> pid, read from the supervisor's children's command lines."""
            out = {}
            for child in supervisor.children():
                try:
                    line = child.cmdline()
                except psutil.Error:
                    continue
                if "--worker" in line:
                    out[int(line[line.index("--worker") + 1])] = child.pid
            return out

        current = workers()
        lives = {f"worker{i}": [[pid, 0.0, float("inf")]] for i, pid in current.items()}
        lives["supervisor"] = [[server.pid, 0.0, float("inf")]]
        busy0, total0 = machine_busy_seconds()
        me0 = cpu_seconds(os.getpid())

        def read_cpu(pid: int) -> None:
            value = cpu_seconds(pid)
            if value == value:  # not NaN: the process is still there
                first = cpu_last.get(pid, (value, value))[0]
                cpu_last[pid] = (first, value)

        def sampler() -> None:
            while not stop.wait(args.sample):
                t = round(time.monotonic() - rec.start, 1)
                row: dict = {"t": t, "supervisor": rss_mb(server.pid), "supervisor_pid": server.pid}
                read_cpu(server.pid)
                for index, pid in sorted(workers().items()):
                    name = f"worker{index}"
                    row[name], row[f"{name}_pid"] = rss_mb(pid), pid
                    read_cpu(pid)
                    life = lives.setdefault(name, [])
                    if not life or life[-1][0] != pid:  # a worker started again by the supervisor
                        life.append([pid, t, float("inf")])
                busy, total = machine_busy_seconds()
                row["load1"] = round(os.getloadavg()[0], 2)
                row["machine_busy_cores"] = round((busy - busy0) / max(1e-9, total - total0) * psutil.cpu_count(), 3)
                row["loadgen_cpu_s"] = round(cpu_seconds(os.getpid()) - me0, 2)
                samples.append(row)

        def killer() -> None:
            index = 0
            while not stop.wait(args.kill_every * 60):
                slot = index % args.processes
                pid = workers().get(slot)
                t = time.monotonic() - rec.start
                if pid is None:
                    kills.append({"worker": slot, "t": round(t, 1), "skipped": "no such worker running"})
                else:
                    read_cpu(pid)
                    os.kill(pid, signal.SIGKILL)
                    kills.append({"worker": slot, "pid": pid, "t": round(t, 1)})
                    for life in lives.get(f"worker{slot}", []):
                        if life[0] == pid:
                            life[2] = t
                index += 1

        try:
            drive(server.target, args, rec, stop, seconds, [sampler, killer])
        finally:
            stop.set()
        for pid in [server.pid, *workers().values()]:
            read_cpu(pid)
        busy1, total1 = machine_busy_seconds()
        me1 = cpu_seconds(os.getpid())
        events = []
        for line in server.log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("event") in ("worker died", "worker restarted", "worker unresponsive", "supervisor fault"):
                events.append({k: entry.get(k) for k in ("event", "worker", "pid", "signal", "exit_code",
                                                          "lived_seconds") if entry.get(k) is not None})
    report = summarise(rec, samples, seconds, kills, lives)
    report["verdicts"]["rss_slope_serving"] = serving_slopes(samples)
    server_cpu = sum(last - first for first, last in cpu_last.values())
    wall = seconds
    report["restarts"] = {"kills": sum(1 for k in kills if "pid" in k),
                          "worker_died": sum(1 for e in events if e["event"] == "worker died"),
                          "worker_restarted": sum(1 for e in events if e["event"] == "worker restarted"),
                          "events": events}
    report["cpu"] = {
        "how": "the load generator is this script's process (threads, one connection each), separate from the "
               "server's; CPU seconds from /proc: the server's processes (supervisor and every worker, a killed "
               "one up to its last reading), the load generator's, the whole machine's (/proc/stat)",
        "server_s": round(server_cpu, 1), "loadgen_s": round(me1 - me0, 1),
        "machine_busy_s": round(busy1 - busy0, 1),
        "others_s": round((busy1 - busy0) - server_cpu - (me1 - me0), 1),
        "cores": psutil.cpu_count(), "wall_s": round(wall, 1),
        "server_cores": round(server_cpu / wall, 2), "loadgen_cores": round((me1 - me0) / wall, 2),
        "others_cores": round(((busy1 - busy0) - server_cpu - (me1 - me0)) / wall, 2),
    }
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the soak (0.25..600)")
    parser.add_argument("--replicas", type=int, default=2, help="cluster replicas (without --processes)")
    parser.add_argument("--processes", type=int, default=0,
                        help="N > 0: soak ONE hzai-server --processes N (SQLite) instead of the cluster")
    parser.add_argument("--max-matches", type=int, default=100,
                        help="with --processes: the server's --max-matches (low, so that finished matches that "
                             "counted against it would fill it within the soak)")
    parser.add_argument("--note", default="", help="a sentence for the report (the machine's conditions)")
    parser.add_argument("--players", type=int, default=2, help="threads playing hosted matches")
    parser.add_argument("--askers", type=int, default=2, help="threads asking for bot moves and analyses")
    parser.add_argument("--kill-every", type=float, default=5.0, help="minutes between two replica kills")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between two RSS samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(RESULTS / "soak.json"), help="the JSON; .md and .png next to it")
    parser.add_argument("--rewrite", default=None, metavar="JSON",
                        help="no soak: read a soak's JSON, add what later versions of this script compute from its "
                             "samples (the serving RSS slopes) and write its JSON, table and plot again")
    args = parser.parse_args(argv)
    if args.rewrite:
        out = Path(args.rewrite)
        report = json.loads(out.read_text())
        if report["args"].get("processes"):
            report["verdicts"]["rss_slope_serving"] = serving_slopes(report["samples"])
        report["rewritten_by"] = f"python -m benchmarks.soak --rewrite {shlex.quote(args.rewrite)}"
        write_outputs(out, report)
        print(json.dumps(report["verdicts"], indent=1))
        return 0
    if not 0.25 <= args.minutes <= 600 or not 1 <= args.replicas <= 4 or args.kill_every <= 0 or args.sample <= 0:
        parser.error("--minutes 0.25..600, --replicas 1..4, --kill-every and --sample > 0")
    if not 0 <= args.processes <= 16 or args.max_matches < 1:
        parser.error("--processes 0..16 (0: the cluster), --max-matches at least 1")
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="hzai-soak-") as tmp:
        os.chmod(tmp, 0o711)  # PostgreSQL's own user must reach its directory
        report = soak_processes(args, Path(tmp)) if args.processes else soak(args, Path(tmp))
    report = {"command": harness.command("soak", argv),
              "args": vars(args), "note": args.note, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)), **report}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_outputs(out, report)
    print(json.dumps({"calls": report["calls_total"], "calls_by_kind": report["calls_by_kind"],
                      "kills": report["kills"], "restarts": report.get("restarts"), "cpu": report.get("cpu"),
                      "create_match_refused": report.get("create_match_refused"),
                      "verdicts": report["verdicts"]}, indent=1))
    print(f"wrote {out}, {out.with_suffix('.md')}, {out.with_suffix('.png')}")
    return 0 if report["verdicts"]["acknowledged_moves_lost"] == 0 and not report["verdicts"]["internal_or_unknown"] \
        else 1


if __name__ == "__main__":
    sys.exit(main())
