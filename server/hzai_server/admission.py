"""Admission of searches to a fixed number of slots, with priorities and fair queues.

Every search a call runs first takes a slot:

    admission = Admission(slots=4)
    with admission.slot(priority_of("AnalyzeGame"), client=peer, stop=call_stop):
        ...  # the search

- Two priority classes: INTERACTIVE (a player waits: SuggestMove, BotPlayTurn, a
  single-position Analyze) and BATCH (Analyze batches, AnalyzeStream, AnalyzeGame): a
  request's own class when it names one, else its kind's default in DEFAULT_PRIORITY,
  the one table the handlers read. When every slot is busy, a request waits in its
  class's queue; a freed slot goes to the longest-waiting interactive request first and
  to batch work only when no interactive request waits. A running search is never
  interrupted.
- Fair across clients: within a class the queue takes the client keys in turn
  (round-robin), each client's requests in their order, so one client's hundred queued
  analyses do not hold back another client's one.
- Bounded: each class's queue holds at most `max_queued` requests, at most
  `max_queued_per_client` of them from one client; a request beyond that is refused at
  once with QueueFull (the server answers RESOURCE_EXHAUSTED with its message).
- A request whose call is cancelled or past its deadline while it waits (`stop`
  answers True, or `deadline` passes) leaves the queue and raises Abandoned; so does
  every waiting request when the admission is closed (the server is stopping).

Nothing here knows a game or gRPC: the server maps the errors to status codes.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

INTERACTIVE = "interactive"
BATCH = "batch"
PRIORITIES = (INTERACTIVE, BATCH)  # served in this order

# The class a search request gets when it names none (priority 0, PRIORITY_DEFAULT), by
# the kind of request: the handlers take their defaults from here and nowhere else, and
# docs/api.md ("Priorities") and bot.proto say the same. An Analyze of one position is a
# player looking at a position; a batch of positions is analysis work.
DEFAULT_PRIORITY = {
    "SuggestMove": INTERACTIVE,
    "BotPlayTurn": INTERACTIVE,
    "Analyze": INTERACTIVE,
    "AnalyzeBatch": BATCH,
    "AnalyzeStream": BATCH,
    "AnalyzeGame": BATCH,
}

POLL_SECONDS = 0.05  # how often a waiting request looks at its stop and deadline


def priority_of(kind: str) -> str:
    """The default priority class of a kind of search request (a key of DEFAULT_PRIORITY);
    ValueError for any other name, so a handler cannot fall back on a guess."""
    try:
        return DEFAULT_PRIORITY[kind]
    except KeyError:
        raise ValueError(f"no default priority for {kind!r}: one of {', '.join(DEFAULT_PRIORITY)}") from None


class AdmissionError(Exception):
    """A request that will not get a slot; the message says why."""


class QueueFull(AdmissionError):
    """The queue of the request's class, or the client's share of it, is full."""

    def __init__(self, message: str, priority: str, client: str):
        super().__init__(message)
        self.priority, self.client = priority, client


class Abandoned(AdmissionError):
    """The request left the queue before it got a slot (cancelled, deadline, closing)."""


@dataclass(eq=False)
class Ticket:
    """One request: waiting, then holding a slot until the block it was taken for ends."""

    priority: str
    client: str
    number: int  # arrival order over the admission's life
    admitted: bool = False
    waited: bool = False  # it queued before it got its slot
    event: threading.Event = field(default_factory=threading.Event, repr=False)


class _Queue:
    """The waiting requests of one class: per client in arrival order, clients in turn."""

    def __init__(self):
        self.by_client: OrderedDict[str, deque[Ticket]] = OrderedDict()
        self.turns: deque[str] = deque()  # clients with waiting requests, next first
        self.size = 0

    def count(self, client: str) -> int:
        return len(self.by_client.get(client, ()))

    def push(self, ticket: Ticket) -> None:
        if ticket.client not in self.by_client:
            self.by_client[ticket.client] = deque()
            self.turns.append(ticket.client)
        self.by_client[ticket.client].append(ticket)
        self.size += 1

    def pop(self) -> Ticket | None:
        if not self.turns:
            return None
        client = self.turns.popleft()
        mine = self.by_client[client]
        ticket = mine.popleft()
        if mine:
            self.turns.append(client)  # its next request waits for the other clients' turns
        else:
            del self.by_client[client]
        self.size -= 1
        return ticket

    def remove(self, ticket: Ticket) -> bool:
        mine = self.by_client.get(ticket.client)
        if mine is None or ticket not in mine:
            return False
        mine.remove(ticket)
        if not mine:
            del self.by_client[ticket.client]
            self.turns.remove(ticket.client)
        self.size -= 1
        return True


class Admission:
    """`slots` searches at a time; the rest wait as the module's docstring says."""

    def __init__(self, slots: int, max_queued: int = 64, max_queued_per_client: int = 16,
                 poll_seconds: float = POLL_SECONDS):
        for name, value in (("slots", slots), ("max_queued", max_queued),
                            ("max_queued_per_client", max_queued_per_client)):
            if not isinstance(value, int) or isinstance(value, bool) or value < (1 if name == "slots" else 0):
                raise ValueError(f"{name} must be a whole number ≥ {1 if name == 'slots' else 0}, not {value!r}")
        self.slots = slots
        self.max_queued = max_queued
        self.max_queued_per_client = max_queued_per_client
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._busy = 0
        self._queues = {p: _Queue() for p in PRIORITIES}
        self._numbers = itertools.count()
        self._closed = False

    # ----- what the metrics and the tests read -----------------------------------------
    @property
    def busy(self) -> int:
        with self._lock:
            return self._busy

    def queued(self, priority: str | None = None) -> int:
        with self._lock:
            return sum(q.size for p, q in self._queues.items() if priority in (None, p))

    # ----- taking and giving back a slot -----------------------------------------------
    @contextmanager
    def slot(self, priority: str, client: str = "", stop: Callable[[], bool] | None = None,
             deadline: float | None = None) -> Iterator[Ticket]:
        """Hold a slot for the block. `deadline` is a time.monotonic() value. Raises
        QueueFull at once when the request cannot even wait, Abandoned when it stops
        waiting (see the module docstring)."""
        ticket = self.acquire(priority, client, stop, deadline)
        try:
            yield ticket
        finally:
            self.release(ticket)

    def acquire(self, priority: str, client: str = "", stop: Callable[[], bool] | None = None,
                deadline: float | None = None) -> Ticket:
        if priority not in PRIORITIES:
            raise ValueError(f"priority must be one of {', '.join(PRIORITIES)}, not {priority!r}")
        client = str(client)
        with self._lock:
            if self._closed:
                raise Abandoned("the server is stopping")
            ticket = Ticket(priority, client, next(self._numbers))
            if self._busy < self.slots:  # a free slot means nobody waits: take it
                self._busy += 1
                ticket.admitted = True
                return ticket
            queue = self._queues[priority]
            if queue.size >= self.max_queued:
                raise QueueFull(f"all {self.slots} search slots are busy and the {priority} queue is full "
                                f"({queue.size} requests waiting); try again later", priority, client)
            if queue.count(client) >= self.max_queued_per_client:
                raise QueueFull(f"this client already has {queue.count(client)} {priority} requests waiting "
                                f"(at most {self.max_queued_per_client}); try again when one is done",
                                priority, client)
            ticket.waited = True
            queue.push(ticket)
        self._wait(ticket, stop, deadline)
        return ticket

    def release(self, ticket: Ticket) -> None:
        """Give the slot back: to the next waiting request, or free it."""
        with self._lock:
            if not ticket.admitted:
                return
            ticket.admitted = False
            self._hand_over()

    def close(self) -> None:
        """Refuse new requests and send every waiting one away (Abandoned)."""
        with self._lock:
            self._closed = True
            for queue in self._queues.values():
                while (ticket := queue.pop()) is not None:
                    ticket.event.set()  # not admitted: its waiter raises

    # ----- inside ----------------------------------------------------------------------
    def _hand_over(self) -> None:
        """A slot came free (the lock is held): the next waiting request gets it."""
        for priority in PRIORITIES:
            ticket = self._queues[priority].pop()
            if ticket is not None:
                ticket.admitted = True
                ticket.event.set()
                return
        self._busy -= 1

    def _wait(self, ticket: Ticket, stop, deadline) -> None:
        while True:
            if ticket.event.wait(self.poll_seconds):
                with self._lock:
                    if ticket.admitted:
                        return
                raise Abandoned("the server is stopping")
            why = None
            if stop is not None and stop():
                why = "the call ended while it waited for a search slot"
            elif deadline is not None and time.monotonic() >= deadline:
                why = "the deadline passed while the call waited for a search slot"
            if why is None:
                continue
            with self._lock:
                if self._queues[ticket.priority].remove(ticket):
                    raise Abandoned(why)
                if ticket.admitted:  # a slot came at the same moment: pass it on
                    ticket.admitted = False
                    self._hand_over()
            raise Abandoned(why)
