"""benchmarks/legends_grid.py at a tiny size: one cell, every team, resumed without
replaying what it kept, paired differences read from the same deals, and --merge."""

from __future__ import annotations

import json

import pytest

from benchmarks import legends_grid

TINY = ["--missions", "1", "--seats", "2", "--difficulties", "human", "--games", "3", "--search-games", "3",
        "--ceiling-games", "2", "--iterations", "6,6", "--jobs", "1"]


def test_a_tiny_grid_reports_every_team_pairs_the_searched_ones_and_resumes(tmp_path, capsys):
    assert legends_grid.main([*TINY, "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "legends_grid.json").read_text())
    entries = {e["team"]: e for e in report["entries"]}
    assert set(entries) == set(legends_grid.TEAMS)
    assert entries["random"]["games"] == 3 and entries["all-seeing"]["games"] == 2
    assert report["meta"]["iterations"] == {"ismcts": 6, "ismcts-v2": 6} and report["meta"]["timing"]["given"]
    md = (tmp_path / "legends_grid.md").read_text()
    assert "mission 1, 2 seats" in md and ("met" in md or "missed" in md)
    capsys.readouterr()
    assert legends_grid.main([*TINY, "--out", str(tmp_path)]) == 0  # a rerun keeps every entry
    assert capsys.readouterr().err.count("kept from the last run") == len(legends_grid.TEAMS)
    merged = tmp_path / "merged"
    assert legends_grid.main(["--merge", str(tmp_path / "legends_grid.json"), "--out", str(merged)]) == 0
    assert len(json.loads((merged / "legends_grid.json").read_text())["entries"]) == len(legends_grid.TEAMS)


@pytest.mark.parametrize("args, said", [(["--iterations", "5"], "two numbers"),
                                        (["--teams", "nobody"], "unknown team"),
                                        (["--missions", "13"], "1..12"),
                                        (["--model", "/nonexistent/legends.npz"], "--model: no file")])
def test_bad_options_are_named(tmp_path, capsys, args, said):
    with pytest.raises(SystemExit):
        legends_grid.main([*TINY, *args, "--out", str(tmp_path)])
    assert said in capsys.readouterr().err


def test_the_learned_team_may_be_another_spec_whose_entries_are_its_own(tmp_path, capsys):
    args = [*TINY, "--teams", "ismcts", "--out", str(tmp_path)]
    assert legends_grid.main(args) == 0
    assert legends_grid.main([*args, "--learned", "ismcts:own_only=1"]) == 0
    assert "kept from the last run" not in capsys.readouterr().err  # another spec: played again
    report = json.loads((tmp_path / "legends_grid.json").read_text())
    (entry,) = report["entries"]
    assert entry["spec"] == "ismcts:own_only=1" and report["meta"]["learned"] == "ismcts:own_only=1"
    assert "the learned team is `ismcts:own_only=1`" in (tmp_path / "legends_grid.md").read_text()
