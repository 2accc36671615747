"""Replaying records again and again, cheaply, and never for longer than asked.

A front end asks for a move after every turn, each time sending the whole record; the
Python engine replays ~100 moves in about 10 ms, which is as long as a small search.
The cache keeps the states of recently replayed records and plays only the moves a
record adds to the longest cached prefix. States handed out are copies: callers may
push moves on them.

Entries are keyed by a sha256 digest of the canonical record (its game -- variants, deck,
deal -- as sorted compact JSON, then each move as a JSON string), computed in one pass
over the record: a prefix's digest is the running hash at that move, so finding the
longest cached prefix costs one pass plus one lookup per cached entry of the same game,
never a hash of every prefix. The cache is bounded in entries and in estimated bytes;
its lock is only held for those lookups, never while moves are played. A replay polls
`should_stop` every CHECK_EVERY moves and ends with ReplayStopped when it says so.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from hzai.bounded_cache import BoundedCache
from hzai.games.hera_zeus.rules.record import push_recorded
from hzai.games.hera_zeus.rules.state import State

if TYPE_CHECKING:  # records are only read here; the game's view_to_decide replays through this module
    from hzai.games.hera_zeus.rules.game import Record

CHECK_EVERY = 64  # moves between polls of should_stop
# Estimated memory of a kept state: a few KB of board and hands, plus the history and
# event lists that grow with the moves (measured with pickle: ~6 KB + ~200 B a move).
STATE_BASE_BYTES = 6 * 1024
BYTES_PER_MOVE = 200
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


# should_stop ended a replay after `played` moves: the core's error, so every caller
# (the service above all) catches one class whichever game replays.
from hzai.core.record import ReplayStopped  # noqa: E402,F401


def state_cost(moves: int) -> int:
    """Estimated bytes of a state (or a view) after `moves` moves."""
    return STATE_BASE_BYTES + BYTES_PER_MOVE * moves


def game_key(record: Record) -> bytes:
    """The canonical text of everything but the moves."""
    start = {"setup": record.setup} if record.setup is not None else {"seed": record.seed}
    return json.dumps([record.game.variants.to_dict(), record.game.deck_spec, start],
                      sort_keys=True, separators=(",", ":")).encode()


def _framed(moves: list[str]) -> bytes:
    """Each move as a JSON string and a comma: the same bytes however the moves are cut
    into pieces, unambiguous, and encodable whatever the text (JSON escapes it)."""
    return (json.dumps(moves, separators=(",", ":"))[1:-1] + ",").encode() if moves else b""


def record_digests(record: Record, lengths=()) -> dict[int, bytes]:
    """sha256 of the canonical record cut after each of `lengths` moves, and of the
    whole record (under len(record.moves)); one pass over the moves."""
    running = hashlib.sha256(game_key(record))
    total = len(record.moves)
    out = {}
    done = 0
    for count in sorted({n for n in lengths if 0 <= n < total} | {total}):
        running.update(_framed(record.moves[done:count]))
        out[count] = running.digest()
        done = count
    return out


def record_digest(record: Record) -> bytes:
    """sha256 of the canonical record: equal for equal records however they were written."""
    return record_digests(record)[len(record.moves)]


def play_moves(state: State, moves: list[str], start: int = 0, should_stop=None) -> State:
    """Play moves[start:] on `state` (RecordError names a bad move)."""
    for index in range(start, len(moves)):
        if should_stop is not None and (index - start) % CHECK_EVERY == 0 and should_stop():
            raise ReplayStopped(index)
        push_recorded(state, index, moves[index])
    return state


class ReplayCache:
    def __init__(self, size: int = 256, max_bytes: int = DEFAULT_MAX_BYTES):
        self.size = size
        self._states = BoundedCache(size, max_bytes)  # (game digest, moves, digest) -> State
        self.hits = self.misses = 0

    @property
    def bytes(self) -> int:
        return self._states.bytes

    def __len__(self) -> int:
        return len(self._states)

    @staticmethod
    def replay_uncached(record: Record, should_stop=None) -> State:
        return play_moves(record.start(), record.moves, 0, should_stop)

    def replay(self, record: Record, should_stop=None) -> State:
        """The state after all of the record's moves (RecordError as Record.replay,
        ReplayStopped when should_stop says so)."""
        game = hashlib.sha256(game_key(record)).digest()
        total = len(record.moves)
        lengths = sorted({n for g, n, _ in self._states.keys() if g == game and n <= total}, reverse=True)
        digests = record_digests(record, lengths)
        start, state = 0, None
        for n in lengths:
            cached = self._states.get((game, n, digests[n]))
            if cached is not None:
                start, state = n, cached.copy()
                break
        if state is not None and start == total:
            self.hits += 1
        else:
            self.misses += 1
        if state is None:
            state = record.start()
        play_moves(state, record.moves, start, should_stop)
        self._states.put((game, total, digests[total]), state.copy(), state_cost(total))
        return state
