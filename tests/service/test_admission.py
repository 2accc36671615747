"""The admission scheduler (hzai_server.admission) with a small slot count: who gets a
freed slot, in what order, what a full queue and an abandoned request answer. Threads
and events only; the tests wait for states (a request queued, a thread admitted) and
assert order and counts, never durations."""

from __future__ import annotations

import threading
import time

import pytest

from hzai_server.admission import (
    BATCH, INTERACTIVE, Abandoned, Admission, QueueFull, priority_of,
)

PATIENCE = 30.0  # seconds a test waits for a state before it fails (only ever a hang guard)


def wait_until(predicate, what: str) -> None:
    end = time.monotonic() + PATIENCE
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.002)


class Requests:
    """Threads that each take a slot, note their name in `order`, and leave."""

    def __init__(self, admission: Admission):
        self.admission = admission
        self.order: list[str] = []
        self.errors: dict[str, Exception] = {}
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    def start(self, name: str, priority: str, client: str = "", stop=None, deadline=None) -> None:
        before = self.admission.queued()

        def run() -> None:
            try:
                with self.admission.slot(priority, client, stop=stop, deadline=deadline):
                    with self.lock:
                        self.order.append(name)
            except Exception as exc:  # noqa: BLE001 - recorded for the test to assert
                self.errors[name] = exc

        thread = threading.Thread(target=run, name=name, daemon=True)
        self.threads.append(thread)
        thread.start()
        wait_until(lambda: self.admission.queued() == before + 1 or name in self.errors, f"{name} queued")

    def join(self) -> None:
        for thread in self.threads:
            thread.join(PATIENCE)
            assert not thread.is_alive()


def busy(admission: Admission, n: int = 1):
    """Hold n slots (the first come without waiting); returns the release function."""
    tickets = [admission.acquire(BATCH, "holder") for _ in range(n)]
    return lambda: [admission.release(t) for t in tickets]


def test_interactive_requests_are_served_before_queued_batch_work():
    admission = Admission(slots=1)
    release = busy(admission)
    requests = Requests(admission)
    requests.start("batch 1", BATCH, "analyst")
    requests.start("batch 2", BATCH, "analyst")
    requests.start("move", INTERACTIVE, "player")
    assert admission.queued(BATCH) == 2 and admission.queued(INTERACTIVE) == 1 and requests.order == []
    release()
    requests.join()
    assert requests.order == ["move", "batch 1", "batch 2"]
    assert admission.busy == 0 and admission.queued() == 0


def test_with_two_slots_busy_on_batch_work_the_interactive_call_is_next():
    admission = Admission(slots=2)
    gates = [threading.Event(), threading.Event()]
    inside: list[str] = []

    def long_batch(k: int) -> None:
        with admission.slot(BATCH, f"analyst {k}"):
            inside.append(f"batch {k}")
            gates[k].wait(PATIENCE)

    holders = [threading.Thread(target=long_batch, args=(k,), daemon=True) for k in (0, 1)]
    for thread in holders:
        thread.start()
    wait_until(lambda: len(inside) == 2, "both slots busy")
    requests = Requests(admission)
    requests.start("batch 2", BATCH, "analyst 0")
    requests.start("batch 3", BATCH, "analyst 1")
    requests.start("move", INTERACTIVE, "player")
    gates[1].set()  # one slot comes free
    wait_until(lambda: len(requests.order) >= 1, "one request admitted")
    assert requests.order[0] == "move"
    gates[0].set()
    requests.join()
    for thread in holders:
        thread.join(PATIENCE)
    assert requests.order == ["move", "batch 2", "batch 3"]


def test_clients_take_turns_within_a_class():
    admission = Admission(slots=1)
    release = busy(admission)
    requests = Requests(admission)
    for name, client in [("a1", "alice"), ("a2", "alice"), ("a3", "alice"), ("b1", "bob"), ("c1", "carol"),
                         ("b2", "bob")]:
        requests.start(name, BATCH, client)
    release()
    requests.join()
    assert requests.order == ["a1", "b1", "c1", "a2", "b2", "a3"]


def test_a_full_queue_is_refused_at_once_with_a_clear_message():
    admission = Admission(slots=1, max_queued=2, max_queued_per_client=5)
    release = busy(admission)
    requests = Requests(admission)
    requests.start("q1", BATCH, "alice")
    requests.start("q2", BATCH, "bob")
    with pytest.raises(QueueFull, match=r"all 1 search slots are busy and the batch queue is full \(2 requests"):
        admission.acquire(BATCH, "carol")
    requests.start("move", INTERACTIVE, "player")  # the interactive queue is its own
    assert admission.queued() == 3
    release()
    requests.join()
    assert requests.order == ["move", "q1", "q2"] and not requests.errors


def test_one_client_cannot_take_the_whole_queue():
    admission = Admission(slots=1, max_queued=10, max_queued_per_client=2)
    release = busy(admission)
    requests = Requests(admission)
    requests.start("a1", BATCH, "alice")
    requests.start("a2", BATCH, "alice")
    with pytest.raises(QueueFull, match="this client already has 2 batch requests waiting") as refused:
        admission.acquire(BATCH, "alice")
    assert (refused.value.priority, refused.value.client) == (BATCH, "alice")
    requests.start("b1", BATCH, "bob")
    release()
    requests.join()
    assert requests.order == ["a1", "b1", "a2"]


def test_a_cancelled_request_leaves_the_queue_and_never_runs():
    admission = Admission(slots=1, poll_seconds=0.005)
    release = busy(admission)
    cancelled = threading.Event()
    requests = Requests(admission)
    requests.start("gone", BATCH, "alice", stop=cancelled.is_set)
    requests.start("stays", BATCH, "bob")
    cancelled.set()
    wait_until(lambda: "gone" in requests.errors, "the cancelled request gave up")
    assert isinstance(requests.errors["gone"], Abandoned) and "call ended" in str(requests.errors["gone"])
    assert admission.queued() == 1
    release()
    requests.join()
    assert requests.order == ["stays"]


def test_a_request_past_its_deadline_leaves_the_queue():
    admission = Admission(slots=1, poll_seconds=0.005)
    release = busy(admission)
    with pytest.raises(Abandoned, match="deadline passed"):
        admission.acquire(INTERACTIVE, "player", deadline=time.monotonic())
    assert admission.queued() == 0
    release()
    assert admission.busy == 0


def test_the_slot_is_given_back_when_the_block_fails():
    admission = Admission(slots=1)
    with pytest.raises(RuntimeError):
        with admission.slot(BATCH, "alice"):
            assert admission.busy == 1
            raise RuntimeError("the search failed")
    assert admission.busy == 0
    with admission.slot(INTERACTIVE, "bob") as ticket:
        assert ticket.admitted and not ticket.waited


def test_closing_sends_the_waiting_requests_away():
    admission = Admission(slots=1)
    release = busy(admission)
    requests = Requests(admission)
    requests.start("w1", BATCH, "alice")
    requests.start("w2", INTERACTIVE, "bob")
    admission.close()
    requests.join()
    assert requests.order == [] and all(isinstance(e, Abandoned) for e in requests.errors.values())
    assert sorted(requests.errors) == ["w1", "w2"]
    with pytest.raises(Abandoned, match="stopping"):
        admission.acquire(BATCH, "carol")
    release()


def test_priorities_of_the_methods_and_bad_settings():
    assert priority_of("SuggestMove") == priority_of("BotPlayTurn") == priority_of("Analyze") == INTERACTIVE
    assert priority_of("AnalyzeGame") == priority_of("AnalyzeBatch") == priority_of("AnalyzeStream") == BATCH
    with pytest.raises(ValueError, match="no default priority for 'Play'"):
        priority_of("Play")
    with pytest.raises(ValueError, match="slots must be a whole number ≥ 1"):
        Admission(slots=0)
    with pytest.raises(ValueError, match="priority must be one of interactive, batch"):
        Admission(slots=1).acquire("urgent")
