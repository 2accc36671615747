"""The match store on PostgreSQL, for several replicas sharing one database.

Same tables and semantics as the SQLite store (hzai_server.store): every method is one
transaction, and `append` only writes when the match is at the version it names. Two
replicas appending to one match race on `UPDATE matches ... WHERE version = %s`: under
READ COMMITTED the second waits for the first to commit, sees the new version and
changes no row, so it writes nothing and raises VersionConflict; the primary key of
`moves` (match_id, idx) would refuse a doubled entry even without that check.

Connections come from a small pool (one per thread using the store at once); a
connection that fails is dropped and the error is a StoreError, so the server answers
UNAVAILABLE and the next call opens a new connection. Statements are capped at
STATEMENT_TIMEOUT_MS so no call waits without bound on a locked row.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import psycopg

from hzai_server.store import (MATCH_COLUMN_COUNT, MATCH_COLUMNS, LoggedMove, MatchStore, SqlQueries, StoredMatch, StoreError,
                               VersionConflict, match_from_row, match_row, prepare_schema)

CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 10_000
MAX_IDLE_CONNECTIONS = 8
_SCHEMA_LOCK_KEY = 0x687A6169  # an advisory lock: replicas starting together create the tables once


def describe(url: str) -> str:
    """The URL without its password, for logs and messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    where = info.get("host") or "localhost"
    return f"postgresql://{info.get('user', '')}@{where}:{info.get('port', 5432)}/{info.get('dbname', '')}"


class PostgresMatchStore(SqlQueries, MatchStore):
    MARK = "%s"  # psycopg's placeholder

    def __init__(self, url: str):
        self.url = url
        self._idle: list[psycopg.Connection] = []
        self._lock = threading.Lock()
        try:
            with self._connection() as db, db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_KEY,))
                prepare_schema(lambda sql, args: db.execute(sql.replace("BLOB", "BYTEA"), args), describe(url),
                               self.MARK)
        except StoreError as exc:
            raise OSError(f"cannot open the match database {describe(url)}: {exc}") from None

    # ----- connections -------------------------------------------------------------------
    def _connect(self) -> psycopg.Connection:
        try:
            return psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT_S,
                                   options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}")
        except psycopg.Error as exc:
            raise StoreError(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__) from None

    @contextmanager
    def _connection(self):
        """A connection of the pool for one transaction; dropped if it failed."""
        with self._lock:
            db = self._idle.pop() if self._idle else None
        if db is None or db.closed:
            db = self._connect()
        broken = False
        try:
            yield db
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            broken = True
            raise StoreError(str(exc).strip() or type(exc).__name__) from None
        finally:
            if not broken and not db.closed and db.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                with self._lock:
                    if len(self._idle) < MAX_IDLE_CONNECTIONS:
                        self._idle.append(db)
                        db = None
            if db is not None:
                db.close()

    @contextmanager
    def _transaction(self):
        with self._connection() as db, db.transaction():
            yield db

    def _read(self, sql: str, args=()) -> list[tuple]:
        with self._transaction() as db:
            return db.execute(sql, args).fetchall()

    # ----- the interface -----------------------------------------------------------------
    def create(self, match: StoredMatch) -> None:
        with self._transaction() as db:
            db.execute(f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({', '.join(['%s'] * MATCH_COLUMN_COUNT)})",
                       match_row(match))

    def load(self, match_id: str) -> StoredMatch | None:
        with self._transaction() as db:
            row = db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s", (match_id,)).fetchone()
            if row is None:
                return None
            moves = [text for (text,) in db.execute(
                "SELECT text FROM moves WHERE match_id = %s ORDER BY idx", (match_id,))]
        return match_from_row(row, moves)

    def append(self, match_id: str, expected_version: int, moves: list[LoggedMove], now: float,
               finished: bool = False) -> int:
        new_version = expected_version + len(moves)
        ends = ", finished_at = %s" if finished else ""
        try:
            with self._transaction() as db:
                changed = db.execute(
                    f"UPDATE matches SET version = %s, last_used = GREATEST(last_used, %s){ends}"
                    " WHERE id = %s AND version = %s",
                    (new_version, now, *((now,) if finished else ()), match_id, expected_version)).rowcount
                if changed != 1:
                    raise VersionConflict(f"match {match_id} is not at version {expected_version}")
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO moves (match_id, idx, seat, text, response) VALUES (%s, %s, %s, %s, %s)",
                        [(match_id, m.index, m.seat, m.text, m.response) for m in moves])
        except psycopg.errors.UniqueViolation:
            raise VersionConflict(f"match {match_id} already has an entry at one of these indexes") from None
        except psycopg.Error as exc:
            raise StoreError(str(exc).strip() or type(exc).__name__) from None
        return new_version

    def touch(self, match_id: str, now: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE matches SET last_used = %s WHERE id = %s AND last_used < %s", (now, match_id, now))

    def mark_finished(self, match_id: str, now: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE matches SET finished_at = %s WHERE id = %s AND finished_at IS NULL", (now, match_id))

    def delete(self, match_id: str, idle_before: float | None = None) -> bool:
        with self._transaction() as db:
            if idle_before is not None:  # the row lock makes a concurrent append wait, then fail
                row = db.execute("SELECT last_used FROM matches WHERE id = %s FOR UPDATE", (match_id,)).fetchone()
                if row is None or row[0] >= idle_before:
                    return False
            db.execute("DELETE FROM moves WHERE match_id = %s", (match_id,))
            return db.execute("DELETE FROM matches WHERE id = %s", (match_id,)).rowcount == 1

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()
