"""Game records in the form every game gets for free, and the errors of reading and
replaying one.

A record is the game it is of (`record.game`, with its parameters), where the deal comes
from, and the texts of the moves played (`record.moves`, chance results included). A
game with its own record format (Hera and Zeus' `hzai-record/1`) keeps its own record
type with those two attributes; every other game reads and writes `SeedRecord`:

    {"format": "<game>-record/1", "params": {...}, "seed": N, "moves": ["...", ...]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hzai.text import quoted, shorten

if TYPE_CHECKING:
    from hzai.core.game import Game

MASK64 = (1 << 64) - 1
# What `hzai play --save` writes when a game is left before its end: the moves as one
# seat saw them. Not a record (hidden cards are hidden), so every reader names it.
SEAT_VIEW_FORMAT = "hzai-seat-view/1"


def refuse_seat_view(data: Any) -> None:
    """RecordError saying what the file is when `data` is a seat's view, not a record."""
    if isinstance(data, dict) and data.get("format") == SEAT_VIEW_FORMAT:
        seat = data.get("seat")
        whose = f"{seat}'s" if isinstance(seat, str) and len(seat) <= 20 else "one seat's"
        raise RecordError(f"this is {whose} view of an unfinished game ({SEAT_VIEW_FORMAT}, saved by hzai play "
                          "--save when a game is left), not a game record: it hides what that seat could not "
                          "see, so it cannot be replayed or analysed; the record is saved when a game ends")
REPLAY_CHECK_EVERY = 64  # moves between polls of should_stop during a replay


class RecordError(ValueError):
    """A malformed record, or a move of it that cannot be read or played. `index` is the
    0-based position of the move at fault in `moves` (None when no move is), `move` its
    text; `field` the key of the record at fault when it is not a move ("variants",
    "deck"; None: the record as a whole), which a service names in its answer."""

    def __init__(self, message: str, index: int | None = None, move: str | None = None, field: str | None = None):
        super().__init__(message)
        self.index = index
        self.move = move
        self.field = field


class ReplayStopped(Exception):
    """`should_stop` ended a replay after `played` moves."""

    def __init__(self, played: int):
        super().__init__(f"stopped after {played} moves")
        self.played = played


class NoDecision(ValueError):
    """The position has no seat to decide (the game is over, or chance is next)."""


@dataclass(frozen=True)
class Observed:
    """A move as one seat sees it: the text it is shown, and whether that text hides
    something (`redacted`: the action id and details must not be shown either)."""

    text: str
    redacted: bool = False


@dataclass
class SeedRecord:
    """The record of a game dealt from a seed: the game (its parameters), the seed and
    the move texts."""

    game: "Game"
    seed: int
    moves: list[str] = field(default_factory=list)

    def start(self):
        return self.game.new_state(self.seed)


def read_seed_record(game: "Game", data: Any) -> SeedRecord:
    """`data` (parsed JSON) as a SeedRecord of `game`'s kind; RecordError naming the
    field otherwise. The record's params make the game (`game.presentation.with_params`)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    refuse_seat_view(data)
    unknown = set(data) - {"format", "params", "seed", "moves"}
    if unknown:
        raise RecordError(f"unknown record field(s): {shorten(', '.join(sorted(map(str, unknown))))}")
    if data.get("format") != game.records.format:
        raise RecordError(f"format must be {game.records.format!r}, not {quoted(data.get('format'))}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise RecordError("params must be an object")
    try:
        of = game.presentation.with_params(params)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"params: {exc}") from None
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
        raise RecordError(f"seed must be a whole number 0..2^64-1, not {quoted(seed, 40)}")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("moves must be a list of strings")
    check_length(of, len(moves))
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(f"move {index}: must be a string, not {quoted(move)}", index, "")
    return SeedRecord(of, seed, list(moves))


def check_length(game: "Game", moves: int) -> None:
    """Refuse a record longer than any game of `game` can be, before reading a move."""
    most = game.records.max_moves
    if moves > most:
        raise RecordError(f"moves: {moves} moves, but a game of {game.name} has at most {most}")


def seed_record_json(record: SeedRecord) -> dict:
    return {"format": record.game.records.format, "params": dict(record.game.params), "seed": record.seed,
            "moves": list(record.moves)}


class Records:
    """A game's records part (game.records): its record format and codec, new records,
    replays, the view to decide after a record, and what a seat sees of a move. The
    defaults read and write SeedRecord; a game with its own record type overrides
    `read`, `from_json`, `write`, `new` and `of_seed`."""

    game: "Game"  # the game this is a part of

    def __init__(self, game: "Game"):
        self.game = game

    @property
    def format(self) -> str:
        """The `format` of this game's JSON records."""
        return f"{self.game.name}-record/1"

    @property
    def max_moves(self) -> int:
        """More record entries than any game can have: a longer record is refused unread."""
        return 10_000

    # What `hzai new` writes when told neither --deal nor --seed-only: the seed alone
    # (`of_seed`) when True, else the record with the deal written out (`new`).
    keeps_seed: bool = False

    def read(self, data, base=None):
        """A record of this game from parsed JSON: its parameters may differ from this
        game's. Without `base` it is from anyone (a request) and reading it never opens
        anything it names; `base` is the folder of a local file the record was read from
        (the command line), where a game may open the files the record names, relative
        to it. RecordError saying what is wrong."""
        return read_seed_record(self.game, data)

    def from_json(self, data: dict):
        """A record of this very game read from its JSON form (a game may insist that
        the record's parameters are its own)."""
        return self.read(data)

    def write(self, record) -> dict:
        """The JSON of a record `read` or `new` made (what `read` reads back)."""
        return seed_record_json(record)

    def new(self, seed: int):
        """The record of a new game, dealt from `seed`, no move played."""
        return SeedRecord(self.game, seed, [])

    def of_seed(self, seed: int):
        """The record of a new game that keeps only its `seed` (the deal is drawn again
        when it is replayed), no move played; by default what `new` makes."""
        return self.new(seed)

    def start_of(self, record):
        """The state at the start of `record` (after the deal)."""
        return record.start()

    def play(self, state, index: int, text: str) -> None:
        """Play record entry `index` (`text`) on `state`; RecordError naming the index, the
        move and why it cannot be read or played."""
        try:
            state.apply(self.game.parse_move(text))
        except ValueError as exc:
            raise RecordError(f"move {index} {quoted(text)}: {shorten(str(exc))}", index, text) from None

    def replay(self, record, should_stop=None):
        """The state after every move of `record`; RecordError names the first move that
        cannot be read or played. `should_stop` is polled every few moves (ReplayStopped)."""
        state = self.start_of(record)
        play = record.game.records.play
        for index, text in enumerate(record.moves):
            if should_stop is not None and index % REPLAY_CHECK_EVERY == 0 and should_stop():
                raise ReplayStopped(index)
            play(state, index, text)
        return state

    def view_to_decide(self, record, should_stop=None):
        """The view of the seat to decide after `record`. NoDecision when no seat decides
        there (over, or chance next); RecordError / ReplayStopped as `replay`."""
        records = record.game.records
        return records.decision_view(records.replay(record, should_stop))

    def decision_view(self, state):
        """The view of the seat to decide in `state`; NoDecision when none does."""
        if state.is_terminal:
            raise NoDecision(f"the game is over ({self.game.presentation.result_text(state)}); "
                             "there is no move to decide")
        if state.current_seat is None:
            raise NoDecision("the next entry is a chance result: add it to the record first")
        return state.view(state.current_seat)

    def observed(self, before, move, seat: int | None) -> Observed:
        """`move`, about to be applied on `before`, as `seat` sees it (None: a spectator).
        Default: a game whose moves are public (capability public_moves) shows every
        move in full; any other shows a move in full only to the seat that made it, and
        to everyone else (spectators too, and everyone for a chance result) only who
        moved, redacted. A game whose moves are partly hidden overrides this."""
        game = self.game
        mover = before.current_seat
        if game.capabilities.public_moves or (seat is not None and seat == mover):
            return Observed(game.move_text(move))
        return Observed(f"{'chance' if mover is None else game.seats[mover]} moved", redacted=True)
