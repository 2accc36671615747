"""Per-client rate limits: a burst over the limit is refused with a retry delay, a call
after that delay is accepted, other clients and health checks are not affected. The
bucket's clock is a fake one: nothing here sleeps."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hzai_client import messages as m
from hzai_proto.v3 import bot_pb2_grpc
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig, parse_config
from hzai_server.ratelimit import RateLimiter

from .test_durable import retry_delay
from .test_errors import rpc_error

RECORD = {"format": "hzai-record/1", "seed": 5, "moves": []}


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_the_rate_and_tells_how_long_to_wait():
    clock = FakeClock()
    limiter = RateLimiter(rate=2.0, burst=3, clock=clock)
    assert [limiter.delay("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.delay("a") == pytest.approx(0.5)
    clock.now += 0.25
    assert limiter.delay("a") == pytest.approx(0.25)  # half a token there: half the wait left
    clock.now += 0.25
    assert limiter.delay("a") == 0.0
    assert limiter.delay("b") == 0.0  # a bucket of its own
    clock.now += 100
    assert [limiter.delay("a") for _ in range(4)][-1] > 0  # refills up to the burst, no more


def test_the_table_of_buckets_is_bounded():
    limiter = RateLimiter(rate=1.0, burst=1, clock=FakeClock(), max_clients=3)
    for name in ("a", "b", "c", "d"):
        limiter.delay(name)
    assert len(limiter._buckets) == 3 and "a" not in limiter._buckets


def test_bad_rate_settings_are_refused():
    assert parse_config([], env={}).rate_limit == 0  # off unless asked for
    config = parse_config(["--rate-limit", "5", "--rate-burst", "2"], env={})
    assert (config.rate_limit, config.rate_burst) == (5.0, 2)
    for flags in (["--rate-limit", "-1"], ["--rate-burst", "0"], ["--rate-limit", "nan"]):
        with pytest.raises(SystemExit):
            parse_config(flags, env={})
    with pytest.raises(ValueError):
        RateLimiter(rate=0, burst=1)


@pytest.fixture
def limited():
    clock = FakeClock()
    config = ServerConfig(address="127.0.0.1:0", data_dir=":memory:", rate_limit=4.0, rate_burst=2,
                          metrics_address="")
    server = HzaiServer(config, clock=clock)
    server.start()
    channel = grpc.insecure_channel(server.address)
    yield server, clock, channel
    channel.close()
    server.stop(0)


def suggest_as(channel, client: str):
    request = m.suggest_request(RECORD, iterations=10, bot="random")
    return bot_pb2_grpc.BotServiceStub(channel).SuggestMove(request, timeout=30, metadata=(("hzai-client", client),))


def test_a_burst_over_the_limit_is_refused_with_a_retry_delay_then_accepted(limited):
    server, clock, channel = limited
    suggest_as(channel, "alice")
    suggest_as(channel, "alice")
    refused = rpc_error(suggest_as, channel, "alice")
    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "rate limit of 4 requests/s" in refused.details() and "'alice'" in refused.details()
    delay = retry_delay(refused)
    assert delay == pytest.approx(0.25, abs=1e-6)  # one token at 4 a second
    assert suggest_as(channel, "bob").move.text  # another client is not held back
    clock.now += delay
    assert suggest_as(channel, "alice").move.text
    assert rpc_error(suggest_as, channel, "alice").code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert server.metrics.refusals.labels("rate_limit")._value.get() == 2


def test_streams_are_limited_and_health_checks_never(limited):
    server, clock, channel = limited
    suggest_as(channel, "carol")
    suggest_as(channel, "carol")
    request = m.analyze_request(RECORD, iterations=50)
    stream = bot_pb2_grpc.BotServiceStub(channel).AnalyzeStream(request, timeout=30,
                                                                metadata=(("hzai-client", "carol"),))
    with pytest.raises(grpc.RpcError) as caught:
        list(stream)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    health = health_pb2_grpc.HealthStub(channel)
    for _ in range(10):
        reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=30,
                             metadata=(("hzai-client", "carol"),))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    assert not server.lifecycle.active  # the refused calls left the lifecycle's count


def test_without_metadata_the_peer_host_is_the_client(limited):
    _, _, channel = limited
    stub = bot_pb2_grpc.BotServiceStub(channel)
    request = m.suggest_request(RECORD, iterations=10, bot="random")
    stub.SuggestMove(request, timeout=30)
    stub.SuggestMove(request, timeout=30)
    refused = rpc_error(stub.SuggestMove, request, timeout=30)
    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "'127.0.0.1'" in refused.details()
