"""Per-client rate limits: a token bucket per client, with a retry hint when it is empty.

A bucket holds at most `burst` tokens and gains `rate` a second; a call takes one. A call
that finds less than one token is refused with RESOURCE_EXHAUSTED and a RetryInfo whose
delay is the time until the next token is there. The client is the one the match quotas
count against (hosting.client_of: the `hzai-client` metadata, else the peer's host).

Only the gRPC API calls of our services pass through here (hzai_server.rpc's wrapper):
health checks, reflection and the metrics endpoint are never limited. The table of
buckets is bounded (MAX_CLIENTS): past it the least recently seen client's bucket is
dropped, which at worst gives that client a full bucket again.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

import grpc

from hzai_server.errors import ApiError, quoted
from hzai_server.hosting import client_of

MAX_CLIENTS = 10_000


class TokenBucket:
    def __init__(self, rate: float, burst: int, now: float):
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> float:
        """0 when a token was taken; else the seconds until one is there (none taken)."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    """Buckets by client; `clock` (seconds, monotonic) can be a fake one in tests."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic, max_clients: int = MAX_CLIENTS):
        if rate <= 0 or burst < 1:
            raise ValueError(f"a rate limit needs rate > 0 and burst ≥ 1, not {rate} and {burst}")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._lock = threading.Lock()

    def delay(self, client: str) -> float:
        """Take a token for `client`: 0, or the seconds to wait when there is none."""
        with self._lock:
            now = self.clock()
            bucket = self._buckets.get(client)
            if bucket is None:
                bucket = self._buckets[client] = TokenBucket(self.rate, self.burst, now)
                if len(self._buckets) > self.max_clients:
                    self._buckets.popitem(last=False)
            else:
                self._buckets.move_to_end(client)
            return bucket.take(now)

    def admit(self, context) -> None:
        """Let the call through, or refuse it with RESOURCE_EXHAUSTED and a retry hint."""
        client = client_of(context)
        wait = self.delay(client)
        if wait > 0:
            raise ApiError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"client {quoted(client)} is over this server's rate limit of {self.rate:g} requests/s "
                f"(bursts of {self.burst}); retry in {wait:.3f} s",
                retry_after=wait, reason="rate_limit")
