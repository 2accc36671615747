"""Replaying records again and again, cheaply.

A front end asks for a move after every turn, each time sending the whole record; the
Python engine replays ~100 moves in about 10 ms, which is as long as a small search.
The cache keeps the states of recently replayed records and plays only the moves a
record adds to the longest cached prefix. States handed out are copies: callers may
push moves on them.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from hzai.rules.record import Record, push_recorded
from hzai.rules.state import State


class ReplayCache:
    def __init__(self, size: int = 256):
        self.size = size
        self._states: OrderedDict[tuple, State] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def _game_key(record: Record) -> str:
        start = {"setup": record.setup} if record.setup is not None else {"seed": record.seed}
        return json.dumps([record.game.variants.to_dict(), record.game.deck_spec, start], sort_keys=True)

    def replay(self, record: Record) -> State:
        """The state after all of the record's moves (RecordError as Record.replay)."""
        base = self._game_key(record)
        moves = tuple(record.moves)
        with self._lock:
            start, state = 0, None
            for n in range(len(moves), -1, -1):
                cached = self._states.get((base, moves[:n]))
                if cached is not None:
                    self._states.move_to_end((base, moves[:n]))
                    start, state = n, cached.copy()
                    break
            if start == len(moves) and state is not None:
                self.hits += 1
            else:
                self.misses += 1
        if state is None:
            state = record.start()
        for index in range(start, len(moves)):
            push_recorded(state, index, moves[index])
        with self._lock:
            self._states[(base, moves)] = state.copy()
            self._states.move_to_end((base, moves))
            while len(self._states) > self.size:
                self._states.popitem(last=False)
        return state
