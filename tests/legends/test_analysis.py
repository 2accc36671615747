"""`hzai analyze` and `hzai analyze-game` on Legends records: every legal move of the seat
to decide with the team's win probability and its interval, a whole short mission
reviewed decision by decision (chance orders of a seed record included), bad options
named, the same seed giving the same answer."""

from __future__ import annotations

import json

import pytest

from hzai.cli import main
from hzai.core import make_game
from hzai.games.legends import Record
from hzai.rng import SplitMix64

HEROES = ["Perseus", "Atalanta"]
EPS = 1e-9  # the interval's ends are computed in floating point (a 0 may come out as 3e-17)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def played(mission: int, seed: int, moves: int, until_chance: bool = False) -> Record:
    """A seed record with `moves` random legal moves (or up to just past a chance order)."""
    game = make_game("legends", mission=mission, heroes=HEROES)
    record = Record(game, seed=seed, moves=[])
    rng = SplitMix64(seed)
    state = record.replay()
    while not state.is_terminal and len(record.moves) < moves:
        options = state.legal_moves()
        record.moves.append(game.move_text(options[rng.below(len(options))]))
        chances = sum(seat is None for seat, _, _ in state.t.history)
        state = record.replay()
        if until_chance and sum(seat is None for seat, _, _ in state.t.history) > chances:
            break
    return record


def write(tmp_path, record: Record, name: str = "mission.json"):
    path = tmp_path / name
    path.write_text(json.dumps(record.to_json()))
    return str(path)


def test_analyze_gives_the_moves_the_bot_weighs_a_team_value_with_an_interval(capsys, tmp_path):
    """`hzai analyze` is the default bot's own search (its widened root weighs a few
    moves); --bot ismcts:root_widen=4 surveys more of them."""
    record = played(1, 3, 6)
    code, out, err = run(capsys, "analyze", write(tmp_path, record), "--budget", "150", "--json")
    assert code == 0, err
    answer = json.loads(out)
    state = record.replay()
    assert answer["perspective"] == f"p{state.current_seat + 1}"
    legal = sorted(record.game.move_text(m) for m in state.legal_moves())
    assert {m["move"] for m in answer["moves"]} <= set(legal) and answer["moves"]
    assert sum(m["visits"] for m in answer["moves"]) == answer["iterations"] == 150
    wide = json.loads(run(capsys, "analyze", write(tmp_path, record), "--budget", "150", "--json",
                          "--bot", "ismcts:root_widen=4")[1])
    assert len(wide["moves"]) > len(answer["moves"]) and {m["move"] for m in wide["moves"]} <= set(legal)
    for m in answer["moves"]:
        assert 0.0 <= m["ci_low"] <= m["value"] + EPS and m["value"] <= m["ci_high"] + EPS and m["ci_high"] <= 1.0
    again = json.loads(run(capsys, "analyze", write(tmp_path, record), "--budget", "150", "--json")[1])
    assert again["moves"] == answer["moves"]  # same seed, same analysis


def test_analyze_prints_the_positions_win_probability(capsys, tmp_path):
    code, out, _ = run(capsys, "analyze", write(tmp_path, played(3, 5, 4)), "--budget", "60")
    assert code == 0
    assert "values are the team's win probability" in out
    assert out.splitlines()[1].startswith("from here: ")


@pytest.mark.parametrize("argv, words", [
    (["--as", "p2"], "p1 is to decide here, not p2"),
    (["--as", "zeus"], "seats are p1, p2, not zeus"),
    (["--belief", "10"], "--belief"),
])
def test_analyze_names_a_bad_option(capsys, tmp_path, argv, words):
    code, _, err = run(capsys, "analyze", write(tmp_path, played(1, 3, 6)), "--budget", "20", *argv)
    assert code == 2 and words in err


def test_analyze_refuses_a_finished_mission(capsys, tmp_path):
    record = played(1, 2, 10_000)
    assert record.replay().is_terminal
    code, _, err = run(capsys, "analyze", write(tmp_path, record), "--budget", "20")
    assert code == 2 and "over" in err


def test_analyze_game_reviews_every_decision_of_a_short_mission(capsys, tmp_path):
    record = played(6, 1, 60, until_chance=True)
    state = record.replay()
    chance = sum(seat is None for seat, _, _ in state.t.history)
    assert chance, "the record should hold a chance order (mission 6, a DI use)"
    path = write(tmp_path, record)
    code, out, err = run(capsys, "analyze-game", path, "--budget", "24", "--json", "--quiet")
    assert code == 0, err
    rows = json.loads(out)
    decisions = [(i, seat) for i, (seat, _, _) in enumerate(state.t.history) if seat is not None]
    assert [(r["index"], r["seat"]) for r in rows] == [(i, f"p{s + 1}") for i, s in decisions]
    assert [r["played"] for r in rows] == [record.game.move_text(state.t.history[i][1]) for i, _ in decisions]
    for r in rows:
        assert 0.0 <= r["best_interval"][0] <= r["best_value"] + EPS and r["best_value"] <= r["best_interval"][1] + EPS <= 1.0 + EPS
        assert r["played_value"] is None or 0.0 <= r["played_value"] <= 1.0
    only = json.loads(run(capsys, "analyze-game", path, "--budget", "24", "--json", "--quiet", "--as", "p2")[1])
    assert only == [r for r in rows if r["seat"] == "p2"]  # each decision's seed depends on its index only
    code, text, _ = run(capsys, "analyze-game", path, "--budget", "24", "--quiet")
    assert code == 0 and f"p1: {sum(s == 0 for _, s in decisions)} decisions" in text
    assert "the team's win probability at the first decision" in text
