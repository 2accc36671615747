"""A real hzai-server on a free local port, started as its own process the way an
operator starts it, and records to ask it about."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hzai.games.hera_zeus.rules import Game, Record, deal
from hzai.rng import SplitMix64

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0


class ServerProcess:
    """`python -m hzai_server` on port 0; the port is read from its 'listening' log line."""

    def __init__(self, *flags: str):
        if "--data-dir" not in flags:  # never the operator's default directory
            flags = (*flags, "--data-dir", ":memory:")
        if "--processes" not in flags:  # one process, as before --processes: a test that wants more says so
            flags = ("--processes", "1", *flags)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hzai_server", "--address", "127.0.0.1:0", *flags],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.logs: list[dict] = []
        self._listening = threading.Event()
        self._lines = threading.Thread(target=self._read, daemon=True)
        self._lines.start()
        if not self._listening.wait(START_TIMEOUT):
            self.process.kill()
            raise RuntimeError(f"hzai-server did not start: {self.logs}")
        self.address = next(e["address"] for e in self.logs if e.get("event") == "listening" and "worker" not in e)

    def _read(self) -> None:
        for line in self.process.stderr:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                entry = {"event": "non-json", "line": line.rstrip()}
            self.logs.append(entry)
            if entry.get("event") == "listening" and "worker" not in entry:  # the whole, not one worker
                self._listening.set()
        self._listening.set()  # the process ended

    def kill(self) -> None:
        """SIGKILL: the process ends at once, with no chance to clean up."""
        self.process.kill()
        self.process.wait(15)
        self._lines.join(5)

    def stop(self, timeout: float = 15.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self._lines.join(5)
        return code


@pytest.fixture(scope="session")
def server():
    # Every test creates matches from this one host: no per-client cap gets in the way.
    srv = ServerProcess("--max-searches", "2", "--max-iterations", "200000", "--max-millis", "20000",
                        "--max-threads", "2", "--default-iterations", "300", "--max-matches-per-client", "1000")
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def tiny_server():
    """One search at a time and two matches: for the load limits."""
    srv = ServerProcess("--max-searches", "1", "--max-matches", "2", "--max-millis", "20000",
                        "--max-message-bytes", "65536")
    yield srv
    srv.stop()


@pytest.fixture
def client(server):
    from hzai_client import HzaiClient

    with HzaiClient(server.address, timeout=30) as c:
        yield c


def played_record(seed: int, moves: int, *, choose_seed: int | None = None) -> Record:
    """A dealt game with `moves` random legal moves played (chance results included)."""
    game = Game.create()
    record = Record(game, setup=deal(game, seed))
    state = record.start()
    rng = SplitMix64(seed if choose_seed is None else choose_seed)
    while len(record.moves) < moves and not state.is_over:
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        move = options[rng.below(len(options))]
        state.push(move)
        record.moves.append(str(move))
    # End at a decision, never at chance.
    while state.is_chance:
        move = state.chance_outcomes()[0][0]
        state.push(move)
        record.moves.append(str(move))
    return record


@pytest.fixture
def midgame() -> Record:
    record = played_record(12, 24)
    assert not record.replay().is_over
    return record


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL server for the session (tests/pg.py); `new_database()` per test."""
    from tests.pg import ThrowawayPostgres

    server = ThrowawayPostgres().start()
    yield server
    server.close()


STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def store_kind(request):
    return request.param


@pytest.fixture
def store_flags(store_kind, request, tmp_path) -> list[str]:
    """hzai-server flags keeping matches in a fresh SQLite directory or PostgreSQL database."""
    if store_kind == "sqlite":
        return ["--data-dir", str(tmp_path / "data")]
    return ["--store", request.getfixturevalue("postgres").new_database()]
