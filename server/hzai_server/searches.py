"""Running searches for calls: admission control, deadlines and cancellation.

- Admission is an explicit semaphore taken without waiting: a call over the limit is
  answered RESOURCE_EXHAUSTED at once instead of joining an unbounded queue.
- A client deadline caps the budget's wall time (`time_remaining()`), leaving a margin
  for the answer to travel back, so the answer is never late.
- A cancelled or expired call stops its search: `add_callback` sets a stop event that the
  search polls between chunks.
- The search sees a player's view only; the callers build it with `view_of`.
"""

from __future__ import annotations

import inspect
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace

import grpc

from hzai.belief import View
from hzai.rules import Move, parse_move
from hzai.search import Analysis, BotError, Limits, make_bot

from hzai_server.errors import ApiError, invalid

DEFAULT_BOT = "ismcts"
# Share of the time left to a call that a search may use, and the least kept back for
# building and sending the answer.
DEADLINE_SHARE = 0.8
DEADLINE_MARGIN_MS = 30


def analyze_function():
    """hzai.search.analyze, or None where this build has no analysing search."""
    try:
        from hzai.search import analyze  # type: ignore[attr-defined]
    except ImportError:
        return None
    return analyze


class CallStop:
    """Set when the call ends early (cancelled, deadline passed, server stopping)."""

    def __init__(self, context: grpc.ServicerContext | None):
        self.event = threading.Event()
        if context is not None and not context.add_callback(self.event.set):
            self.event.set()  # the call has already ended

    def __call__(self) -> bool:
        return self.event.is_set()


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
    def __init__(self, max_searches: int):
        self.max_searches = max_searches
        self._slots = threading.BoundedSemaphore(max_searches)
        self._lock = threading.Lock()
        self.running = 0

    @contextmanager
    def admitted(self):
        if not self._slots.acquire(blocking=False):
            raise ApiError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this server runs at most {self.max_searches} searches at once and all are busy; retry later",
            )
        with self._lock:
            self.running += 1
        try:
            yield
        finally:
            with self._lock:
                self.running -= 1
            self._slots.release()


def make_checked_bot(spec: str, field: str = "bot"):
    try:
        return make_bot(spec or DEFAULT_BOT)
    except BotError as exc:
        raise invalid(field, str(exc)) from None


def _accepts(function, name: str) -> bool:
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def decide(bot, view: View, limits: Limits, seed: int, stop: CallStop, deck) -> tuple[Move, bool]:
    """The bot's move and whether a stop cut its search short."""
    if _accepts(bot.decide, "should_stop"):
        move = bot.decide(view, limits, seed, should_stop=stop)
        return move, stop()
    analyze = analyze_function()
    if bot.name == "ismcts" and hasattr(bot, "exploration") and analyze is not None:
        # The ISMCTS bot's move is its analysis's best move; through analyze the search
        # can be stopped between chunks when the call ends.
        analysis = analyze(view, limits, seed, should_stop=stop, exploration=bot.exploration,
                           playout=getattr(bot, "playout", "random"))
        if not analysis.best:
            raise ApiError(grpc.StatusCode.DEADLINE_EXCEEDED, "the search was stopped before it found a move")
        return parse_move(analysis.best, deck), not analysis.finished
    # Other bots cannot be stopped; the deadline already capped their wall time.
    return bot.decide(view, limits, seed), False


def run_analysis(view: View, limits: Limits, seed: int, stop: CallStop, progress=None, every=None) -> Analysis:
    analyze = analyze_function()
    if analyze is None:
        raise ApiError(grpc.StatusCode.UNIMPLEMENTED, "this server's build has no analysing search (hzai.search.analyze)")
    kwargs = {"should_stop": stop}
    if progress is not None:
        kwargs.update(progress=progress, every=every)
    return analyze(view, limits, seed, **kwargs)


def clock_ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000
