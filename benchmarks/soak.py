"""A soak under mixed load: the cluster (replicas behind nginx, PostgreSQL) for
--minutes, with bot moves, analyses, hosted matches and 1% garbage, and a replica killed
(SIGKILL) and restarted every --kill-every minutes.

    python -m benchmarks.soak --minutes 30                 # the issue's soak
    python -m benchmarks.soak --minutes 0.5 --kill-every 0.2 --out /tmp/soak.json   # a smoke

Every call is timed and counted by kind and status; every --sample seconds the RSS of
each replica (and of nginx and PostgreSQL) is read from /proc. Written: the JSON (every
window and sample), a markdown table by window (calls, p50/p99 of the OK calls, errors,
RSS) and a plot (p50/p99 and RSS over time), next to --out. Checked, and printed with
the verdicts: acknowledged moves lost (0), INTERNAL answers (0), the RSS slope of each
replica process after warm-up (the first fifth; at most 1 MB a minute), and the p99 of
the last 5 minutes against the first 5 (within 20%; a run under 15 minutes compares its
first and last sixths). Seeded: --seed fixes every choice of every traffic thread.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
FORBIDDEN = ("INTERNAL", "UNKNOWN")


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
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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
        self.acknowledged = 0
        self.lost = 0

    def call(self, kind: str, function, *args, **kwargs):
        import grpc

        t0 = time.monotonic()
        try:
            result = function(*args, **kwargs)
            code = "OK"
            return result
        except grpc.RpcError as exc:
            code = exc.code().name
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
    with HzaiClient(address, timeout=30) as client:
        while not stop.is_set():
            try:
                created = rec.call("CreateMatch", client.create_match, game="hera_zeus", bot_seats=[1], bot="ismcts",
                                   iterations=100)
            except grpc.RpcError:
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
                    except grpc.RpcError:
                        pass
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


def asker(address: str, seed: int, rec: Recorder, stop: threading.Event, records: list[dict]) -> None:
    """Bot moves and analyses on records, and 1% garbage of every kind (benchmarks.fuzz_soak)."""
    import grpc

    from benchmarks.fuzz_soak import Fuzzer, call, sample_record
    from hzai.rng import SplitMix64
    from hzai_client import HzaiClient

    rng = SplitMix64(seed)
    fuzzer = Fuzzer(seed, sample_record())
    with HzaiClient(address, timeout=30) as client:
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
        rows.append({"from_s": round(t, 1), "to_s": round(min(t + width, seconds), 1), "calls": len(calls),
                     "ok": len(ok), "p50_ms": percentile(ok, 0.5), "p99_ms": percentile(ok, 0.99), "errors": errors,
                     "rss_mb": None if last is None else {k: v for k, v in last.items() if k != "t"}})
        t += width
    return rows


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
    return {
        "acknowledged_moves": rec.acknowledged, "acknowledged_moves_lost": rec.lost,
        "internal_or_unknown": internal, "rss_slope_mb_per_min": slopes,
        "rss_slope_max": max(slopes.values()) if slopes else None,
        "p99_first_ms": first, "p99_last_ms": last, "p99_window_s": edge,
        "p99_change": None if not first or last is None else round(last / first - 1, 3),
        "pass": {"no_lost_moves": rec.lost == 0, "no_internal": internal == 0,
                 "rss_slope_le_1mb_min": bool(slopes) and max(slopes.values()) <= 1.0,
                 "p99_within_20pct": first is not None and last is not None and abs(last / first - 1) <= 0.2},
    }


def write_outputs(out: Path, report: dict) -> None:
    out.write_text(json.dumps(report, indent=1))
    lines = [f"# Soak: {report['args']['minutes']} minutes", "", f"Command: `{report['command']}`", "",
             "| window (s) | calls | OK | p50 ms | p99 ms | errors | RSS MB (replicas, nginx, postgres) |",
             "|---|---|---|---|---|---|---|"]
    for row in report["windows"]:
        def ms(x):
            return "-" if x is None else f"{x:.0f}"

        rss = "-" if row["rss_mb"] is None else ", ".join(
            f"{k}={v:.0f}" for k, v in row["rss_mb"].items() if v is not None and not k.endswith("_pid"))
        errors = ", ".join(f"{k} {v}" for k, v in sorted(row["errors"].items())) or "-"
        lines.append(f"| {row['from_s']:.0f}-{row['to_s']:.0f} | {row['calls']} | {row['ok']} | {ms(row['p50_ms'])} | "
                     f"{ms(row['p99_ms'])} | {errors} | {rss} |")
    lines += ["", "Kills: " + ", ".join(f"{k['replica']} at {k['t']:.0f} s" for k in report["kills"]), "",
              "Verdicts: `" + json.dumps(report["verdicts"]) + "`", ""]
    out.with_suffix(".md").write_text("\n".join(lines))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    mids = [(r["from_s"] + r["to_s"]) / 120 for r in report["windows"]]
    for key in ("p50_ms", "p99_ms"):
        top.plot(mids, [r[key] for r in report["windows"]], marker="o", label=key.replace("_ms", ""))
    top.set_ylabel("OK call latency (ms)")
    top.legend()
    names = sorted({k for s in report["samples"] for k in s if k != "t" and not k.endswith("_pid")})
    for name in names:
        bottom.plot([s["t"] / 60 for s in report["samples"]], [s.get(name) for s in report["samples"]], label=name)
    for kill in report["kills"]:
        for axis in (top, bottom):
            axis.axvline(kill["t"] / 60, color="grey", linestyle=":")
    bottom.set_ylabel("RSS (MB)")
    bottom.set_xlabel("minutes (dotted: a replica killed)")
    bottom.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=100)


def soak(args, workdir: Path) -> dict:
    from hzai_server.cluster import Cluster, start_replica
    from hzai_server.devcluster import Nginx

    seconds = args.minutes * 60
    flags = ["--max-searches", "2", "--max-threads", "1", "--max-matches-per-client", "1000", "--search-queue", "8",
             "--grace", "2"]
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

    records = sample_records(40)
    threads = [threading.Thread(target=player, args=(state["address"], args.seed * 1000 + k, rec, stop), daemon=True)
               for k in range(args.players)]
    threads += [threading.Thread(target=asker, args=(state["address"], args.seed * 1000 + 500 + k, rec, stop, records),
                                 daemon=True) for k in range(args.askers)]
    helpers = [threading.Thread(target=sampler, daemon=True), threading.Thread(target=killer, daemon=True)]
    try:
        for thread in threads + helpers:
            thread.start()
        time.sleep(seconds)
        stop.set()
        for thread in threads + helpers:
            thread.join(60)
    finally:
        stop.set()
        # the state file names the first replicas: the restarted ones are stopped here
        for replica in replicas:
            try:
                os.kill(replica["pid"], signal.SIGTERM)
            except ProcessLookupError:
                pass
        cluster.down()
    report = {"windows": windows(rec, samples, seconds, max(60.0, seconds / 30) if seconds >= 600 else seconds / 6),
              "samples": samples, "kills": kills,
              "verdicts": verdicts(rec, samples, seconds, {k: [tuple(x) for x in v] for k, v in lives.items()}),
              "calls_total": len(rec.calls)}
    by_kind: dict[str, dict[str, int]] = {}
    for _, kind, code, _ in rec.calls:
        by_kind.setdefault(kind, {})
        by_kind[kind][code] = by_kind[kind].get(code, 0) + 1
    report["calls_by_kind"] = by_kind
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the soak (0.25..600)")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--players", type=int, default=2, help="threads playing hosted matches")
    parser.add_argument("--askers", type=int, default=2, help="threads asking for bot moves and analyses")
    parser.add_argument("--kill-every", type=float, default=5.0, help="minutes between two replica kills")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between two RSS samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(RESULTS / "soak.json"), help="the JSON; .md and .png next to it")
    args = parser.parse_args(argv)
    if not 0.25 <= args.minutes <= 600 or not 1 <= args.replicas <= 4 or args.kill_every <= 0 or args.sample <= 0:
        parser.error("--minutes 0.25..600, --replicas 1..4, --kill-every and --sample > 0")
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="hzai-soak-") as tmp:
        os.chmod(tmp, 0o711)  # PostgreSQL's own user must reach its directory
        report = soak(args, Path(tmp))
    report = {"command": "python -m benchmarks.soak " + " ".join(argv if argv is not None else sys.argv[1:]),
              "args": vars(args), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)), **report}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_outputs(out, report)
    print(json.dumps({"calls": report["calls_total"], "calls_by_kind": report["calls_by_kind"],
                      "kills": report["kills"], "verdicts": report["verdicts"]}, indent=1))
    print(f"wrote {out}, {out.with_suffix('.md')}, {out.with_suffix('.png')}")
    return 0 if report["verdicts"]["acknowledged_moves_lost"] == 0 and not report["verdicts"]["internal_or_unknown"] \
        else 1


if __name__ == "__main__":
    sys.exit(main())
