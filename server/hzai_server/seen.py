"""Moves as one seat saw them, in protobuf: every move the match service shows a seat
goes through here (the game's `observed` for the text, its `narrate` for the words)."""

from __future__ import annotations

from hzai.core import Game, Move, State
from hzai_proto.v3 import common_pb2

from hzai_server import convert


class Observer:
    """Applies moves to a state and keeps each one as `seat` saw it."""

    def __init__(self, game: Game, state: State, seat: int | None, first_index: int):
        self.game = game
        self.state = state
        self.seat = seat
        self.index = first_index
        self.moves: list[common_pb2.Move] = []
        self.events: list[common_pb2.SeenMove] = []

    def push(self, move: Move) -> None:
        before = self.state.clone()
        mover = before.current_seat
        self.state.apply(move)
        entry = common_pb2.SeenMove(
            index=self.index,
            move=convert.seen_move_to_proto(self.game, before, move, self.seat),
            narration=self.game.presentation.narrate(before, move, self.state, self.seat),
        )
        if mover is not None:
            entry.seat = mover
        self.moves.append(entry.move)
        self.events.append(entry)
        self.index += 1


def history(game: Game, start: State, moves: list[str], seat: int | None) -> list[common_pb2.SeenMove]:
    """The whole record from `start` on, as `seat` saw it."""
    observer = Observer(game, start.clone(), seat, 0)
    for text in moves:
        observer.push(game.parse_move(text))
    return observer.events
