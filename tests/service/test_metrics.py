"""The Prometheus endpoint: every series docs/api.md documents is served, with counts
that match the calls made."""

from __future__ import annotations

import re
import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from hzai_client import HzaiClient
from hzai_proto.v3 import match_pb2
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig, parse_config
from hzai_server.metrics import SERIES

from .conftest import REPO, ServerProcess
from .test_errors import rpc_error

RECORD = {"format": "hzai-record/1", "seed": 11, "moves": []}
SUFFIXES = ("_bucket", "_count", "_sum", "_created")  # a counter keeps its _total


def scrape(address: str) -> dict[tuple[str, tuple], float]:
    """(sample name, sorted labels) -> value, as the endpoint serves them."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def documented_series() -> dict[str, str]:
    """name -> type from the table in docs/api.md's "Metrics" section."""
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `(hzai_\w+)` \| (\w+) \|", section, flags=re.MULTILINE))


def sample_families(samples) -> set[str]:
    names = set()
    for name, _ in samples:
        for suffix in SUFFIXES:
            if name.endswith(suffix):
                name = name[: -len(suffix)]
                break
        names.add(name)
    return names


@pytest.fixture
def metered():
    config = ServerConfig(address="127.0.0.1:0", data_dir=":memory:", max_searches=1, max_matches_per_client=1,
                          default_iterations=100, metrics_address="127.0.0.1:0")
    server = HzaiServer(config)
    server.start()
    yield server
    server.stop(0)


def test_the_doc_table_and_the_code_list_the_same_series():
    assert documented_series() == SERIES


def test_every_documented_series_is_served_with_counts_that_match_the_calls(metered):
    with HzaiClient(metered.address, timeout=30) as client:
        for seed in range(3):
            client.suggest_move(RECORD, iterations=200, seed=seed)
        client.analyze(RECORD, iterations=150, seed=1)
        bad = rpc_error(client.suggest_move, {"format": "hzai-record/1", "seed": 1, "moves": ["fly away"]})
        assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT
        client.create_match(bot="random")
        over_cap = rpc_error(client.create_match, bot="random")
        assert over_cap.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        with metered.searches.admitted():  # the only slot is taken: the next search is refused
            busy = rpc_error(client.suggest_move, RECORD, iterations=100)
        assert busy.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert client.health() == "SERVING"  # not ours: neither counted nor limited

    samples = scrape(metered.metrics_address)
    assert set(SERIES) <= sample_families(samples)
    assert set(documented_series()) <= sample_families(samples)

    count = "hzai_rpc_seconds_count"
    assert value(samples, count, method="SuggestMove", code="OK") == 3
    assert value(samples, count, method="SuggestMove", code="INVALID_ARGUMENT") == 1
    assert value(samples, count, method="SuggestMove", code="RESOURCE_EXHAUSTED") == 1
    assert value(samples, count, method="Analyze", code="OK") == 1
    assert value(samples, count, method="CreateMatch", code="OK") == 1
    assert value(samples, count, method="CreateMatch", code="RESOURCE_EXHAUSTED") == 1
    assert not any(name == count and dict(labels).get("method") == "Check" for name, labels in samples)
    # Every call falls into the histogram's last bucket.
    assert value(samples, "hzai_rpc_seconds_bucket", method="SuggestMove", code="OK", le="+Inf") == 3

    assert value(samples, "hzai_refusals_total", reason="search_slots") == 1
    assert value(samples, "hzai_refusals_total", reason="match_cap") == 1
    assert value(samples, "hzai_search_iterations_total") == 3 * 200 + 150
    assert value(samples, "hzai_search_seconds_total") > 0
    assert value(samples, "hzai_searches_in_flight") == 0
    assert value(samples, "hzai_search_slots") == 1
    assert value(samples, "hzai_live_matches") == 1
    assert value(samples, "hzai_store_seconds_count", operation="create") == 1
    assert value(samples, "hzai_store_seconds_count", operation="count_live") >= 2  # the caps, twice


def test_a_search_in_flight_is_counted_while_it_holds_its_slot(metered):
    with metered.searches.admitted():
        assert value(scrape(metered.metrics_address), "hzai_searches_in_flight") == 1
    assert value(scrape(metered.metrics_address), "hzai_searches_in_flight") == 0


def test_two_servers_in_one_process_keep_their_own_counts(metered):
    other = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", metrics_address="127.0.0.1:0"))
    other.start()
    try:
        with HzaiClient(other.address, timeout=30) as client:
            client.suggest_move(RECORD, iterations=50, bot="random")
        assert value(scrape(other.metrics_address), "hzai_rpc_seconds_count", method="SuggestMove", code="OK") == 1
        assert value(scrape(metered.metrics_address), "hzai_rpc_seconds_count", method="SuggestMove", code="OK") == 0
    finally:
        other.stop(0)


def test_hzai_server_serves_metrics_on_the_flag_and_logs_where():
    server = ServerProcess("--metrics-address", "127.0.0.1:0")
    try:
        listening = next(e for e in server.logs if e.get("event") == "listening")
        with HzaiClient(server.address, timeout=30) as client:
            created = client.create_match(bot="random")
            client.matches.DeleteMatch(match_pb2.DeleteMatchRequest(match_id=created.status.match_id), timeout=30,
                                       metadata=(("authorization", f"Bearer {created.seats[0].token}"),))
        samples = scrape(listening["metrics"])
        assert value(samples, "hzai_rpc_seconds_count", method="CreateMatch", code="OK") == 1
        assert value(samples, "hzai_store_seconds_count", operation="delete") == 1
        assert value(samples, "hzai_live_matches") == 0
    finally:
        assert server.stop() == 0


def test_the_metrics_address_is_checked():
    assert parse_config([], env={}).metrics_address == ""  # off unless asked for
    assert parse_config(["--metrics-address", "127.0.0.1:9464"], env={}).metrics_address == "127.0.0.1:9464"
    assert parse_config([], env={"HZAI_METRICS_ADDRESS": "127.0.0.1:0"}).metrics_address == "127.0.0.1:0"
    with pytest.raises(SystemExit):
        parse_config(["--metrics-address", "9464"], env={})
