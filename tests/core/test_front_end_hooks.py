"""The hzai.core hooks a front end uses, with their defaults (the toy game implements only
the basics) and Hera and Zeus' own."""

from __future__ import annotations

import pytest

from hzai.rng import SplitMix64
from hzai.core import NoDecision, RecordError, ReplayStopped, SeedRecord, assemble, make_game
from hzai.core.record import Observed
from tests.toygame import ToyGame


def test_a_basic_game_gets_a_json_record_format():
    game = ToyGame()
    assert game.records.format == "toy_guess-record/1"
    record = game.records.read({"format": "toy_guess-record/1", "seed": 4, "moves": ["bet"]})
    assert isinstance(record, SeedRecord) and record.moves == ["bet"]
    assert game.records.write(record) == {"format": "toy_guess-record/1", "params": {}, "seed": 4, "moves": ["bet"]}
    assert game.records.view_to_decide(record).seat == 1


@pytest.mark.parametrize("data, words", [
    ({"format": "other/1", "seed": 1}, "format"),
    ({"format": "toy_guess-record/1", "seed": -1}, "seed"),
    ({"format": "toy_guess-record/1", "params": {"colour": 1}}, "colour"),
    ({"format": "toy_guess-record/1", "moves": ["bet"] * 20_000}, "at most"),
    ({"format": "toy_guess-record/1", "extra": 1}, "extra"),
])
def test_a_bad_record_is_named(data, words):
    with pytest.raises(RecordError, match=words):
        ToyGame().records.read(data)


def test_replay_names_the_move_index_and_text():
    game = ToyGame()
    record = game.records.read({"format": "toy_guess-record/1", "seed": 1, "moves": ["bet", "raise"]})
    with pytest.raises(RecordError) as caught:
        game.records.replay(record)
    assert caught.value.index == 1 and caught.value.move == "raise" and "move 1 'raise'" in str(caught.value)


def test_replay_polls_should_stop():
    game = make_game("hera_zeus")
    rng = SplitMix64(2)
    record = game.records.new(3)
    state = game.records.replay(record)
    while len(record.moves) < 70 and not state.is_terminal:
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        move = options[rng.below(len(options))]
        state.apply(move)
        record.moves.append(game.move_text(move))
    assert len(record.moves) == 70
    with pytest.raises(ReplayStopped):
        game.records.replay(record, should_stop=lambda: True)


def test_an_ended_game_has_no_decision_and_says_who_won():
    game = ToyGame()
    record = game.records.read({"format": "toy_guess-record/1", "seed": 1, "moves": ["fold"]})
    state = game.records.replay(record)
    assert game.presentation.result_text(state) == "second wins"
    with pytest.raises(NoDecision, match="over"):
        game.records.view_to_decide(record)


def test_defaults_show_every_move_and_narrate_nothing():
    game = ToyGame()
    state = game.new_state(1)
    seen = game.records.observed(state, "bet", 1)
    assert (seen.text, seen.redacted) == ("bet", False)
    assert game.presentation.narrate(state, "bet", state, 1) == []
    assert '"card"' in game.presentation.board_text(state, 0)
    assert not game.capabilities.heuristic and not game.capabilities.belief_report


def test_with_params_names_an_unknown_key():
    with pytest.raises(ValueError, match="unknown parameter 'size'"):
        ToyGame().presentation.with_params({"size": 3})


def test_hera_zeus_hides_a_face_down_card_from_the_other_seat():
    game = make_game("hera_zeus")
    state = game.records.replay(game.records.new(5))
    setup = state.legal_moves()[0]
    assert game.records.observed(state, setup, 1).redacted and game.records.observed(state, setup, 1).text.startswith("setup ?")
    assert not game.records.observed(state, setup, 0).redacted
    assert game.presentation.title == "Hera and Zeus" and game.records.format == "hzai-record/1"


def test_hera_zeus_params_and_records_from_anyone_take_only_the_built_in_deck():
    game = make_game("hera_zeus")
    assert game.presentation.with_params({"turn_limit": 50}).variants.turn_limit == 50
    with pytest.raises(ValueError, match="deck"):
        game.presentation.with_params({"deck": "/etc/passwd"})
    with pytest.raises(RecordError, match="deck"):
        game.records.read({"format": "hzai-record/1", "deck": "/etc/passwd", "seed": 1})
    with pytest.raises(ValueError, match="variant"):
        game.presentation.with_params({"first_player": "nobody"})


def test_a_game_whose_moves_are_not_public_shows_others_only_who_moved():
    # A game that neither states its moves public nor writes its own `records.observed`
    # (the toy game assembled without public_moves): the default must not show another
    # seat's move (or a spectator any move) in full.
    class Undeclared(ToyGame):
        pass

    assemble(Undeclared)  # its moves not public
    game = Undeclared()
    state = game.new_state(3)
    move = state.legal_moves()[0]
    mover = state.current_seat
    assert game.records.observed(state, move, mover) == Observed(game.move_text(move))
    for seat in (1 - mover, None):
        seen = game.records.observed(state, move, seat)
        assert seen.redacted and seen.text == f"{game.seats[mover]} moved"
    toy = ToyGame()
    assert toy.capabilities.public_moves and not toy.records.observed(toy.new_state(1), "bet", None).redacted


def test_hera_and_zeus_raises_the_cores_record_error_itself():
    from hzai.core import record as core_record
    from hzai.games.hera_zeus.rules import RecordError as HeraZeusRecordError

    assert HeraZeusRecordError is core_record.RecordError
    with pytest.raises(RecordError) as caught:
        make_game("hera_zeus").records.read({"format": "hzai-record/1", "seed": 1, "moves": [7]})
    assert type(caught.value) is core_record.RecordError
