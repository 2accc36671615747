"""Analyze batches against the client's deadline and the send limit (issue 34).

Before: a batch cut by the client's deadline lost every result (the server answered
just after the deadline, and logged OK); a batch within every cap could fail to send
because its answer was over the 4 MiB send limit (logged OK too)."""

from __future__ import annotations

import json
import logging

import grpc
import pytest

from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .conftest import played_record

DEADLINE = grpc.StatusCode.DEADLINE_EXCEEDED.value[0]


def start(**settings) -> HzaiServer:
    server = HzaiServer(ServerConfig(**{"address": "127.0.0.1:0", "data_dir": ":memory:", "max_searches": 2,
                                        "max_millis": 20_000, **settings}))
    server.start()
    return server


def batch(count: int, **fields) -> bot_pb2.AnalyzeRequest:
    record = played_record(12, 24).to_json()
    positions = []
    for i in range(count):
        prefix = {**record, "moves": record["moves"][: 12 + i]}
        positions.append(bot_pb2.BatchPosition(position=common_pb2.Position(game="hera_zeus",
                                                                          record_json=json.dumps(prefix))))
    return bot_pb2.AnalyzeRequest(positions=positions, seed=3, **fields)


@pytest.fixture(scope="module")
def served():
    server = start()
    yield server
    server.stop(0)


def test_a_batch_cut_by_the_deadline_answers_with_the_positions_done(served):
    """Eight positions of 400 ms each against a 1.5 s deadline: the answer arrives, OK,
    with the first positions analysed and the others marked not reached."""
    with grpc.insecure_channel(served.address) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        reply = stub.Analyze(batch(8, budget=common_pb2.Budget(millis=400)), timeout=1.5)
    assert [r.index for r in reply.results] == list(range(8))
    done = [r for r in reply.results if r.code == 0]
    reached_not = [r for r in reply.results if r.code != 0]
    assert done and reached_not, [(r.index, r.code, r.error) for r in reply.results]
    assert all(r.analysis.best.text for r in done)
    assert all(r.code == DEADLINE and "not analysed" in r.error for r in reached_not), \
        [(r.index, r.error) for r in reached_not]
    # in order: what was done is a prefix (a position cut short answers with what it has)
    assert [r.code == 0 for r in reply.results] == sorted((r.code == 0 for r in reply.results), reverse=True)


def seed_batch(count: int, **fields) -> bot_pb2.AnalyzeRequest:
    """Small requests (a seed each), large answers (every setup move of a new game)."""
    positions = [bot_pb2.BatchPosition(position=common_pb2.Position(
        game="hera_zeus", record_json=json.dumps({"format": "hzai-record/1", "seed": seed, "moves": []})))
        for seed in range(count)]
    return bot_pb2.AnalyzeRequest(positions=positions, seed=3, **fields)


def test_an_answer_over_the_send_limit_is_refused_naming_the_limit(caplog):
    """A send limit of 16 KiB: a request of 30 new games is far under it, their
    analyses (every setup move) far over."""
    server = start(max_message_bytes=16 * 1024)
    caplog.set_level(logging.INFO, logger="hzai_server")
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = bot_pb2_grpc.BotServiceStub(channel)
            with pytest.raises(grpc.RpcError) as caught:
                stub.Analyze(seed_batch(30, budget=common_pb2.Budget(iterations=30)), timeout=60)
            error = caught.value
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (error.code(), error.details())
            assert "--max-message-bytes of 16384" in error.details()
            assert error.details().startswith("positions: the answer would be over")
            # refused as soon as the answer was over the limit: the positions after were never searched
            went_over = int(error.details().split("by position ")[1].split()[0])
            assert went_over < 29
            # a batch whose answer fits is answered as before
            reply = stub.Analyze(seed_batch(1, budget=common_pb2.Budget(iterations=30)), timeout=60)
            assert [r.code for r in reply.results] == [0]
        logged = [r.fields["code"] for r in caplog.records if r.getMessage() == "rpc" and r.fields["method"] == "Analyze"]
        assert logged == ["INVALID_ARGUMENT", "OK"]
    finally:
        server.stop(0)
