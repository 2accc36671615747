"""Legends of Hellas served generically (no converter module of its own): no answer to
one hero shows a move in full where that hero may not know it, in the history or in
PlayMove's events. The library's per-seat history (LegendsView.history, hidden cards
as `?`) says which moves hide something from which seat."""

from __future__ import annotations

import json

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
    record = game.records.new(SEED)
    record.moves[:] = texts
    state = game.records.replay(record)
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


def test_a_legends_match_plays_to_its_end_and_its_record_reads_back(client):
    """The final status carries the record: the one the server keeps (the deal written
    out as a legends-record/1 setup) must be written in the form the server reads, or the
    last move fails."""
    seats = create(client, "legends", params={"turn_limit": 1}, bot_seats=[], seed=SEED, open=True)
    status = client.get_view(seats.id, token=seats["p1"]).status
    while not status.over:
        token = seats[status.seats[status.to_move]]
        status = client.play_move(seats.id, client.legal_moves(seats.id, token=token)[0].text, token=token).status
    record = json.loads(status.record_json)
    assert record["format"] == "legends-record/1" and "setup" in record
    assert len(record["moves"]) == status.moves_played
    game = make_game("legends")
    assert game.records.write(game.records.read(record)) == record
    analysed = [r.decision for r in client.analyze_game(status.record_json, game="legends", iterations=20)
                if r.HasField("decision")]
    assert analysed and all(d.played.text == record["moves"][d.index] for d in analysed)


def test_a_legends_record_is_suggested_a_move_with_the_decision_cache_on(client):
    record = {"format": "legends-record/1", "mission": 1, "heroes": ["Perseus", "Atalanta"], "seed": SEED,
              "moves": ["place m1"]}
    first = client.suggest_move(json.dumps(record), game="legends", bot="random")
    again = client.suggest_move(json.dumps(record, indent=1), game="legends", bot="random")
    assert first.seat == again.seat == 1 and first.move.text == again.move.text
