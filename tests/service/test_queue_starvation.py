"""Queued searches never starve health checks or cheap calls, and a search past the
queue's bound is shed with RESOURCE_EXHAUSTED and RetryInfo (issue 34).

Before: every call ran on the server's `--workers` threads, and a call waiting for a
search slot held one. With a queue longer than the threads, the threads filled with
waiting searches, the other calls waited in grpc's own queue (unbounded, invisible to
the admission), nothing was shed, and health checks timed out."""

from __future__ import annotations

import json
import time

import grpc
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .conftest import played_record

CALLERS = 16


def retry_delay(error: grpc.RpcError) -> float | None:
    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToNanoseconds() / 1e9
    return None


def test_a_long_queue_never_starves_health_checks_and_sheds_the_rest():
    # 4 threads for calls, one search slot, 8 places in the interactive queue.
    server = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", workers=4, max_searches=1,
                                     search_queue=8, search_queue_per_client=16, max_millis=20_000))
    server.start()
    record = json.dumps(played_record(12, 24).to_json())
    request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=record),
                                         budget=common_pb2.Budget(millis=15_000), seed=1)
    calls = []
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = bot_pb2_grpc.BotServiceStub(channel)
            calls = [stub.SuggestMove.future(request, timeout=30) for _ in range(CALLERS)]
            # 1 searching, 8 waiting, 7 over the bound: those 7 are answered at once.
            deadline = time.monotonic() + 10
            while sum(c.done() for c in calls) < CALLERS - 1 - 8 and time.monotonic() < deadline:
                time.sleep(0.05)
            shed = [c for c in calls if c.done()]
            assert len(shed) == CALLERS - 1 - 8, f"{len(shed)} of {CALLERS} calls answered while one searched"
            for call in shed:
                error = call.exception()
                assert error is not None and error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                assert "queue is full" in error.details()
                assert retry_delay(error) == 1.0
            assert server.searches.admission.queued() == 8
            # The server's own threads are free: health and a cheap call answer at once.
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            assert stub.ListGames(bot_pb2.ListGamesRequest(), timeout=2).games
    finally:
        for call in calls:
            call.cancel()
        server.stop(0)
