"""Many callers against a small search queue: what is shed, how long the others take,
and whether health checks still answer at once (issue 34).

    python -m benchmarks.queue_shed --callers 40 --seconds 20 --out benchmarks/results/queue_shed.json

A server with --max-searches 2 --search-queue 8 (and the default 8 --workers); --callers
threads each ask SuggestMove (--iterations) again and again, waiting the RetryInfo delay
after a RESOURCE_EXHAUSTED; one more thread asks a health Check every 0.2 s with a 2 s
deadline. Before issue 34 (the issue's own run: 40 callers, queue 8) nothing was shed,
the p99 was 4.1 s and health checks timed out or took 1.4 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time

import grpc

from benchmarks import harness
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`


def percentile(values, q):
    """The q-quantile (harness rule "floor") of latencies, to 0.1 ms; None when none."""
    value = harness.percentile(values, q, rule="floor")
    return None if value is None else round(value, 1)


def retry_delay(error) -> float | None:
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToNanoseconds() / 1e9
    return None


def run(callers: int, seconds: float, iterations: int) -> dict:
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2

    from benchmarks.fuzz_soak import sample_record

    record = json.dumps(sample_record())
    request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=record),
                                         budget=common_pb2.Budget(iterations=iterations), seed=1)
    stop = threading.Event()
    lock = threading.Lock()
    calls: list[tuple[str, float]] = []
    shed_with_retry_info = [0, 0]
    health: list[tuple[str, float]] = []
    with LocalServer(extra=["--max-searches", "2", "--search-queue", "8", "--max-threads", "1"]) as server:
        with grpc.insecure_channel(server.target) as channel:
            stub = bot_pb2_grpc.BotServiceStub(channel)
            checker = health_pb2_grpc.HealthStub(channel)

            def caller():
                while not stop.is_set():
                    t0 = time.perf_counter()
                    try:
                        stub.SuggestMove(request, timeout=30)
                        code = "OK"
                    except grpc.RpcError as exc:
                        code = exc.code().name
                        if code == "RESOURCE_EXHAUSTED":
                            delay = retry_delay(exc)
                            with lock:
                                shed_with_retry_info[0] += 1
                                shed_with_retry_info[1] += delay is not None
                            stop.wait(delay or 1.0)
                    with lock:
                        calls.append((code, (time.perf_counter() - t0) * 1000))

            def checking():
                while not stop.wait(0.2):
                    t0 = time.perf_counter()
                    try:
                        checker.Check(health_pb2.HealthCheckRequest(), timeout=2)
                        code = "OK"
                    except grpc.RpcError as exc:
                        code = exc.code().name
                    health.append((code, (time.perf_counter() - t0) * 1000))

            threads = [threading.Thread(target=caller, daemon=True) for _ in range(callers)]
            threads.append(threading.Thread(target=checking, daemon=True))
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            stop.set()
            for thread in threads:
                thread.join(60)
    codes: dict[str, int] = {}
    for code, _ in calls:
        codes[code] = codes.get(code, 0) + 1
    ok = [ms for code, ms in calls if code == "OK"]
    health_ok = [ms for code, ms in health if code == "OK"]
    return {"callers": callers, "seconds": seconds, "iterations": iterations, "suggest_codes": codes,
            "shed": shed_with_retry_info[0], "shed_with_retry_info": shed_with_retry_info[1],
            "ok_p50_ms": percentile(ok, 0.5), "ok_p99_ms": percentile(ok, 0.99), "ok_max_ms": percentile(ok, 1.0),
            "health_checks": len(health), "health_failed": len(health) - len(health_ok),
            "health_p50_ms": percentile(health_ok, 0.5), "health_p99_ms": percentile(health_ok, 0.99),
            "health_max_ms": percentile(health_ok, 1.0)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--out", help="also write the result to this JSON file")
    args = parser.parse_args(argv)
    result = {"command": harness.command("queue_shed", argv),
              **run(args.callers, args.seconds, args.iterations)}
    print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(result, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
