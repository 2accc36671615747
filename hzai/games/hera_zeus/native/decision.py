"""The view of the seat to decide after a record, built by the native core: the record's
moves replayed in C++ and the seat's knowledge followed through the replay's events
(hzai/games/hera_zeus/native/replay.hpp, knowledge.hpp), with no reference State or View on the way.

The native search reads the spec it gives directly; everything else that asks the view
for more (the heuristic and random bots, the belief report, `to_json`) gets the
reference view, built on first use by replaying the record in Python.

The core reads only the move texts it writes itself (the notation of the legal-move
list). Any other text -- another spelling the reference engine also accepts, an unknown
or illegal move -- stops the native replay, and the record is replayed by the
reference engine instead: the one reader of free-form notation and the one writer of
RecordError messages, so a bad record gets the same error on either path.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from hzai import _native
from hzai.core.view import View as CoreView
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.native.policy_infer import attach_record
from hzai.games.hera_zeus.native.state import NativeState, native_game, record_start
from hzai.games.hera_zeus.native.tables import PHASES

if TYPE_CHECKING:
    from hzai.games.hera_zeus.rules.game import Game, Record

__all__ = ["NativeDecisionView", "native_decision"]


def native_decision(record: Record) -> tuple[NativeState, NativeDecisionView | None] | None:
    """(the state after the record, the view of the seat to decide there or None when no
    seat decides), or None when the core could not replay the record to its end (a move
    it does not read or cannot play; the tracker giving up): the caller replays with the
    reference engine then."""
    stopped_at, end, spec = _native.decide_after(record_start(record), list(record.moves))
    if stopped_at >= 0:
        return None
    state = NativeState(record.game, end)
    if spec is None:
        if not state.is_over and state.core.to_move is not None:
            return None  # a seat decides but the tracker gave up: the reference view
        return state, None
    return state, NativeDecisionView(record, spec)


class NativeDecisionView(CoreView):
    """The seat to decide's view after `record`, held as the native ViewSpec
    (`native_spec`); the reference view (hzai.games.hera_zeus.belief.View) is built
    from the record on first use and answers every other attribute. The record (the
    whole deal) is not part of the view: it is kept privately only until that reference
    view is built, and dropped then.

    One view may be read by several threads at once (the server's decision cache hands
    the same view to concurrent calls), so the reference view is built under a lock:
    once, and never from a record another thread has already dropped."""

    def __init__(self, record: Record, spec: _native.ViewSpec):
        self.game: Game = record.game
        self._record = record
        self.native_spec = spec
        self._reference = None
        self._building = threading.Lock()
        attach_record(self, record)  # the deal and moves for ismcts:pbi=1, dropped once read

    @property
    def seat(self) -> int:
        return self.native_spec.to_move

    @property
    def current_seat(self) -> int | None:
        return self.native_spec.to_move

    @property
    def reference(self):
        """The reference View, replayed and built once (with its knowledge tracker)."""
        built = self._reference
        if built is None:
            with self._building:
                built = self._reference  # another thread may have built it meanwhile
                if built is None:
                    built = view_of(self._record.replay(), self.seat)
                    self._reference = built
                    self._record = None  # the view holds what the seat knows, nothing more
        return built

    def turn_progress(self) -> tuple[int, int] | None:
        """(AP spent, AP left) of the seat's own turn, read from the native spec as the
        reference view reads its public fields (hzai.games.hera_zeus.belief.View): None
        outside the play phase, with a decision pending, outside the seat's own turn or
        with no AP left. Read here, so a split budget (ismcts:split=S) needs no replay
        in Python."""
        spec = self.native_spec
        if PHASES[spec.phase] != "play" or len(spec.pending) or spec.to_move < 0:
            return None
        if spec.turn_player != spec.to_move or spec.ap < 1:
            return None
        return spec.ap_spent, spec.ap

    def legal_moves(self):
        return self.game.search.view_legal_moves(self)

    def sample(self, seed: int):
        return self.game.search.sample_view(self, seed)

    def to_json(self) -> dict:
        return self.reference.to_json()

    def __eq__(self, other) -> bool:
        return self.reference == (other.reference if isinstance(other, NativeDecisionView) else other)

    __hash__ = None

    def __getattr__(self, name: str):
        # only reached for what this class does not hold: the reference view's fields
        if name.startswith("__") or name in ("_reference", "_record", "_building", "native_spec", "game", "_pbi_source"):
            raise AttributeError(name)
        return getattr(self.reference, name)
