"""--max-connection-age: connections that end, so that one long-lived channel is spread
over the workers of `hzai-server --processes N` (the kernel hashes connections, not
calls), and the client's retries that make the reconnection invisible to its calls."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections import Counter

import grpc
import pytest

from hzai_client import AsyncHzaiClient, HzaiClient
from hzai_client import messages as m
from hzai_server.app import connection_age_options
from hzai_server.config import ServerConfig, parse_config

from .conftest import REPO, ServerProcess
from .test_clients import node  # noqa: F401 - the fixture: Node.js with the client's packages

RECORD = {"format": "hzai-record/1", "seed": 11, "moves": []}


def test_the_connection_age_defaults_and_flags(capsys):
    config = parse_config([], env={})
    assert (config.max_connection_age, config.max_connection_age_grace) == (30.0, 120.0)
    # The grace covers the longest search a request may ask for.
    assert config.max_connection_age_grace > config.max_millis / 1000
    assert connection_age_options(config) == [("grpc.max_connection_age_ms", 30_000),
                                              ("grpc.max_connection_age_grace_ms", 120_000)]
    config = parse_config(["--max-connection-age", "1.5", "--max-connection-age-grace", "0"], env={})
    assert connection_age_options(config) == [("grpc.max_connection_age_ms", 1500),
                                              ("grpc.max_connection_age_grace_ms", 0)]
    config = parse_config([], env={"HZAI_MAX_CONNECTION_AGE": "0"})
    assert config.max_connection_age == 0 and connection_age_options(config) == []
    assert connection_age_options(ServerConfig(max_connection_age=0.0001))[0] == ("grpc.max_connection_age_ms", 1)
    with pytest.raises(SystemExit):
        parse_config(["--help"], env={})
    help_text = capsys.readouterr().out
    assert "--max-connection-age" in help_text and "GOAWAY" in help_text and "(default: 30.0)" in help_text


@pytest.mark.parametrize("argv, env, named", [
    (["--max-connection-age", "-1"], {}, "--max-connection-age must be between 0 and"),
    ([], {"HZAI_MAX_CONNECTION_AGE": "nan"}, "--max-connection-age must be between 0 and"),
    (["--max-connection-age-grace", "-0.5"], {}, "--max-connection-age-grace must be between 0 and"),
    (["--max-connection-age", "1e9"], {}, "--max-connection-age must be between 0 and"),
    (["--max-connection-age", "soon"], {}, "--max-connection-age: invalid float value"),
])
def test_a_bad_connection_age_is_refused_by_name(argv, env, named, capsys):
    with pytest.raises(SystemExit) as stop:
        parse_config(argv, env=env)
    assert stop.value.code == 2
    assert named in capsys.readouterr().err


def test_the_client_retries_only_the_calls_that_are_safe_to_repeat():
    options = m.channel_options([("grpc.primary_user_agent", "x")])
    assert options[0] == ("grpc.primary_user_agent", "x")
    config = json.loads(dict(options)["grpc.service_config"])
    (method_config,) = config["methodConfig"]
    names = {(n["service"], n["method"]) for n in method_config["name"]}
    assert ("hzai.v3.BotService", "SuggestMove") in names and ("hzai.v3.MatchService", "GetView") in names
    for unsafe in ("CreateMatch", "DeleteMatch", "PlayMove", "BotPlayTurn"):  # PlayMove: by the client, below
        assert ("hzai.v3.MatchService", unsafe) not in names
    assert method_config["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert method_config["retryPolicy"]["maxAttempts"] == m.RETRY_ATTEMPTS
    # A service config of the caller's own is kept as given.
    assert m.channel_options([("grpc.service_config", "{}")]) == [("grpc.service_config", "{}")]
    assert m.retry_pauses() == [0.1, 0.2, 0.4, 0.8]


class _Refused(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode):
        self._code = code

    def code(self) -> grpc.StatusCode:
        return self._code


class _Flaky:
    """A stub method that fails `failures` times with `code`, then answers."""

    def __init__(self, failures: int, code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE):
        self.failures, self.code, self.calls = failures, code, []

    def __call__(self, request, timeout=None, metadata=None):
        self.calls.append(timeout)
        if len(self.calls) <= self.failures:
            raise _Refused(self.code)
        return "answer"


def test_a_move_with_its_number_is_tried_again_on_unavailable_and_one_without_is_not():
    with HzaiClient("127.0.0.1:1", timeout=30) as client:  # the channel never connects
        flaky = _Flaky(2)
        assert client._once_or_retried(flaky, None, None, None, True) == "answer"
        assert len(flaky.calls) == 3 and all(0 < t <= 30 for t in flaky.calls)
        assert flaky.calls == sorted(flaky.calls, reverse=True)  # one deadline for all the tries
        flaky = _Flaky(1)
        with pytest.raises(grpc.RpcError):
            client._once_or_retried(flaky, None, None, None, False)  # no move_number: once only
        assert len(flaky.calls) == 1
        flaky = _Flaky(1, grpc.StatusCode.INVALID_ARGUMENT)
        with pytest.raises(grpc.RpcError):
            client._once_or_retried(flaky, None, None, None, True)  # only UNAVAILABLE is tried again
        assert len(flaky.calls) == 1
        flaky = _Flaky(10)
        with pytest.raises(grpc.RpcError):
            client._once_or_retried(flaky, None, None, None, True)
        assert len(flaky.calls) == m.RETRY_ATTEMPTS
        flaky = _Flaky(10)
        with pytest.raises(grpc.RpcError):
            client._once_or_retried(flaky, None, 0.15, None, True)  # no try past the deadline
        assert len(flaky.calls) == 2


def test_the_asyncio_client_tries_a_numbered_move_again_too():
    class AsyncFlaky(_Flaky):
        async def __call__(self, request, timeout=None, metadata=None):
            return _Flaky.__call__(self, request, timeout, metadata)

    async def run():
        async with AsyncHzaiClient("127.0.0.1:1", timeout=30) as client:
            flaky = AsyncFlaky(2)
            assert await client._once_or_retried(flaky, None, None, None, True) == "answer"
            return len(flaky.calls)

    assert asyncio.run(run()) == 3


def test_one_long_lived_channel_is_served_by_both_workers_as_its_connections_age(tmp_path):
    """With connections that live 0.5 s, one channel making calls for a few seconds
    reaches both workers, and no call fails: the calls running when a connection ages
    finish on it, those sent as it closes go on the next connection."""
    server = ServerProcess("--processes", "2", "--data-dir", str(tmp_path), "--max-connection-age", "0.5",
                           "--max-connection-age-grace", "10", "--max-matches-per-client", "100")
    by_worker: Counter = Counter()
    errors: list[str] = []
    try:
        with HzaiClient(server.address, timeout=30) as client:
            created = client.create_match(bot_seats=[1], bot="random")
            token = m.seat_token(created, "hera")
            match_id = created.status.match_id
            request = m.suggest_request(client._position(RECORD, None, None), iterations=50, seed=1)
            started = time.monotonic()
            # Until both workers answered and 3 s went by; a kernel that put every new
            # connection on one worker for 60 s fails the test.
            while len(by_worker) < 2 or time.monotonic() - started < 3:
                assert time.monotonic() - started < 60, f"only worker(s) {sorted(by_worker)} answered"
                for method, message, metadata in (
                        (client.bots.SuggestMove, request, None),
                        (client.matches.GetView, m.match_pb2.GetViewRequest(match_id=match_id), m.auth(token))):
                    try:
                        _, call = method.with_call(message, timeout=30, metadata=metadata)
                        by_worker[dict(call.trailing_metadata())["hzai-worker"]] += 1
                    except grpc.RpcError as exc:
                        errors.append(f"{exc.code().name}: {exc.details()}")
    finally:
        server.stop(60)
    assert errors == []
    assert set(by_worker) == {"0", "1"} and sum(by_worker.values()) >= 20, by_worker
    codes = Counter(e.get("code") for e in server.logs if e.get("event") == "rpc")
    assert set(codes) == {"OK"}, codes
    print(f"calls answered by worker: {dict(by_worker)}")


def test_a_search_longer_than_the_connection_age_finishes_on_its_connection(tmp_path):
    """GOAWAY stops new calls on a connection, not the running ones: a 2-second search on
    a connection that ages after 0.3 s is answered in full (not cut, not run twice)."""
    server = ServerProcess("--data-dir", ":memory:", "--max-connection-age", "0.3", "--max-connection-age-grace", "30",
                           "--max-millis", "60000", "--max-iterations", "100000000")
    try:
        with HzaiClient(server.address, timeout=60) as client:
            client.list_games()  # connected: the age counts from here
            reply = client.suggest_move(RECORD, millis=2000, seed=2)
            assert reply.move.text and not reply.stopped_early and reply.millis >= 1900
    finally:
        server.stop(60)
    searches = [e for e in server.logs if e.get("event") == "rpc" and e.get("method") == "SuggestMove"]
    assert [e["code"] for e in searches] == ["OK"]  # one call, answered once


def test_the_node_client_tries_a_cut_search_again(node, tmp_path):
    """Each connection closes 0.5 s after it ages (0.3 s), before a 2-second search can
    end: every try is cut (UNAVAILABLE to the client), and the Node client's retry policy
    tries again, 5 times in all."""
    record = tmp_path / "deal.json"
    record.write_text(json.dumps(RECORD))
    server = ServerProcess("--data-dir", ":memory:", "--max-connection-age", "0.3", "--max-connection-age-grace", "0.5",
                           "--max-millis", "60000", "--max-iterations", "100000000")
    try:
        run = subprocess.run([node, str(REPO / "clients" / "node" / "suggest.js"), str(record), "--budget", "2000ms",
                              "--server", server.address], capture_output=True, text=True, timeout=120)
    finally:
        server.stop(60)
    assert run.returncode != 0 and "max connection age" in run.stderr + run.stdout, run.stderr[-500:]
    tries = [e["code"] for e in server.logs if e.get("event") == "rpc" and e.get("method") == "SuggestMove"]
    assert 2 <= len(tries) <= 5 and set(tries) <= {"CANCELLED", "UNAVAILABLE"}, tries
