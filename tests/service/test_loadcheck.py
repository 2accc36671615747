"""The load check's positions: records of its game, each at a seat's decision, dealt and
played through hzai.core only."""

import json

from hzai.core import make_game
from hzai_client.loadcheck import GAME, positions


def test_the_load_check_positions_are_decisions_twenty_and_more_moves_in():
    game = make_game(GAME)
    records = [game.read_record(json.loads(text)) for text in positions(4)]
    assert len(records) >= 3
    for record in records:
        assert len(record.moves) >= 20
        assert game.view_to_decide(record).seat in range(len(game.seats))
    assert positions(4) == positions(4)  # the same records every time
