"""Where hosted matches are kept: one small interface, SQLite behind it by default and
PostgreSQL (hzai_server.store_pg) for replicas that share their matches.

The interface (MatchStore) speaks plain SQL semantics a PostgreSQL store can share: a
`matches` row per match with a `version` column for optimistic concurrency (a write
names the version it expects; a stale one changes nothing and raises VersionConflict),
and an append-only `moves` log holding each record entry and, on the entry a call
decided, the serialized answer of that call (so a retried PlayMove is answered again
without playing twice).

SQLite runs in WAL mode with synchronous=FULL: a commit returns only once the log is on
disk, so a move acknowledged to a client survives kill -9 and power loss alike
(synchronous=NORMAL with WAL would survive a process crash but could lose the last
commits on power loss; one fsync per move is cheap next to a bot's search). All moves
of one call go in one transaction: after a crash they are wholly there or not at all.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field

SCHEMA_VERSION = 3
# Version 1 knew one game (Hera and Zeus) with a token column per seat; version 2 keeps
# each match's game and its seat tokens' hashes as a JSON list (settings holds the game's
# parameters). A version 1 database is migrated when a server opens it: its rows are
# Hera and Zeus matches, their tokens still read from the old columns. Version 3 adds
# `finished_at`, when the match ended (NULL while it is live): a finished match no longer
# counts against the caps and is kept only for the finished TTL. A match that ended
# under version 2 has none; a server sets it when it next loads that match.

# Plain SQL (types and statements PostgreSQL accepts too, with %s for ?): seeds are
# unsigned 64-bit, beyond a signed BIGINT, so they are kept as decimal text.
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS matches (
        id TEXT PRIMARY KEY,
        client TEXT NOT NULL,
        hera_token_hash TEXT,
        zeus_token_hash TEXT,
        spectator_token_hash TEXT NOT NULL,
        seed TEXT NOT NULL,
        salt TEXT NOT NULL,
        open INTEGER NOT NULL,
        settings TEXT NOT NULL,
        version INTEGER NOT NULL,
        game TEXT NOT NULL DEFAULT 'hera_zeus',
        seat_token_hashes TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        last_used DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION
    )""",
    "CREATE INDEX IF NOT EXISTS matches_by_client ON matches (client)",
    "CREATE INDEX IF NOT EXISTS matches_by_last_used ON matches (last_used)",
    """CREATE TABLE IF NOT EXISTS moves (
        match_id TEXT NOT NULL REFERENCES matches (id),
        idx INTEGER NOT NULL,
        seat INTEGER,
        text TEXT NOT NULL,
        response BLOB,
        PRIMARY KEY (match_id, idx)
    )""",
    "CREATE TABLE IF NOT EXISTS schema_info (version INTEGER NOT NULL)",
]

# Statements that take a database from the version of the key to the next one.
MIGRATIONS = {
    1: ["ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'hera_zeus'",
        "ALTER TABLE matches ADD COLUMN seat_token_hashes TEXT"],
    2: ["ALTER TABLE matches ADD COLUMN finished_at DOUBLE PRECISION"],
}

# Indexes on columns a migration may add: made once the tables are at SCHEMA_VERSION.
INDEXES = ["CREATE INDEX IF NOT EXISTS matches_by_finished_at ON matches (finished_at)"]


def prepare_schema(execute, where: str, mark: str = "?") -> None:
    """Create the tables, or migrate older ones to SCHEMA_VERSION. `execute(sql, args)`
    runs a statement in the caller's transaction and returns its cursor. CREATE ... IF
    NOT EXISTS leaves an older table as it is; the migrations then add what it lacks."""
    for statement in SCHEMA:
        execute(statement, ())
    row = execute("SELECT version FROM schema_info", ()).fetchone()
    if row is None:
        execute(f"INSERT INTO schema_info (version) VALUES ({mark})", (SCHEMA_VERSION,))
    elif row[0] != SCHEMA_VERSION:
        version = row[0]
        if version > SCHEMA_VERSION or version not in MIGRATIONS:
            raise OSError(f"{where}: match database schema {version}, this server reads {SCHEMA_VERSION}")
        while version < SCHEMA_VERSION:
            for statement in MIGRATIONS[version]:
                execute(statement, ())
            version += 1
        execute(f"UPDATE schema_info SET version = {mark}", (SCHEMA_VERSION,))
    for statement in INDEXES:
        execute(statement, ())


# The columns of a match row, in the order create() writes and load() reads them.
MATCH_COLUMNS = ("id, client, game, seat_token_hashes, hera_token_hash, zeus_token_hash, spectator_token_hash, "
                 "seed, salt, open, settings, version, created_at, last_used, finished_at")
MATCH_COLUMN_COUNT = MATCH_COLUMNS.count(",") + 1


def match_row(match: "StoredMatch") -> tuple:
    """The values of a new match's row (version 0), for MATCH_COLUMNS."""
    h = match.token_hashes
    return (match.id, match.client, match.game, json.dumps(list(h["seats"])), None, None, h["spectator"],
            str(match.seed), match.salt, int(match.open), json.dumps(match.settings, sort_keys=True), 0,
            match.created_at, match.last_used, match.finished_at)


def match_from_row(row: tuple, moves: list[str]) -> "StoredMatch":
    seats = json.loads(row[3]) if row[3] is not None else [row[4], row[5]]  # a version 1 row: hera, zeus
    return StoredMatch(
        id=row[0], client=row[1], game=row[2], token_hashes={"seats": seats, "spectator": row[6]},
        seed=int(row[7]), salt=row[8], open=bool(row[9]), settings=json.loads(row[10]), version=row[11],
        created_at=row[12], last_used=row[13], finished_at=row[14], moves=moves)


class VersionConflict(Exception):
    """The match changed (or is gone) since the version the write expected."""


class StoreError(Exception):
    """A write the database refused (disk full, I/O error); nothing of it was kept."""


@dataclass
class LoggedMove:
    index: int
    seat: int | None  # who decided it; None for a chance result
    text: str
    response: bytes | None = None  # the answer of the call that made it (its first entry only)


@dataclass
class StoredMatch:
    id: str
    client: str
    token_hashes: dict  # "seats": a hash per seat (None: a bot seat), "spectator": a hash
    seed: int
    salt: str
    open: bool
    settings: dict  # the game's params, bot seats, bot spec, budget
    game: str = "hera_zeus"
    version: int = 0  # the record length: every entry appended bumps it
    created_at: float = 0.0
    last_used: float = 0.0
    finished_at: float | None = None  # when the match ended; None while it is live
    moves: list[str] = field(default_factory=list)


class MatchStore(ABC):
    """What the match service needs from storage; every method is one transaction."""

    @abstractmethod
    def create(self, match: StoredMatch) -> None: ...

    @abstractmethod
    def load(self, match_id: str) -> StoredMatch | None:
        """The match with its record's moves, or None."""

    @abstractmethod
    def append(self, match_id: str, expected_version: int, moves: list[LoggedMove], now: float,
               finished: bool = False) -> int:
        """Add `moves` at the end of the log if the match is at `expected_version`; the
        new version. VersionConflict otherwise, and nothing is written. `finished`: these
        moves end the match, so it is marked finished at `now` in the same transaction."""

    @abstractmethod
    def mark_finished(self, match_id: str, now: float) -> None:
        """Mark a match that ended but has no `finished_at` (written by a server of
        schema 2) as finished at `now`; a match already marked keeps its time."""

    @abstractmethod
    def touch(self, match_id: str, now: float) -> None: ...

    @abstractmethod
    def delete(self, match_id: str, idle_before: float | None = None) -> bool:
        """Remove the match and its log; True if it was there. With `idle_before` (the
        sweep) only if it is still unused since then, checked in the same transaction:
        a move another replica appended after the sweep listed it keeps the match."""

    @abstractmethod
    def expired(self, idle_before: float) -> list[str]:
        """Ids of the live (unfinished) matches last used before `idle_before`."""

    @abstractmethod
    def ended(self, finished_before: float, keep: int) -> list[str]:
        """Ids of the finished matches to remove: those that ended before
        `finished_before`, and beyond the `keep` kept. Over `keep`, each client's most
        recent finished matches are kept before anyone's second most recent, and so on
        (newest first within a round), so that a client that finishes many matches at once
        pushes out its own old ones, not other players' records. Oldest first."""

    @abstractmethod
    def live_ids(self) -> list[str]:
        """Ids of every match kept, live or finished."""

    @abstractmethod
    def count_live(self, client: str | None = None) -> int:
        """Live (unfinished) matches kept, all of them or of one client: what the caps count."""

    @abstractmethod
    def count_finished(self) -> int:
        """Finished matches kept (readable until the sweep removes them)."""

    @abstractmethod
    def idlest_use(self, client: str | None = None) -> float | None:
        """The earliest `last_used` of the live matches kept (all, or one client's);
        None when there are none. The sweep removes that match first."""

    def close(self) -> None:
        pass


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(text: str) -> bool:
    return text.startswith(POSTGRES_SCHEMES)


@contextmanager
def _refused():
    """An error of SQLite itself (locked past the busy timeout, I/O, a closed database) is
    a StoreError, which the service answers UNAVAILABLE, never INTERNAL."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(str(exc)) from None


class SqlQueries:
    """The read-only queries both SQL stores share, written once; `MARK` is the driver's
    parameter placeholder and `_read(sql, args)` runs a query in a store's own way."""

    MARK = "?"

    def expired(self, idle_before: float) -> list[str]:
        return [i for (i,) in self._read(f"SELECT id FROM matches WHERE finished_at IS NULL AND last_used < {self.MARK} "
                                         "ORDER BY last_used", (idle_before,))]

    def ended(self, finished_before: float, keep: int) -> list[str]:
        rows = self._read("SELECT id, finished_at, client FROM matches WHERE finished_at IS NOT NULL "
                          "ORDER BY finished_at DESC, id DESC")
        turns: dict = {}
        order = []  # (the match's place among its client's, newest 0; its place overall)
        for place, (match_id, _, client) in enumerate(rows):
            turns[client] = turns.get(client, -1) + 1
            order.append((turns[client], place, match_id))
        kept = {match_id for _, _, match_id in sorted(order)[:keep]}
        return [i for i, at, _ in rows if i not in kept or at < finished_before][::-1]

    def live_ids(self) -> list[str]:
        return [i for (i,) in self._read("SELECT id FROM matches ORDER BY created_at, id")]

    def count_live(self, client: str | None = None) -> int:
        if client is None:
            return self._read("SELECT COUNT(*) FROM matches WHERE finished_at IS NULL")[0][0]
        return self._read(f"SELECT COUNT(*) FROM matches WHERE finished_at IS NULL AND client = {self.MARK}",
                          (client,))[0][0]

    def count_finished(self) -> int:
        return self._read("SELECT COUNT(*) FROM matches WHERE finished_at IS NOT NULL")[0][0]

    def idlest_use(self, client: str | None = None) -> float | None:
        if client is None:
            return self._read("SELECT MIN(last_used) FROM matches WHERE finished_at IS NULL")[0][0]
        return self._read(f"SELECT MIN(last_used) FROM matches WHERE finished_at IS NULL AND client = {self.MARK}",
                          (client,))[0][0]

    def version(self, match_id: str) -> int | None:
        rows = self._read(f"SELECT version FROM matches WHERE id = {self.MARK}", (match_id,))
        return rows[0][0] if rows else None

    def logged_move(self, match_id: str, index: int) -> LoggedMove | None:
        rows = self._read(f"SELECT idx, seat, text, response FROM moves WHERE match_id = {self.MARK} "
                          f"AND idx = {self.MARK}", (match_id, index))
        if not rows:
            return None
        idx, seat, text, response = rows[0]
        return LoggedMove(idx, seat, text, bytes(response) if response is not None else None)


class SqliteMatchStore(SqlQueries, MatchStore):
    """The standard library's SQLite; `path` ':memory:' keeps everything in memory."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 5000")
        if path != ":memory:":
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise OSError(f"{path}: SQLite would not use WAL mode ({mode})")
        self._db.execute("PRAGMA synchronous = FULL")
        with self._transaction() as db:
            prepare_schema(db.execute, path)

    @classmethod
    def in_directory(cls, directory: str) -> "SqliteMatchStore":
        """The store of a data directory (created if missing); OSError naming the path
        when it cannot be opened, so the server says so in one line and exits."""
        if directory == ":memory:":
            return cls(":memory:")
        path = os.path.join(directory, "matches.sqlite3")
        try:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            return cls(path)
        except (sqlite3.Error, StoreError) as exc:
            raise OSError(f"cannot open the match database {path}: {exc}") from None
        except OSError as exc:
            raise OSError(f"cannot open the match database {path}: {exc.strerror or exc}") from None

    class _Tx:
        def __init__(self, store):
            self.store = store

        def __enter__(self):
            self.store._lock.acquire()
            try:
                with _refused():
                    self.store._db.execute("BEGIN IMMEDIATE")
            except BaseException:
                self.store._lock.release()
                raise
            return self.store._db

        def __exit__(self, kind, exc, tb):
            try:
                with _refused():
                    self.store._db.execute("COMMIT" if kind is None else "ROLLBACK")
            finally:
                self.store._lock.release()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(str(exc)) from None

    def _transaction(self):
        return self._Tx(self)

    def _read(self, sql: str, args=()) -> list[tuple]:
        with self._lock, _refused():
            return self._db.execute(sql, args).fetchall()

    def create(self, match: StoredMatch) -> None:
        with self._transaction() as db:
            db.execute(f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({', '.join('?' * MATCH_COLUMN_COUNT)})",
                       match_row(match))

    def load(self, match_id: str) -> StoredMatch | None:
        with self._lock, _refused():
            row = self._db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                return None
            moves = [text for (text,) in self._db.execute(
                "SELECT text FROM moves WHERE match_id = ? ORDER BY idx", (match_id,))]
        return match_from_row(row, moves)

    def version(self, match_id: str) -> int | None:
        rows = self._read("SELECT version FROM matches WHERE id = ?", (match_id,))
        return rows[0][0] if rows else None

    def logged_move(self, match_id: str, index: int) -> LoggedMove | None:
        rows = self._read("SELECT idx, seat, text, response FROM moves WHERE match_id = ? AND idx = ?",
                          (match_id, index))
        if not rows:
            return None
        idx, seat, text, response = rows[0]
        return LoggedMove(idx, seat, text, bytes(response) if response is not None else None)

    def append(self, match_id: str, expected_version: int, moves: list[LoggedMove], now: float,
               finished: bool = False) -> int:
        new_version = expected_version + len(moves)
        ends = ", finished_at = ?" if finished else ""
        try:
            with self._transaction() as db:
                changed = db.execute(
                    f"UPDATE matches SET version = ?, last_used = ?{ends} WHERE id = ? AND version = ?",
                    (new_version, now, *((now,) if finished else ()), match_id, expected_version)).rowcount
                if changed != 1:
                    raise VersionConflict(f"match {match_id} is not at version {expected_version}")
                db.executemany(
                    "INSERT INTO moves (match_id, idx, seat, text, response) VALUES (?, ?, ?, ?, ?)",
                    [(match_id, m.index, m.seat, m.text, m.response) for m in moves])
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from None
        return new_version

    def touch(self, match_id: str, now: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE matches SET last_used = ? WHERE id = ? AND last_used < ?", (now, match_id, now))

    def mark_finished(self, match_id: str, now: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE matches SET finished_at = ? WHERE id = ? AND finished_at IS NULL", (now, match_id))

    def delete(self, match_id: str, idle_before: float | None = None) -> bool:
        with self._transaction() as db:  # BEGIN IMMEDIATE: no write comes between check and delete
            if idle_before is not None and not db.execute(
                    "SELECT 1 FROM matches WHERE id = ? AND last_used < ?", (match_id, idle_before)).fetchone():
                return False
            db.execute("DELETE FROM moves WHERE match_id = ?", (match_id,))
            return db.execute("DELETE FROM matches WHERE id = ?", (match_id,)).rowcount == 1

    def close(self) -> None:
        with self._lock:
            self._db.close()
