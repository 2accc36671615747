"""Kill the server with SIGKILL while clients play, restart it, and check every move.

    python -m benchmarks.crash_soak --kills 100 --clients 4 --seed 1

Each round starts `hzai-server` on one data directory, lets `--clients` threads play
their hosted matches (both seats human, random legal moves, every PlayMove with its
move number), and kills the server after a random number of acknowledged moves, while
the other threads still have moves in flight. After the restart, for every match:

- the tokens still open it, and the record (merged from both seats' histories: each
  seat sees its own moves unredacted) starts with every acknowledged move;
- a move whose answer never came (in flight at the kill) is either wholly there (the
  move and all the chance results it caused) or not at all; if there, retrying it with
  the same move number answers it again without playing it twice;
- both seats' views equal the library's view of the record replayed from the seed.

Prints the kill points, matches, moves checked and `lost` (acknowledged moves missing;
must be 0). Only loopback traffic; the data directory is a temporary one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from dataclasses import dataclass, field

import grpc

from benchmarks.service import LocalServer
from hzai.games.hera_zeus.belief import view_of
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, deal
from hzai_client import HzaiClient

CONCERN = "service"  # its group in `python -m benchmarks list`

GAME = "hera_zeus"
SEATS = ("hera", "zeus")  # by seat index, as the match's status names them


@dataclass
class Tracked:
    """What a client knows of its match: every move acknowledged, and the one in flight."""

    match_id: str
    seed: int
    tokens: dict
    acked: list[str] = field(default_factory=list)
    in_flight: tuple[int, str] | None = None
    over: bool = False


@dataclass
class Figures:
    kill_points: int = 0
    matches: int = 0
    moves_checked: int = 0  # acknowledged moves checked, summed over every restart
    moves_in_records: int = 0  # record entries of all matches at the end
    unacked_applied: int = 0
    unacked_absent: int = 0
    retries_answered: int = 0
    lost: int = 0
    problems: list[str] = field(default_factory=list)


def new_match(client: HzaiClient, rng: SplitMix64) -> Tracked:
    seed = rng.next_u64() >> 1
    created = client.create_match(game=GAME, seed=seed, open=True, bot_seats=[])
    return Tracked(created.status.match_id, seed, {SEATS[s.seat]: s.token for s in created.seats})


def play(client: HzaiClient, match: Tracked, rng: SplitMix64, acked_total: list[int], lock: threading.Lock,
         stop: threading.Event) -> None:
    """Random legal moves for whichever seat is to move, until the server goes away."""
    while not stop.is_set() and not match.over:
        number = len(match.acked)
        status = client.get_view(match.match_id, token=match.tokens["hera"]).status
        if status.over:
            match.over = True
            return
        seat = SEATS[status.to_move]
        token = match.tokens[seat]
        moves = client.legal_moves(match.match_id, token=token)
        text = moves[rng.below(len(moves))].text
        match.in_flight = (number, text)
        reply = client.play_move(match.match_id, text, token=token, move_number=number)
        match.acked += [reply.played.text, *(c.text for c in reply.chance)]
        match.in_flight = None
        with lock:
            acked_total[0] += 1


def _client_thread(target: str, matches: list[Tracked], rng: SplitMix64, acked_total, lock, stop) -> None:
    with HzaiClient(target, timeout=20) as client:
        try:
            while not stop.is_set():
                live = [t for t in matches if not t.over]
                if not live:
                    matches.append(new_match(client, rng))
                    continue
                play(client, live[0], rng, acked_total, lock, stop)
        except grpc.RpcError as exc:
            if exc.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
                                  grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNKNOWN):
                raise


def merged_record(client: HzaiClient, match: Tracked) -> list[str]:
    """The record as the two seats saw it: each move as its mover wrote it (chance
    results are public)."""
    histories = [client.get_view(match.match_id, token=match.tokens[s], with_history=True).history for s in SEATS]
    texts = []
    for hera, zeus in zip(*histories):
        texts.append(zeus.move.text if hera.HasField("seat") and hera.seat == SEATS.index("zeus") else hera.move.text)
    return texts


def check(client: HzaiClient, match: Tracked, figures: Figures) -> None:
    texts = merged_record(client, match)
    known = len(match.acked)
    if texts[:known] != match.acked:
        missing = next(i for i, (a, b) in enumerate(zip(texts + [None] * known, match.acked)) if a != b)
        figures.lost += known - missing
        figures.problems.append(f"{match.match_id}: acknowledged move {missing} differs or is missing")
        return
    figures.moves_checked += known
    extra = texts[known:]
    if match.in_flight is None and extra:
        figures.problems.append(f"{match.match_id}: {len(extra)} moves nobody sent")
    elif match.in_flight is not None:
        number, text = match.in_flight
        if not extra:
            figures.unacked_absent += 1
        elif extra[0] != text or any(not e.startswith("chance ") for e in extra[1:]):
            figures.problems.append(f"{match.match_id}: move {number} half there: {extra}")
        else:
            figures.unacked_applied += 1
            retry = _retry(client, match, number, text)
            if retry is not None and retry.played.text == text and retry.status.moves_played == len(texts):
                figures.retries_answered += 1
            else:
                figures.problems.append(f"{match.match_id}: retry of move {number} was not answered as before")
    game = Game.create()
    state = Record(game, setup=deal(game, match.seed), moves=texts).replay()
    for seat in SEATS:
        view = client.get_view(match.match_id, token=match.tokens[seat]).view
        if json.loads(view.json) != json.loads(json.dumps(view_of(state, SEATS.index(seat)).to_json())):
            figures.problems.append(f"{match.match_id}: {seat}'s view differs from the replayed record")
    match.acked, match.in_flight = texts, None
    match.over = state.is_over


def _retry(client: HzaiClient, match: Tracked, number: int, text: str):
    for seat in SEATS:
        try:
            return client.play_move(match.match_id, text, token=match.tokens[seat], move_number=number)
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise
    return None


def soak(kills: int, clients: int, seed: int, *, max_moves_before_kill: int = 12, report=print) -> Figures:
    rng = SplitMix64(seed)
    figures = Figures()
    matches: list[list[Tracked]] = [[] for _ in range(clients)]
    with tempfile.TemporaryDirectory(prefix="hzai-crash-") as data:
        for round_ in range(kills + 1):
            with LocalServer(workers=clients + 2, extra=["--data-dir", data]) as server:
                with HzaiClient(server.target, timeout=20) as client:
                    for own in matches:
                        for match in own:
                            check(client, match, figures)
                if round_ == kills:
                    break
                stop = threading.Event()
                acked, lock = [0], threading.Lock()
                threads = [threading.Thread(target=_client_thread, daemon=True,
                                            args=(server.target, matches[i], SplitMix64(rng.next_u64()), acked, lock,
                                                  stop)) for i in range(clients)]
                kill_after = 1 + rng.below(max_moves_before_kill)
                for t in threads:
                    t.start()
                while True:
                    with lock:
                        if acked[0] >= kill_after:
                            break
                    if not any(t.is_alive() for t in threads):
                        raise RuntimeError(f"the clients stopped before the kill: {server.log_tail()}")
                    threading.Event().wait(0.002)
                server.kill()
                stop.set()
                for t in threads:
                    t.join(30)
                figures.kill_points += 1
                flying = sum(t.in_flight is not None for own in matches for t in own)
                report(f"kill {figures.kill_points}: after {acked[0]} acknowledged moves, {flying} in flight")
    figures.matches = sum(len(own) for own in matches)
    figures.moves_in_records = sum(len(t.acked) for own in matches for t in own)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.crash_soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = soak(args.kills, args.clients, args.seed)
    print(f"kill points {figures.kill_points} · matches {figures.matches} · moves in the records "
          f"{figures.moves_in_records} · moves checked (all restarts) {figures.moves_checked} · "
          f"unacknowledged moves: {figures.unacked_applied} there (retries answered {figures.retries_answered}), "
          f"{figures.unacked_absent} absent · lost {figures.lost}")
    for problem in figures.problems:
        print("problem:", problem)
    return 0 if figures.lost == 0 and not figures.problems else 1


if __name__ == "__main__":
    sys.exit(main())
