"""A batch of positions: one result each, in order; a bad position gets its own error
naming its index and what is wrong, and the others are answered as if alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hzai.core import Limits, make_game
from hzai.games.hera_zeus.rules import Record
from hzai.search import RootMoves, analyze
from hzai.search.positions import MAX_POSITIONS, BatchTooLarge, analyze_positions, position_view

RECORD = json.loads((Path(__file__).parents[1] / "data" / "handmade_game.json").read_text())
LIMITS = Limits(iterations=300)


def record_game():
    """A Hera and Zeus game with the record's variants (records are read by their game)."""
    return Record.from_json(RECORD).game


def plain(analysis) -> dict:
    data = analysis.to_json()
    data.pop("millis")
    return data


def test_a_bad_position_is_named_and_the_others_are_answered():
    game = record_game()
    positions = [
        {"record": RECORD, "upto": 2},
        {"record": {"format": "hzai-record/1", "moves": []}},  # neither seed nor setup
        {"record": RECORD, "upto": 4, "seat": "hera"},
        "not an object",
        {"record": RECORD, "upto": 2, "seat": "zeus"},  # hera decides there
        {"record": {**RECORD, "moves": ["setup Hydra Cyclops Satyr", "fly away"]}},
        {"record": RECORD, "upto": 9999},
        {"record": RECORD, "upto": 3, "allow": ["challenge c3"]},
        {"record": RECORD, "upto": 3, "colour": "red"},
        {"record": RECORD, "upto": 6, "avoid": ["draw"]},
    ]
    results = list(analyze_positions(game, positions, LIMITS, seed=4))
    assert [r.index for r in results] == list(range(len(positions)))
    errors = {r.index: r.error for r in results if r.error is not None}
    assert sorted(errors) == [1, 3, 4, 5, 6, 7, 8]
    assert errors[1].startswith("position 1: record:") and "setup or seed" in errors[1]
    assert errors[3] == "position 3: a position must be a JSON object with a record"
    assert errors[4] == "position 4: hera is to decide here, not zeus"
    assert errors[5].startswith("position 5: move 1 'fly away':")
    assert errors[6].startswith("position 6: upto must be a whole number 0..")
    assert "allow move 'challenge c3' is not legal here" in errors[7]
    assert errors[8].startswith("position 8: unknown field(s) colour")
    for result in results:
        if result.error is None:  # each answer is the analysis of that position alone
            view, root_moves = position_view(game, positions[result.index])
            assert plain(result.analysis) == plain(analyze(view, LIMITS, 4, root_moves=root_moves))
    assert "draw" not in {str(m.move) for m in results[9].analysis.moves}
    assert json.loads(json.dumps(results[1].to_json()))["error"] == errors[1]


def test_a_record_of_other_variants_is_named():
    (result,) = analyze_positions(make_game("hera_zeus", turn_limit=30), [{"record": RECORD}], LIMITS)
    assert result.error == "position 0: record: the record's variants or deck are not those of this game"


def test_position_view_reads_chosen_moves():
    game = record_game()
    view, root_moves = position_view(game, {"record": RECORD, "upto": 6, "allow": ["draw"]})
    assert root_moves == RootMoves(allow=(game.parse_move("draw"),))
    assert view.current_seat == view.seat


def test_a_batch_too_large_is_refused_before_any_work():
    game = record_game()
    with pytest.raises(BatchTooLarge, match=f"at most {MAX_POSITIONS}"):
        next(analyze_positions(game, [{}] * (MAX_POSITIONS + 1), LIMITS))


def test_stop_ends_the_batch_between_positions():
    game = record_game()
    done = []

    def stop() -> bool:
        return len(done) >= 2

    for result in analyze_positions(game, [{"record": RECORD, "upto": n} for n in (0, 2, 3, 4)], LIMITS, stop=stop):
        done.append(result)
    assert [r.index for r in done] == [0, 1] and all(r.error is None for r in done)
