"""Several writers on one match store: two store objects appending to one match at once,
and two server processes sharing one PostgreSQL database (replicas), each with its own
cached state. Exactly one writer wins each version; no move is lost or doubled."""

from __future__ import annotations

import threading

import grpc
import pytest

from hzai_client import HzaiClient
from hzai_server.store import LoggedMove, SqliteMatchStore, StoredMatch, VersionConflict

from .conftest import ServerProcess
from .matchkit import create
from .test_errors import rpc_error

WRITERS = 2
TRIES = 60


def _stored(match_id: str) -> StoredMatch:
    return StoredMatch(id=match_id, client="c", token_hashes={"seats": ["h", "z"], "spectator": "s"},
                       seed=1, salt="ab", open=False, settings={}, created_at=1.0, last_used=1.0)


@pytest.fixture
def two_stores(store_kind, request, tmp_path):
    """Two store objects (two connections, as two processes would have) on one database."""
    if store_kind == "sqlite":
        path = str(tmp_path / "data")
        stores = [SqliteMatchStore.in_directory(path) for _ in range(WRITERS)]
    else:
        from hzai_server.store_pg import PostgresMatchStore

        url = request.getfixturevalue("postgres").new_database()
        stores = [PostgresMatchStore(url) for _ in range(WRITERS)]
    yield stores
    for store in stores:
        store.close()


def test_concurrent_appends_win_each_version_once(two_stores):
    two_stores[0].create(_stored("m"))
    start = threading.Barrier(WRITERS)
    wins: list[list[int]] = [[] for _ in range(WRITERS)]
    conflicts = [0] * WRITERS

    def writer(k: int) -> None:
        store = two_stores[k]
        start.wait()
        for attempt in range(TRIES):
            version = store.version("m")  # as a replica reads before it plays
            try:
                store.append("m", version, [LoggedMove(version, k, f"w{k}-{attempt}")], now=2.0 + attempt)
            except VersionConflict:
                conflicts[k] += 1
            else:
                wins[k].append(version)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = two_stores[1].load("m")
    won = sorted(v for w in wins for v in w)
    assert won == list(range(len(won))) == list(range(final.version))  # each version won once, no gap
    assert len(final.moves) == final.version == len(won)
    assert sum(conflicts) + len(won) == WRITERS * TRIES
    for k in range(WRITERS):  # every win is in the log where it was won, by its writer
        for version in wins[k]:
            entry = two_stores[0].logged_move("m", version)
            assert entry.seat == k and entry.text.startswith(f"w{k}-")


@pytest.fixture
def replicas(postgres):
    """Two hzai-server processes on one PostgreSQL database."""
    url = postgres.new_database()
    servers = [ServerProcess("--store", url, "--max-matches-per-client", "100") for _ in range(2)]
    clients = [HzaiClient(s.address, timeout=30) for s in servers]
    yield clients
    for c in clients:
        c.close()
    for s in servers:
        s.stop()


def test_a_replica_with_a_stale_cache_catches_up_before_it_plays(replicas):
    a, b = replicas
    seats = create(a, bot_seats=[])
    hera, zeus = seats["hera"], seats["zeus"]
    assert b.get_view(seats.id, token=hera).status.moves_played == 0  # b now caches the match
    setup = a.legal_moves(seats.id, token=hera)[0].text
    a.play_move(seats.id, setup, token=hera, move_number=0)
    # b's cached state is at move 0; it must see move 1 and let Zeus play, not Hera again.
    assert b.get_view(seats.id, token=hera).status.moves_played == 1
    error = rpc_error(b.play_move, seats.id, setup, token=hera)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "not hera's decision" in error.details()
    zeus_setup = b.legal_moves(seats.id, token=zeus)[0].text
    b.play_move(seats.id, zeus_setup, token=zeus, move_number=1)
    # A retry of move 0 on the other replica is answered from the log, not played again.
    again = b.play_move(seats.id, setup, token=hera, move_number=0)
    assert again.status.moves_played == 1
    assert a.get_view(seats.id, token=zeus).status.moves_played == 2
    # Deleted on one replica: gone on the other too.
    a.delete_match(seats.id, token=hera)
    assert rpc_error(b.get_view, seats.id, token=hera).code() == grpc.StatusCode.PERMISSION_DENIED


def test_two_replicas_playing_the_same_move_at_once_play_it_once(replicas):
    """Both replicas get the same move with the same move_number at the same time, round
    after round: each answer is the move's answer or ABORTED, and the record gets it once."""
    a, b = replicas
    seats = create(a, bot_seats=[])
    rounds, aborted = 0, 0
    status = a.get_view(seats.id, token=seats["hera"]).status
    while not status.over and rounds < 40:
        mover = status.seats[status.to_move]
        token = seats[mover]
        move = sorted(m.text for m in a.legal_moves(seats.id, token=token))[0]
        number = status.moves_played
        start = threading.Barrier(2)
        answers: list = [None, None]

        def play(k: int, client) -> None:
            start.wait()
            try:
                answers[k] = client.play_move(seats.id, move, token=token, move_number=number)
            except grpc.RpcError as exc:
                answers[k] = exc

        threads = [threading.Thread(target=play, args=(k, c)) for k, c in enumerate((a, b))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        played = [x for x in answers if not isinstance(x, grpc.RpcError)]
        refused = [x for x in answers if isinstance(x, grpc.RpcError)]
        assert played, f"neither replica played move {number}: {[e.details() for e in refused]}"
        assert all(e.code() == grpc.StatusCode.ABORTED for e in refused), [e.details() for e in refused]
        aborted += len(refused)
        assert len({x.status.moves_played for x in played}) == 1
        after = b.get_view(seats.id, token=token).status
        assert after.moves_played == played[0].status.moves_played  # once, chance results included
        assert after.moves_played == number + 1 + len(played[0].chance)
        status = after
        rounds += 1
    assert rounds >= 10
    history = a.get_view(seats.id, token=seats["hera"], with_history=True).history
    assert len(history) == status.moves_played


def test_the_database_down_is_unavailable_and_its_return_is_served():
    from tests.pg import ThrowawayPostgres

    own = ThrowawayPostgres().start()  # a server of its own: this test stops it
    server = None
    try:
        server = ServerProcess("--store", own.new_database())
        with HzaiClient(server.address, timeout=30) as client:
            seats = create(client, bot_seats=[1], bot="random")
            own.server.stop()
            error = rpc_error(client.get_view, seats.id, token=seats["hera"])
            assert error.code() == grpc.StatusCode.UNAVAILABLE and "store cannot be reached" in error.details()
            error = rpc_error(client.create_match, bot_seats=[1])
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            own.server.start()
            assert client.get_view(seats.id, token=seats["hera"]).status.moves_played == 0
        codes = [e.get("code") for e in server.logs if e.get("event") == "rpc"]
        assert "UNAVAILABLE" in codes and "INTERNAL" not in codes
    finally:
        if server is not None:
            server.stop()
        own.close()
