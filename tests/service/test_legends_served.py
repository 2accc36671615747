"""Legends of Hellas served generically (no converter module of its own): no answer to
one hero shows a move in full where that hero may not know it, in the history or in
PlayMove's events. The library's per-seat history (LegendsView.history, hidden cards
as `?`) says which moves hide something from which seat."""

from __future__ import annotations

from hzai.core import make_game
from hzai.rng import SplitMix64

from .matchkit import create

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
