"""The Markdown report and PNG plots, from the JSON files of one results folder.

    python -m benchmarks.report [--out benchmarks/results]

Reads engine.json, search.json, load.json, overhead.json, latency.json, strength.json
and run.json (whichever exist) and writes report.md and the plots next to them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from benchmarks import harness

CONCERN = "suite"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
PARTS = ("engine", "search", "load", "overhead", "latency", "strength")
HEADLINE_BUDGETS = (200, 1000, 5000)


def load_results(out: Path) -> dict:
    data = {}
    for name in (*PARTS, "run"):
        path = out / f"{name}.json"
        if path.exists():
            try:
                data[name] = json.loads(path.read_text())
            except ValueError:
                pass
    return data


def _f(x, digits: int = 1, unit: str = "") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:,.{digits}f}{unit}"


def _pct(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:+.0%}"


def _main_requests(run: dict) -> list[str]:
    """The request names of a load run worth a row (not the match bookkeeping)."""
    return [n for n in run["requests"] if not n.startswith(("CreateMatch", "DeleteMatch"))]


# ----- plots ------------------------------------------------------------------------------


def plot_engine_search(data: dict, path: Path) -> bool:
    plt = harness.pyplot()
    engine, search = data.get("engine"), data.get("search")
    if plt is None or not (engine or search):
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    if engine:
        labels = list(engine["positions"])
        series = (("reference", "reference (Python)"), ("native_1_thread", "native, 1 thread"),
                  ("native_2_threads", "native, 2 threads"))
        width = 0.8 / len(series)
        for k, (key, name) in enumerate(series):
            values = [engine["positions"][p][key]["games_per_s"] for p in labels]
            axes[0].bar([i + k * width for i in range(len(labels))], values, width, label=name)
        axes[0].set_xticks([i + width for i in range(len(labels))], [f"from {p} positions" for p in labels])
        top = max(engine["positions"][p][key]["games_per_s"] for p in labels for key, _ in series)
        axes[0].set_yscale("log")
        axes[0].set_ylim(top=top * 30)  # room for the legend
        axes[0].set_ylabel("random playouts per second")
        axes[0].set_title("Engine: random playouts")
        axes[0].legend(loc="upper left", fontsize=8, ncol=3)
    if search:
        phases = list(search["phases"])
        for k, key in enumerate(("iterations_per_s_1_thread", "iterations_per_s_2_threads")):
            values = [search["phases"][p][key] for p in phases]
            axes[1].bar([i + k * 0.4 for i in range(len(phases))], values, 0.4,
                        label="1 thread" if k == 0 else "2 threads")
        axes[1].set_xticks([i + 0.2 for i in range(len(phases))], [f"{p} game" for p in phases])
        axes[1].set_ylabel("ISMCTS iterations per second")
        axes[1].set_title("Search: ISMCTS by game phase")
        axes[1].legend(loc="lower right", fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def plot_load(data: dict, path: Path) -> bool:
    plt = harness.pyplot()
    load = data.get("load")
    if plt is None or not load or not load.get("runs"):
        return False
    workers = sorted({r["workers"] for r in load["runs"]})
    names = []
    for r in load["runs"]:
        for n in _main_requests(r):
            if n not in names:
                names.append(n)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(workers)
    for k, w in enumerate(workers):
        rps, p50, p99 = [], [], []
        for n in names:
            row = next((r["requests"][n] for r in load["runs"] if r["workers"] == w and n in r["requests"]), {})
            rps.append(row.get("ok_per_s", 0.0))
            p50.append(row.get("p50_ms", float("nan")))
            p99.append(row.get("p99_ms", float("nan")))
        xs = [i + k * width for i in range(len(names))]
        label = f"{w} worker thread{'s' if w > 1 else ''}"
        axes[0].bar(xs, rps, width, label=label)
        axes[1].bar(xs, p99, width, label=f"{label}: p99", alpha=0.45)
        axes[1].bar(xs, p50, width * 0.5, label=f"{label}: p50")
    for ax in axes:
        ax.set_xticks([i + width * (len(workers) - 1) / 2 for i in range(len(names))], names, rotation=20, ha="right",
                      fontsize=8)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("successful requests per second")
    axes[0].set_title(f"Throughput, {load['users']} locust users")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("latency (ms)")
    axes[1].set_title("Latency p50 and p99")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def plot_overhead(data: dict, path: Path) -> bool:
    plt = harness.pyplot()
    over = data.get("overhead")
    if plt is None or not over or not over.get("budgets"):
        return False
    budgets = sorted(int(b) for b in over["budgets"])
    rows = [over["budgets"][str(b)] for b in budgets]
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2))
    callers = over.get("callers", 2)
    for key, label, style in (("in_process_search", "in-process search", "o-"),
                              ("in_process_whole_path", "in-process, replay + view + search", "s--"),
                              ("service", "service, record position, 1 client", "^-"),
                              ("service_no_cache", "service, record replayed in full, 1 client", "^--"),
                              ("service_match", "service, hosted match position, 1 client", "v-"),
                              ("in_process_parallel", f"in-process, {callers} callers", "o:"),
                              ("service_parallel", f"service, {callers} clients", "^:")):
        if all(key in r for r in rows):
            axes[0].plot(budgets, [r[key]["moves_per_s"] for r in rows], style, label=label)
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xticks(budgets, [str(b) for b in budgets])
    axes[0].set_xticks([], minor=True)
    axes[0].set_xlabel("ISMCTS iterations per move")
    axes[0].set_ylabel("bot moves per second")
    axes[0].set_title("Bot moves per second")
    # below the axes: inside, any corner hides a line at some budget
    axes[0].legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    search = [r["in_process_search"]["mean_ms"] for r in rows]
    replay = [max(0.0, r["replay_and_view_ms"]) for r in rows]
    rpc = [max(0.0, r["rpc_ms"]) for r in rows]
    xs = range(len(budgets))
    axes[1].bar(xs, search, label="search")
    axes[1].bar(xs, replay, bottom=search, label="replay record + build view")
    axes[1].bar(xs, rpc, bottom=[a + b for a, b in zip(search, replay)], label="gRPC + messages")
    for x, r in zip(xs, rows):
        full = r.get("service_no_cache", r["service"])
        axes[1].text(x, full["mean_ms"] * 1.02, f"{full['mean_ms'] / r['in_process_search']['mean_ms'] - 1:+.0%}",
                     ha="center", fontsize=8)
    axes[1].set_ylim(top=max(r.get("service_no_cache", r["service"])["mean_ms"] for r in rows) * 1.12)  # room for labels
    axes[1].set_xticks(list(xs), [f"{b} it" for b in budgets])
    axes[1].set_ylabel("mean ms per move, record replayed in full")
    axes[1].set_title("A service move's time (labels: overhead vs the search)", fontsize=10)
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def plot_latency(data: dict, path: Path) -> bool:
    plt = harness.pyplot()
    lat = data.get("latency")
    if plt is None or not lat or not lat.get("levels"):
        return False
    fig, ax = plt.subplots(figsize=(9, 4.5))
    budget, limit = lat["budget_ms"], lat["max_searches"]
    boxes, positions, colors, ticks = [], [], [], []
    for i, lv in enumerate(lat["levels"]):
        ticks.append((i, f"{lv['clients']} client{'s' if lv['clients'] > 1 else ''}"))
        if lv["samples_accepted_ms"]:
            boxes.append(lv["samples_accepted_ms"])
            positions.append(i - 0.18)
            colors.append("tab:blue")
        if lv["samples_refused_ms"]:
            boxes.append(lv["samples_refused_ms"])
            positions.append(i + 0.18)
            colors.append("tab:red")
    if boxes:
        parts = ax.boxplot(boxes, positions=positions, widths=0.3, whis=(1, 99), showfliers=True, patch_artist=True,
                           flierprops={"markersize": 2})
        for patch, color in zip(parts["boxes"], colors):
            patch.set_facecolor(color)
            patch.set_alpha(0.5)
    ax.axhline(budget, color="gray", linestyle=":", label=f"budget B = {budget} ms")
    ax.axhline(budget + 50, color="black", linestyle="--", label=f"target p99 ≤ B + 50 = {budget + 50} ms")
    ax.axvline(limit - 1 + 0.5, color="orange", linestyle="-.", label=f"--max-searches {limit}")
    ax.plot([], [], "s", color="tab:blue", alpha=0.5, label="accepted calls")
    ax.plot([], [], "s", color="tab:red", alpha=0.5, label="refused (RESOURCE_EXHAUSTED)")
    ax.set_xticks([t[0] for t in ticks], [t[1] for t in ticks])
    ax.set_ylabel("response time (ms); whiskers 1st–99th percentile")
    ax.set_title(f"SuggestMove with a {budget} ms budget under concurrent clients")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def plot_strength(data: dict, path: Path) -> bool:
    strength = data.get("strength")
    if not strength or not strength.get("pairings") or harness.pyplot() is None:
        return False
    from benchmarks.strength import plot

    return plot(strength["pairings"], path)


# ----- markdown -----------------------------------------------------------------------

def headline(data: dict) -> list[str]:
    lines = ["## Headline numbers", ""]
    over, lat, search, load, engine = (data.get(k) for k in ("overhead", "latency", "search", "load", "engine"))
    if over and over.get("budgets"):
        callers = over.get("callers", 2)
        lines += ["| ISMCTS budget | bot moves/s in-process (1 caller) | via the service, 1 client: record / record "
                  f"replayed in full / match id | via the service, {callers} clients | service latency p50 / p95 "
                  "(1 client, record) | service overhead: record / replayed in full / match id |",
                  "|---|---|---|---|---|---|"]
        for b in sorted(int(x) for x in over["budgets"]):
            r = over["budgets"][str(b)]
            lines.append(f"| {b} iterations | {_f(r['in_process_search']['moves_per_s'])} | {_f(r['service']['moves_per_s'])} / "
                         f"{_f(r.get('service_no_cache', {}).get('moves_per_s'))} / "
                         f"{_f(r.get('service_match', {}).get('moves_per_s'))} | "
                         f"{_f(r['service_parallel']['moves_per_s'])} | {_f(r['service']['p50_ms'])} / "
                         f"{_f(r['service']['p95_ms'])} ms | {_pct(r['overhead_vs_search'])} / "
                         f"{_pct(r.get('overhead_no_cache_vs_search'))} / {_pct(r.get('overhead_match_vs_search'))} |")
        lines.append("")
        r = over["budgets"].get("1000")
        if r:
            target = over.get("target_overhead_at_1000", 0.1)

            def verdict(x):
                return "met" if x is not None and x <= target else "**not met**"

            match, full = r.get("overhead_match_vs_search"), r.get("overhead_no_cache_vs_search")
            full_ms = r.get("service_no_cache", r["service"])["mean_ms"]
            text = (f"- **Service overhead at 1000 iterations** (target ≤ +10%): a position sent as a record costs "
                    f"{_pct(r['overhead_vs_search'])} per move against the in-process search "
                    f"({verdict(r['overhead_vs_search'])})")
            if full is not None:
                text += (f" with the server's replay cache (the same positions come back every round), "
                         f"{_pct(full)} when the record is replayed in full ({verdict(full)})")
            text += (f"; a hosted match's position (`match_id`, nothing to replay) costs {_pct(match)} ({verdict(match)}). "
                     f"Of the {_f(full_ms)} ms of a fully replayed record, {_f(r['in_process_search']['mean_ms'])} ms "
                     f"is the search, {_f(r['replay_and_view_ms'])} ms parsing and replaying the record and building the "
                     f"view (Python, GIL-bound), {_f(r['rpc_ms'])} ms gRPC and messages.")
            lines.append(text)
    if lat and lat.get("levels"):
        inside = [lv for lv in lat["levels"] if lv["within_limit"] and lv["accepted"].get("count")]
        beyond = [lv for lv in lat["levels"] if not lv["within_limit"]]
        p99s = ", ".join(f"{lv['clients']} client{'s' if lv['clients'] > 1 else ''} {_f(lv['accepted']['p99_ms'])} ms"
                         for lv in inside)
        verdict = "met" if lat.get("meets_target_within_limit") else "**not met**"
        text = (f"- **Latency, {lat['budget_ms']} ms budget, server limit {lat['max_searches']} searches:** p99 {p99s} "
                f"(target ≤ {lat['target_p99_ms']} ms: {verdict})")
        refused = [x for lv in beyond for x in lv["samples_refused_ms"]]
        if refused:
            from benchmarks.harness import percentile

            accepted99 = ", ".join(f"{_f(lv['accepted'].get('p99_ms'))} ms" for lv in beyond)
            text += (f"; beyond the limit calls are refused with RESOURCE_EXHAUSTED in {_f(percentile(refused, 0.5))} ms "
                     f"(p50; p99 {_f(percentile(refused, 0.99))} ms) while the accepted calls' p99 stays {accepted99}")
        lines.append(text + ".")
    scaling = []
    if search and search.get("phases"):
        scaling.append("ISMCTS 2 threads vs 1: " + ", ".join(
            f"{p} {v['speedup_2_vs_1_threads']:.2f}x" for p, v in search["phases"].items()))
        if all("parallel_efficiency" in v for v in search["phases"].values()):
            scaling.append("ISMCTS work per CPU second at 2 threads vs 1: " + ", ".join(
                f"{p} {v['parallel_efficiency']:.2f}" for p, v in search["phases"].items()))
    if engine and engine.get("positions"):
        scaling.append("random playouts 2 threads vs 1: " + ", ".join(
            f"{p} {v['scaling_2_vs_1_threads']:.2f}x" for p, v in engine["positions"].items()))
    if load and load.get("runs"):
        ws = sorted({r["workers"] for r in load["runs"]})
        if len(ws) >= 2:
            lo, hi = ws[0], ws[-1]
            parts = []
            for r_hi in (r for r in load["runs"] if r["workers"] == hi):
                r_lo = next((r for r in load["runs"] if r["workers"] == lo and r["scenario"] == r_hi["scenario"]), None)
                if not r_lo:
                    continue
                for n in _main_requests(r_hi):
                    if n.startswith("whole game"):
                        continue
                    a, b = r_lo["requests"].get(n, {}).get("ok_per_s"), r_hi["requests"][n].get("ok_per_s")
                    if a and b:
                        parts.append(f"{n} {b / a:.2f}x")
            if parts:
                scaling.append(f"service requests/s with {hi} worker threads vs {lo}: " + ", ".join(parts))
    if scaling:
        busy = [p.get("other_cpu_cores") or 0.0 for name, p in data.get("run", {}).get("parts", {}).items()
                if name in ("engine", "search", "load")]
        caveat = ""
        if busy and max(busy) >= 0.5:
            spread = f"{min(busy):.1f}" if f"{min(busy):.1f}" == f"{max(busy):.1f}" else f"{min(busy):.1f}–{max(busy):.1f}"
            caveat = (f" Other processes kept {spread} of the 2 cores busy during these parts, which lowers the "
                      "wall-clock figures; work per CPU second does not depend on it.")
        lines.append("- **Thread scaling (2 cores):** " + "; ".join(scaling) + "." + caveat)
    strength = data.get("strength")
    if strength and strength.get("pairings"):
        items = []
        for p in strength["pairings"]:
            low, high = p["a_score_ci95"]
            items.append(f"{p['label']}: {p['a_score']:.1%} ({low:.1%}–{high:.1%})")
        lines.append(f"- **Strength ({strength.get('size', '?')}, {strength.get('games_per_pairing', '?')} games a pairing, "
                     "score of the first bot with its 95% interval):** " + "; ".join(items) + ".")
    return lines + [""]


def section_engine_search(data: dict, plotted: bool) -> list[str]:
    engine, search = data.get("engine"), data.get("search")
    if not (engine or search):
        return []
    lines = ["## Engine and search", ""]
    if engine:
        lines += [f"`benchmarks/bench_engine.py`: random playouts, {engine['seconds_per_measurement']:g} s a measurement.", "",
                  "| positions | reference games/s | native 1 thread | native 2 threads | native/reference | 2 vs 1 thread |",
                  "|---|---|---|---|---|---|"]
        for p, v in engine["positions"].items():
            lines.append(f"| {p} | {_f(v['reference']['games_per_s'], 0)} | {_f(v['native_1_thread']['games_per_s'], 0)} | "
                         f"{_f(v['native_2_threads']['games_per_s'], 0)} | {v['speedup_native_vs_reference']:,.0f}x | "
                         f"{v['scaling_2_vs_1_threads']:.2f}x |")
        lines.append("")
    if search:
        lines += [f"`benchmarks/bench_search.py`: {search['seconds_per_measurement']:g} s a measurement. *Work per CPU "
                  "second, 2 vs 1 thread* (where measured): iterations per CPU second at 2 threads over 1 thread — near 1 "
                  "means the threads do not slow each other down, whatever share of the cores other jobs leave them.", "",
                  "| phase | Python samples/s | native samples/s | ISMCTS it/s, 1 thread | 2 threads | 2 vs 1 (wall) | "
                  "work per CPU second, 2 vs 1 |",
                  "|---|---|---|---|---|---|---|"]
        for p, v in search["phases"].items():
            efficiency = f"{v['parallel_efficiency']:.2f}" if "parallel_efficiency" in v else "–"
            lines.append(f"| {p} | {_f(v['python_samples_per_s'], 0)} | {_f(v['native_samples_per_s'], 0)} | "
                         f"{_f(v['iterations_per_s_1_thread'], 0)} | {_f(v['iterations_per_s_2_threads'], 0)} | "
                         f"{v['speedup_2_vs_1_threads']:.2f}x | {efficiency} |")
        lines.append("")
    if plotted:
        lines += ["![engine and search speed](engine_search.png)", ""]
    return lines


def section_load(data: dict, plotted: bool) -> list[str]:
    load = data.get("load")
    run = data.get("run", {}).get("parts", {}).get("load", {})
    if not load:
        if run.get("status", "").startswith("skipped"):
            return ["## Service load (locust)", "", f"Not measured in this run: {run['status']}.", ""]
        return []
    b = load["budgets"]
    lines = ["## Service load (locust)", "",
             f"`benchmarks/locustfile.py`, headless, {load['users']} users spawned at once, {load['seconds']:g} s per run, "
             f"a fresh `hzai-server --workers W --max-searches {load['users']}` on 127.0.0.1 per worker count; budgets: "
             f"SuggestMove {b['small']} and {b['large']} iterations, Analyze {b['analyze']}, hosted matches "
             f"{b['match']} (both seats bots, BotPlayTurn until the game ends). Latencies are of successful calls; "
             "CPU in cores used (of 2), over the run including locust's start-up; locust itself runs on the same "
             "machine.", "",
             "| workers | scenario | request | requests | req/s | p50 ms | p95 ms | p99 ms | errors | server CPU | locust CPU |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in load["runs"]:
        for n in _main_requests(r):
            q = r["requests"][n]
            errors = ", ".join(f"{k} {v}" for k, v in q["errors"].items()) or "0"
            lines.append(f"| {r['workers']} | {r['scenario']} | {n} | {q['requests']} | {_f(q['requests_per_s'])} | "
                         f"{_f(q.get('p50_ms'))} | {_f(q.get('p95_ms'))} | {_f(q.get('p99_ms'))} | {errors} | "
                         f"{_f(r['server_cpu_cores'], 2)} | {_f(r['client_cpu_cores'], 2)} |")
    lines.append("")
    if plotted:
        lines += ["![service load](load.png)", ""]
    return lines + section_server_metrics(load)


def section_server_metrics(load: dict) -> list[str]:
    """The key series the servers of the load runs counted (their /metrics, scraped after
    each server's runs); p50/p99 come from the latency histogram's buckets."""
    scraped = load.get("metrics") or []
    if not scraped:
        return []
    lines = ["### What the server counted (its metrics endpoint)", "",
             "Scraped from `hzai-server --metrics-address` after the runs of each worker count: calls by RPC and "
             "status, p50/p99 estimated from the `hzai_rpc_seconds` histogram (so only as fine as its buckets), "
             "refusals by reason, and search iterations per second of search time.", "",
             "| workers | RPC | code | calls | p50 ms | p99 ms |", "|---|---|---|---|---|---|"]
    for m in scraped:
        for r in m["rpcs"]:
            lines.append(f"| {m['workers']} | {r['method']} | {r['code']} | {r['calls']} | {_f(r['p50_ms'])} | "
                         f"{_f(r['p99_ms'])} |")
    lines += ["", "| workers | refusals by reason | search iterations | iterations/s of search time |",
              "|---|---|---|---|"]
    for m in scraped:
        refused = ", ".join(f"{k} {v:g}" for k, v in sorted(m["refusals"].items())) or "none"
        lines.append(f"| {m['workers']} | {refused} | {m['search_iterations']:.0f} | "
                     f"{_f(m['iterations_per_search_second'], 0)} |")
    return lines + [""]


def section_overhead(data: dict, plotted: bool) -> list[str]:
    over = data.get("overhead")
    if not over:
        return []
    callers = over.get("callers", 2)
    lines = ["## Service overhead", "",
             f"`benchmarks/overhead.py`: {over['positions']} positions × {over['rounds']} rounds per budget, the same "
             "seeds on every path, every path in turn on each position; ISMCTS, one search thread per move. "
             "*In-process search* times `make_bot(\"ismcts\").decide` on a ready view; *whole path* adds what the server "
             "does for a record (parse, replay, build the view); *service* is the client's round trip of SuggestMove "
             "to a local hzai-server with default settings, the position sent as a record JSON (the server's replay cache "
             f"{'keeps ' + str(over['server_replay_cache']) + ' records, so these repeated positions are replayed once' if over.get('server_replay_cache') else 'is absent or off'}); "
             "*replayed in full*: the same to a server with `--replay-cache 0`; *by match id* sends the "
             "same position as a hosted match (`match_id`). *Same move*: share of service answers equal to the in-process "
             "move for the same seed.", "",
             "| budget | in-process search ms | whole path ms | service ms (p50 / p95) | overhead vs search | "
             "vs whole path | replayed in full ms | its overhead | by match id ms | its overhead | "
             f"moves/s {callers} callers in-process / service | same move |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for b in sorted(int(x) for x in over["budgets"]):
        r = over["budgets"][str(b)]
        lines.append(f"| {b} | {_f(r['in_process_search']['mean_ms'])} | {_f(r['in_process_whole_path']['mean_ms'])} | "
                     f"{_f(r['service']['mean_ms'])} ({_f(r['service']['p50_ms'])} / {_f(r['service']['p95_ms'])}) | "
                     f"{_pct(r['overhead_vs_search'])} | {_pct(r['overhead_vs_whole_path'])} | "
                     f"{_f(r.get('service_no_cache', {}).get('mean_ms'))} | {_pct(r.get('overhead_no_cache_vs_search'))} | "
                     f"{_f(r.get('service_match', {}).get('mean_ms'))} | {_pct(r.get('overhead_match_vs_search'))} | "
                     f"{_f(r['in_process_parallel']['moves_per_s'])} / {_f(r['service_parallel']['moves_per_s'])} | "
                     f"{r['same_move_share']:.0%} |")
    lines.append("")
    if plotted:
        lines += ["![service overhead](overhead.png)", ""]
    return lines


def section_latency(data: dict, plotted: bool) -> list[str]:
    lat = data.get("latency")
    if not lat:
        return []
    lines = ["## Latency discipline", "",
             f"`benchmarks/latency.py`: SuggestMove with a {lat['budget_ms']} ms time budget, `hzai-server "
             f"--max-searches {lat['max_searches']}`, N client threads with their own channels calling back to back for "
             f"{lat['seconds_per_level']:g} s; a refused client waits {lat['backoff_ms']:g} ms before its next call. "
             f"Target: p99 ≤ {lat['target_p99_ms']} ms up to the limit; beyond it, quick RESOURCE_EXHAUSTED.", "",
             "| clients | accepted | accepted/s | p50 ms | p95 ms | p99 ms | max ms | refused | refused p50 ms | refused p99 ms | p99 target |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for lv in lat["levels"]:
        a, r = lv["accepted"], lv["refused"]
        target = ("met" if lv["meets_target"] else "**not met**") if lv["within_limit"] else "(beyond the limit)"
        lines.append(f"| {lv['clients']} | {a.get('count', 0)} | {_f(lv['accepted_per_s'])} | {_f(a.get('p50_ms'))} | "
                     f"{_f(a.get('p95_ms'))} | {_f(a.get('p99_ms'))} | {_f(a.get('max_ms'))} | {r.get('count', 0)} | "
                     f"{_f(r.get('p50_ms'))} | {_f(r.get('p99_ms'))} | {target} |")
    others = {k: v for lv in lat["levels"] for k, v in lv["other_errors"].items()}
    lines.append("")
    if others:
        lines += [f"Other errors: {others}.", ""]
    if plotted:
        lines += ["![latency discipline](latency.png)", ""]
    return lines


def section_strength(data: dict, plotted: bool) -> list[str]:
    strength = data.get("strength")
    if not strength:
        return []
    from benchmarks.strength import markdown

    run = data.get("run", {}).get("parts", {}).get("strength", {})
    source = " (reused from an earlier run of `python -m benchmarks.strength`)" if run.get("status") == "reused" else ""
    lines = ["## Strength", "",
             f"`benchmarks/strength.py --size {strength.get('size')}`{source}: {strength.get('games_per_pairing')} "
             "seat-swapped games a pairing from the same deals; score = wins + draws/2 of the first bot with a 95% "
             "Wilson interval.", "", markdown(strength["pairings"])]
    if plotted:
        lines += ["![strength](strength.png)", ""]
    return lines


def write_report(out: Path, command: str | None = None) -> Path:
    data = load_results(out)
    run = data.get("run", {})
    plots = {
        "engine_search": plot_engine_search(data, out / "engine_search.png"),
        "load": plot_load(data, out / "load.png"),
        "overhead": plot_overhead(data, out / "overhead.png"),
        "latency": plot_latency(data, out / "latency.png"),
        "strength": (out / "strength.png").exists() or plot_strength(data, out / "strength.png"),
    }
    machine = next((data[k]["machine"] for k in ("overhead", "latency", "load", "engine", "search") if k in data
                    and "machine" in data[k]), {})
    lines = [f"# hzai benchmarks ({run.get('size', '?')} size)", "",
             ("Commands: " + " then ".join(f"`{c}`" for c in run["commands"]) if not command and len(run.get("commands", [])) > 1
              else f"Command: `{command or run.get('command', 'python -m benchmarks')}`")
             + f" · finished {run.get('finished', '?')} UTC · "
             f"{machine.get('cpus', '?')} cores, Python {machine.get('python', '?')}, {machine.get('platform', '?')}. "
             "Every server ran on 127.0.0.1 and was started and stopped by the benchmark.", ""]
    parts = run.get("parts", {})
    if parts:
        lines.append("Parts: " + ", ".join(
            f"{name} {p.get('status', '?')}" + (f" ({p['seconds']:.0f} s" + (
                f"; other processes kept {p['other_cpu_cores']:.2f} cores busy" if p.get("other_cpu_cores") is not None
                else "") + ")" if p.get("seconds") else "")
            for name, p in parts.items()) + "."
            + (" Load average (1, 5, 15 min) when the run started: "
               + ", ".join(f"{x:.2f}" for x in run["load_average_at_start"]) + f" on {machine.get('cpus', '?')} cores; other work skews every figure."
               if run.get("load_average_at_start") else ""))
        lines.append("")
    lines += headline(data)
    lines += section_engine_search(data, plots["engine_search"])
    lines += section_load(data, plots["load"])
    lines += section_overhead(data, plots["overhead"])
    lines += section_latency(data, plots["latency"])
    lines += section_strength(data, plots["strength"])
    path = out / "report.md"
    path.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    print(f"written: {write_report(Path(args.out))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
