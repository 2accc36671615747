"""AnalyzeGame, Analyze batches, chosen root moves and search priorities over gRPC.

The servers here run in this process (HzaiServer), so that a test can read the order in
which the admission scheduler handed out its slots (`Searches.served`) and hold a slot
itself; every assertion is about results, counts and order, never about time."""

from __future__ import annotations

import copy
import json
import threading
import time
from pathlib import Path

import grpc
import pytest

from hzai.core import Limits, make_game
from hzai.search.review import MIN_VISITS, mark_of, played_budget, played_seed
from hzai.rng import SplitMix64
from hzai_client import AsyncHzaiClient, HzaiClient
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .conftest import played_record
from .matchkit import create, play_out

GAME = make_game("hera_zeus")
SETUP = "setup Amazon Cyclops Hydra"  # a move every game reads, legal only before the setups are done


def rpc_error(function, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        result = function(*args, **kwargs)
        if hasattr(result, "__next__"):
            list(result)
    return caught.value


def start(**settings) -> HzaiServer:
    config = ServerConfig(**{"address": "127.0.0.1:0", "data_dir": ":memory:", "max_searches": 2,
                             "max_matches_per_client": 1000, **settings})
    server = HzaiServer(config)
    server.start()
    return server


@pytest.fixture(scope="module")
def served():
    server = start()
    yield server
    server.stop(0)


@pytest.fixture
def client(served):
    with HzaiClient(served.address, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def game_record():
    return played_record(12, 10).to_json()


def prefix(record: dict, upto: int) -> dict:
    return {**record, "moves": record["moves"][:upto]}


def legal_texts(record: dict) -> list[str]:
    state = GAME.records.replay(GAME.records.read(record))
    return [GAME.move_text(m) for m in state.legal_moves()]


def decisions(replies) -> list:
    return [r.decision for r in replies if r.WhichOneof("item") == "decision"]


def summary_of(replies):
    last = replies[-1]
    assert last.WhichOneof("item") == "summary"
    return last.summary


def table(analysis) -> list[tuple]:
    return [(m.move.text, m.visits, m.value) for m in analysis.moves]


# ----- AnalyzeGame ---------------------------------------------------------------------
def test_analyze_game_equals_analyze_on_each_prefix_with_the_seed_rule(client, game_record):
    replies = list(client.analyze_game(game_record, iterations=150, seed=40))
    rows = decisions(replies)
    state = GAME.records.replay(GAME.records.read(prefix(game_record, 0)))
    expected = []
    for index, text in enumerate(game_record["moves"]):
        if state.current_seat is not None:
            expected.append(index)
        state.apply(GAME.parse_move(text))
    assert [r.index for r in rows] == expected and len(rows) == 10
    assert summary_of(replies).complete and summary_of(replies).decisions == len(rows) == summary_of(replies).total
    for row in rows:
        alone = client.analyze(prefix(game_record, row.index), iterations=150, seed=40 + row.index)
        assert row.seed == 40 + row.index
        assert table(row.analysis) == table(alone)
        assert row.best.text == alone.best.text and row.best_value == alone.value
        assert row.played.text == game_record["moves"][row.index]
        assert row.seat_name == alone.perspective_name and row.seat == alone.perspective
        played = next((m for m in alone.moves if m.move.text == row.played.text), None)
        if row.played.text != row.best.text and (played is None or played.visits < MIN_VISITS):
            # searched too little for a value: the played move's own search, an Analyze allowing it alone
            budget = played_budget(Limits(iterations=150), alone.moves[0].visits).iterations
            own = client.analyze(prefix(game_record, row.index), iterations=budget,
                                 seed=played_seed(40 + row.index), allow=[row.played.text])
            [played] = own.moves
        assert row.played_value == played.value and row.played_visits == played.visits
        assert played.visits >= MIN_VISITS or row.played.text == row.best.text
        assert (row.played_ci_low, row.played_ci_high) == (played.ci_low, played.ci_high)
        assert row.loss == pytest.approx(max(0.0, alone.value - played.value))
        assert row.mark == mark_of(row.loss, (played.ci_low, played.ci_high), (row.best_ci_low, row.best_ci_high),
                                   played.visits, alone.moves[0].visits)
        assert [m.text for m in row.pv] == [m.text for m in alone.moves[0].pv]


def test_analyze_game_of_one_seat_and_with_chosen_root_moves(client, game_record):
    rows = decisions(client.analyze_game(game_record, iterations=100, seed=1, seats=["zeus"]))
    assert rows and {r.seat_name for r in rows} == {"zeus"}
    target = rows[-1].index
    allowed = legal_texts(prefix(game_record, target))[:2]
    chosen = decisions(client.analyze_game(game_record, iterations=100, seed=1, seats=[1],
                                           root_moves={target: {"allow": allowed}}))
    row = next(r for r in chosen if r.index == target)
    assert {m.move.text for m in row.analysis.moves} <= set(allowed) and row.best.text in allowed
    assert all(m.visits > 0 for m in row.analysis.moves)
    others = [(r.index, table(r.analysis)) for r in chosen if r.index != target]
    assert others == [(r.index, table(r.analysis)) for r in rows if r.index != target]  # the others unchanged


def test_analyze_game_refuses_bad_requests_naming_what_is_wrong(client, game_record):
    not_mine = rpc_error(client.analyze_game, game_record, iterations=100, seats=["zeus"],
                         root_moves={0: {"allow": ["draw"]}})  # move 0 is hera's setup
    assert not_mine.code() == grpc.StatusCode.INVALID_ARGUMENT and "root_moves[0]" in not_mine.details()
    unknown = rpc_error(client.analyze_game, game_record, iterations=100, root_moves={0: {"avoid": ["fly away"]}})
    assert unknown.code() == grpc.StatusCode.INVALID_ARGUMENT and "'fly away'" in unknown.details()
    illegal = rpc_error(client.analyze_game, game_record, iterations=100, root_moves={0: {"allow": ["draw"]}})
    assert illegal.code() == grpc.StatusCode.INVALID_ARGUMENT and "'draw' is not legal" in illegal.details()
    broken = {**game_record, "moves": game_record["moves"][:3] + ["fly away"]}
    bad_move = rpc_error(client.analyze_game, broken, iterations=100)
    assert bad_move.code() == grpc.StatusCode.INVALID_ARGUMENT and "moves[3]" in bad_move.details()
    assert "move 3 'fly away': " in bad_move.details() and bad_move.details().count("fly away") == 1
    seat = rpc_error(client.analyze_game, game_record, iterations=100, seats=[5])
    assert seat.code() == grpc.StatusCode.INVALID_ARGUMENT and "seats[0]" in seat.details()


def test_the_work_of_one_request_is_capped_before_any_search(game_record):
    server = start(max_analysis_work=2000)
    try:
        with HzaiClient(server.address, timeout=60) as c:
            # a decision counts twice: its analysis and, where it gave the played move too
            # few visits, the played move's own search of up to the budget
            too_much = rpc_error(c.analyze_game, game_record, iterations=200)
            assert too_much.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "10 decisions x 200 iterations x 2 searches at most = 4000" in too_much.details()
            assert "--max-analysis-work of 2000" in too_much.details()
            batch = rpc_error(c.analyze_batch, [game_record] * 11, iterations=200)
            assert batch.code() == grpc.StatusCode.INVALID_ARGUMENT and "11 positions" in batch.details()
            assert len(decisions(c.analyze_game(game_record, iterations=100))) == 10  # exactly at the cap
        assert 1000 <= server.metrics.iterations._value.get() <= 2000
    finally:
        server.stop(0)


def test_a_cancelled_review_keeps_what_was_sent(client, game_record):
    full = decisions(client.analyze_game(game_record, iterations=150, seed=3))
    stream = client.analyze_game(game_record, iterations=150, seed=3)
    kept = [next(stream).decision, next(stream).decision]
    stream.close()  # cancels the call
    assert [(r.index, table(r.analysis)) for r in kept] == [(r.index, table(r.analysis)) for r in full[:2]]


def test_a_deadline_ends_the_review_with_what_was_done(client):
    record = played_record(5, 40).to_json()
    full_budget = 20_000  # far more than the deadline leaves for 40 decisions (and within the work cap)
    replies = list(client.analyze_game(record, iterations=full_budget, seed=2, timeout=2.0))
    done = summary_of(replies)
    rows = decisions(replies)
    assert not done.complete and "deadline" in done.stopped
    assert done.decisions == len(rows) < done.total
    for row in rows:  # each row sent is a whole analysis, equal to Analyze of its prefix
        assert row.analysis.finished and row.analysis.iterations == full_budget


def test_the_belief_summary_at_each_decision(client, game_record):
    rows = decisions(client.analyze_game(game_record, iterations=100, seed=1, seats=[0], belief=True))
    assert rows
    for row in rows:
        belief = json.loads(row.belief_json)
        assert set(belief["groups"]) >= {"deck", "hand", "field"}
        assert sum(belief["groups"].values()) == pytest.approx(1.0)
    assert not decisions(client.analyze_game(game_record, iterations=100, seats=[0]))[0].belief_json


# ----- no peeking by match id ----------------------------------------------------------
def test_analysis_by_match_id_sees_only_the_callers_seat(client):
    seats = create(client, bot="random", bot_seats=["zeus"])
    rng = SplitMix64(4)
    status = client.get_view(seats.id, token=seats["hera"]).status
    while status.moves_played < 12 and not status.over:
        if status.to_move == 0:
            moves = client.legal_moves(seats.id, token=seats["hera"])
            status = client.play_move(seats.id, moves[rng.below(len(moves))].text, token=seats["hera"],
                                      move_number=status.moves_played).status
        else:
            status = client.bot_play_turn(seats.id, token=seats["hera"]).status
    history = client.get_view(seats.id, token=seats["hera"], with_history=True).history
    mine = [h.index for h in history if h.HasField("seat") and h.seat == 0]
    rows = decisions(client.analyze_game(match_id=seats.id, token=seats["hera"], iterations=100, seed=9))
    assert [r.index for r in rows] == mine and {r.seat for r in rows} == {0}
    seen = {h.index: h.move.text for h in history}
    assert all(r.played.text == seen[r.index] for r in rows)  # its own moves, as it saw them
    # Reviewed from hera's side, the rows are what hera's views give: the same as a review of
    # any record hera cannot tell apart, here the match's own record seen through hera's views.
    for row in rows:
        assert row.analysis.perspective == 0
    other = rpc_error(client.analyze_game, match_id=seats.id, token=seats["hera"], iterations=100, seats=[1])
    assert other.code() == grpc.StatusCode.PERMISSION_DENIED and "hera" in other.details()
    spectator = rpc_error(client.analyze_game, match_id=seats.id, token=seats.spectator, iterations=100)
    assert spectator.code() == grpc.StatusCode.PERMISSION_DENIED
    nobody = rpc_error(client.analyze_game, match_id=seats.id, iterations=100)
    assert nobody.code() == grpc.StatusCode.UNAUTHENTICATED


HANDMADE = json.loads((Path(__file__).resolve().parents[1] / "data" / "handmade_game.json").read_text())


def test_hera_rows_through_the_service_do_not_depend_on_zeus_cards_she_cannot_see(client):
    """Two deals that differ only in one card of Zeus's hand swapped with one of his deck:
    before Hera spies on that hand (move 4) her rows are the same, moves, principal
    variations and belief included; Zeus, who holds the card, gets different rows."""
    other = copy.deepcopy(HANDMADE)
    zeus = other["setup"]["zeus"]
    k, j = zeus["hand"].index("Medusa"), zeus["deck"].index("Amazon")
    zeus["hand"][k], zeus["deck"][j] = "Amazon", "Medusa"
    assert HANDMADE["moves"][4] == "pythia spy"

    def rows(data, seat):
        record = {**data, "moves": data["moves"][:4]}
        return [(r.index, r.played.text, r.best.text, [m.text for m in r.pv], r.belief_json, table(r.analysis))
                for r in decisions(client.analyze_game(record, iterations=150, seed=3, seats=[seat], belief=True))]

    assert len(rows(HANDMADE, 0)) == 3 and rows(HANDMADE, 0) == rows(other, 0)
    assert rows(HANDMADE, 1) != rows(other, 1)


def test_a_match_reviewed_by_a_seat_token_equals_that_seats_review_of_the_record(client):
    seats = create(client, bot="random", bot_seats=["zeus"])
    status = play_out(client, seats, SplitMix64(8))
    record = json.loads(status.record_json)
    by_match = decisions(client.analyze_game(match_id=seats.id, token=seats["hera"], iterations=60, seed=2))
    by_record = decisions(client.analyze_game(record, iterations=60, seed=2, seats=[0]))
    assert by_match and [(r.index, table(r.analysis)) for r in by_match] == \
        [(r.index, table(r.analysis)) for r in by_record]


# ----- chosen moves on Analyze ---------------------------------------------------------
def test_allow_restricts_the_root_and_avoid_removes(client, game_record):
    record = prefix(game_record, 6)
    legal = legal_texts(record)
    allowed = legal[:3]
    only = client.analyze(record, iterations=300, seed=1, allow=allowed)
    assert {m.move.text for m in only.moves} == set(allowed) and only.best.text in allowed
    assert all(m.visits > 0 for m in only.moves)
    free = client.analyze(record, iterations=300, seed=1)
    without = client.analyze(record, iterations=300, seed=1, avoid=[free.best.text])
    assert free.best.text not in {m.move.text for m in without.moves} and without.best.text != free.best.text
    for kind, moves, words in (("allow", ["fly away"], "'fly away'"), ("avoid", [SETUP], f"'{SETUP}' is not legal")):
        error = rpc_error(client.analyze, record, iterations=100, **{kind: moves})
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and words in error.details()
        assert error.details().startswith(f"{kind}_moves: ")


# ----- batches -------------------------------------------------------------------------
def test_a_batch_answers_every_good_position_and_names_the_bad_one(client, game_record):
    good = [prefix(game_record, 4), {"record": prefix(game_record, 6), "allow": legal_texts(prefix(game_record, 6))[:2]},
            prefix(game_record, 9)]
    broken = {**game_record, "moves": ["fly away"]}
    results = client.analyze_batch([good[0], broken, good[1], good[2], {"record": prefix(game_record, 4),
                                                                       "avoid": [SETUP]}],
                                   iterations=150, seed=8)
    assert [r.index for r in results] == [0, 1, 2, 3, 4]
    assert [r.code for r in results] == [0, 3, 0, 0, 3]
    assert results[1].error.startswith("positions[1].position.record_json.moves[0]") and "fly away" in results[1].error
    assert results[4].error.startswith("positions[4].avoid_moves") and f"'{SETUP}'" in results[4].error
    assert not results[1].HasField("analysis")
    assert table(results[0].analysis) == table(client.analyze(good[0], iterations=150, seed=8))
    assert {m.move.text for m in results[2].analysis.moves} <= set(good[1]["allow"])
    assert table(results[3].analysis) == table(client.analyze(good[2], iterations=150, seed=8))


def test_a_batch_gives_its_positions_in_positions_only(client, game_record):
    from hzai_client import messages as m

    request = m.batch_request([game_record], iterations=100)
    request.position.CopyFrom(m.position(game_record))
    error = rpc_error(client.bots.Analyze, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("positions: ")


def test_the_asyncio_client_reviews_a_game_and_answers_a_batch(served, game_record):
    import asyncio

    async def run():
        async with AsyncHzaiClient(served.address, timeout=60) as c:
            rows = [r.decision async for r in c.analyze_game(game_record, iterations=100, seed=4)
                    if r.WhichOneof("item") == "decision"]
            zeus = [r.decision.seat_name async for r in c.analyze_game(game_record, iterations=50, seats=["zeus"])
                    if r.WhichOneof("item") == "decision"]
            assert zeus and set(zeus) == {"zeus"}
            batch = await c.analyze_batch([prefix(game_record, 3)], iterations=100, seed=5)
            one = await c.analyze(prefix(game_record, 3), iterations=100, seed=5,
                                  allow=legal_texts(prefix(game_record, 3))[:1])
            return rows, batch, one

    rows, batch, one = asyncio.run(run())
    with HzaiClient(served.address, timeout=60) as c:
        assert [table(r.analysis) for r in rows] == [table(r.analysis) for r in
                                                     decisions(c.analyze_game(game_record, iterations=100, seed=4))]
    assert batch[0].code == 0 and len(one.moves) == 1


# ----- priorities ----------------------------------------------------------------------
def wait_until(condition, what: str, seconds: float = 60.0) -> None:
    """Poll a condition no event announces (a slot taken, a request queued)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        threading.Event().wait(0.02)


@pytest.fixture
def one_slot():
    server = start(max_searches=1, search_queue=4, search_queue_per_client=2, max_millis=60_000)
    yield server
    server.stop(0)


def test_an_interactive_search_is_served_before_queued_batch_work(one_slot, game_record):
    searches = one_slot.searches
    with HzaiClient(one_slot.address, timeout=60) as c:
        first = c.bots.Analyze.future(c_request_batch(c, game_record, millis=60_000), timeout=60)
        wait_until(lambda: searches.running == 1, "the first batch search never took the slot")
        second = c.bots.Analyze.future(c_request_batch(c, game_record, iterations=100), timeout=60)
        wait_until(lambda: searches.admission.queued("batch") == 1, "the second batch never queued")
        from hzai_client import messages as m

        interactive = c.bots.SuggestMove.future(m.suggest_request(prefix(game_record, 4), iterations=100, bot="random"),
                                                timeout=60)
        wait_until(lambda: searches.admission.queued("interactive") == 1, "the suggestion never queued")
        first.cancel()  # frees the slot: the interactive call waited less long but goes first
        assert interactive.result().move.text
        assert second.result().results[0].code == 0
    assert searches.served == ["batch", "interactive", "batch"]


def test_each_kind_of_search_takes_its_default_class_from_the_admission_table(served, game_record):
    """A request that names no priority gets its kind's class from
    hzai_server.admission.DEFAULT_PRIORITY, the one table the handlers read, and the table
    says what docs/api.md ("Priorities") says: a single-position Analyze is interactive, a
    batch is batch. (Before, the table called Analyze batch while the handler served it
    interactive.)"""
    from hzai_server.admission import BATCH, DEFAULT_PRIORITY, INTERACTIVE, priority_of

    assert DEFAULT_PRIORITY == {"SuggestMove": INTERACTIVE, "BotPlayTurn": INTERACTIVE, "Analyze": INTERACTIVE,
                                "AnalyzeBatch": BATCH, "AnalyzeStream": BATCH, "AnalyzeGame": BATCH}
    searches = served.searches
    position = prefix(game_record, 4)

    def bot_turn(c, seats):
        return c.bot_play_turn(seats.id, token=seats.any_token)

    calls = {
        "SuggestMove": lambda c: c.suggest_move(position, iterations=20, bot="random"),
        "Analyze": lambda c: c.analyze(position, iterations=20),
        "AnalyzeBatch": lambda c: c.analyze_batch([position], iterations=20),
        "AnalyzeStream": lambda c: list(c.analyze_stream(position, iterations=20)),
        "AnalyzeGame": lambda c: list(c.analyze_game(prefix(game_record, 6), iterations=20)),
        "BotPlayTurn": lambda c: bot_turn(c, create(c, bot_seats=[0, 1], bot="random")),
    }

    with HzaiClient(served.address, timeout=60) as c:
        for kind, call in calls.items():
            before = len(searches.served)
            call(c)
            taken = searches.served[before:]
            assert taken and set(taken) == {priority_of(kind)}, (kind, taken)
    with pytest.raises(ValueError, match="no default priority for 'Analyse'"):
        priority_of("Analyse")


def c_request_batch(c, record, **budget):
    from hzai_client import messages as m

    return m.batch_request([prefix(record, 4)], **budget)


def test_a_review_takes_a_slot_a_decision_so_a_suggestion_comes_between(one_slot, game_record):
    searches = one_slot.searches
    with HzaiClient(one_slot.address, timeout=120) as c:
        stream = c.analyze_game(game_record, iterations=20_000, seed=1)
        assert next(stream).WhichOneof("item") == "decision"
        reply = c.suggest_move(prefix(game_record, 4), iterations=100, bot="random")
        assert reply.move.text
        rest = list(stream)
    assert len(decisions(rest)) == 9 and summary_of(rest).complete
    # The suggestion was served before the review's last decisions, not after the review.
    assert searches.served.count("interactive") == 1 and searches.served.count("batch") == 10
    assert searches.served.index("interactive") < len(searches.served) - 2


def test_a_full_batch_queue_is_resource_exhausted_and_priorities_are_checked(one_slot, game_record):
    searches = one_slot.searches
    with HzaiClient(one_slot.address, timeout=60) as c:
        with searches.admitted():  # the test holds the only slot
            queued = [c.bots.Analyze.future(c_request_batch(c, game_record, iterations=100), timeout=60)
                      for _ in range(2)]
            wait_until(lambda: searches.admission.queued("batch") == 2, "the batches never queued")
            full = rpc_error(c.analyze_batch, [prefix(game_record, 4)], iterations=100)
            assert full.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "already has 2 batch requests waiting" in full.details()
        assert all(f.result().results[0].code == 0 for f in queued)
        from hzai_client import messages as m

        request = m.suggest_request(prefix(game_record, 4), iterations=100)
        request.priority = 7
        wrong = rpc_error(c.bots.SuggestMove, request)
        assert wrong.code() == grpc.StatusCode.INVALID_ARGUMENT and wrong.details().startswith("priority: ")


def test_the_queue_flags_are_checked():
    from hzai_server.config import parse_config

    config = parse_config(["--search-queue", "8", "--search-queue-per-client", "2", "--max-analysis-work", "5000"],
                          env={})
    assert (config.search_queue, config.search_queue_per_client, config.max_analysis_work) == (8, 2, 5000)
    assert parse_config([], env={"HZAI_SEARCH_QUEUE": "3"}).search_queue == 3
    for flags in (["--search-queue", "-1"], ["--search-queue-per-client", "0"], ["--max-analysis-work", "0"]):
        with pytest.raises(SystemExit):
            parse_config(flags, env={})
