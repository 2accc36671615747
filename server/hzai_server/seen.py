"""Moves as one seat saw them, in protobuf: every move the match service shows a seat
goes through here (hzai.games.hera_zeus.rules.observed for the text, hzai.games.hera_zeus.narrate for the words)."""

from __future__ import annotations

from hzai.games.hera_zeus.narrate import narrate
from hzai.games.hera_zeus.rules import Move, State, parse_move
from hzai.games.hera_zeus.rules import moves as mv
from hzai.games.hera_zeus.rules.observed import seen_move
from hzai_proto.v1 import game_pb2

from hzai_server import convert


def move_message(before: State, move: Move, seat: int | None) -> game_pb2.Move:
    """`move` (about to be pushed on `before`) as `seat` sees it; a redacted move keeps
    only the fields that hide nothing (columns, rows, empty setup columns)."""
    seen = seen_move(before, move, seat)
    if not seen.redacted:
        return convert.move_to_proto(parse_move(seen.text, before.deck))
    out = game_pb2.Move(text=seen.text, kind=move.kind, redacted=True)
    if move.kind == mv.PLAY:
        out.col, out.row = move.col, move.row
    elif move.kind == mv.SETUP:
        out.setup.extend(game_pb2.Card() for _ in move.setup or ())
    return out


def seen_entry(index: int, before: State, move: Move, after: State, seat: int | None) -> game_pb2.SeenMove:
    mover = seen_move(before, move, seat).mover
    return game_pb2.SeenMove(
        index=index,
        player=convert.player_to_proto(mover),
        move=move_message(before, move, seat),
        narration=narrate(before, move, after, seat),
    )


class Observer:
    """Pushes moves on a state and keeps each one as `seat` saw it."""

    def __init__(self, state: State, seat: int | None, first_index: int):
        self.state = state
        self.seat = seat
        self.index = first_index
        self.moves: list[game_pb2.Move] = []
        self.events: list[game_pb2.SeenMove] = []

    def push(self, move: Move) -> None:
        before = self.state.copy()
        self.state.push(move)
        entry = seen_entry(self.index, before, move, self.state, self.seat)
        self.moves.append(entry.move)
        self.events.append(entry)
        self.index += 1


def history(start: State, moves: list[str], seat: int | None) -> list[game_pb2.SeenMove]:
    """The whole record from `start` on, as `seat` saw it."""
    observer = Observer(start.copy(), seat, 0)
    for text in moves:
        observer.push(parse_move(text, observer.state.deck))
    return observer.events
