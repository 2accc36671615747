"""`hzai cluster up`: nginx and two replicas sharing one PostgreSQL, on loopback. A hosted
match is played with its calls alternating between the replicas (directly and through
nginx); one replica is killed (SIGKILL) mid-game and the game is finished through nginx
with every acknowledged move in the final record."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import grpc
import pytest

from hzai.rng import SplitMix64
from hzai_client import HzaiClient

from .matchkit import create, record_of

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED)


def hzai(*words: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hzai_client.cli", *words], capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def cluster():
    directory = Path(tempfile.mkdtemp(prefix="hzai-cl-"))
    up = hzai("cluster", "--dir", str(directory), "up", "--replicas", "2", "--",
              "--max-searches", "2", "--default-iterations", "50", "--grace", "1")
    try:
        assert up.returncode == 0, up.stderr
        state = json.loads((directory / "cluster.json").read_text())
        assert up.stdout.strip().splitlines()[-1] == state["address"]
        yield state
    finally:
        down = hzai("cluster", "--dir", str(directory), "down")
        shutil.rmtree(directory, ignore_errors=True)
        assert down.returncode == 0, down.stderr


def test_status_lists_every_part_up(cluster):
    shown = hzai("cluster", "--dir", cluster["directory"], "status", "--json")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    parts = json.loads(shown.stdout)["parts"]
    assert [p["part"] for p in parts] == ["postgresql", "replica 0", "replica 1", "nginx"]
    assert all(p["up"] for p in parts)


def upstreams_seen(cluster) -> set[str]:
    log = Path(cluster["nginx"]) / "access.log"
    return {word.split("=", 1)[1] for line in log.read_text().splitlines() for word in line.split()
            if word.startswith("upstream=")}


def test_calls_through_nginx_spread_over_the_replicas(cluster):
    """Four searches of 1.5 s sent at once through one channel: least_conn hands the
    calls in flight to both replicas (each runs two searches at most)."""
    with HzaiClient(cluster["address"], timeout=60) as client:
        start = threading.Barrier(4)
        codes = []

        def suggest():
            start.wait()
            try:
                client.suggest_move({"format": "hzai-record/1", "seed": 3, "moves": []}, millis=1500, timeout=60)
                codes.append("OK")
            except grpc.RpcError as exc:
                codes.append(exc.code().name)

        threads = [threading.Thread(target=suggest) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    replicas = {r["address"] for r in cluster["replicas"]}
    assert codes.count("OK") >= 2
    assert replicas <= upstreams_seen(cluster)  # least_conn sent calls in flight to both


def test_a_match_survives_a_replica_killed_mid_game(cluster):
    direct = [HzaiClient(r["address"], timeout=30) for r in cluster["replicas"]]
    through = HzaiClient(cluster["address"], timeout=30)
    clients = [direct[0], direct[1], through]
    seats = create(through, bot_seats=[1], bot="random")
    hera = seats["hera"]
    rng = SplitMix64(5)
    acknowledged: dict[int, str] = {}  # move index -> text, from every answer received
    errors: list[str] = []
    calls, killed = 0, False
    status = through.get_view(seats.id, token=hera).status
    while not status.over:
        assert calls < 3000, "the game did not end"
        if calls == 12 and not killed:
            os.kill(cluster["replicas"][0]["pid"], signal.SIGKILL)
            killed = True
            error = _error_of(direct[0].get_view, seats.id, token=hera)
            assert error is not None and error.code() == grpc.StatusCode.UNAVAILABLE
        # Before the kill: replica 0, replica 1, nginx in turn; after it: nginx only.
        client = through if killed else clients[calls % 3]
        calls += 1
        try:
            if status.to_move == 0:  # Hera, the human seat
                legal = client.legal_moves(seats.id, token=hera)
                text = legal[rng.below(len(legal))].text
                reply = client.play_move(seats.id, text, token=hera, move_number=status.moves_played)
                texts = [reply.played.text, *(c.text for c in reply.chance)]
            else:
                reply = client.bot_play_turn(seats.id, token=hera, move_number=status.moves_played)
                texts = [mv.text for mv in reply.moves]
        except grpc.RpcError as exc:
            if exc.code() not in RETRYABLE and exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise
            errors.append(exc.code().name)
            status = through.get_view(seats.id, token=hera).status  # read again, then retry
            continue
        first = reply.status.moves_played - len(texts)
        for offset, text in enumerate(texts):
            acknowledged[first + offset] = text
        status = reply.status
    assert killed
    print(f"calls {calls}, moves {status.moves_played}, errors seen by the client {errors}")
    final = record_of(status).moves
    hidden = [i for i, text in acknowledged.items() if "?" in text]  # what Hera may not see of Zeus's moves
    lost = {i: (text, final[i] if i < len(final) else None) for i, text in acknowledged.items()
            if i not in hidden and (i >= len(final) or _plain(final[i]) != _plain(text))}
    assert not lost, f"acknowledged moves not in the final record (index: acknowledged, final): {lost}"
    assert len(final) == status.moves_played
    for c in (*direct, through):
        c.close()


def _plain(text: str) -> str:
    """A move's text without card owners: a seat's view may name the owner (NAME@hera)
    where the record leaves it implied."""
    return re.sub(r"@\w+", "", text)


def _error_of(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except grpc.RpcError as exc:
        return exc
    return None
