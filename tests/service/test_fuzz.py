"""Seeded hostile requests of every type (benchmarks/fuzz_soak.py builds them): never
INTERNAL or UNKNOWN, never a dead server, never a traceback in the log; one log line per
call."""

from __future__ import annotations

from collections import Counter

import grpc

from benchmarks.fuzz_soak import FORBIDDEN, SERVER_FLAGS, Fuzzer, call, sample_record, serving, shared_match

from .conftest import ServerProcess

REQUESTS = 1500
FOREIGN_METHODS = ("Check", "Watch", "List", "ServerReflectionInfo")


def test_hostile_requests_never_get_internal_and_the_server_keeps_serving():
    server = ServerProcess(*SERVER_FLAGS)
    try:
        with grpc.insecure_channel(server.address) as channel:
            match_id, tokens = shared_match(channel)
            fuzzer = Fuzzer(20261201, sample_record(), match_id, tokens)
            codes: Counter = Counter()
            forbidden = []
            methods: Counter = Counter()
            for _ in range(REQUESTS):
                path, data, metadata = fuzzer.request()
                code = call(channel, path, data, metadata)
                codes[code] += 1
                methods[path.rsplit("/", 1)[1]] += 1
                if code in FORBIDDEN:
                    forbidden.append((path, code, data[:120]))
            assert not forbidden, forbidden[:5]
            assert serving(channel)
    finally:
        assert server.stop() == 0
    # Every request type was tried, and most answers are refusals (the requests are bad).
    assert len(methods) == len(Fuzzer.METHODS), methods
    assert codes["INVALID_ARGUMENT"] > REQUESTS // 3, codes
    assert not [e for e in server.logs if e.get("event") == "internal error"]
    rpc = [e for e in server.logs if e.get("event") == "rpc"]
    ours = [e for e in rpc if not e["method"].startswith("/")]  # health and reflection log refusals only, by path
    assert len(ours) == sum(n for m, n in methods.items() if m not in FOREIGN_METHODS) + 1  # and the shared match
    assert all(e["code"] not in FORBIDDEN for e in rpc)
