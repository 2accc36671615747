"""Game: the part of a game that never changes while it is played."""

from __future__ import annotations

from abc import ABC, abstractmethod
import json
import zlib
from typing import TYPE_CHECKING, Any, Hashable

if TYPE_CHECKING:
    from hzai.core.record import Observed
    from hzai.core.state import State
    from hzai.core.view import View

# A move is whatever value the game uses for one (hashable, comparable for equality);
# the core only passes it between the game and the algorithms. Action ids are the dense
# integer form of the same moves: 0 <= id < Game.num_actions.
Move = Hashable


class Game(ABC):
    """The static game: its name, seats, action space, notation, record codec and, where
    the game has a C++ twin, the native handle the generic native search runs on."""

    name: str
    seats: tuple[str, ...]

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

    @property
    def native(self):
        """The native game handle the C++ search runs on, or None: the generic native
        search then calls this Python game back (hzai/native/py_game.hpp)."""
        return None

    # ----- optional, for the generic bots ---------------------------------------------
    def native_view(self, view):
        """The view in the typed form the native twin's search reads (with `native`)."""
        raise NotImplementedError(f"game {self.name} has no native twin")

    def native_start(self, seed: int):
        """The twin's state equal to `new_state(seed)`, for the native arena (with
        `native`); None where the twin cannot make one."""
        return None

    # The playout policy the generic search plays this game's playouts with when none is
    # asked for (a name of hzai.native.tables.PLAYOUTS: "random", or "light", the game's
    # own `playout_step` of its native twin).
    default_playout: str = "random"
    # Whether the single-observer search keeps only the searching seat's own decisions in
    # its tree when no bot option says (option own_only; the other seats' moves on the way
    # down are then the playout policy's). docs/search.md.
    default_own_only: bool = False
    # Whether the search's determinizations follow the game's opponent model
    # (`inferred_view`) when no bot option says (option infer); only a game that has one
    # may turn it on. docs/search.md.
    default_infer: bool = False

    def heuristic_scores(self, view, moves: list[Move]) -> list[float]:
        """Rule-of-thumb scores of `moves` (higher is better), for the heuristic bot."""
        raise NotImplementedError(f"game {self.name} has no heuristic policy")

    def seat_index(self, seat: str | int) -> int:
        """A seat by name or number; ValueError naming the seats otherwise."""
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.seats):
            return seat
        if isinstance(seat, str) and seat in self.seats:
            return self.seats.index(seat)
        raise ValueError(f"seat must be one of {', '.join(self.seats)}, not {seat!r}")

    # ----- what a front end (the service) needs; defaults for a game with only the basics
    # A game's parameters, records, replays and the words and pictures a player is shown.
    # Everything here reads the game's own objects; nothing names a transport.
    cooperative: bool = False  # every seat gets the team's result
    public_moves: bool = False  # every move is seen in full by every seat (see `observed`)

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.name.replace("_", " ").capitalize()

    @property
    def record_format(self) -> str:
        """The `format` of this game's JSON records."""
        return f"{self.name}-record/1"

    @property
    def max_record_moves(self) -> int:
        """More record entries than any game can have: a longer record is refused unread."""
        return 10_000

    @property
    def params_help(self) -> str:
        """The parameters `with_params` takes, for people."""
        if not self.params:
            return "this game takes no parameters"
        return "a JSON object; parameters and their defaults: " + json.dumps(self.params, sort_keys=True)

    def with_params(self, params: dict) -> "Game":
        """This game with other parameters (from anyone: a request). ValueError naming a
        key this game does not take; the game's own checks name a bad value. By default
        the registered factory makes it (`make_game(name, **params)`)."""
        if not isinstance(params, dict):
            raise ValueError("the parameters must be a JSON object")
        unknown = sorted(str(k) for k in params if k not in self.params)
        if unknown:
            allowed = ", ".join(sorted(self.params)) or "none"
            raise ValueError(f"unknown parameter {unknown[0][:60]!r}; {self.name} takes: {allowed}")
        if not params:
            return self
        from hzai.core.registry import make_game

        return make_game(self.name, **{**self.params, **params})

    def read_record(self, data):
        """A record of this game from parsed JSON that anyone may have written (a
        request): its parameters may differ from this game's, and reading it never opens
        anything it names. RecordError (hzai.core.record) saying what is wrong."""
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

    def observed(self, before: "State", move: Move, seat: int | None) -> "Observed":
        """`move`, about to be applied on `before`, as `seat` sees it (None: a spectator).
        Default: a game that declares `public_moves` shows every move in full; any other
        game shows a move in full only to the seat that made it, and to everyone else
        (spectators too, and everyone for a chance result) only who moved, redacted. A
        game whose moves are partly hidden says what each seat sees by overriding this."""
        from hzai.core.record import Observed

        mover = before.current_seat
        if self.public_moves or (seat is not None and seat == mover):
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
        if self.public_moves or before.current_seat == seat:
            return action
        seen = self.observed(before, self.move_of(action), seat)
        if not seen.redacted:
            return action
        return -1 - (zlib.crc32(seen.text.encode()) & 0x3FFFFFFF)

    def narrate(self, before: "State", move: Move, after: "State", seat: int | None) -> list[str]:
        """What happened, in words, as `seat` saw it; none by default."""
        return []

    def board_text(self, state: "State", seat: int) -> str:
        """A text picture of `state` for `seat`, showing only what it may see."""
        return json.dumps(state.view(seat).to_json(), indent=2, sort_keys=True)

    def referee_text(self, state: "State") -> str:
        """A text picture of `state` with nothing hidden: what a front end shows once the
        game is over and its record is public. By default every seat's board in turn."""
        return "\n\n".join(f"{name}:\n{self.board_text(state, seat)}" for seat, name in enumerate(self.seats))

    def belief_text(self, report: dict) -> str:
        """`belief_report`'s answer in words (hzai belief's text); by default one entry a
        line, as JSON."""
        return "\n".join(f"{key}: {json.dumps(value)}" for key, value in report.items()
                          if key not in ("observer", "samples", "seed"))

    def result_text(self, state: "State") -> str:
        """The end in words ("" before it)."""
        if not state.is_terminal:
            return ""
        returns = state.returns()
        if self.cooperative:
            return "won" if returns and returns[0] >= 1 else ("lost" if not returns or returns[0] <= 0 else "drawn")
        best = max(returns)
        winners = [self.seats[i] for i, r in enumerate(returns) if r == best]
        return "draw" if len(winners) != 1 else f"{winners[0]} wins"

    def end_reason(self, state: "State") -> str:
        """Why the game ended, a short word ("" when the game does not say)."""
        return ""

    def state_to_json(self, state: "State") -> dict:
        """The referee's picture of `state` as JSON (by default every seat's view)."""
        return {"views": [state.view(seat).to_json() for seat in range(len(self.seats))]}

    def inferred_view(self, view: "View", temperature: float | None, seed: int,
                      worlds: int | None = None) -> "View | None":
        """`view` with its determinizations weighted by the game's model of the other
        seats (what they chose to do tells where the hidden cards are), every one still
        consistent with the view; `temperature` softens the model (None: the game's
        default), `seed` draws its worlds. `worlds`: at most how many determinizations
        are worth preparing for the search (from its budget, `worlds_bound` in
        hzai.search.ismcts; None: no bound), so that a game which prepares its worlds
        up front prepares no more than the search can use.
        None: the game has no such model (the search then refuses `infer`)."""
        return None

    # The model file the game ships (docs/learning.md): value, policy and card-location
    # nets its native twin evaluates; None: the game searches without one.
    model_file = None
    # The learned search's defaults where they differ from the shared ones (hzai.search.
    # ismcts: IsmctsBot.parts and guide): value, policy, cards (0/1), cpuct, mix; a bot's
    # options override them.
    model_defaults: dict = {}

    def guided_view(self, view: "View", model, pool: int, seed: int) -> "View | None":
        """`view` with its determinizations weighted by `model`'s card-location heads (a
        pool of `pool` worlds drawn with `seed`, each still consistent with the view);
        None: the game's models have no such heads."""
        return None

    def policy_of(self, view: "View", model) -> "list[float] | None":
        """`model`'s policy at `view`: a probability for each of `view.legal_moves()`, in
        that order (the strength levels sample from it); None: the game's models have no
        policy."""
        return None

    def belief_report(self, view: "View", samples: int, seed: int) -> dict:
        """Where the hidden information probably is, from `view`, as JSON."""
        raise NotImplementedError(f"game {self.name} has no belief report")

    @property
    def has_heuristic(self) -> bool:
        """Whether this game offers `heuristic_scores` (the heuristic bot needs them)."""
        return type(self).heuristic_scores is not Game.heuristic_scores

    @property
    def has_belief_report(self) -> bool:
        return type(self).belief_report is not Game.belief_report

    @property
    def has_opponent_model(self) -> bool:
        """Whether this game offers `inferred_view` (a bot's option infer needs it)."""
        return type(self).inferred_view is not Game.inferred_view
