"""Many positions analysed in one go, in order, one result each: a position that cannot
be read or has nothing to decide gets its own error (naming its index and what is wrong)
and the others are answered all the same.

A position is plain JSON, so that a service request, a file or a Ray task can carry it:

    {"record": {...the game's record...}, "upto": 12, "seat": "hera",
     "allow": ["draw", "challenge c2"], "avoid": []}

`record` is required; `upto` (the first N moves; default all), `seat` (the seat expected
to decide, checked), `allow` / `avoid` (chosen root moves in notation) are optional.
Every position is analysed with the same seed and budget, so each result equals the
analysis of that position alone with that seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from hzai.core import Analysis, Game, Limits, View
from hzai.core.bot import RootMoves, Stop
from hzai.search.ismcts import DEFAULT_EXPLORATION, analyze
from hzai.search.review import resolve_move
from hzai.text import quoted, shorten

MAX_POSITIONS = 1000  # positions one batch may hold
FIELDS = ("record", "upto", "seat", "allow", "avoid")


class PositionError(ValueError):
    """A position that cannot be analysed; the message says what is wrong with it."""


class BatchTooLarge(ValueError):
    """More positions than one batch may hold."""


@dataclass
class PositionResult:
    index: int
    analysis: Analysis | None = None
    error: str | None = None  # "position INDEX: what is wrong"; None when analysed

    def to_json(self, move_text: Callable = str) -> dict:
        if self.error is not None:
            return {"index": self.index, "error": self.error}
        return {"index": self.index, "analysis": self.analysis.to_json(move_text)}


def _names(value, field: str) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PositionError(f"{field} must be a list of moves in notation")
    return value


def position_view(game: Game, position) -> tuple[View, RootMoves | None]:
    """The view of the seat to decide after the position's moves, and its chosen root
    moves. The record is read by the game (`game.records.from_json`, which may insist
    that the record is of this very game, variants included; the record's `start()` and
    `moves`) and replayed through the core State; PositionError says what is wrong."""
    if not isinstance(position, dict):
        raise PositionError("a position must be a JSON object with a record")
    unknown = sorted(set(position) - set(FIELDS))
    if unknown:
        raise PositionError(f"unknown field(s) {shorten(', '.join(map(str, unknown)))}; fields: {', '.join(FIELDS)}")
    if "record" not in position:
        raise PositionError("no record")
    try:
        record = game.records.from_json(position["record"])
    except NotImplementedError as exc:
        raise PositionError(str(exc)) from None
    except ValueError as exc:
        raise PositionError(f"record: {shorten(str(exc))}") from None
    moves = list(record.moves)
    upto = position.get("upto")
    if upto is not None and (not isinstance(upto, int) or isinstance(upto, bool) or not 0 <= upto <= len(moves)):
        raise PositionError(f"upto must be a whole number 0..{len(moves)} (the record's moves), not {quoted(upto)}")
    state = record.start()
    for index, text in enumerate(moves[:upto]):
        try:
            state.apply(resolve_move(state, text))
        except ValueError as exc:
            raise PositionError(f"move {index} {quoted(text)}: {shorten(str(exc))}") from None
    if state.current_seat is None:
        raise PositionError("nothing to decide here (the game is over or a chance event comes next)")
    seat = position.get("seat")
    if seat is not None:
        try:
            wanted = game.presentation.seat_index(seat)
        except ValueError as exc:
            raise PositionError(f"seat: {exc}") from None
        if wanted != state.current_seat:
            raise PositionError(f"{game.seats[state.current_seat]} is to decide here, not {game.seats[wanted]}")
    allow, avoid = _names(position.get("allow"), "allow"), _names(position.get("avoid"), "avoid") or []
    root_moves = RootMoves.parse(game, allow, avoid) if allow is not None or avoid else None
    return state.view(state.current_seat), root_moves


def analyze_positions(game: Game, positions: Sequence, limits: Limits, seed: int = 0, *,
                      stop: Stop | None = None, exploration: float = DEFAULT_EXPLORATION,
                      playout: str | None = None) -> Iterator[PositionResult]:
    """Yield a PositionResult for each position, in order, as each is done. A bad
    position's result carries the error; the batch goes on. `stop` ends the batch
    (between positions and inside a search: a search cut short is not answered).
    BatchTooLarge for more than MAX_POSITIONS positions, before any work."""
    if len(positions) > MAX_POSITIONS:
        raise BatchTooLarge(f"{len(positions)} positions in one batch; at most {MAX_POSITIONS}")
    for index, position in enumerate(positions):
        if stop is not None and stop():
            return
        try:
            view, root_moves = position_view(game, position)
            analysis = analyze(view, limits, seed, should_stop=stop, exploration=exploration, playout=playout,
                               root_moves=root_moves)
        except ValueError as exc:  # PositionError, RootMovesError, a game's own errors
            yield PositionResult(index, error=f"position {index}: {exc}")
            continue
        if stop is not None and not analysis.finished and stop():
            return
        yield PositionResult(index, analysis)
