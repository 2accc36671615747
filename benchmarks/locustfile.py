"""Locust load scenarios for hzai-server (gRPC).

    locust -f benchmarks/locustfile.py --headless -u 2 -r 2 -t 30s --host 127.0.0.1:50051 SuggestSmall

`python -m benchmarks.load` (and `python -m benchmarks`) start their own server and run
these headless, bounded in users, spawn rate and time; point this file only at a server
on this machine.

The gRPC user follows locust's documented pattern: gevent is made to work with grpc
(`grpc.experimental.gevent.init_gevent()`, before any channel exists), each simulated
user opens its own channel (its own HTTP/2 connection), and a client interceptor fires
locust's `request` event for every call, with the gRPC status as the exception.

Scenarios (user classes; pass one or more names on the command line):
- SuggestSmall: SuggestMove at HZAI_BENCH_SMALL iterations (200)
- SuggestLarge: SuggestMove at HZAI_BENCH_LARGE iterations (5000)
- AnalyzeUser: Analyze at HZAI_BENCH_ANALYZE iterations (1000)
- MatchUser: a hosted match of Hera and Zeus, both seats bots at HZAI_BENCH_MATCH iterations (200):
  CreateMatch, BotPlayTurn until the game is over, DeleteMatch; the whole game is also
  reported as one request named "whole game (match @N)".
HZAI_BENCH_SAMPLES names a JSON file that receives every request (name, start, ms, status)
when locust quits, for exact percentiles.
"""

from __future__ import annotations

import grpc
import grpc.experimental.gevent as grpc_gevent

grpc_gevent.init_gevent()

import json  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402

from hzai_client import messages  # noqa: E402
from hzai_proto.v3 import bot_pb2_grpc, match_pb2, match_pb2_grpc  # noqa: E402
from locust import User, constant, events, task  # noqa: E402
from locust.exception import LocustError  # noqa: E402

CONCERN = None  # a shared piece, not a benchmark: `python -m benchmarks list` shows it apart

SMALL = int(os.environ.get("HZAI_BENCH_SMALL", "200"))
LARGE = int(os.environ.get("HZAI_BENCH_LARGE", "5000"))
ANALYZE = int(os.environ.get("HZAI_BENCH_ANALYZE", "1000"))
MATCH = int(os.environ.get("HZAI_BENCH_MATCH", "200"))
TIMEOUT = float(os.environ.get("HZAI_BENCH_TIMEOUT", "60"))
GAME = "hera_zeus"  # the game of the records (hzai_client.loadcheck.positions) and matches
MAX_BOT_CALLS = 1000  # a hosted game is far shorter; this bounds a misbehaving one
SAMPLES: list[list] = []
_RECORDS: list[str] = []


def records() -> list[str]:
    if not _RECORDS:
        from hzai_client.loadcheck import positions

        _RECORDS.extend(positions(8))
    return _RECORDS


def _status_name(exception) -> str:
    if exception is None:
        return "OK"
    if isinstance(exception, grpc.RpcError) and hasattr(exception, "code"):
        return exception.code().name
    return type(exception).__name__


@events.request.add_listener
def _keep_sample(request_type, name, response_time, exception=None, start_time=None, **_):
    SAMPLES.append([name, start_time, response_time, _status_name(exception)])


@events.quitting.add_listener
def _write_samples(environment, **_):
    path = os.environ.get("HZAI_BENCH_SAMPLES")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"columns": ["name", "start", "ms", "status"], "samples": SAMPLES}, f)


class LocustInterceptor(grpc.UnaryUnaryClientInterceptor):
    """Fires locust's request event for every unary call."""

    def __init__(self, environment, label: str = ""):
        self.env = environment
        self.label = label

    def intercept_unary_unary(self, continuation, call_details, request):
        start_time = time.time()
        start = time.perf_counter()
        exception = None
        length = 0
        call = continuation(call_details, request)
        try:
            length = call.result().ByteSize()
        except grpc.RpcError as exc:
            exception = exc
        self.env.events.request.fire(
            request_type="grpc",
            name=call_details.method.rsplit("/", 1)[-1] + self.label,
            response_time=(time.perf_counter() - start) * 1000,
            response_length=length,
            response=call,
            context=None,
            exception=exception,
            start_time=start_time,
        )
        return call


class GrpcUser(User):
    """A user with its own channel, intercepted so that locust sees every call."""

    abstract = True
    label = ""  # added to the method name in the statistics, e.g. " @200"
    wait_time = constant(float(os.environ.get("HZAI_BENCH_WAIT", "0")))

    def __init__(self, environment):
        super().__init__(environment)
        if not self.host:
            raise LocustError("give --host 127.0.0.1:PORT")
        host = self.host.split("://", 1)[-1]
        if not (host.startswith("127.") or host.startswith("localhost") or host.startswith("[::1]")):
            raise LocustError(f"these scenarios only load a server on this machine, not {self.host}")
        self._channel = grpc.intercept_channel(grpc.insecure_channel(host), LocustInterceptor(environment, self.label))
        self.bots = bot_pb2_grpc.BotServiceStub(self._channel)
        self.matches = match_pb2_grpc.MatchServiceStub(self._channel)
        self.calls = 0

    def on_stop(self):
        self._channel.close()

    def next_record(self) -> str:
        self.calls += 1
        pool = records()
        return pool[(self.calls + id(self)) % len(pool)]

    def position(self):
        """The next record as a Position of GAME."""
        return messages.position(self.next_record(), game=GAME)

    def call(self, method, request, metadata=None):
        """The reply, or None when the call failed (the failure is already reported)."""
        try:
            return method(request, timeout=TIMEOUT, metadata=metadata)
        except grpc.RpcError:
            return None


class SuggestSmall(GrpcUser):
    label = f" @{SMALL}"

    @task
    def suggest(self):
        self.call(self.bots.SuggestMove, messages.suggest_request(self.position(), iterations=SMALL, seed=self.calls))


class SuggestLarge(GrpcUser):
    label = f" @{LARGE}"

    @task
    def suggest(self):
        self.call(self.bots.SuggestMove, messages.suggest_request(self.position(), iterations=LARGE, seed=self.calls))


class AnalyzeUser(GrpcUser):
    label = f" @{ANALYZE}"

    @task
    def analyze(self):
        self.call(self.bots.Analyze, messages.analyze_request(self.position(), iterations=ANALYZE, seed=self.calls))


class MatchUser(GrpcUser):
    label = f" (match @{MATCH})"

    @task
    def play_match(self):
        self.calls += 1
        start_time, start = time.time(), time.perf_counter()
        created = self.call(self.matches.CreateMatch, messages.create_match_request(
            game=GAME, bot_seats=[0, 1], bot="ismcts", iterations=MATCH))
        if created is None:
            return
        match_id = created.status.match_id
        auth = messages.auth(created.spectator_token)  # no human seat: the spectator token runs it
        status, failure, turns = created.status, None, 0
        try:
            while not status.over and turns < MAX_BOT_CALLS:
                request = match_pb2.BotPlayTurnRequest(match_id=match_id, move_number=status.moves_played)
                reply = self.call(self.matches.BotPlayTurn, request, metadata=auth)
                turns += 1
                if reply is None:
                    failure = RuntimeError("a BotPlayTurn call failed")
                    break
                status = reply.status
            if not status.over and failure is None:
                failure = RuntimeError(f"the game did not end within {MAX_BOT_CALLS} bot turns")
        finally:
            self.call(self.matches.DeleteMatch, match_pb2.DeleteMatchRequest(match_id=match_id), metadata=auth)
        self.environment.events.request.fire(
            request_type="match", name=f"whole game (match @{MATCH})", response_time=(time.perf_counter() - start) * 1000,
            response_length=status.moves_played, response=None, context=None, exception=failure,
            start_time=start_time,
        )
