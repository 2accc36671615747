"""benchmarks/legends_strength.py at its smoke size: the report's cells, and a native-bot
team's cell (played in the native arena) equal to the Python loop's games."""

from __future__ import annotations

import json

from benchmarks import legends_strength
from hzai.core import Limits
from hzai.games.legends.game import DEFAULT_HEROES
from hzai.search.arena import play_team_game


def test_the_smoke_run_reports_every_cell_and_the_native_games_are_the_python_loop_s(tmp_path):
    assert legends_strength.main(["--size", "smoke", "--teams", "heuristic,ismcts", "--search-games", "2",
                                  "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "legends_strength.json").read_text())
    cells = {c["team"]: c for c in report["cells"]}
    assert set(cells) == {"heuristic", "ismcts"}
    assert cells["heuristic"]["games"] == 4 and cells["ismcts"]["games"] == 2
    params = {"mission": 1, "heroes": list(DEFAULT_HEROES[:2]), "difficulty": "human"}
    python = [play_team_game("legends", params, "ismcts", i, Limits(iterations=5), report["seed"]) for i in range(2)]
    assert cells["ismcts"]["won"] == sum(g.won for g in python)
    assert cells["ismcts"]["mean_turns"] == sum(g.turns for g in python) / 2
    assert "Target: ISMCTS" in (tmp_path / "legends_strength.md").read_text()


def test_merge_keeps_one_row_a_cell_the_run_with_more_games(tmp_path, capsys):
    small, large = tmp_path / "small", tmp_path / "large"
    assert legends_strength.main(["--size", "smoke", "--teams", "heuristic", "--games", "2", "--out", str(small)]) == 0
    assert legends_strength.main(["--size", "smoke", "--teams", "heuristic", "--games", "6", "--out", str(large)]) == 0
    out = tmp_path / "merged"
    for order in ((small, large), (large, small)):
        assert legends_strength.main(["--merge", *(str(p / "legends_strength.json") for p in order),
                                      "--out", str(out)]) == 0
        (cell,) = json.loads((out / "legends_strength.json").read_text())["cells"]
        assert cell["games"] == 6
        assert "the run of 2 games is replaced by the one of 6" in capsys.readouterr().out
