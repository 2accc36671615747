"""Helpers for hosted-match tests: tokens, records back from a status, random play."""

from __future__ import annotations

import json

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Record


def record_of(status) -> Record:
    """The record a finished match's status carries, as a library Record."""
    return Record.from_json(json.loads(status.record_json))


class Seats:
    """A created match and its tokens."""

    def __init__(self, created):
        self.created = created
        self.id = created.status.match_id
        self.spectator = created.spectator_token
        self.tokens = {s.seat_name: s.token for s in created.seats}

    def __getitem__(self, seat: str) -> str:
        return self.tokens[seat]

    @property
    def any_token(self) -> str:
        """A seat token if there is a human seat, else the spectator's (bot-only matches)."""
        return next(iter(self.tokens.values()), self.spectator)


def create(client, game: str = "hera_zeus", **kwargs) -> Seats:
    return Seats(client.create_match(game, **kwargs))


def play_out(client, seats: Seats, rng: SplitMix64, on_reply=None, limit: int = 2000):
    """Play to the end: human seats by random legal moves, bot turns by BotPlayTurn; every
    reply (seat name, reply) goes to `on_reply`. The final status."""
    status = client.get_view(seats.id, token=seats.any_token).status
    for _ in range(limit):
        if status.over:
            return status
        mover = status.seats[status.to_move] if status.HasField("to_move") else None
        if mover in seats.tokens:
            token = seats[mover]
            moves = client.legal_moves(seats.id, token=token)
            reply = client.play_move(seats.id, moves[rng.below(len(moves))].text, token=token,
                                     move_number=status.moves_played)
            who = mover
        else:
            reply = client.bot_play_turn(seats.id, token=seats.any_token)
            who = next(iter(seats.tokens), None)
        if on_reply:
            on_reply(who, reply)
        status = reply.status
    raise AssertionError("the game did not end")


def seat_name(seat) -> str | None:
    """A Hera and Zeus seat index as its name (None for an unset seat)."""
    return None if seat is None else ("hera", "zeus")[seat]
