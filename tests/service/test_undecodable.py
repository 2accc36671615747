"""Undecodable bytes to every service the server registers, health and reflection
included (issue 34), and the grpc behaviour that made it necessary.

Before: health and reflection were registered with grpc's generated code, whose
deserializers raise on bad bytes. grpc then answers INTERNAL ("Exception deserializing
request!"), leaves the call's handler waiting for a request that never comes (about
20 KB of memory a request, never given back), and after one such reflection request
server.stop(grace) no longer ends. rpc.add_guarded registers both services with
deserializers that never raise."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest

from .conftest import ServerProcess

GARBAGE = [b"\xff\xff\xff\xff\xff", b"\x00\x01", b"\x0a\x80", b"\x0a\x04\xff\xfe\xc3\x28"]
HEALTH = "/grpc.health.v1.Health/"
REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def send(channel: grpc.Channel, path: str, data: bytes, timeout: float = 5.0) -> grpc.RpcError | None:
    """Send raw bytes to `path` the way its method takes them; the error, or None."""
    try:
        if path == REFLECTION:
            list(channel.stream_stream(path, request_serializer=None, response_deserializer=None)(
                iter([data]), timeout=timeout))
        elif path.endswith("/Watch"):
            for _ in channel.unary_stream(path, request_serializer=None, response_deserializer=None)(
                    data, timeout=timeout):
                break  # a good Watch streams until the deadline: its first answer is enough
        else:
            channel.unary_unary(path, request_serializer=None, response_deserializer=None)(data, timeout=timeout)
    except grpc.RpcError as exc:
        return exc
    return None


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


# ----- the minimal reproduction, against grpc alone -----------------------------------------
REPRODUCTION = """
import json, os
from concurrent import futures
import grpc
from grpc_health.v1 import health, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
out = {"stop_hung": False}
# The hang comes from a race inside grpc: most servers show it after five undecodable
# reflection requests; a few servers in a row are tried.
for attempt in range(4):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    health_pb2_grpc.add_HealthServicer_to_server(health.HealthServicer(), server)
    reflection.enable_server_reflection((reflection.SERVICE_NAME,), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        try:
            channel.unary_unary("/grpc.health.v1.Health/Check", request_serializer=None,
                                response_deserializer=None)(b"\\xff\\xff\\xff", timeout=5)
        except grpc.RpcError as exc:
            out["health"] = [exc.code().name, exc.details()]
        for _ in range(5):
            try:
                list(channel.stream_stream(REFLECTION, request_serializer=None, response_deserializer=None)(
                    iter([b"\\xff"]), timeout=5))
            except grpc.RpcError as exc:
                out["reflection"] = [exc.code().name, exc.details()]
    out["attempts"] = attempt + 1
    if not server.stop(0.5).wait(3):  # a grace of half a second, and three seconds later not stopped
        out["stop_hung"] = True
        break
print(json.dumps(out), flush=True)
os._exit(0)  # a handler thread of grpc's is still waiting: a normal exit would wait for it
"""


def test_grpc_alone_answers_internal_and_stop_hangs_after_an_undecodable_reflection_request():
    """grpc's own behaviour (in processes of their own: it leaves a thread that never
    ends), kept as the reason for rpc.add_guarded. The hang depends on a race in grpc
    that goes the same way for a whole process, about seven times in eight here: up to
    three processes are tried. If this test starts failing, the grpcio installed no
    longer has the defect, and add_guarded may go."""
    outs = []
    for _ in range(3):
        proc = subprocess.run([sys.executable, "-c", REPRODUCTION], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr[-2000:]
        outs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        assert outs[-1]["health"] == ["INTERNAL", "Exception deserializing request!"]
        assert outs[-1]["reflection"] == ["INTERNAL", "Exception deserializing request!"]
        if outs[-1]["stop_hung"]:
            break
    assert outs[-1]["stop_hung"], outs


# ----- the server --------------------------------------------------------------------------
@pytest.fixture
def guarded():
    server = ServerProcess("--grace", "1")
    yield server
    if server.process.poll() is None:
        server.kill()


# (Health/List is not implemented by grpc's HealthServicer: UNIMPLEMENTED for what decodes.)
@pytest.mark.parametrize("path", [HEALTH + "Check", HEALTH + "Watch", REFLECTION])
def test_health_and_reflection_answer_undecodable_bytes_with_invalid_argument(guarded, path):
    with grpc.insecure_channel(guarded.address) as channel:
        for data in GARBAGE:
            error = send(channel, path, data)
            assert error is not None, data
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (data, error.code(), error.details())
            assert error.details().startswith("request: not a valid grpc."), error.details()
        # and a good request still works
        assert send(channel, HEALTH + "Check", b"") is None
    def refusals():
        return [e for e in guarded.logs if e.get("event") == "rpc" and e.get("method") == path]

    deadline = time.monotonic() + 10
    while len(refusals()) < len(GARBAGE) and time.monotonic() < deadline:  # the log is read on another thread
        time.sleep(0.05)
    assert len(refusals()) == len(GARBAGE) and all(e["code"] == "INVALID_ARGUMENT" for e in refusals())


@pytest.mark.parametrize("path", [REFLECTION, HEALTH + "Check"])
def test_sigterm_ends_the_server_within_its_grace_after_an_undecodable_request(guarded, path):
    """Before: one undecodable reflection request, and SIGTERM never ended the server."""
    with grpc.insecure_channel(guarded.address) as channel:
        for _ in range(10):  # grpc's hang came from a race: one request showed it most times
            send(channel, path, GARBAGE[0])
        start = time.monotonic()
        guarded.process.send_signal(signal.SIGTERM)
        try:
            code = guarded.process.wait(10)
        except subprocess.TimeoutExpired:
            pytest.fail("the server was still running 10 s after SIGTERM (its grace period is 1 s)")
        took = time.monotonic() - start
    assert code == 0
    assert took <= 1 + 1, f"exited {took:.2f} s after SIGTERM; the grace period is 1 s"


def test_undecodable_health_checks_do_not_grow_memory(guarded):
    """grpc's path kept about 20 KB a request (40 MB over 2,000 here); the guarded one
    keeps none. 2,000 requests after 200 of warm-up: the RSS may move by a few MB."""
    with grpc.insecure_channel(guarded.address) as channel:
        check = channel.unary_unary(HEALTH + "Check", request_serializer=None, response_deserializer=None)

        def flood(count: int) -> None:
            for _ in range(count):
                with pytest.raises(grpc.RpcError):
                    check(GARBAGE[0], timeout=5)

        flood(200)
        before = rss_bytes(guarded.process.pid)
        flood(2000)
        grown = rss_bytes(guarded.process.pid) - before
    assert grown < 8 * 1024 * 1024, f"RSS grew by {grown / 1e6:.1f} MB over 2,000 undecodable health checks"
    assert os.path.exists(f"/proc/{guarded.process.pid}")
