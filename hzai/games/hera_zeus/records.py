"""Hera and Zeus' records part (game.records): `hzai-record/1` (rules/game.py's Record),
what a request may name in one (the built-in deck only), the view to decide after a
record (built by the native core where it is, else replayed here), and what a seat sees
of a move (rules/observed.py). The package assembles it into the Game."""

from __future__ import annotations

from hzai.core.record import NoDecision, Observed, Records, ReplayStopped
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.rules.game import Record
from hzai.games.hera_zeus.rules.observed import seen_move
from hzai.games.hera_zeus.rules.record import RECORD_FORMAT, RecordError, deal, max_record_moves, push_recorded
from hzai.games.hera_zeus.rules.replay_cache import ReplayCache
from hzai.lazy import lazy_call
from hzai.text import quoted

# The core's replay and decision view (the twin's adapters, the beliefs): imported when a
# view is first asked for, not when a record is written (hzai.lazy); asked only where the
# core is built (game.search.native).
native_decision = lazy_call("hzai.games.hera_zeus.native.decision:native_decision")

# A deck is a file path to the library; input from anyone may only name the built-in one.
TRUSTED_DECKS = ("classic",)


def check_deck(deck) -> None:
    """RecordError unless `deck` names the built-in deck (input from anyone)."""
    if deck not in TRUSTED_DECKS:
        raise RecordError(f"deck: only the {', '.join(map(repr, TRUSTED_DECKS))} deck is played here, not {quoted(deck)}",
                          field="deck")


def no_decision_reason(state) -> str:
    """Why no seat decides in `state` (over, or chance next), as the service says it."""
    if state.is_over:
        winner = "a draw" if state.winner is None else f"{PLAYERS[state.winner]} wins"
        return f"the game is over ({winner}, {state.reason}); there is no move to decide"
    return "the next event is chance (the card drawn by 'pegasus hand'): add 'chance CARD' first"


class HeraZeusRecords(Records):
    """The records part of Hera and Zeus."""

    format = RECORD_FORMAT

    @property
    def max_moves(self) -> int:
        return max_record_moves(self.game.variants.turn_limit)

    def read(self, data, base=None) -> Record:
        """A record from anyone (a request): any variants, the built-in deck only. A
        local file's (`base` given: the command line) may name a deck file."""
        if base is None and isinstance(data, dict) and "deck" in data:
            check_deck(data["deck"])
        return Record.from_json(data)

    def from_json(self, data) -> Record:
        """A record of this game (its variants and deck must be this game's)."""
        record = Record.from_json(data)
        if record.game.params != self.game.params:  # decks compare by identity: compare what they were made from
            raise RecordError("the record's variants or deck are not those of this game", field="variants")
        return record

    def write(self, record: Record) -> dict:
        return record.to_json()

    def new(self, seed: int) -> Record:
        """A new game's record with its deal written out (replayable without the dealer)."""
        return Record(self.game, setup=deal(self.game, seed))

    def of_seed(self, seed: int) -> Record:
        """A new game's record that keeps only the seed of its deal."""
        return Record(self.game, seed=seed)

    def play(self, state, index: int, text: str) -> None:
        push_recorded(state, index, text)

    def decision_view(self, state):
        if state.is_over or state.is_chance:
            raise NoDecision(no_decision_reason(state))
        return state.view(state.to_move)

    def view_to_decide(self, record: Record, should_stop=None):
        """The view of the seat to decide after `record` (a record of this game):
        RecordError for a bad record, NoDecision when the game is over or chance is
        next, ReplayStopped when `should_stop` says so. With the native core the record
        is replayed and the view built in C++ (native/decision.py); a record the core
        does not read to its end is replayed here, with the same answer."""
        if should_stop is not None and should_stop():  # the core's replay is not interrupted
            raise ReplayStopped(0)
        if self.game.search.native is not None:
            fast = native_decision(record)
            if fast is not None:
                state, view = fast
                if view is None:
                    raise NoDecision(no_decision_reason(state))
                return view
        state = ReplayCache.replay_uncached(record, should_stop)
        if state.is_over or state.is_chance:
            raise NoDecision(no_decision_reason(state))
        return self.game.search.view_of(state, state.to_move)

    def observed(self, before, move, seat: int | None) -> Observed:
        seen = seen_move(before, move, seat)
        return Observed(seen.text, seen.redacted)
