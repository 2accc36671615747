"""Helpers for hosted-match tests: tokens, records back from a status, random play."""

from __future__ import annotations

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Record
from hzai_client import messages as m


def record_of(status) -> Record:
    """The record a finished match's status carries, as a library Record."""
    message = status.record
    data = {"format": "hzai-record/1", "deck": message.deck, "moves": list(message.moves),
            "variants": {"first_player": message.variants.first_player,
                         "figure_removal": message.variants.figure_removal,
                         "pythia_defence": message.variants.pythia_defence,
                         "turn_limit": message.variants.turn_limit}}
    data["setup"] = {p: {"hand": list(getattr(message.setup, p).hand), "deck": list(getattr(message.setup, p).deck)}
                     for p in ("hera", "zeus")}
    return Record.from_json(data)


class Seats:
    """A created match and its tokens."""

    def __init__(self, created):
        self.created = created
        self.id = created.status.match_id
        self.spectator = created.spectator_token
        self.tokens = {m.player_name(s.player): s.token for s in created.seats}

    def __getitem__(self, seat: str) -> str:
        return self.tokens[seat]

    @property
    def any_token(self) -> str:
        """A seat token if there is a human seat, else the spectator's (bot-only matches)."""
        return next(iter(self.tokens.values()), self.spectator)


def create(client, **kwargs) -> Seats:
    return Seats(client.create_match(**kwargs))


def play_out(client, seats: Seats, rng: SplitMix64, on_reply=None, limit: int = 2000):
    """Play to the end: human seats by random legal moves, bot turns by BotPlayTurn; every
    reply (seat name, reply) goes to `on_reply`. The final status."""
    status = client.get_view(seats.id, token=seats.any_token).status
    for _ in range(limit):
        if status.over:
            return status
        mover = m.player_name(status.to_move)
        if mover in seats.tokens:
            token = seats[mover]
            moves = client.legal_moves(seats.id, token=token)
            reply = client.play_move(seats.id, None, moves[rng.below(len(moves))].text, token=token,
                                     move_number=status.moves_played)
            who = mover
        else:
            reply = client.bot_play_turn(seats.id, token=seats.any_token)
            who = next(iter(seats.tokens), None)
        if on_reply:
            on_reply(who, reply)
        status = reply.status
    raise AssertionError("the game did not end")
