"""Legends of Hellas served generically (no converter module of its own): no answer to
one hero shows a move in full where that hero may not know it, in the history or in
PlayMove's events. The library's per-seat history (LegendsView.history, hidden cards
as `?`) says which moves hide something from which seat."""

from __future__ import annotations

import grpc

from hzai.core import make_game
from hzai.rng import SplitMix64

from .matchkit import create
from .test_errors import rpc_error

HEROES = ["Perseus", "Atalanta", "Hercules"]
SEED = 11
MOVES = 40


def test_no_hero_is_shown_a_move_in_full_that_hides_cards_from_it(client):
    seats = create(client, "legends", params={"heroes": HEROES}, bot_seats=[], seed=SEED, open=True)
    names = list(seats.tokens)
    rng, events = SplitMix64(5), {name: [] for name in names}
    status = client.get_view(seats.id, token=seats[names[0]]).status
    while status.moves_played < MOVES and not status.over:
        mover = status.seats[status.to_move]
        moves = client.legal_moves(seats.id, token=seats[mover])
        reply = client.play_move(seats.id, moves[rng.below(len(moves))].text, token=seats[mover])
        events[mover].extend(reply.events)
        status = reply.status
    seen = [client.get_view(seats.id, token=seats[n], with_history=True).history for n in names]
    assert all(len(h) == status.moves_played for h in seen)
    # Each hero sees its own moves in full: together they are the record.
    texts = []
    for index in range(status.moves_played):
        mover = seen[0][index].seat
        assert not seen[mover][index].move.redacted
        texts.append(seen[mover][index].move.text)
    game = make_game("legends", heroes=HEROES)
    record = game.new_record(SEED)
    record.moves[:] = texts
    state = game.replay(record)
    must_hide = 0
    for index, (mover, move, _) in enumerate(state.t.history):
        for seat in range(len(names)):
            if state.view(seat).history[index][1] != move:  # the library hides part of it from `seat`
                must_hide += 1
                assert seen[seat][index].move.redacted, (index, seat, texts[index])
                assert not seen[seat][index].move.HasField("action")
                shown = [e for e in events[names[seat]] if e.index == index]
                assert all(e.move.redacted for e in shown), (index, seat)
    assert must_hide > 0  # these moves did hide cards


def test_a_bot_turn_retried_by_another_hero_does_not_get_the_first_callers_answer(client):
    """The stored answer of a BotPlayTurn was written for the seat that called it (its
    events as that seat saw them, its status naming that seat): another seat asking
    with the same move_number is told to read the match again instead."""
    seats = create(client, "legends", params={"heroes": HEROES}, bot_seats=[2], seed=SEED, open=True)
    status = client.get_view(seats.id, token=seats["p1"]).status
    while status.to_move != 2:
        token = seats[status.seats[status.to_move]]
        status = client.play_move(seats.id, client.legal_moves(seats.id, token=token)[0].text, token=token).status
    number = status.moves_played
    first = client.bot_play_turn(seats.id, token=seats["p1"], move_number=number)
    assert first.status.seat == 0 and first.moves
    again = client.bot_play_turn(seats.id, token=seats["p1"], move_number=number)
    assert again == first  # the same caller's retry gets its answer back
    error = rpc_error(client.bot_play_turn, seats.id, token=seats["p2"], move_number=number)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "move_number" in error.details()
