"""Replicas behind nginx sharing one PostgreSQL (hzai_server.cluster): throughput 1 vs N
replicas, a replica killed under hosted matches, and the store's cost per move.

    python -m benchmarks.cluster --seconds 20

1. throughput: for 1 and 2 replicas (each `--max-searches 1 --max-threads 1`), locust
   (benchmarks/load.py's runner, benchmarks/locustfile.py's SuggestSmall at --iterations)
   through nginx with --users users (0: one a replica, so that no call is refused by a
   replica's one search slot); OK requests/s, their ratio, p99, the load average.
2. kill: 2 replicas, --players threads each playing hosted matches (Hera random, Zeus
   the bot at 200 iterations) through nginx; replica 0 gets SIGKILL after a third of
   --seconds. Every move acknowledged to a client must be in the final records
   (acknowledged moves lost), and the errors clients saw are counted.
3. store cost: one PlayMove's store work (a version check and an append of one entry)
   on SQLite (WAL, synchronous=FULL) and PostgreSQL (fsync on), against one ISMCTS
   decision at 200 iterations.
Writes benchmarks/results/cluster.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.load import digest, locust_available, run_locust
from benchmarks.harness import machine
from benchmarks.service import summary_ms

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def load_average() -> list[float]:
    return list(os.getloadavg())


def throughput(replicas: int, users: int, seconds: float, iterations: int, workdir: Path) -> dict:
    from hzai_server.cluster import Cluster

    cluster = Cluster(workdir / f"tp{replicas}")
    state = cluster.up(replicas, flags=["--max-searches", "1", "--max-threads", "1"])
    try:
        before = load_average()
        result = run_locust(state["address"], ["SuggestSmall"], users, seconds,
                            {"small": iterations, "large": 5000, "analyze": 1000, "match": 200}, workdir)
        samples = result["samples"]
        window = max(max(s[1] + s[2] / 1000 for s in samples) - min(s[1] for s in samples), 1e-9)
        row = next(iter(digest(samples, window).values()))
        return {"replicas": replicas, "users": users, "load_average_before": before,
                "load_average_after": load_average(), **row}
    finally:
        cluster.down()


def _plain(text: str) -> str:
    return re.sub(r"@\w+", "", text)


def kill_run(players: int, seconds: float, workdir: Path) -> dict:
    import grpc

    from hzai.rng import SplitMix64
    from hzai_client import HzaiClient
    from hzai_server.cluster import Cluster

    cluster = Cluster(workdir / "kill")
    state = cluster.up(2, flags=["--max-searches", "2", "--max-threads", "1", "--max-matches-per-client", "1000"])
    stop = threading.Event()
    results: list[dict] = []

    def player(k: int) -> None:
        rng = SplitMix64(k + 1)
        with HzaiClient(state["address"], timeout=30) as client:
            while not stop.is_set():
                games = {"acknowledged": {}, "errors": [], "final": None}
                try:
                    created = client.create_match(game="hera_zeus", bot_seats=[1], bot="ismcts",
                                                  iterations=200)
                except grpc.RpcError as exc:
                    games["errors"].append(exc.code().name)
                    results.append(games)
                    continue
                match_id, token = created.status.match_id, created.seats[0].token
                status = created.status
                while not status.over:
                    try:
                        if status.HasField("to_move") and status.to_move == 0:  # hera, the human seat
                            legal = client.legal_moves(match_id, token=token)
                            reply = client.play_move(match_id, legal[rng.below(len(legal))].text, token=token,
                                                     move_number=status.moves_played)
                            texts = [reply.played.text, *(c.text for c in reply.chance)]
                        else:
                            reply = client.bot_play_turn(match_id, token=token, move_number=status.moves_played)
                            texts = [m.text for m in reply.moves]
                    except grpc.RpcError as exc:
                        games["errors"].append(exc.code().name)
                        try:
                            status = client.get_view(match_id, token=token).status
                        except grpc.RpcError as again:
                            games["errors"].append(again.code().name)
                        continue
                    first = reply.status.moves_played - len(texts)
                    for offset, text in enumerate(texts):
                        games["acknowledged"][first + offset] = text
                    status = reply.status
                final = json.loads(status.record_json)["moves"]
                games["lost"] = sum(1 for i, t in games["acknowledged"].items()
                                    if "?" not in t and (i >= len(final) or _plain(final[i]) != _plain(t)))
                games["moves"] = len(final)
                results.append(games)

    threads = [threading.Thread(target=player, args=(k,), daemon=True) for k in range(players)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(seconds / 3)
        os.kill(state["replicas"][0]["pid"], signal.SIGKILL)
        killed_at = time.time()
        time.sleep(seconds * 2 / 3)
        stop.set()
        for thread in threads:
            thread.join(120)
    finally:
        cluster.down()
    errors: dict[str, int] = {}
    for game in results:
        for code in game["errors"]:
            errors[code] = errors.get(code, 0) + 1
    finished = [g for g in results if g.get("moves")]
    return {"players": players, "seconds": seconds, "killed_replica_at": killed_at, "games_finished": len(finished),
            "acknowledged_moves": sum(len(g["acknowledged"]) for g in finished),
            "acknowledged_moves_lost": sum(g["lost"] for g in finished), "client_errors": errors}


def store_cost(workdir: Path, appends: int) -> dict:
    from hzai.games.hera_zeus.belief import view_of
    from hzai.games.hera_zeus.rules import Game, Record, deal
    from hzai.search import Limits, make_bot
    from hzai_server.devcluster import Postgres
    from hzai_server.store import LoggedMove, SqliteMatchStore, StoredMatch
    from hzai_server.store_pg import PostgresMatchStore

    def per_move(store) -> dict:
        store.create(StoredMatch(id="bench", client="c", token_hashes={"seats": ["h", None], "spectator": "s"},
                                 seed=1, salt="ab", open=False, settings={}, created_at=0.0, last_used=0.0))
        times = []
        for i in range(appends):
            t0 = time.perf_counter()
            version = store.version("bench")
            store.append("bench", version, [LoggedMove(i, 0, "draw", b"x" * 300)], now=float(i))
            times.append((time.perf_counter() - t0) * 1000)
        store.close()
        return summary_ms(sorted(times))

    postgres = Postgres(workdir / "cost-pg", durable=True).start()
    try:
        out = {"sqlite": per_move(SqliteMatchStore.in_directory(str(workdir / "cost-sqlite"))),
               "postgresql": per_move(PostgresMatchStore(postgres.create_database("cost")))}
    finally:
        postgres.stop()
    game = Game.create()
    state = Record(game, setup=deal(game, 7)).start()
    bot = make_bot("ismcts")
    times = []
    for seed in range(30):
        t0 = time.perf_counter()
        bot.decide(view_of(state, state.to_move), Limits(iterations=200, threads=1), seed=seed)
        times.append((time.perf_counter() - t0) * 1000)
    out["search_200_iterations"] = summary_ms(sorted(times))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20, help="length of each run (5..600)")
    parser.add_argument("--users", type=int, default=2, help="locust users (1..16; 0: one a replica)")
    parser.add_argument("--iterations", type=int, default=1000, help="SuggestMove budget")
    parser.add_argument("--players", type=int, default=2, help="hosted-match players in the kill run (1..16)")
    parser.add_argument("--appends", type=int, default=300, help="store appends timed per store")
    parser.add_argument("--parts", nargs="+", default=["throughput", "kill", "store"],
                        choices=["throughput", "kill", "store"])
    parser.add_argument("--out", default=str(RESULTS / "cluster.json"))
    args = parser.parse_args(argv)
    if not 5 <= args.seconds <= 600 or not 0 <= args.users <= 16 or not 1 <= args.players <= 16:
        parser.error("--seconds 5..600, --users and --players 1..16")
    if "throughput" in args.parts and not locust_available():
        parser.error("locust is not installed: pip install -e '.[bench]'")
    report: dict = {"machine": machine(), "args": vars(args)}
    with tempfile.TemporaryDirectory(prefix="hzai-bc-") as tmp:
        workdir = Path(tmp)
        os.chmod(workdir, 0o711)  # PostgreSQL's own user must reach its directory
        if "throughput" in args.parts:
            runs = [throughput(n, args.users or n, args.seconds, args.iterations, workdir) for n in (1, 2)]
            report["throughput"] = {"runs": runs, "ok_per_s_ratio": runs[1]["ok_per_s"] / runs[0]["ok_per_s"]}
            for r in runs:
                print(f"  {r['replicas']} replica(s): {r['ok_per_s']:.1f} OK/s, p99 {r.get('p99_ms', float('nan')):.1f} ms,"
                      f" errors {r['errors']}, load {r['load_average_before'][0]:.2f}", flush=True)
            print(f"  ratio 2/1: {report['throughput']['ok_per_s_ratio']:.2f}", flush=True)
        if "kill" in args.parts:
            report["kill"] = kill_run(args.players, args.seconds, workdir)
            print(f"  kill: {json.dumps(report['kill'])}", flush=True)
        if "store" in args.parts:
            report["store_cost_ms"] = store_cost(workdir, args.appends)
            print(f"  store cost: {json.dumps(report['store_cost_ms'])}", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
