"""A replica's memory against the hosted matches its store keeps.

For each N (100 and 1000 by default) the benchmark fills a fresh SQLite store through a
server of its own: N bot-only matches (random bots), each with one BotPlayTurn (up to
64 record entries, about what the soak's players made; a game that ends sooner is
finished). It reads the server's resident memory (VmRSS, Linux /proc) then, and again in
two servers started afterwards on the same store:

- `served`: the server that created and played all N matches, at the end;
- `replica`: a fresh server on the store that reads 50 of them (GetView with history,
  twice: the first call rebuilds the match from the store, the second finds it cached),
  as a replica that serves a few matches of a large shared store;
- `unbounded`: a fresh server with `--match-cache` above N that reads all N: the memory
  the matches take when every one is kept replayed (how servers before --match-cache
  behaved), whence the memory per match.

Not a test: nothing is asserted. The load generator runs in this process, one call at
a time, so it takes at most one core from the server; RSS is the server's own.

    python -m benchmarks.match_memory                       # N = 100 and 1000
    python -m benchmarks.match_memory --counts 100 300 --out /tmp/m.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import harness
from benchmarks.harness import machine
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
READ = 50  # matches the fresh replica serves
ROOMY = ["--max-matches", "100000", "--max-matches-per-client", "100000", "--match-ttl", "86400",
         "--finished-ttl", "86400", "--max-finished", "100000", "--sweep-interval", "3600"]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def settled_rss(pid: int) -> float:
    """VmRSS once the server has been idle for a moment (the last replies sent)."""
    time.sleep(1.0)
    return rss_mb(pid)


def fill(server: LocalServer, count: int) -> list[tuple[str, str]]:
    """`count` bot-only matches with one bot turn each; (match id, spectator token)."""
    from hzai_client import HzaiClient

    made = []
    with HzaiClient(server.target, timeout=60) as client:
        for _ in range(count):
            created = client.create_match("hera_zeus", bot_seats=[0, 1], bot="random")
            match_id, token = created.status.match_id, created.spectator_token
            client.bot_play_turn(match_id, token=token)
            made.append((match_id, token))
    return made


def read(server: LocalServer, matches: list[tuple[str, str]]) -> list[float]:
    """GetView with history of each match; the milliseconds of each call."""
    from hzai_client import HzaiClient

    times = []
    with HzaiClient(server.target, timeout=60) as client:
        for match_id, token in matches:
            start = time.perf_counter()
            client.get_view(match_id, token=token, with_history=True)
            times.append((time.perf_counter() - start) * 1000)
    return times


def stored_counts(data_dir: str) -> dict:
    from hzai_server.store import SqliteMatchStore

    store = SqliteMatchStore.in_directory(data_dir)
    try:
        return {"live": store.count_live(), "finished": store.count_finished()}
    finally:
        store.close()


def run(count: int, cache: int | None) -> dict:
    limit = [] if cache is None else ["--match-cache", str(cache)]
    with tempfile.TemporaryDirectory(prefix="hzai-match-memory-") as tmp:
        data = str(Path(tmp) / "data")
        flags = ["--data-dir", data, *ROOMY, *limit]
        with LocalServer(extra=flags) as server:
            start_rss = settled_rss(server.pid)
            began = time.monotonic()
            matches = fill(server, count)
            fill_seconds = time.monotonic() - began
            served = settled_rss(server.pid)
        kept = stored_counts(data)
        with LocalServer(extra=flags) as server:
            replica_start = settled_rss(server.pid)
            first = read(server, matches[:READ])
            again = read(server, matches[:READ])
            replica = settled_rss(server.pid)
        with LocalServer(extra=[*flags, "--match-cache", str(10 * count)]) as server:
            read(server, matches)
            unbounded = settled_rss(server.pid)
    return {"matches": count, "stored": kept, "fill_seconds": round(fill_seconds, 1),
            "served": {"rss_mb_at_start": start_rss, "rss_mb": served},
            "replica": {"rss_mb_at_start": replica_start, "rss_mb": replica, "read": READ,
                        "get_view_ms_p50_rebuilt": round(statistics.median(first), 2),
                        "get_view_ms_p50_cached": round(statistics.median(again), 2)},
            "unbounded": {"rss_mb": unbounded}}


def markdown(result: dict) -> str:
    runs = result["runs"]
    lines = ["# A replica's memory against the matches its store keeps", "",
             f"`{result['command']}`; match cache {result['match_cache']} (the default unless given); "
             f"machine: {result['machine']['cpus']} CPUs, load average {result['machine']['load_average']}.", "",
             "| matches in the store (live / finished) | served all: RSS MB (at start) | fresh replica reading "
             f"{READ}: RSS MB (at start) | every match kept replayed: RSS MB | GetView p50 ms rebuilt / cached |",
             "|---|---|---|---|---|"]
    for r in runs:
        rep = r["replica"]
        lines.append(f"| {r['matches']} ({r['stored']['live']} / {r['stored']['finished']}) | "
                     f"{r['served']['rss_mb']} ({r['served']['rss_mb_at_start']}) | {rep['rss_mb']} "
                     f"({rep['rss_mb_at_start']}) | {r['unbounded']['rss_mb']} | "
                     f"{rep['get_view_ms_p50_rebuilt']} / {rep['get_view_ms_p50_cached']} |")
    lines += ["", *(f"- {line}" for line in result["summary"]), ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1000], help="matches to keep in the store")
    parser.add_argument("--match-cache", type=int, help="the servers' --match-cache (default: the server's default)")
    parser.add_argument("--out", default=str(RESULTS / "match_memory.json"))
    args = parser.parse_args(argv)
    from hzai_server.config import ServerConfig

    runs = [run(count, args.match_cache) for count in args.counts]
    low, high = runs[0], runs[-1]
    span = high["matches"] - low["matches"]
    summary = []
    if span > 0:
        per_match = (high["unbounded"]["rss_mb"] - low["unbounded"]["rss_mb"]) * 1024 / span
        summary = [
            f"memory per match kept replayed: {per_match:.0f} KB ((unbounded RSS at {high['matches']} - at "
            f"{low['matches']}) / {span})",
            f"served all, {high['matches']} vs {low['matches']} in the store: "
            f"{high['served']['rss_mb'] - low['served']['rss_mb']:+.1f} MB",
            f"fresh replica, {high['matches']} vs {low['matches']} in the store: "
            f"{high['replica']['rss_mb'] - low['replica']['rss_mb']:+.1f} MB (target: within 10 MB)",
        ]
    result = {"command": harness.command("match_memory", argv),
              "match_cache": args.match_cache or ServerConfig().match_cache, "machine": machine(),
              "runs": runs, "summary": summary}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
