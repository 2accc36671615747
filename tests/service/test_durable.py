"""Matches that outlive the process: move numbers and retries, the store, expiry by the
background sweep, and the caps on matches a client may keep. What concerns the store runs
over both stores, SQLite and PostgreSQL (a throwaway server, tests/pg.py)."""

from __future__ import annotations

import threading

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from hzai_client import HzaiClient
from hzai_proto.v3 import match_pb2
from hzai_server.config import ServerConfig
from hzai_server.hosting import HostedMatches
from hzai_server.store import LoggedMove, SqliteMatchStore, StoredMatch, VersionConflict

from .conftest import ServerProcess
from .matchkit import create
from .test_errors import rpc_error


@pytest.fixture
def store_client(store_flags):
    """A client of a server of its own, on each store in turn."""
    srv = ServerProcess(*store_flags)
    try:
        with HzaiClient(srv.address, timeout=30) as c:
            yield c
    finally:
        srv.stop()


@pytest.fixture
def store_opener(store_kind, request, tmp_path):
    """A function opening the same store each call (a second opening is as after a
    restart), and the store class."""
    if store_kind == "sqlite":
        return lambda: SqliteMatchStore.in_directory(str(tmp_path / "data")), SqliteMatchStore
    from hzai_server.store_pg import PostgresMatchStore

    url = request.getfixturevalue("postgres").new_database()
    return lambda: PostgresMatchStore(url), PostgresMatchStore


# ----- move numbers ----------------------------------------------------------------------
def test_a_retried_move_is_answered_again_and_played_once(store_client):
    client = store_client
    seats = create(client, bot_seats=[])
    hera = seats["hera"]
    setup = client.legal_moves(seats.id, token=hera)[0].text
    first = client.play_move(seats.id, setup, token=hera, move_number=0)
    again = client.play_move(seats.id, setup, token=hera, move_number=0)
    assert again == first and first.status.moves_played == 1
    assert client.get_view(seats.id, token=hera).status.moves_played == 1  # not played twice
    zeus = seats["zeus"]
    # The same number with another move, or by the other seat, is not a retry.
    other = next(m.text for m in client.legal_moves(seats.id, token=zeus))
    for token, text in ((hera, "setup - - -"), (zeus, setup), (zeus, other)):
        error = rpc_error(client.play_move, seats.id, text, token=token, move_number=0)
        assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error.details().startswith("move_number:") and "at move 1" in error.details()


def test_a_stale_or_future_move_number_is_refused_and_names_the_current_one(client):
    seats = create(client, bot_seats=[1], bot="random")
    hera = seats["hera"]
    setup = client.legal_moves(seats.id, token=hera)[0].text
    for number in (1, 5):
        error = rpc_error(client.play_move, seats.id, setup, token=hera, move_number=number)
        assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "at move 0" in error.details()
    assert client.get_view(seats.id, token=hera).status.moves_played == 0
    client.play_move(seats.id, setup, token=hera)  # no number: played at the current one
    client.bot_play_turn(seats.id, token=hera)
    error = rpc_error(client.play_move, seats.id, "draw", token=hera, move_number=1)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "at move 2" in error.details()


# ----- the store -------------------------------------------------------------------------
def stored(match_id: str, client: str = "c", last_used: float = 0.0) -> StoredMatch:
    return StoredMatch(id=match_id, client=client, token_hashes={"seats": ["h", None], "spectator": "s"},
                       seed=2**64 - 1, salt="ab", open=False, settings={"bots": [False, True]},
                       created_at=last_used, last_used=last_used)


def test_the_store_appends_with_an_expected_version(store_opener):
    open_store, _ = store_opener
    store = open_store()
    store.create(stored("m1"))
    assert store.append("m1", 0, [LoggedMove(0, 0, "draw", b"answer")], now=5.0) == 1
    with pytest.raises(VersionConflict):
        store.append("m1", 0, [LoggedMove(0, 1, "draw")], now=6.0)  # stale: nothing written
    with pytest.raises(VersionConflict):
        store.append("gone", 0, [LoggedMove(0, 1, "draw")], now=6.0)
    store.append("m1", 1, [LoggedMove(1, 1, "pegasus hand"), LoggedMove(2, None, "chance Hydra")], now=7.0)
    store.close()
    reopened = open_store()  # as after a restart
    match = reopened.load("m1")
    assert match.moves == ["draw", "pegasus hand", "chance Hydra"] and match.version == 3
    assert reopened.version("m1") == 3 and reopened.version("gone") is None
    assert match.seed == 2**64 - 1 and match.token_hashes == {"seats": ["h", None], "spectator": "s"}
    assert reopened.logged_move("m1", 0).response == b"answer" and reopened.logged_move("m1", 2).seat is None
    assert reopened.expired(7.5) == ["m1"] and reopened.expired(6.0) == []
    assert reopened.count_live() == 1 and reopened.count_live("c") == 1 and reopened.count_live("d") == 0
    assert reopened.idlest_use() == 7.0 and reopened.idlest_use("c") == 7.0 and reopened.idlest_use("d") is None
    assert reopened.delete("m1") and reopened.load("m1") is None and reopened.logged_move("m1", 0) is None
    assert not reopened.delete("m1") and reopened.version("m1") is None
    reopened.close()


def test_the_sweep_removes_idle_matches_and_keeps_used_ones(store_opener):
    now = [1000.0]
    config = ServerConfig(match_ttl=60, sweep_interval=1, data_dir=":memory:")
    hosted = HostedMatches(store_opener[0](), config, clock=lambda: now[0])
    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits

    def new():
        match, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                                 limits=Limits(iterations=10), client="c")
        return match

    idle, used = new(), new()
    now[0] += 45
    with hosted.locked(used, None):  # a call keeps a match alive (in memory, not written)
        pass
    now[0] += 30
    busy = new()
    busy.last_used = 0.0
    busy.lock.acquire()  # a call in progress: never swept under it
    try:
        assert hosted.sweep() == 1
    finally:
        busy.lock.release()
    assert hosted.store.live_ids() == [used.id, busy.id] and idle.gone
    now[0] += 61
    assert hosted.sweep() == 2 and len(hosted) == 0
    hosted.close()


# ----- a server with short expiry and small caps ----------------------------------------
@pytest.fixture
def expiring_server(store_flags):
    srv = ServerProcess("--match-ttl", "1", "--sweep-interval", "0.2", *store_flags)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def small_server():
    srv = ServerProcess("--sweep-interval", "30", "--max-matches-per-client", "2", "--max-matches", "4")
    yield srv
    srv.stop()


def test_an_idle_match_is_gone_after_the_sweep(expiring_server):
    small_server = expiring_server
    with HzaiClient(small_server.address, timeout=30) as client:
        seats = create(client, bot="random")
        swept = threading.Event()

        def wait_for_sweep():
            while not swept.is_set():
                if any(e.get("event") == "matches expired" for e in small_server.logs):
                    swept.set()
                threading.Event().wait(0.05)

        watcher = threading.Thread(target=wait_for_sweep, daemon=True)
        watcher.start()
        assert swept.wait(60), "the sweep never expired the match"
        error = rpc_error(client.get_view, seats.id, token=seats["hera"])
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def retry_delay(error) -> float | None:
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info.retry_delay.ToTimedelta().total_seconds()
    return None


def test_a_client_over_its_cap_is_told_when_to_retry(small_server):
    with HzaiClient(small_server.address, timeout=30) as client:
        def create_as(name):
            return client.matches.CreateMatch(match_pb2.CreateMatchRequest(game="hera_zeus", bot="random"), timeout=30,
                                              metadata=(("hzai-client", name),))

        kept = [create_as("alice") for _ in range(2)]
        error = rpc_error(create_as, "alice")
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "at most 2 matches" in error.details()
        # The idlest match goes after the TTL (1800 s by default) and at most two sweeps more:
        # the message and the RetryInfo say that, not the bare sweep interval.
        delay = retry_delay(error)
        assert 1800 < delay <= 1860
        assert f"in at most {delay:g} s" in error.details() and "removed after 1800 s unused" in error.details()
        bob = create_as("bob")  # another client still may
        kept.append(bob)
        for created in kept:
            client.matches.DeleteMatch(match_pb2.DeleteMatchRequest(match_id=created.status.match_id), timeout=30,
                                       metadata=(("authorization", f"Bearer {created.seats[0].token}"),))
        create_as("alice")


def test_a_restart_keeps_matches_positions_and_tokens(store_flags):
    first = ServerProcess(*store_flags)
    try:
        with HzaiClient(first.address, timeout=30) as client:
            seats = create(client, bot_seats=[1], bot="random")
            client.play_move(seats.id, client.legal_moves(seats.id, token=seats["hera"])[0].text,
                             token=seats["hera"], move_number=0)
            client.bot_play_turn(seats.id, token=seats["hera"])
            before = client.get_view(seats.id, token=seats["hera"], with_history=True)
    finally:
        first.stop()
    second = ServerProcess(*store_flags)
    try:
        with HzaiClient(second.address, timeout=30) as client:
            after = client.get_view(seats.id, token=seats["hera"], with_history=True)
            assert after == before and after.status.moves_played == 2
            assert rpc_error(client.get_view, seats.id, token="x" * 32).code() == grpc.StatusCode.PERMISSION_DENIED
        assert any(e.get("event") == "match store opened" and e.get("live") == 1 for e in second.logs)
    finally:
        second.stop()


def test_a_refused_write_plays_nothing(store_opener):
    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits
    from hzai_server.errors import ApiError
    from hzai_server.store import StoreError

    open_store, kind = store_opener

    class FullDisk(kind):
        def append(self, *args, **kwargs):
            raise StoreError("database or disk is full")

    opened = open_store()
    opened.__class__ = FullDisk
    hosted = HostedMatches(opened, ServerConfig(data_dir=":memory:"))
    match, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                             limits=Limits(iterations=10), client="c")
    trial = match.state.copy()
    move = trial.legal_moves()[0]
    trial.push(move)
    with pytest.raises(ApiError) as caught:
        hosted.commit(match, [LoggedMove(0, 0, str(move))], trial)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE and "not played" in caught.value.message
    assert match.record.moves == [] and match.state is not trial and hosted.store.load(match.id).moves == []
    hosted.close()


def test_an_sqlite_failure_outside_append_is_unavailable_not_internal(tmp_path):
    # Only append turned SQLite's own errors into StoreError: a database locked past the
    # busy timeout or gone on create, load or touch escaped as INTERNAL.
    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits
    from hzai_server.errors import ApiError
    from hzai_server.store import StoreError

    store = SqliteMatchStore(str(tmp_path / "m.sqlite3"))
    hosted = HostedMatches(store, ServerConfig(data_dir=str(tmp_path)))
    match, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                             limits=Limits(iterations=10), client="c")
    store._db.close()
    for call in (lambda: store.load(match.id), lambda: store.version(match.id), lambda: store.touch(match.id, 1.0),
                 lambda: store.delete(match.id), lambda: store.count_live()):
        with pytest.raises(StoreError):
            call()
    with pytest.raises(ApiError) as caught:
        hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                      limits=Limits(iterations=10), client="c")
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    with pytest.raises(ApiError) as caught:
        hosted.refresh(match)
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    hosted._stop.set()


def test_the_sweep_keeps_a_match_moved_after_it_was_listed(store_opener):
    # Another replica plays a move between the sweep's listing of idle matches and its
    # delete: the acknowledged move (and the match) must stay.
    from hzai.games.hera_zeus.rules import Game
    from hzai.search import Limits

    open_store, kind = store_opener
    now = [1000.0]
    moved = []

    class Racing(kind):
        def expired(self, idle_before):
            listed = super().expired(idle_before)
            for match_id in listed:  # another replica plays in each listed match now
                self.append(match_id, 0, [LoggedMove(0, 0, "draw")], now[0])
                moved.append(match_id)
            return listed

    store = open_store()
    store.__class__ = Racing
    hosted = HostedMatches(store, ServerConfig(match_ttl=60, sweep_interval=1, data_dir=":memory:"),
                           clock=lambda: now[0])
    cached, _ = hosted.create(game=Game.create(), seed=None, bot_seats=frozenset({1}), bot_spec="random",
                              limits=Limits(iterations=10), client="c")
    elsewhere = StoredMatch(id="m-other", client="c", token_hashes={"seats": ["h", None], "spectator": "s"},
                            seed=1, salt="00", open=False, settings=cached.settings(), created_at=now[0],
                            last_used=now[0])
    store.create(elsewhere)  # a match only another replica has loaded
    now[0] += 61
    assert hosted.sweep() == 0
    assert sorted(moved) == sorted([cached.id, "m-other"]) and not cached.gone
    assert sorted(store.live_ids()) == sorted([cached.id, "m-other"])
    assert store.load(cached.id).moves == ["draw"] and store.load("m-other").moves == ["draw"]
    now[0] += 61
    store.__class__ = kind
    assert hosted.sweep() == 2 and store.live_ids() == [] and cached.gone
    hosted.close()


# The tables a server of schema 1 (one game, a token column per seat) wrote.
SCHEMA_1 = [
    """CREATE TABLE matches (id TEXT PRIMARY KEY, client TEXT NOT NULL, hera_token_hash TEXT, zeus_token_hash TEXT,
        spectator_token_hash TEXT NOT NULL, seed TEXT NOT NULL, salt TEXT NOT NULL, open INTEGER NOT NULL,
        settings TEXT NOT NULL, version INTEGER NOT NULL, created_at DOUBLE PRECISION NOT NULL,
        last_used DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE moves (match_id TEXT NOT NULL REFERENCES matches (id), idx INTEGER NOT NULL, seat INTEGER,
        text TEXT NOT NULL, response BLOB, PRIMARY KEY (match_id, idx))""",
    "CREATE TABLE schema_info (version INTEGER NOT NULL)",
    "INSERT INTO schema_info (version) VALUES (1)",
]


def _schema_1_database(execute, placeholder: str) -> tuple[str, str]:
    """Write a schema 1 database holding one Hera and Zeus match with one move played;
    (hera's token, the move)."""
    import json

    from hzai.games.hera_zeus.rules import Game, Record, deal
    from hzai_server import seats as seat_tokens

    for statement in SCHEMA_1:
        execute(statement, ())
    game = Game.create({"turn_limit": 60})
    move = Record(game, setup=deal(game, 77)).start().legal_moves()[0]
    settings = {"variants": game.variants.to_dict(), "bots": [False, True], "bot": "random",
                "limits": {"iterations": 10, "millis": 1000, "threads": 1}}
    token = seat_tokens.new_token()
    mark = placeholder
    execute(f"INSERT INTO matches VALUES ('old', 'c', {mark}, NULL, 'spec', '77', 'aa', 0, {mark}, 1, 1.0, 1.0)",
            (seat_tokens.token_hash(token), json.dumps(settings)))
    execute(f"INSERT INTO moves VALUES ('old', 0, 0, {placeholder}, NULL)", (str(move),))
    return token, str(move)


def _check_migrated(store, token: str, move: str, data_dir: str) -> None:
    from hzai_server import seats as seat_tokens

    assert store._read("SELECT version FROM schema_info") == [(3,)]
    hosted = HostedMatches(store, ServerConfig(data_dir=data_dir))
    match = hosted._load("old")
    assert match.game.name == "hera_zeus" and match.game.variants.turn_limit == 60
    assert match.bot_seats == frozenset({1}) and match.record.moves == [move]
    assert seat_tokens.grant_for(match.token_hashes, token).seat == 0
    hosted.close()


def test_a_schema_1_sqlite_database_is_migrated_and_its_matches_are_hera_and_zeus(tmp_path):
    import sqlite3

    path = tmp_path / "matches.sqlite3"
    db = sqlite3.connect(path)
    token, move = _schema_1_database(db.execute, "?")
    db.commit()
    db.close()
    _check_migrated(SqliteMatchStore(str(path)), token, move, str(tmp_path))
    SqliteMatchStore(str(path)).close()  # opened again: already schema 3


def test_a_schema_1_postgresql_database_is_migrated(postgres, tmp_path):
    import psycopg

    from hzai_server.store_pg import PostgresMatchStore

    url = postgres.new_database()
    with psycopg.connect(url) as db:
        token, move = _schema_1_database(lambda sql, args: db.execute(sql.replace("BLOB", "BYTEA"), args), "%s")
    _check_migrated(PostgresMatchStore(url), token, move, str(tmp_path))
    PostgresMatchStore(url).close()
