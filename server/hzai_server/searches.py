"""Running searches for calls: admission control, deadlines and cancellation.

- Admission goes through the priority scheduler (hzai_server.admission): a call over
  the limit waits in a bounded queue of its class (`--search-queue`; none by default)
  or is answered RESOURCE_EXHAUSTED at once, never an unbounded queue.
- A client deadline caps the budget's wall time (`time_remaining()`), leaving a margin
  for the answer to travel back, so the answer is never late.
- A cancelled or expired call stops its search: `add_callback` sets a stop event that the
  search polls between chunks; so does a server that is stopping (Lifecycle.stop_searches),
  and the search then answers with its best move so far.
- The search sees a seat's view only; the callers get it from the game
  (`game.records.view_to_decide`, `State.view`).
- Metrics (when the server keeps them): searches in flight and refusals for want of a
  slot here; each search's iterations and seconds through the call's CallStop
  (hzai_server.rpc, with the call's other state), which every search of a call is given
  (so a search on another thread counts too).
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace

import grpc

from hzai.core.bot import PlayResult
from hzai.search import Analysis, BotError, Limits

from hzai_server.admission import INTERACTIVE, Abandoned, Admission, QueueFull
from hzai_server.errors import ApiError, invalid
from hzai_server.rpc import CallStop

# Share of the time left to a call that a search may use, and the least kept back for
# building and sending the answer.
DEADLINE_SHARE = 0.8
DEADLINE_MARGIN_MS = 30
# The retry delay (google.rpc.RetryInfo) sent with a search refused for want of a slot
# or of room in its queue: about one search of the default budget.
SHED_RETRY_SECONDS = 1.0


@dataclass
class Budgeted:
    limits: Limits
    cut: bool  # the deadline made the budget smaller


def within_deadline(limits: Limits, context: grpc.ServicerContext | None) -> Budgeted:
    """The budget cut to what the client's deadline leaves; DEADLINE_EXCEEDED when
    nothing is left to search with."""
    remaining = context.time_remaining() if context is not None else None
    if remaining is None:
        return Budgeted(limits, False)
    allowed = int(remaining * 1000 * DEADLINE_SHARE) - DEADLINE_MARGIN_MS
    if allowed < 1:
        raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline leaves no time to search")
    if limits.millis is not None and limits.millis <= allowed:
        return Budgeted(limits, False)
    return Budgeted(replace(limits, millis=allowed), True)


class Searches:
    """The server's search slots, through the admission scheduler (hzai_server.admission):
    with every slot busy a search waits in its priority class's queue (interactive ones
    are served first, clients in turn) when `max_queued` leaves room, else it is
    answered RESOURCE_EXHAUSTED at once."""

    def __init__(self, max_searches: int, metrics=None, max_queued: int = 0, max_queued_per_client: int = 16):
        self.max_searches = max_searches
        self.metrics = metrics  # hzai_server.metrics.ServerMetrics, or None
        self.admission = Admission(max_searches, max_queued, max_queued_per_client)
        self._lock = threading.Lock()
        self.running = 0
        self.served: list[str] = []  # priority of each search admitted, in order (the last SERVED_KEPT)

    @contextmanager
    def admitted(self, priority: str = INTERACTIVE, client: str = "", stop: CallStop | None = None):
        """Hold a search slot for the block; `client` is the caller's key (hosting.client_of)."""
        deadline = None
        if stop is not None and stop.context is not None:
            remaining = stop.context.time_remaining()
            if remaining is not None:
                deadline = time.monotonic() + remaining
        start = time.perf_counter()
        try:
            ticket = self.admission.acquire(priority, client, stop, deadline)
        except QueueFull as exc:
            message = str(exc)
            if self.admission.max_queued == 0:
                message = (f"this server runs at most {self.max_searches} searches at once and all are busy; "
                           "retry later")
            raise ApiError(grpc.StatusCode.RESOURCE_EXHAUSTED, message, reason="search_slots",
                           retry_after=SHED_RETRY_SECONDS) from None
        except Abandoned as exc:
            code = grpc.StatusCode.DEADLINE_EXCEEDED if "deadline" in str(exc) else grpc.StatusCode.CANCELLED
            if "stopping" in str(exc):
                code = grpc.StatusCode.UNAVAILABLE
            raise ApiError(code, str(exc)) from None
        if self.metrics is not None and ticket.waited:
            self.metrics.waited(priority, time.perf_counter() - start)
        with self._lock:
            self.running += 1
            self.served.append(priority)
            del self.served[:-SERVED_KEPT]
        if self.metrics is not None:
            self.metrics.in_flight.inc()
        try:
            yield
        finally:
            if self.metrics is not None:
                self.metrics.in_flight.dec()
            with self._lock:
                self.running -= 1
            self.admission.release(ticket)

    def close(self) -> None:
        """Send every waiting search away (the server is stopping)."""
        self.admission.close()


SERVED_KEPT = 1000


def finished_within(finished: bool, limits: Limits, cut: bool) -> bool:
    """Whether the budget the caller asked for was spent in full: a search that ran by
    time on a budget the deadline cut (`cut`) spent the cut budget, not the one asked for."""
    return finished and not (cut and limits.iterations is None)


def searched(stop: CallStop, search):
    """`search()`'s answer (a PlayResult or an Analysis), counted in the call's metrics; a
    bot option the position refuses is INVALID_ARGUMENT on `bot`, a search stopped before
    it had a move DEADLINE_EXCEEDED."""
    start = time.perf_counter()
    try:
        answer = search()
    except BotError as exc:  # an option the position does not allow: the caller's to fix
        raise invalid("bot", str(exc)) from None
    except ValueError as exc:
        if stop():  # stopped before the search had a move to give
            raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move") from None
        raise exc
    stop.searched(answer.iterations, start)
    return answer


def decide(asked, limits: Limits, stop: CallStop, cut: bool = False) -> tuple[PlayResult, bool]:
    """The bot's answer (its move, and the move's action id where its search knew it) of
    a DecisionRequest (hzai_server.decision) under `limits` (its budget cut to the
    deadline), and whether its search was cut short (stopped, out of the deadline's or the
    server's time) instead of spending the budget asked for."""
    result = searched(stop, lambda: asked.bot.decide(asked.view, limits, asked.seed, stop=stop))
    return result, not finished_within(not result.stopped_early, limits, cut)


class ProgressSlot:
    """From a search thread to the thread sending a stream: only the latest progress
    report waits (a newer one replaces one not yet sent, so a slow reader never builds a
    backlog), and the final outcome, which makes a waiting report stale."""

    def __init__(self):
        self._ready = threading.Condition()
        self._latest = None
        self._outcome: tuple | None = None  # ("final", analysis) or ("error", exception)
        self.replaced = 0  # reports dropped for a newer one

    def progress(self, report) -> None:
        with self._ready:
            if self._latest is not None:
                self.replaced += 1
            self._latest = report
            self._ready.notify()

    def finish(self, kind: str, value) -> None:
        with self._ready:
            self._outcome = (kind, value)
            self._ready.notify()

    def take(self) -> tuple:
        """("progress", report), or the outcome once there is one; waits for either."""
        with self._ready:
            self._ready.wait_for(lambda: self._latest is not None or self._outcome is not None)
            if self._outcome is not None:
                self._latest = None
                return self._outcome
            report, self._latest = self._latest, None
            return "progress", report


def run_analysis(asked, limits: Limits, stop: CallStop, progress=None, every=None) -> Analysis:
    """The analysis of a DecisionRequest (hzai_server.decision) by its bot's own search
    (`Analyst.analyze`), under `limits` (its budget cut to the deadline)."""
    return searched(stop, lambda: asked.bot.analyze(asked.view, limits, asked.seed, stop, progress, every,
                                                    root_moves=asked.root_moves))


def clock_ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000
