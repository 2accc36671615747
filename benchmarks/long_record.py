"""A hostile record of 100,000 moves against the server while another client plays.

Three phases against one server:
1. `quiet`: the other client asks SuggestMove for a mid-game record in a loop;
2. `attack`: the same, while an attacker sends a record of MOVES `draw` moves again and
   again (with the default turn_limit, and with the largest turn_limit, under which the
   record is not too long on its face and its moves must be read);
3. `cost`: the attacker alone, to measure the server's CPU per hostile request.

The figures are the other client's latency p50/p99 in each phase and the server's CPU
per 1,000 hostile moves (Linux /proc). Not a test: nothing is asserted.

    python -m benchmarks.long_record                       # starts its own server
    python -m benchmarks.long_record --address HOST:PORT --pid PID
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import grpc

from benchmarks.harness import machine, percentile
from benchmarks.service import LocalServer, cpu_seconds

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
GAME = "hera_zeus"  # the records below are Hera and Zeus records


def hostile(moves: int, turn_limit: int | None) -> str:
    record = {"format": "hzai-record/1", "seed": 1, "moves": ["draw"] * moves}
    if turn_limit is not None:
        record["variants"] = {"turn_limit": turn_limit}
    return json.dumps(record)


def victim_records(count: int, first_seed: int) -> list[str]:
    """Distinct mid-game records (as a front end sends a new one after every move), so
    that each needs a replay: none is answered from the decision cache."""
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules import Game, Record

    game = Game.create()
    out = []
    for seed in range(first_seed, first_seed + count):
        record = Record(game, seed=seed)
        state = record.start()
        rng = SplitMix64(seed)
        while (len(record.moves) < 16 or state.is_chance) and not state.is_over:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
            move = options[rng.below(len(options))]
            state.push(move)
            record.moves.append(str(move))
        if not state.is_over:
            out.append(json.dumps(record.to_json()))
    return out


def latencies(stub, health, records: list[str]) -> tuple[list[float], list[float]]:
    """SuggestMove for each record, and a health check after each: both latencies (ms)."""
    from grpc_health.v1 import health_pb2
    from hzai_proto.v3 import bot_pb2, common_pb2

    moves, checks = [], []
    for text in records:
        request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game=GAME, record_json=text),
                                             budget=common_pb2.Budget(iterations=200), seed=1)
        start = time.perf_counter()
        stub.SuggestMove(request, timeout=300)
        moves.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        health.Check(health_pb2.HealthCheckRequest(service=""), timeout=300)
        checks.append((time.perf_counter() - start) * 1000)
    return sorted(moves), sorted(checks)


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
    return {"n": len(values), "p50_ms": round(percentile(values, 0.5), 2), "p99_ms": round(percentile(values, 0.99), 2),
            "max_ms": round(values[-1], 2)}


class Attacker(threading.Thread):
    """Sends hostile records until stopped; counts answers by status and their times."""

    def __init__(self, channel, texts: list[str]):
        super().__init__(daemon=True)
        from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2

        self.stub = bot_pb2_grpc.BotServiceStub(channel)
        self.requests = [bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game=GAME, record_json=t))
                         for t in texts]
        self.stop = threading.Event()
        self.codes: dict[str, int] = {}
        self.millis: list[float] = []
        self.messages: set[str] = set()

    def send(self, request) -> None:
        start = time.perf_counter()
        try:
            self.stub.SuggestMove(request, timeout=120)
            code = "OK"
        except grpc.RpcError as exc:
            code = exc.code().name
            self.messages.add((exc.details() or "")[:160])
        self.millis.append((time.perf_counter() - start) * 1000)
        self.codes[code] = self.codes.get(code, 0) + 1

    def run(self) -> None:
        i = 0
        while not self.stop.is_set():
            self.send(self.requests[i % len(self.requests)])
            i += 1


def measure(address: str, pid: int | None, moves: int, victim_requests: int, cost_requests: int) -> dict:
    from grpc_health.v1 import health_pb2_grpc
    from hzai_proto.v3 import bot_pb2_grpc

    options = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
    texts = {"default_turn_limit": hostile(moves, None), "turn_limit_10000": hostile(moves, 10_000)}
    with grpc.insecure_channel(address, options=options) as victim_channel, \
            grpc.insecure_channel(address, options=options) as attack_channel:
        stub = bot_pb2_grpc.BotServiceStub(victim_channel)
        health = health_pb2_grpc.HealthStub(victim_channel)
        records = victim_records(2 * victim_requests + 10, 1000)
        latencies(stub, health, records[:10])  # warm up
        quiet, quiet_health = latencies(stub, health, records[10:10 + victim_requests])
        attacker = Attacker(attack_channel, list(texts.values()))
        attacker.start()
        attacked, attacked_health = latencies(stub, health, records[10 + victim_requests:])
        attacker.stop.set()
        attacker.join()
        costs = {}
        for name, text in texts.items():
            alone = Attacker(attack_channel, [text])
            before = cpu_seconds(pid) if pid else float("nan")
            for _ in range(cost_requests):
                alone.send(alone.requests[0])
            cpu = (cpu_seconds(pid) - before) if pid else float("nan")
            costs[name] = {
                "requests": cost_requests, "codes": alone.codes, "answers": sorted(alone.messages),
                "server_cpu_ms_per_request": round(cpu * 1000 / cost_requests, 2),
                "server_cpu_ms_per_1000_moves": round(cpu * 1000 / cost_requests / (moves / 1000), 3),
                "client_latency": summary(sorted(alone.millis)),
            }
    return {
        "moves": moves,
        "victim": {"quiet": summary(quiet), "under_attack": summary(attacked),
                   "health_quiet": summary(quiet_health), "health_under_attack": summary(attacked_health),
                   "request": "SuggestMove, ismcts, 200 iterations, a new 16-move record each time, "
                              "then a health check"},
        "attack": {"requests": sum(attacker.codes.values()), "codes": attacker.codes,
                   "latency": summary(sorted(attacker.millis)), "answers": sorted(attacker.messages)},
        "cost_alone": costs,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="a running server (default: start one)")
    parser.add_argument("--pid", type=int, help="its process id, for the CPU figures")
    parser.add_argument("--moves", type=int, default=100_000)
    parser.add_argument("--victim-requests", type=int, default=200)
    parser.add_argument("--cost-requests", type=int, default=20)
    parser.add_argument("--label", default="after", help="name of this run in the results file")
    parser.add_argument("--out", default=str(RESULTS / "long_record.json"))
    args = parser.parse_args(argv)
    if args.address:
        result = measure(args.address, args.pid, args.moves, args.victim_requests, args.cost_requests)
    else:
        with LocalServer(extra=["--max-message-bytes", str(8 << 20)]) as server:
            result = measure(server.target, server.pid, args.moves, args.victim_requests, args.cost_requests)
    result["machine"] = machine()
    out = Path(args.out)
    runs = json.loads(out.read_text()) if out.exists() else {}
    runs[args.label] = result
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(runs, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
