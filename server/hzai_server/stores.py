"""Opening the match store a server's settings name (SQLite or PostgreSQL): used by the
server (app) and by a supervisor of worker processes (workers), which imports no grpc."""

from __future__ import annotations

from hzai_server.store import MatchStore, SqliteMatchStore, is_postgres_url


def open_store(store: str, data_dir: str) -> MatchStore:
    """The store a server's settings name: PostgreSQL for a postgresql:// URL (needs the
    `cluster` extra: psycopg), else SQLite in `data_dir`. OSError saying what is wrong."""
    if not store:
        return SqliteMatchStore.in_directory(data_dir)
    if not is_postgres_url(store):
        raise OSError("--store must be empty (SQLite in --data-dir) or a postgresql:// URL")
    try:
        from hzai_server.store_pg import PostgresMatchStore
    except ImportError:
        raise OSError("a postgresql:// store needs psycopg: pip install 'hzai[cluster]' "
                      "(or pip install 'psycopg[binary]')") from None
    return PostgresMatchStore(store)
