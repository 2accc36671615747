"""SIGTERM: the server stops taking calls, lets running ones finish within the grace
period, logs it, and exits 0."""

import signal

from hzai_client import HzaiClient

from .conftest import ServerProcess, played_record


def test_sigterm_lets_a_running_search_finish_then_exits_cleanly():
    server = ServerProcess("--grace", "20")
    record = played_record(12, 24).to_json()
    try:
        with HzaiClient(server.address, timeout=30) as client:
            stream = client.analyze_stream(record, millis=1500, progress_every=64, seed=1)
            assert not next(stream).finished  # the search is running
            server.process.send_signal(signal.SIGTERM)
            final = list(stream)[-1]
            assert final.finished and final.best.text
        assert server.process.wait(30) == 0
    finally:
        server.stop()
    events = [e["event"] for e in server.logs]
    assert events.index("signal") < events.index("stopping") < events.index("stopped")
    assert all(e["level"] in ("debug", "info", "warning", "error") and e["ts"].endswith("Z") for e in server.logs)
    rpc = [e for e in server.logs if e["event"] == "rpc"]
    assert rpc and rpc[-1]["method"] == "AnalyzeStream" and rpc[-1]["code"] == "OK"


def test_sigterm_stops_long_searches_in_time_to_answer_their_best_move():
    """Searches that would outlast the grace period answer with their best move so far
    (finished false, stopped_early true) instead of being cancelled; meanwhile health
    says NOT_SERVING and new calls are refused with UNAVAILABLE."""
    import threading

    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    server = ServerProcess("--grace", "3", "--max-searches", "2", "--max-millis", "60000")
    record = played_record(12, 24)
    legal = {str(m) for m in record.replay().legal_moves()}
    try:
        with HzaiClient(server.address, timeout=60) as client:
            stream = client.analyze_stream(record.to_json(), millis=60_000, progress_every=64, seed=1)
            assert not next(stream).finished
            suggestion = client.bots.SuggestMove.future(
                client_request(record, millis=60_000), timeout=60)

            def both_running() -> bool:  # the second slot is taken once the suggestion searches
                try:
                    client.suggest_move(record.to_json(), bot="random", timeout=10)
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    return True
                return False

            while not both_running():
                threading.Event().wait(0.05)
            server.process.send_signal(signal.SIGTERM)
            health = health_pb2_grpc.HealthStub(client.channel)
            while health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10).status == \
                    health_pb2.HealthCheckResponse.SERVING:
                threading.Event().wait(0.02)
            try:
                client.suggest_move(record.to_json(), bot="random", timeout=10)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc.details()
            else:
                raise AssertionError("a call during the grace period must be refused")
            final = list(stream)[-1]
            assert not final.finished and final.best.text in legal and final.iterations > 0
            reply = suggestion.result()
            assert reply.stopped_early and reply.move.text in legal
        assert server.process.wait(30) == 0
    finally:
        server.stop()
    events = [e["event"] for e in server.logs]
    assert events.index("signal") < events.index("stopping") < events.index("stopping searches") < events.index("stopped")
    codes = {(e["method"], e["code"]) for e in server.logs if e["event"] == "rpc"}
    assert ("AnalyzeStream", "OK") in codes and ("SuggestMove", "OK") in codes
    assert ("SuggestMove", "UNAVAILABLE") in codes


def client_request(record, millis: int):
    import json

    from hzai_proto.v3 import bot_pb2, common_pb2

    return bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=json.dumps(record.to_json())),
                                      budget=common_pb2.Budget(millis=millis), seed=1)
