"""Every benchmark in one command: engine, search, service load, service overhead,
latency discipline, strength; JSON, one Markdown report and PNG plots.

    python -m benchmarks --size smoke      # seconds: checks that everything still runs
    python -m benchmarks --size quick      # a few minutes
    python -m benchmarks --size full       # the committed report (strength reused, see below)
    python -m benchmarks list              # every benchmark, one line each, grouped by concern
    python -m benchmarks run NAME [ARGS]   # one of them: the same as python -m benchmarks.NAME ARGS

Results go to benchmarks/results/ for the full size, benchmarks/results/quick/ for the
quick one and a new temporary folder for the smoke check (printed at the end), or to
--out DIR: engine.json, search.json, load.json, overhead.json,
latency.json, strength.json (+ .md), run.json, report.md and the plots.
The full size reuses an existing strength.json in the results folder (its arena
matrix takes about an hour on 2 cores) unless --rerun-strength is given. The service load needs locust
(`pip install -e ".[bench]"`); without it that part is skipped and the report says so.
Plots need matplotlib (same extra). Every server is started on 127.0.0.1 by the
benchmark itself and stopped afterwards; every load is bounded in clients and time.
Run it on an otherwise idle machine: other work skews every figure.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import resource
import runpy
import shlex
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from benchmarks import harness

FOLDER = Path(__file__).resolve().parent
RESULTS = FOLDER / "results"
PARTS = ("engine", "search", "load", "overhead", "latency", "strength")

SIZES = {
    "smoke": {
        "engine": ["--seconds", "0.3", "--rounds", "1"],
        "search": ["--seconds", "0.2", "--positions", "1"],
        "load": ["--workers", "2", "--scenarios", "mixed", "--users", "4", "--seconds", "5",
                 "--small", "50", "--large", "300", "--analyze", "100", "--match", "20"],
        "overhead": ["--budgets", "50", "200", "--positions", "2", "--rounds", "1"],
        "latency": ["--millis", "50", "--max-searches", "2", "--clients", "1", "2", "3", "--seconds", "1"],
        "strength": ["--size", "smoke"],
    },
    "quick": {
        "engine": ["--seconds", "3", "--rounds", "3"],
        "search": ["--seconds", "1.5", "--positions", "4"],
        "load": ["--workers", "1", "2", "--users", "2", "--seconds", "8"],
        "overhead": ["--budgets", "200", "1000", "5000", "--positions", "8", "--rounds", "2"],
        "latency": ["--millis", "100", "--max-searches", "2", "--seconds", "5"],
        "strength": ["--size", "quick"],
    },
    "full": {
        "engine": ["--seconds", "10", "--rounds", "5"],
        "search": ["--seconds", "4", "--positions", "8"],
        "load": ["--workers", "1", "2", "--users", "2", "--seconds", "30"],
        "overhead": ["--budgets", "200", "1000", "5000", "--positions", "16", "--rounds", "4"],
        "latency": ["--millis", "100", "--max-searches", "2", "--seconds", "20"],
        "strength": ["--size", "full"],
    },
}


def utc_now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())


def busy_cpu_seconds() -> float:
    """CPU time the whole machine has spent busy since boot (Linux /proc/stat)."""
    try:
        fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (servers, locust,
    arena workers: all are waited for before a part ends)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def run_part(name: str, size: str, out: Path, rerun_strength: bool) -> str:
    """Run one part into `out`; its status for the report."""
    # imported here, not at the top: `run NAME` executes a module as __main__, which
    # must not be imported already
    from benchmarks import bench_engine, bench_search, latency, load, overhead, strength

    args = SIZES[size][name]
    if name == "engine":
        bench_engine.main([*args, "--out", str(out / "engine.json")])
    elif name == "search":
        bench_search.main([*args, "--out", str(out / "search.json")])
    elif name == "load":
        if not load.locust_available():
            (out / "load.json").unlink(missing_ok=True)
            return "skipped: locust is not installed (pip install -e \".[bench]\")"
        load.main([*args, "--out", str(out / "load.json")])
    elif name == "overhead":
        overhead.main([*args, "--out", str(out / "overhead.json")])
    elif name == "latency":
        latency.main([*args, "--out", str(out / "latency.json")])
    elif name == "strength":
        existing = out / "strength.json"
        if size == "full" and existing.exists() and not rerun_strength:
            print(f"  strength: reusing {existing} (--rerun-strength to play it again)", flush=True)
            return "reused"
        strength.main([*args, "--out", str(out)])
    return "ok"


def default_out(size: str) -> Path:
    """Where a size writes without --out; the smoke check's numbers are not worth keeping
    in the tree, so they go to a fresh temporary folder."""
    if size == "smoke":
        return Path(tempfile.mkdtemp(prefix="hzai-bench-smoke-"))
    return RESULTS if size == "full" else RESULTS / size


@dataclass(frozen=True)
class Entry:
    """One module of benchmarks/: its name, its CONCERN (None: a shared piece) and the
    first sentence of its docstring."""
    name: str
    concern: str | None
    summary: str
    runnable: bool


def summary_of(doc: str | None, width: int = 90) -> str:
    """The first sentence of a docstring's first paragraph, on one line, cut at `width`."""
    paragraph = " ".join((doc or "").split("\n\n")[0].split())
    found = re.match(r"(.+?[.?!])(\s|$)", paragraph)
    sentence = found.group(1) if found else paragraph
    if len(sentence) > width:
        sentence = sentence[:width - 1].rsplit(" ", 1)[0] + " …"
    return sentence


def catalogue(folder: Path = FOLDER) -> list[Entry]:
    """Every module of `folder`, read without importing it: its CONCERN constant, its
    docstring and whether it runs on its own (an `if __name__ == "__main__"` block)."""
    entries = []
    for path in sorted(folder.glob("*.py")):
        if path.stem in ("__init__", "__main__"):
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        concern = ...
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CONCERN" for t in node.targets):
                try:
                    concern = ast.literal_eval(node.value)
                except ValueError:
                    raise ValueError(f"{path}: CONCERN must be a literal string or None") from None
        if concern is ...:
            raise ValueError(f"{path} has no CONCERN: give it one of {', '.join(harness.CONCERNS)} "
                             "(or None for a shared piece that does not run on its own)")
        if concern is not None and concern not in harness.CONCERNS:
            raise ValueError(f"{path}: CONCERN {concern!r} is not one of {', '.join(harness.CONCERNS)}")
        runnable = any(isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) for node in tree.body)
        if concern is not None and not runnable:
            raise ValueError(f"{path}: a benchmark (CONCERN {concern!r}) needs an `if __name__ == \"__main__\"` block")
        entries.append(Entry(path.stem, concern, summary_of(ast.get_docstring(tree)), runnable))
    return entries


def list_benchmarks(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks list",
                                     description="Every benchmark with one line, grouped by concern.")
    parser.parse_args(argv)
    entries = catalogue()
    width = max(len(e.name) for e in entries)
    for concern, about in [*harness.CONCERNS.items(), (None, "shared pieces the benchmarks import (not run on their own)")]:
        group = [e for e in entries if e.concern == concern]
        if not group:
            continue
        print(f"{concern or 'shared'}: {about}")
        for e in group:
            print(f"  {e.name:<{width}}  {e.summary}")
        print()
    print("python -m benchmarks run NAME --help   tells how to run one; "
          "python -m benchmarks --size smoke|quick|full runs the suite")
    return 0


def run_benchmark(argv: list[str]) -> int:
    """`run NAME ARGS...`: benchmarks.NAME as `python -m benchmarks.NAME ARGS...` would run
    it (sys.argv is NAME's file and ARGS while it runs); its exit status."""
    runnable = {e.name: e for e in catalogue() if e.runnable}
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m benchmarks run NAME [ARGS...]\n\nNAME is one of: " + ", ".join(runnable))
        return 0 if argv else 2
    name, args = argv[0], argv[1:]
    if name not in runnable:
        print(f"python -m benchmarks run: no benchmark named {name!r}; "
              f"`python -m benchmarks list` names them all", file=sys.stderr)
        return 2
    saved = sys.argv
    sys.argv = [str(FOLDER / f"{name}.py"), *args]
    sys.modules.pop(f"benchmarks.{name}", None)  # as under `python -m`: __main__ is a fresh copy of it
    try:
        runpy.run_module(f"benchmarks.{name}", run_name="__main__", alter_sys=True)
    except SystemExit as done:
        code = done.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved
    return 0


COMMANDS = {"list": list_benchmarks, "run": run_benchmark}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=list(SIZES), default="quick")
    parser.add_argument("--out", default=None,
                        help="results folder (default benchmarks/results[/SIZE]; smoke: a new temporary folder)")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS),
                        help="run only these parts; the report also shows earlier results found in the folder")
    parser.add_argument("--rerun-strength", action="store_true", help="play the strength matrix even if results exist")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else default_out(args.size)
    out.mkdir(parents=True, exist_ok=True)
    command = "python -m benchmarks " + shlex.join(argv)
    run_path = out / "run.json"
    try:
        previous = json.loads(run_path.read_text()) if run_path.exists() else {}
    except ValueError:
        previous = {}
    if previous.get("size") != args.size:
        previous = {}
    earlier = previous.get("commands") or ([previous["command"]] if previous.get("command") else [])
    if set(args.parts) == set(PARTS):
        earlier = []  # a complete run replaces every part
    run = {"size": args.size, "command": command.strip(), "commands": [*earlier, command.strip()], "started": utc_now(),
           "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
           "parts": {p: previous.get("parts", {}).get(p, {}) for p in PARTS if p in previous.get("parts", {})}}
    failed = []
    started = time.perf_counter()
    for i, name in enumerate(args.parts, 1):
        print(f"[{i}/{len(args.parts)}] {name} ({args.size}) — {time.perf_counter() - started:.0f}s so far", flush=True)
        t0, busy0, own0 = time.perf_counter(), busy_cpu_seconds(), own_cpu_seconds()
        try:
            status = run_part(name, args.size, out, args.rerun_strength)
        except Exception as exc:  # noqa: BLE001 - one broken part must not lose the others' results
            traceback.print_exc()
            status = f"failed: {type(exc).__name__}: {exc}"
            failed.append(name)
        wall = time.perf_counter() - t0
        other = (busy_cpu_seconds() - busy0 - (own_cpu_seconds() - own0)) / wall if wall > 0 else float("nan")
        run["parts"][name] = {"status": status, "seconds": round(wall, 1), "finished": utc_now(),
                              # cores that other processes kept busy meanwhile: the measurement's noise
                              "other_cpu_cores": round(max(0.0, other), 2) if other == other else None}
        print(f"  {name}: {status} in {wall:.0f}s (other processes kept {run['parts'][name]['other_cpu_cores']} cores "
              "busy meanwhile)", flush=True)
        run["finished"] = utc_now()
        run_path.write_text(json.dumps(run, indent=1))
    from benchmarks import report

    path = report.write_report(out)
    print(f"report: {path} ({time.perf_counter() - started:.0f}s in all)", flush=True)
    if failed:
        print(f"failed parts: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
