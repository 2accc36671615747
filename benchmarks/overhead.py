"""What the service adds: bot moves per second through hzai-server against the same
search called in-process, at the same budgets, in the same run.

    python -m benchmarks.overhead --budgets 200 1000 5000 --positions 8 --rounds 3

On the same positions (20+ moves into dealt games, played through hosted matches so that
each exists both as a record and as a match) and seeds, every path in turn on each
position so that load changes hit them alike:
- in-process search: `make_bot("ismcts").decide(view, Limits(iterations=B), seed)` on a
  view built beforehand — the search alone;
- in-process, whole path: what the server does for a record, done in-process — parse the
  record JSON, replay it, build the view of the player to move, search;
- service: `SuggestMove` with the record JSON through a local hzai-server (defaults, on
  127.0.0.1), one client calling back to back; the time is the client's round trip;
- service without the replay cache (where the server has one, `--replay-cache 0`): the
  record replayed from the start every time, as for a position the server has not seen;
  with the default cache the same positions, sent again each round, are replayed once;
- service by match id: the same with `match_id` (the server keeps the position: no
  record to parse and replay);
- 2 callers: both paths again with 2 threads calling at once (service: 2 channels);
- the floor: `SuggestMove` at 1 iteration, by record to both servers (`rpc_floor_ms`):
  what a call costs before any search -- the round trip, the messages, the record
  parsed, replayed and its view built (cold: without the decision cache).
The overhead is the service's time per move over the in-process search's, less one.

`--server-side` adds what a cold record costs in the server's own code, without gRPC
(`server_side` in the report): the request decoded, the record parsed (position →
Record), replayed and its view built (`view_to_decide`), the bot made, the search, the
answer encoded, each timed with the server's functions in this process, and the share of
each step against the search; plus a profile of the steps before the search (the top
functions by cumulative time, per record).
Writes benchmarks/results/overhead.json and, with matplotlib, the plot beside it
(`--png`, default overhead.png).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from pathlib import Path

from benchmarks.harness import machine
from benchmarks.service import LocalServer, summary_ms

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_OVERHEAD = 0.10  # at 1000 iterations


def decision(record_json: str):
    """What the server builds for a record position: the view of the player to move
    (the game's view_to_decide: replayed and built by the native core where it can)."""
    from hzai_proto.v3 import common_pb2
    from hzai_server import convert

    record, _ = convert.record_from_position(common_pb2.Position(game="hera_zeus", record_json=record_json))
    return record.game.records.view_to_decide(record)


def replay_cache_default() -> int:
    """The server's default replay cache size (0 where it has none)."""
    from hzai_server.config import ServerConfig

    return int(getattr(ServerConfig(), "replay_cache", 0) or 0)


def hosted_positions(client, count: int) -> list[tuple[str, str, str]]:
    """(match_id, record JSON, token of the seat to move) naming the same positions:
    open hosted matches with two human seats, played 20+ moves by seeded random choices
    from ListLegalMoves, and the same deal and moves (the server's chance results
    included) as a record."""
    from hzai_client import messages
    import json

    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules import Game, Record, deal

    game = Game.create()
    out = []
    for k in range(count):
        seed = 100 + k
        created = client.create_match("hera_zeus", seed=seed, open=True, bot_seats=[])
        match_id = created.status.match_id
        tokens = {seat: messages.seat_token(created, seat) for seat in (0, 1)}
        record = Record(game, setup=deal(game, seed))
        rng = SplitMix64(k)
        status = None
        while len(record.moves) < 20 + k:
            seat = created.status.to_move if status is None else status.to_move
            token = tokens[seat]
            moves = client.legal_moves(match_id, token=token)
            if not moves:
                break
            reply = client.play_move(match_id, moves[rng.below(len(moves))].text, token=token)
            record.moves += [reply.played.text, *(c.text for c in reply.chance)]
            status = reply.status
            if status.over:
                break
        if status is not None and not status.over:
            out.append((match_id, json.dumps(record.to_json()), tokens[status.to_move]))
        else:
            client.delete_match(match_id, token=tokens[0])
    return out


def parallel(calls: list, threads: int) -> float:
    """Run the calls on `threads` threads, each taking the next; the wall time."""
    pending = iter(range(len(calls)))
    lock = threading.Lock()
    failures: list[BaseException] = []

    def worker():
        while True:
            with lock:
                i = next(pending, None)
            if i is None:
                return
            try:
                calls[i]()
            except BaseException as exc:  # noqa: BLE001 - reported after the join
                failures.append(exc)
                return

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if failures:
        raise failures[0]
    return time.perf_counter() - start


def rpc_floor(client, uncached_client, records: list[str], rounds: int = 20) -> dict:
    """Mean ms of a SuggestMove at 1 iteration, through each server, alternating."""
    paths = [("service", client)] + ([("service_no_cache", uncached_client)] if uncached_client else [])
    spent = {name: 0.0 for name, _ in paths}
    for _ in range(rounds):
        for name, c in paths:
            start = time.perf_counter()
            for i, text in enumerate(records):
                c.suggest_move(text, iterations=1, seed=i)
            spent[name] += time.perf_counter() - start
    return {name: 1000 * s / (rounds * len(records)) for name, s in spent.items()}


def measure(budgets: list[int], count: int, rounds: int, callers: int = 2, server_side_too: bool = False) -> dict:
    from hzai.search import Limits, make_bot
    from hzai_client import HzaiClient

    bot = make_bot("ismcts")
    cache = replay_cache_default()
    report = {"machine": machine(), "rounds": rounds, "callers": callers, "server_replay_cache": cache,
              "target_overhead_at_1000": TARGET_OVERHEAD, "budgets": {}}
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(LocalServer())
        # a server that replays every record from the start, where the default keeps a cache
        uncached = stack.enter_context(LocalServer(extra=["--replay-cache", "0"])) if cache else None
        clients = [HzaiClient(server.target, timeout=120) for _ in range(callers)]
        if uncached is not None:
            clients.append(HzaiClient(uncached.target, timeout=120))
        try:
            for c in clients:
                c.wait_ready(10)
            hosted = hosted_positions(clients[0], count)
            match_ids = [{"match_id": h[0], "token": h[2]} for h in hosted]
            records = [h[1] for h in hosted]
            views = [decision(r) for r in records]
            report["positions"] = len(records)
            # warm up both paths (connections, imports, caches) before anything is timed
            for i, text in enumerate(records):
                bot.decide(decision(text), Limits(iterations=min(budgets)), seed=i)
                for c in clients:  # the uncached server's client too
                    c.suggest_move(text, iterations=min(budgets), seed=i)
                clients[0].suggest_move(**match_ids[i], iterations=min(budgets), seed=i)
            report["rpc_floor_ms"] = rpc_floor(clients[0], clients[-1] if uncached is not None else None, records)
            print(f"  floor: a call at 1 iteration takes {report['rpc_floor_ms']['service']:.2f} ms "
                  f"({report['rpc_floor_ms'].get('service_no_cache', float('nan')):.2f} ms replayed in full)", flush=True)
            for budget in budgets:
                limits = Limits(iterations=budget)
                times = {"in_process_search": [], "in_process_whole_path": [], "service": [], "service_match": []}
                if uncached is not None:
                    times["service_no_cache"] = []
                walls = {"in_process_parallel": 0.0, "service_parallel": 0.0}
                moves_parallel = 0
                same = compared = 0
                for r in range(rounds):
                    print(f"  overhead: {budget} iterations, round {r + 1}/{rounds} ...", flush=True)
                    # position by position, every path in turn: load changes hit all alike
                    for i, (view, text, match_id) in enumerate(zip(views, records, match_ids)):
                        t0 = time.perf_counter()
                        local = str(bot.decide(view, limits, seed=i).move)
                        times["in_process_search"].append((time.perf_counter() - t0) * 1000)
                        t0 = time.perf_counter()
                        bot.decide(decision(text), limits, seed=i)
                        times["in_process_whole_path"].append((time.perf_counter() - t0) * 1000)
                        paths = [("service", clients[0], {"record": text}),
                                 ("service_match", clients[0], match_id)]
                        if uncached is not None:
                            paths.append(("service_no_cache", clients[-1], {"record": text}))
                        for name, client, position in paths:
                            t0 = time.perf_counter()
                            reply = client.suggest_move(**position, iterations=budget, seed=i)
                            times[name].append((time.perf_counter() - t0) * 1000)
                            compared += 1
                            same += reply.move.text == local
                    # the same positions with `callers` callers at once
                    walls["in_process_parallel"] += parallel(
                        [lambda i=i, v=v: bot.decide(v, limits, seed=i) for i, v in enumerate(views)], callers)
                    slot = threading.local()
                    order = iter(range(10**9))

                    def client_for_thread():
                        if not hasattr(slot, "client"):
                            slot.client = clients[next(order) % callers]
                        return slot.client

                    walls["service_parallel"] += parallel(
                        [lambda i=i, t=t: client_for_thread().suggest_move(t, iterations=budget, seed=i)
                         for i, t in enumerate(records)], callers)
                    moves_parallel += len(records)
                row = {name: summary_ms(values) for name, values in times.items()}
                for name, values in times.items():
                    row[name]["moves_per_s"] = 1000 * len(values) / sum(values)
                row["in_process_parallel"] = {"moves_per_s": moves_parallel / walls["in_process_parallel"]}
                row["service_parallel"] = {"moves_per_s": moves_parallel / walls["service_parallel"]}
                search_ms = row["in_process_search"]["mean_ms"]
                row["overhead_vs_search"] = row["service"]["mean_ms"] / search_ms - 1
                row["overhead_match_vs_search"] = row["service_match"]["mean_ms"] / search_ms - 1
                row["overhead_vs_whole_path"] = row["service"]["mean_ms"] / row["in_process_whole_path"]["mean_ms"] - 1
                row["replay_and_view_ms"] = row["in_process_whole_path"]["mean_ms"] - search_ms
                full_replay = row["service_no_cache"] if uncached is not None else row["service"]
                row["rpc_ms"] = full_replay["mean_ms"] - row["in_process_whole_path"]["mean_ms"]
                if uncached is not None:
                    row["overhead_no_cache_vs_search"] = row["service_no_cache"]["mean_ms"] / search_ms - 1
                row["overhead_parallel"] = row["in_process_parallel"]["moves_per_s"] / row["service_parallel"]["moves_per_s"] - 1
                row["same_move_share"] = same / compared if compared else float("nan")
                report["budgets"][str(budget)] = row
                print(f"    {budget:>5} it: in-process {row['in_process_search']['moves_per_s']:6.1f} moves/s, "
                      f"service {row['service']['moves_per_s']:6.1f} moves/s (overhead {row['overhead_vs_search']:+.1%}; "
                      f"by match id {row['service_match']['moves_per_s']:6.1f}, {row['overhead_match_vs_search']:+.1%}; "
                      f"replay+view {row['replay_and_view_ms']:.1f} ms, RPC {row['rpc_ms']:.1f} ms); "
                      f"{callers} callers: in-process {row['in_process_parallel']['moves_per_s']:.1f}, "
                      f"service {row['service_parallel']['moves_per_s']:.1f} moves/s; same move {row['same_move_share']:.0%}",
                      flush=True)
            if server_side_too:
                report["server_side"] = server_side(records, budgets, rounds)
        finally:
            for c in clients:
                c.close()
    return report


def server_side(records: list[str], budgets: list[int], rounds: int, profile_repeats: int = 20) -> dict:
    """A cold record's way through the server's SuggestMove, step by step, in-process
    (no gRPC, no decision cache): mean ms per step and each step against the search."""
    import cProfile
    import pstats

    from hzai.search import Limits
    from hzai_proto.v3 import bot_pb2, common_pb2
    from hzai_server import convert
    from hzai_server.convert import make_checked_bot

    def request_bytes(text: str, budget: int, seed: int) -> bytes:
        return bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=text),
                                          budget=common_pb2.Budget(iterations=budget), seed=seed).SerializeToString()

    def prepare(wire: bytes):
        request = bot_pb2.SuggestMoveRequest.FromString(wire)
        record, field = convert.record_from_position(request.position)
        return request, record, convert.view_to_decide(record, field)

    out = {"positions": len(records), "rounds": rounds, "budgets": {}}
    for budget in budgets:
        steps = {name: [] for name in ("request_decode", "record_parse", "replay_and_view", "bot", "search",
                                       "response_encode")}
        for _ in range(rounds):
            for i, text in enumerate(records):
                wire = request_bytes(text, budget, i)
                t0 = time.perf_counter()
                request = bot_pb2.SuggestMoveRequest.FromString(wire)
                t1 = time.perf_counter()
                record, field = convert.record_from_position(request.position)
                t2 = time.perf_counter()
                view = convert.view_to_decide(record, field)
                t3 = time.perf_counter()
                bot = make_checked_bot(request.bot, record.game)
                t4 = time.perf_counter()
                move = bot.decide(view, Limits(iterations=budget), request.seed).move
                t5 = time.perf_counter()
                bot_pb2.SuggestMoveResponse(move=convert.move_to_proto(record.game, move), seat=view.current_seat,
                                            seat_name=record.game.seats[view.current_seat], bot=bot.name,
                                            millis=(t5 - t4) * 1000).SerializeToString()
                t6 = time.perf_counter()
                for name, (a, b) in zip(steps, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6))):
                    steps[name].append((b - a) * 1000)
        mean = {name: sum(v) / len(v) for name, v in steps.items()}
        record_ms = sum(ms for name, ms in mean.items() if name != "search")
        out["budgets"][str(budget)] = {"mean_ms": mean, "record_ms": record_ms,
                                       "record_vs_search": record_ms / mean["search"],
                                       "share_vs_search": {n: ms / mean["search"] for n, ms in mean.items() if n != "search"}}
        print(f"    server side, {budget} it: search {mean['search']:.2f} ms, the record's own cost "
              f"{record_ms:.3f} ms ({record_ms / mean['search']:+.1%}): "
              + ", ".join(f"{n} {ms:.3f}" for n, ms in mean.items() if n != "search"), flush=True)
    wires = [request_bytes(text, budgets[0], i) for i, text in enumerate(records)]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(profile_repeats):
        for wire in wires:
            prepare(wire)
    profiler.disable()
    calls = len(wires) * profile_repeats
    stats = pstats.Stats(profiler)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][3])[:15]  # by cumulative time
    out["profile_before_search"] = [
        {"function": f"{Path(f).name}:{line}:{name}", "calls_per_record": nc / calls, "cum_ms_per_record": ct * 1000 / calls,
         "own_ms_per_record": tt * 1000 / calls}
        for (f, line, name), (_, nc, tt, ct, _) in rows]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", type=int, nargs="+", default=[200, 1000, 5000], help="iterations per move")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=str(RESULTS / "overhead.json"))
    parser.add_argument("--png", default=None, help="the plot (default: the --out path with .png)")
    parser.add_argument("--from-json", default=None, help="plot a report written before instead of measuring")
    parser.add_argument("--server-side", action="store_true",
                        help="also time a cold record step by step in the server's code, without gRPC")
    args = parser.parse_args(argv)
    if args.from_json:
        report = json.loads(Path(args.from_json).read_text())
    else:
        report = measure(args.budgets, args.positions, args.rounds, server_side_too=args.server_side)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=1))
        print(f"written: {args.out}")
    from benchmarks.report import plot_overhead

    png = Path(args.png or Path(args.from_json or args.out).with_suffix(".png"))
    if plot_overhead({"overhead": report}, png):
        print(f"written: {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
