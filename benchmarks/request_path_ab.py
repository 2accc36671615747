"""Server CPU per SuggestMove, this tree's server against another commit's, in one run
(issue 46 item 2: what a change of the request path saves, on a machine whose load moves).

    python -m benchmarks.request_path_ab --old 6e420f2 --iterations 200 1000 --rounds 8 --calls 50

The other commit's `server/hzai_server` is taken from git into a temporary folder and
run by a launcher that imports `hzai_server` from there (the library, hzai, is this
tree's for both). Both servers (`--processes 1`, defaults) run at once on loopback; one
client in this process sends `--calls` SuggestMove calls to one, then to the other, in
turn (which goes first alternates by round), on the load check's positions (the decision
cache warm). Each block's server CPU (all its threads, /proc) over its calls, less the
bare search's thread CPU for the same positions, seeds and budget measured in this
process in the same round, is that server's CPU beyond the search. Reported: per budget,
the mean over rounds of each server's, and the paired difference (old less new) with its
spread. The load generator is this process, not the servers'.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import machine
from benchmarks.service import LocalServer, positions

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parents[1]
LAUNCHER = """
import importlib.machinery, runpy, sys
snapshot = sys.argv[1]
del sys.argv[1]
class Snapshot:
    def find_spec(self, name, path, target=None):
        if name != "hzai_server" and not name.startswith("hzai_server."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, [snapshot] if name == "hzai_server" else path)
        if spec is None:  # never the installed server in its place
            raise ImportError(f"{name} is not in {snapshot}")
        return spec
sys.meta_path.insert(0, Snapshot())
runpy.run_module("hzai_server", run_name="__main__", alter_sys=True)
"""


def snapshot(commit: str, into: Path) -> Path:
    """`server/hzai_server` of `commit`, extracted under `into`; the folder holding it."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "server/hzai_server"], cwd=REPO,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "server"


def block(client, server, records, iterations: int, calls: int, start: int) -> float:
    """Server CPU seconds over `calls` calls."""
    cpu = server.cpu_seconds()
    for n in range(start, start + calls):
        client.suggest_move(records[n % len(records)], iterations=iterations, seed=n)
    return server.cpu_seconds() - cpu


def measure(args) -> dict:
    from hzai.search import Limits, make_bot
    from hzai_client import HzaiClient
    from hzai_proto.v3 import common_pb2
    from hzai_server import convert

    records = positions(args.positions)
    bot = make_bot("ismcts")
    views = []
    for text in records:
        record, _ = convert.record_from_position(common_pb2.Position(game="hera_zeus", record_json=text))
        views.append(record.game.records.view_to_decide(record))
    out = {"budgets": {}}
    with tempfile.TemporaryDirectory(prefix="hzai-ab-") as tmp:
        old_root = snapshot(args.old, Path(tmp))
        servers = {"old": LocalServer(start_timeout=120, launcher=[sys.executable, "-c", LAUNCHER, str(old_root)]),
                   "new": LocalServer(start_timeout=120)}
        with servers["old"] as old, servers["new"] as new:
            served = {"old": old, "new": new}
            clients = {name: HzaiClient(s.target, timeout=120) for name, s in served.items()}
            for name, client in clients.items():  # warm: connections, imports, the decision cache
                for i, text in enumerate(records):
                    client.suggest_move(text, iterations=min(args.iterations), seed=i)
            for budget in args.iterations:
                rows = []
                for r in range(args.rounds):
                    start = r * args.calls
                    t0 = time.thread_time()
                    for n in range(start, start + args.calls):
                        bot.decide(views[n % len(views)], Limits(iterations=budget), n)
                    search = (time.thread_time() - t0) / args.calls
                    row = {"search_ms": search * 1000}
                    for name in (("old", "new") if r % 2 == 0 else ("new", "old")):
                        cpu = block(clients[name], served[name], records, budget, args.calls, start)
                        row[f"{name}_ms"] = cpu * 1000 / args.calls
                        row[f"{name}_beyond_ms"] = row[f"{name}_ms"] - row["search_ms"]
                    rows.append(row)
                    print(f"{budget} it, round {r + 1}: search {row['search_ms']:.3f} ms, beyond: old "
                          f"{row['old_beyond_ms']:.3f}, new {row['new_beyond_ms']:.3f}", flush=True)
                diffs = [row["old_ms"] - row["new_ms"] for row in rows]
                summary = {name: round(statistics.mean(row[f"{name}_beyond_ms"] for row in rows), 4)
                           for name in ("old", "new")}
                summary.update(search_ms=round(statistics.mean(row["search_ms"] for row in rows), 4),
                               saved_ms=round(statistics.mean(diffs), 4),
                               saved_sd_ms=round(statistics.stdev(diffs), 4) if len(diffs) > 1 else None,
                               rounds_new_cheaper=sum(d > 0 for d in diffs), rounds=rows)
                summary["old_over_search"] = round(summary["old"] / summary["search_ms"], 4)
                summary["new_over_search"] = round(summary["new"] / summary["search_ms"], 4)
                out["budgets"][str(budget)] = summary
            for client in clients.values():
                client.close()
    return out


def write_md(out: Path, report: dict) -> None:
    lines = ["# Server CPU per SuggestMove beyond the bare search: this tree against another commit, one run", "",
             f"Command: `{report['command']}`", "", f"Machine: {json.dumps(report['machine'])}. "
             f"Old: `{report['old']}`; new: the tree at `{report['new']}`.", "",
             "| iterations | bare search CPU ms | old: beyond ms | new: beyond ms | saved ms (mean ± sd of rounds) | "
             "rounds new cheaper | old / new over the search |", "|---|---|---|---|---|---|---|"]
    for budget, s in report["budgets"].items():
        lines.append(f"| {budget} | {s['search_ms']:.3f} | {s['old']:.3f} | {s['new']:.3f} | {s['saved_ms']:.3f} ± "
                     f"{s['saved_sd_ms'] or 0:.3f} | {s['rounds_new_cheaper']} of {len(s['rounds'])} | "
                     f"{s['old_over_search']:+.1%} / {s['new_over_search']:+.1%} |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="the commit whose server/hzai_server is the old one")
    parser.add_argument("--iterations", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--calls", type=int, default=50, help="calls to each server a round")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--out", default=str(RESULTS / "request_path_ab.json"))
    args = parser.parse_args(argv)
    if args.rounds < 2 or args.calls < 1 or any(b < 1 for b in args.iterations):
        parser.error("--rounds >= 2, --calls >= 1, --iterations >= 1")
    new = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    report = {"command": harness.command("request_path_ab", argv),
              "machine": machine(), "old": args.old, "new": new, **measure(args)}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    write_md(out, report)
    print(out.with_suffix(".md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
