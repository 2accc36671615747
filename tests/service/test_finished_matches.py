"""Matches that scale: a finished match stops counting against the match caps at once,
stays readable for --finished-ttl and is swept after it (and over --max-finished, the
oldest first); a process keeps at most --match-cache matches replayed in memory and
rebuilds any other from the store. Over both stores, SQLite and PostgreSQL."""

from __future__ import annotations

import time

import grpc
import pytest

from hzai_client import HzaiClient
from hzai_server.config import ServerConfig
from hzai_server.hosting import HostedMatches

from .conftest import ServerProcess
from .matchkit import Seats, create
from .test_durable import store_opener  # noqa: F401 - a fixture
from .test_errors import rpc_error


def end_match(hosted: HostedMatches, client: str):
    """A Hera and Zeus match of two bot seats created in `hosted` for `client` and played
    to its end in one commit (each seat's first legal move, chance from a fixed seed)."""
    from hzai.games.hera_zeus.rules import Game
    from hzai.rng import SplitMix64
    from hzai.search import Limits

    from hzai_server.store import LoggedMove

    match, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({0, 1}), bot_spec="random",
                             limits=Limits(iterations=10), client=client)
    state, rng, entries = match.state.clone(), SplitMix64(7), []
    while not state.is_terminal:
        move = match.game.search.draw_chance(state, rng) if state.is_chance else state.legal_moves()[0]
        state.apply(move)
        entries.append(LoggedMove(len(entries), None, match.game.move_text(move)))
    hosted.commit(match, entries, state)
    return match


def finish(client, seats: Seats) -> int:
    """Play a bot-only match to its end with BotPlayTurn; the moves played."""
    for _ in range(100):
        status = client.bot_play_turn(seats.id, token=seats.spectator).status
        if status.over:
            return status.moves_played
    raise AssertionError("the match did not end in 100 bot turns")


@pytest.mark.parametrize("cap", ["--max-matches", "--max-matches-per-client"])
def test_finished_matches_no_longer_fill_a_cap(store_flags, cap):
    # Six finished matches filled --max-matches 6 (and the per-client cap alike) until their
    # idle TTL ran out: a seventh CreateMatch was refused. A match that ends frees its
    # place at once, and stays readable.
    other = "--max-matches-per-client" if cap == "--max-matches" else "--max-matches"
    srv = ServerProcess(cap, "6", other, "100", "--sweep-interval", "30", *store_flags)
    try:
        with HzaiClient(srv.address, timeout=30) as client:
            played = [create(client, bot_seats=[0, 1], bot="random") for _ in range(6)]
            refused = rpc_error(client.create_match, "hera_zeus", bot_seats=[0, 1], bot="random")
            assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "at most 6 matches" in refused.details()
            assert "stops counting at once when it ends" in refused.details()
            moves = [finish(client, seats) for seats in played]
            seventh = create(client, bot_seats=[0, 1], bot="random")  # refused before this change
            assert not client.get_view(seventh.id, token=seventh.spectator).status.over
            for seats, count in zip(played, moves):  # every finished match is still there to read
                view = client.get_view(seats.id, token=seats.spectator, with_history=True)
                assert view.status.over and view.status.moves_played == count and len(view.history) == count
            more = [create(client, bot_seats=[0, 1], bot="random") for _ in range(5)]  # six live again: full
            assert rpc_error(client.create_match, "hera_zeus", bot="random").code() == \
                grpc.StatusCode.RESOURCE_EXHAUSTED
            finish(client, more[0])
            create(client, bot_seats=[0, 1], bot="random")
    finally:
        srv.stop()


def test_a_finished_match_is_readable_until_its_finished_ttl_then_swept(store_flags):
    srv = ServerProcess("--finished-ttl", "1.5", "--sweep-interval", "0.2", *store_flags)
    try:
        with HzaiClient(srv.address, timeout=30) as client:
            seats = create(client, bot_seats=[0, 1], bot="random")
            moves = finish(client, seats)
            ended = time.monotonic()
            view = client.get_view(seats.id, token=seats.spectator, with_history=True)
            assert view.status.over and len(view.history) == moves and view.status.record_json
            gone_at = None
            while time.monotonic() - ended < 60:
                try:
                    client.get_view(seats.id, token=seats.spectator)
                except grpc.RpcError as error:
                    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
                    gone_at = time.monotonic() - ended
                    break
                time.sleep(0.1)
            assert gone_at is not None, "the finished match was never swept"
            assert gone_at >= 1.0  # kept for its TTL (1.5 s from its end, which came before `ended`)
            swept = [e for e in srv.logs if e.get("event") == "matches expired"]
            assert swept and swept[0]["finished"] == 1 and swept[0]["idle"] == 0
    finally:
        srv.stop()


def test_the_sweep_keeps_finished_matches_for_their_ttl_and_at_most_max_finished(store_opener):  # noqa: F811
    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits

    now = [1000.0]
    config = ServerConfig(match_ttl=60, finished_ttl=30, max_finished=2, sweep_interval=1, data_dir=":memory:")
    hosted = HostedMatches(store_opener[0](), config, clock=lambda: now[0])

    def ended_match():
        return end_match(hosted, "c")

    first = ended_match()
    assert first.finished_at == now[0] and hosted.store.count_live() == 0 and hosted.store.count_finished() == 1
    live, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                            limits=Limits(iterations=10), client="c")
    assert hosted.store.count_live() == 1 and hosted.store.count_live("c") == 1
    now[0] += 29
    assert hosted.sweep() == 0 and hosted.store.load(first.id).finished_at == 1000.0  # within its TTL
    second, third = ended_match(), ended_match()
    assert hosted.sweep() == 1 and first.gone  # three finished, two kept: the one that ended first goes
    assert sorted(hosted.store.live_ids()) == sorted([live.id, second.id, third.id])
    now[0] += 31
    with hosted.locked(live, None):  # used: the live match stays
        pass
    assert hosted.sweep() == 2 and second.gone and third.gone and hosted.store.live_ids() == [live.id]
    hosted.close()


def test_over_max_finished_a_client_that_finishes_many_pushes_out_its_own_first(store_opener):  # noqa: F811
    """One client finishing match after match does not evict another player's finished
    record before its TTL: over --max-finished, each client's newest are kept first."""
    now = [1000.0]
    config = ServerConfig(match_ttl=600, finished_ttl=300, max_finished=3, sweep_interval=1, data_dir=":memory:")
    hosted = HostedMatches(store_opener[0](), config, clock=lambda: now[0])

    def ended_match(client):
        match = end_match(hosted, client)
        now[0] += 1
        return match

    player = ended_match("player")
    flood = [ended_match("flooder") for _ in range(6)]
    assert hosted.sweep() == 4  # 7 finished, 3 kept
    assert not player.gone and hosted.store.load(player.id).finished_at == 1000.0  # the other player's, kept
    assert [m.gone for m in flood] == [True, True, True, True, False, False]  # the flooder's two newest
    hosted.close()


class Metadata:
    """A stand-in for a call's context presenting a token."""

    def __init__(self, token: str):
        self.token = token

    def invocation_metadata(self):
        return (("authorization", f"Bearer {self.token}"),)

    def time_remaining(self):
        return None


def test_at_most_match_cache_matches_stay_in_memory_and_one_dropped_is_rebuilt(store_opener):  # noqa: F811
    import gc

    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits

    from hzai_server.store import LoggedMove

    hosted = HostedMatches(store_opener[0](), ServerConfig(match_cache=2, data_dir=":memory:"))

    def new():
        return hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                             limits=Limits(iterations=10), client="c")

    first, tokens = new()
    first_id = first.id
    second, _ = new()
    third, _ = new()
    assert list(hosted._cache) == [second.id, third.id]  # the least recently used is dropped
    # A call that still holds the dropped match finds that same object, never a second copy.
    again, grant = hosted.open(first_id, Metadata(tokens[0]))
    assert again is first and grant.seat == 0 and list(hosted._cache) == [third.id, first_id]
    move = first.state.legal_moves()[0]
    with hosted.locked(first, None):
        after = first.state.clone()
        after.apply(move)
        hosted.commit(first, [LoggedMove(0, 0, first.game.move_text(move))], after)
    new(), new()  # the first match is dropped again
    del first, again, second, third, after
    gc.collect()
    assert first_id not in hosted._cache and hosted.cached() == 2  # nothing else is kept in memory
    rebuilt, grant = hosted.open(first_id, Metadata(tokens[0]))  # rebuilt from the store
    assert grant.seat == 0 and rebuilt.record.moves == [str(move)] and rebuilt.state.current_seat == 1
    assert list(hosted._cache)[-1] == first_id and len(hosted._cache) == 2
    hosted.close()


def test_a_match_dropped_from_the_memory_cache_plays_on_from_the_store(store_flags):
    srv = ServerProcess("--match-cache", "2", "--log-level", "debug", *store_flags)
    try:
        with HzaiClient(srv.address, timeout=30) as client:
            matches = [create(client, bot_seats=[1], bot="random") for _ in range(4)]
            for seats in matches * 2:  # each in turn: every call after the first two finds its match dropped
                hera = seats["hera"]
                status = client.get_view(seats.id, token=hera).status
                if status.seats[status.to_move] == "hera":
                    move = client.legal_moves(seats.id, token=hera)[0].text
                    client.play_move(seats.id, move, token=hera, move_number=status.moves_played)
                else:
                    client.bot_play_turn(seats.id, token=hera, move_number=status.moves_played)
            for seats in matches:
                view = client.get_view(seats.id, token=seats["hera"], with_history=True)
                assert view.status.moves_played >= 2 and len(view.history) == view.status.moves_played
        rebuilt = [e for e in srv.logs if e.get("event") == "match loaded"]
        assert {e["match_id"] for e in rebuilt} == {seats.id for seats in matches}
    finally:
        srv.stop()
