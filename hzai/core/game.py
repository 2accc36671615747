"""Game: the part of a game that never changes while it is played, in three parts by
concern (docs/architecture.md, "The seam"):

    game.py          the rules: name, seats, action ids, notation, new_state, records and
                     their replay, what a seat sees of a move; what every game writes
    search_hooks.py  SearchHooks: what the search may use (the C++ twin, a heuristic, an
                     opponent model, a learned model) beyond the rules
    front_end.py     FrontEnd: what a front end shows (title, parameters, pictures, words,
                     belief reports)

and the declaration of what the game offers beyond its rules, `capabilities`
(capabilities.py): callers ask `game.capabilities.X`, never whether a method is there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
import zlib
from typing import TYPE_CHECKING, Any, Hashable

from hzai.core.capabilities import Capabilities, MissingCapability, declaration_errors
from hzai.core.front_end import FrontEnd
from hzai.core.search_hooks import SearchHooks

if TYPE_CHECKING:
    from hzai.core.record import Observed
    from hzai.core.state import State
    from hzai.core.view import View

# A move is whatever value the game uses for one (hashable, comparable for equality);
# the core only passes it between the game and the algorithms. Action ids are the dense
# integer form of the same moves: 0 <= id < Game.num_actions.
Move = Hashable


class Game(SearchHooks, FrontEnd, ABC):
    """The static game: its name, seats, action space, notation, record codec and replay
    (here); the search's hooks (SearchHooks) and the front ends' (FrontEnd), each with
    defaults; and `capabilities`, what it declares it offers beyond the rules. A subclass
    whose declaration disagrees with the hooks it writes is refused when it is made
    (TypeError naming both)."""

    name: str
    seats: tuple[str, ...]
    # What this game offers beyond its rules; a game that writes a hook of a capability
    # declares it here (hzai.core.capabilities.HOOKS), and one that does not is refused.
    capabilities: Capabilities = Capabilities()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        errors = declaration_errors(cls, Game)
        if errors:
            raise TypeError(f"game class {cls.__qualname__}: " + "; ".join(errors))

    def missing(self, capability: str, use: str = "") -> MissingCapability:
        """The error for `use` needing `capability`, which this game does not declare."""
        return MissingCapability(self.name, capability, use)

    def require(self, capability: str, use: str = "") -> None:
        """MissingCapability (a NotImplementedError naming this game, the capability and
        `use`) unless this game declares `capability`."""
        if not self.capabilities.offers(capability):
            raise self.missing(capability, use)

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Action ids are 0..num_actions-1, chance outcomes included."""

    @property
    def params(self) -> dict[str, Any]:
        """The variant settings this game was made with (plain JSON values)."""
        return {}

    @abstractmethod
    def new_state(self, seed: int) -> "State":
        """The start of a game; `seed` draws whatever the deal leaves to chance."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move a notation text names; the game's NotationError (a ValueError)
        quotes the input when it names none."""

    def move_text(self, move: Move) -> str:
        return str(move)

    @abstractmethod
    def action_of(self, move: Move) -> int: ...

    @abstractmethod
    def move_of(self, action: int) -> Move: ...

    def record_from_json(self, data: dict):
        """A game record read from its JSON form (the game's own record type; by default
        hzai.core.record.SeedRecord)."""
        return self.read_record(data)

    def record_to_json(self, record) -> dict:
        from hzai.core.record import seed_record_json

        return seed_record_json(record)

    def seat_index(self, seat: str | int) -> int:
        """A seat by name or number; ValueError naming the seats otherwise."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.seats):
            return seat
        if isinstance(seat, str) and seat in self.seats:
            return self.seats.index(seat)
        raise ValueError(f"seat must be one of {', '.join(self.seats)}, not {seat!r}")

    # ----- records -------------------------------------------------------------------
    @property
    def record_format(self) -> str:
        """The `format` of this game's JSON records."""
        return f"{self.name}-record/1"

    @property
    def max_record_moves(self) -> int:
        """More record entries than any game can have: a longer record is refused unread."""
        return 10_000

    def read_record(self, data, base=None):
        """A record of this game from parsed JSON: its parameters may differ from this
        game's. Without `base` it is from anyone (a request) and reading it never opens
        anything it names; `base` is the folder of a local file the record was read from
        (the command line), where a game may open the files the record names, relative
        to it. RecordError (hzai.core.record) saying what is wrong."""
        from hzai.core.record import read_seed_record

        return read_seed_record(self, data)

    def write_record(self, record) -> dict:
        """The JSON of a record `read_record` or `new_record` made (what `read_record`
        reads back): the core's SeedRecord in its own form, a game's record type by
        `record_to_json`."""
        from hzai.core.record import SeedRecord, seed_record_json

        if isinstance(record, SeedRecord):
            return seed_record_json(record)
        return record.game.record_to_json(record)

    def new_record(self, seed: int):
        """The record of a new game of this game, dealt from `seed`, no move played."""
        from hzai.core.record import SeedRecord

        return SeedRecord(self, seed, [])

    def seed_record(self, seed: int):
        """The record of a new game that keeps only its `seed` (the deal is drawn again
        when it is replayed), no move played; by default what `new_record` makes."""
        return self.new_record(seed)

    def start_of(self, record) -> "State":
        """The state at the start of `record` (after the deal)."""
        return record.start()

    def play_recorded(self, state: "State", index: int, text: str) -> None:
        """Play record entry `index` (`text`) on `state`; RecordError naming the index, the
        move and why it cannot be read or played."""
        from hzai.core.record import RecordError
        from hzai.text import quoted, shorten

        try:
            move = self.parse_move(text)
            state.apply(move)
        except ValueError as exc:
            raise RecordError(f"move {index} {quoted(text)}: {shorten(str(exc))}", index, text) from None

    def replay(self, record, should_stop=None) -> "State":
        """The state after every move of `record`; RecordError names the first move that
        cannot be read or played. `should_stop` is polled every few moves (ReplayStopped)."""
        from hzai.core.record import REPLAY_CHECK_EVERY, ReplayStopped

        state = self.start_of(record)
        for index, text in enumerate(record.moves):
            if should_stop is not None and index % REPLAY_CHECK_EVERY == 0 and should_stop():
                raise ReplayStopped(index)
            record.game.play_recorded(state, index, text)
        return state

    def view_to_decide(self, record, should_stop=None) -> "View":
        """The view of the seat to decide after `record`. NoDecision when no seat decides
        there (over, or chance next); RecordError / ReplayStopped as `replay`."""
        state = record.game.replay(record, should_stop)
        return record.game.decision_view(state)

    def decision_view(self, state: "State") -> "View":
        """The view of the seat to decide in `state`; NoDecision when none does."""
        from hzai.core.record import NoDecision

        if state.is_terminal:
            raise NoDecision(f"the game is over ({self.result_text(state)}); there is no move to decide")
        if state.current_seat is None:
            raise NoDecision("the next entry is a chance result: add it to the record first")
        return state.view(state.current_seat)

    def draw_chance(self, state: "State", rng) -> Move:
        """A chance outcome drawn by its probability with `rng` (hzai.rng.SplitMix64),
        outcomes taken in action order so the draw is reproducible."""
        outcomes = sorted(state.chance_outcomes_actions())
        point = rng.next_u64() / 2**64
        action = outcomes[-1][0]
        for candidate, probability in outcomes:
            point -= probability
            if point < 0:
                action = candidate
                break
        return self.move_of(action)

    def canonical_move(self, state: "State", move: Move) -> Move:
        """`move` as the legal-move list of `state` writes it, for a game where one move
        has several spellings (Hera and Zeus: `Hydra@hera` played by Hera is `Hydra`);
        by default the move itself. hzai.search.review matches moves through it."""
        return move

    def observed(self, before: "State", move: Move, seat: int | None) -> "Observed":
        """`move`, about to be applied on `before`, as `seat` sees it (None: a spectator).
        Default: a game that declares the capability `public_moves` shows every move in
        full; any other game shows a move in full only to the seat that made it, and to
        everyone else (spectators too, and everyone for a chance result) only who moved,
        redacted. A game whose moves are partly hidden says what each seat sees by
        overriding this."""
        from hzai.core.record import Observed

        mover = before.current_seat
        if self.capabilities.public_moves or (seat is not None and seat == mover):
            return Observed(self.move_text(move))
        return Observed(f"{'chance' if mover is None else self.seats[mover]} moved", redacted=True)

    def observation(self, before: "State", action: int, seat: int) -> int:
        """What `seat` sees of action id `action`, about to be played on `before` by its
        current seat, as one int for the multi-observer search (hzai.search, tree=multi):
        the action id itself when the seat sees the move in full, else a negative id
        that is the same for every move the seat cannot tell apart there. Default: from
        `observed` — a move seen unredacted is itself; a redacted one is keyed by its
        redacted text (a 30-bit CRC of it, so two texts very rarely share one id). A
        game may override it with something cheaper; it must never tell a seat more
        than `observed` does."""
        if self.capabilities.public_moves or before.current_seat == seat:
            return action
        seen = self.observed(before, self.move_of(action), seat)
        if not seen.redacted:
            return action
        return -1 - (zlib.crc32(seen.text.encode()) & 0x3FFFFFFF)
