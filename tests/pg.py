"""A throwaway PostgreSQL for the tests: hzai_server.devcluster's, in a fresh directory
under the system's temporary directory (PostgreSQL's own user must be able to reach it,
which pytest's private tmp_path does not allow), fsync off, one database per test.
PostgreSQL missing: installed by deploy/install-services.sh when this runs as root with
apt-get, else the fixture fails saying how to install it."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

from hzai_server.devcluster import Postgres, ServiceError


class ThrowawayPostgres:
    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="hzai-pg-"))
        self.server = Postgres(self.root / "pg", durable=False)
        self._names = itertools.count()

    def start(self) -> "ThrowawayPostgres":
        try:
            self.server.start()
        except ServiceError as exc:
            self.close()
            raise RuntimeError(f"the PostgreSQL tests need PostgreSQL: {exc}") from None
        return self

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        return self.server.create_database(f"t{next(self._names)}")

    def close(self) -> None:
        try:
            self.server.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
