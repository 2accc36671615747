"""Undecodable requests: the server's memory over many of them, and how soon SIGTERM
ends it afterwards (issue 34).

    python -m benchmarks.undecodable --requests 12000 --out benchmarks/results/undecodable.json

Part 1 starts hzai-server and sends `--requests` undecodable messages (seeded random
bytes that do not parse) to the health service's Check, after 500 of warm-up, reading
the server's RSS (/proc) every 1,000; the target is a growth of at most 5 MB.
Part 2 starts a server with --grace 1 for each case below, brings it to that state,
sends SIGTERM and times the exit; the target is at most grace + 1 s in every case:
idle; after 10 undecodable health Checks; after 10 undecodable reflection requests
(before issue 34 the server never exited here); with a reflection stream left open;
with a health Watch open; with a search running past the grace period.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import threading
import time

import grpc

from benchmarks import harness
from benchmarks.service import LocalServer

CONCERN = "service"  # its group in `python -m benchmarks list`

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
GRACE = 1.0


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def garbage(rng: random.Random) -> bytes:
    """Bytes no HealthCheckRequest parses: a field of wire type 7 (none exists), then noise."""
    return bytes([0x0F]) + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40)))


def memory(requests: int, seed: int) -> dict:
    rng = random.Random(seed)
    codes: dict[str, int] = {}
    samples = []
    with LocalServer() as server, grpc.insecure_channel(server.target) as channel:
        check = channel.unary_unary(HEALTH_CHECK, request_serializer=None, response_deserializer=None)

        def send(count: int) -> None:
            for _ in range(count):
                try:
                    check(garbage(rng), timeout=10)
                    code = "OK"
                except grpc.RpcError as exc:
                    code = exc.code().name
                codes[code] = codes.get(code, 0) + 1

        send(500)
        start = rss_mb(server.pid)
        samples.append({"requests": 0, "rss_mb": round(start, 1)})
        started = time.perf_counter()
        done = 0
        while done < requests:
            step = min(1000, requests - done)
            send(step)
            done += step
            samples.append({"requests": done, "rss_mb": round(rss_mb(server.pid), 1)})
        seconds = time.perf_counter() - started
    return {"requests": requests, "warm_up": 500, "codes": codes, "rss_start_mb": samples[0]["rss_mb"],
            "rss_end_mb": samples[-1]["rss_mb"], "growth_mb": round(samples[-1]["rss_mb"] - samples[0]["rss_mb"], 1),
            "target_growth_mb": 5, "requests_per_s": round(requests / seconds), "samples": samples}


def _raw(channel, path: str, data: bytes, timeout: float = 5.0) -> str:
    try:
        if path == REFLECTION:
            list(channel.stream_stream(path, request_serializer=None, response_deserializer=None)(
                iter([data]), timeout=timeout))
        else:
            channel.unary_unary(path, request_serializer=None, response_deserializer=None)(data, timeout=timeout)
    except grpc.RpcError as exc:
        return exc.code().name
    return "OK"


def _case(name: str, prepare) -> dict:
    with LocalServer(extra=["--grace", str(GRACE), "--max-millis", "60000"]) as server:
        with grpc.insecure_channel(server.target) as channel:
            held = prepare(channel)
            time.sleep(0.3)
            start = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            try:
                code = server.process.wait(20)
                took = time.monotonic() - start
            except Exception:  # noqa: BLE001 - still running: that is the finding
                code, took = None, None
                server.process.kill()
            for call in held:
                call.cancel()
    return {"case": name, "exit_code": code, "exit_s": None if took is None else round(took, 2),
            "within_grace_plus_1s": took is not None and took <= GRACE + 1}


def _open_reflection(channel):
    done = threading.Event()

    def requests():
        done.wait(30)
        yield from ()

    call = channel.stream_stream(REFLECTION, request_serializer=None, response_deserializer=None)(requests(), timeout=60)

    class Held:
        def cancel(self):
            call.cancel()
            done.set()

    return [Held()]


def _open_watch(channel):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    stream = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=60)
    next(stream)
    return [stream]


def _long_search(channel):
    from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2

    record = json.dumps({"format": "hzai-record/1", "seed": 5, "moves": []})
    call = bot_pb2_grpc.BotServiceStub(channel).SuggestMove.future(bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=record), budget=common_pb2.Budget(millis=30_000)),
        timeout=60)
    time.sleep(0.5)
    return [call]


def _undecodable(path: str):
    def prepare(channel):
        for _ in range(10):
            _raw(channel, path, b"\x0f\xff")
        return []

    return prepare


def sigterm() -> list[dict]:
    cases = [
        ("idle", lambda channel: []),
        ("after 10 undecodable health checks", _undecodable(HEALTH_CHECK)),
        ("after 10 undecodable reflection requests", _undecodable(REFLECTION)),
        ("a reflection stream left open", _open_reflection),
        ("a health Watch open", _open_watch),
        ("a 30 s search running", _long_search),
    ]
    return [_case(name, prepare) for name, prepare in cases]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=12_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    result = {"command": harness.command("undecodable", argv),
              "memory": memory(args.requests, args.seed), "grace_s": GRACE, "sigterm": sigterm()}
    print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(result, handle, indent=1)
    ok = result["memory"]["growth_mb"] <= 5 and all(c["within_grace_plus_1s"] for c in result["sigterm"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
