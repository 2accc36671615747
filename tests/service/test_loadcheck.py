"""The load check's positions: records of its game, each at a seat's decision, dealt and
played through hzai.core only."""

import json

from hzai.core import make_game
from hzai_client.loadcheck import GAME, positions


def test_the_load_check_positions_are_decisions_twenty_and_more_moves_in():
    game = make_game(GAME)
    records = [game.records.read(json.loads(text)) for text in positions(4)]
    assert len(records) >= 3
    for record in records:
        assert len(record.moves) >= 20
        assert game.records.view_to_decide(record).seat in range(len(game.seats))
    assert positions(4) == positions(4)  # the same records every time


def test_the_load_check_takes_budget_and_json_as_every_command_does(server, tmp_path, capsys):
    import pytest

    from hzai_client.loadcheck import main

    out = tmp_path / "levels.json"
    assert main(["--server", server.address, "--budget", "50", "--requests", "4", "--concurrency", "1",
                 "--json", str(out)]) == 0
    levels = json.loads(out.read_text())
    assert [(r["concurrency"], r["ok"], r["failed"]) for r in levels] == [(1, 4, 0)]
    assert "budget 50, 4 calls per level" in capsys.readouterr().out
    for flags, words in ((["--budget", "5x"], "--budget: "), (["--budget", "50", "--iterations", "50"], "say the same"),
                         (["--json", str(tmp_path / "no" / "such" / "x.json")], "--json: cannot write")):
        with pytest.raises(SystemExit) as stop:
            main(["--server", server.address, *flags])
        assert stop.value.code == 2 and words in capsys.readouterr().err
