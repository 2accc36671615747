"""The command line's contract for Legends records: replay and legal as for Hera and
Zeus (exit 0 with the state / the sorted moves; a note when chance is next; exit 2 with
one line naming index, move and reason), new, view --seat, show --seat, and help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hzai.cli import main
from hzai.core import make_game
from tests.legends.helpers import game, record_of


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def record(tmp_record):
    def write(moves=(), **options):
        g = game(**options)
        return tmp_record(record_of(g, {"p1": ["di", "arms", "strength", "guile"]},
                                    monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"], moves=list(moves)))
    return write


def test_replay_prints_the_state_json(capsys, record):
    code, out, err = run(capsys, "replay", str(record(["place m1", "place m2"])))
    state = json.loads(out)
    assert code == 0 and err == "" and state["game"] == "legends" and state["turn"] == 1 and state["to_move"] == "p1"


def test_legal_prints_sorted_lower_case_moves(capsys, record):
    code, out, err = run(capsys, "legal", str(record(["place m1", "place m2"])))
    lines = out.splitlines()
    assert code == 0 and lines == sorted(lines) and "fight di arms" in lines and "oracle" in lines
    assert all(line == line.lower() for line in lines)


def test_legal_when_chance_is_next_prints_nothing_and_a_note(capsys, record):
    code, out, err = run(capsys, "legal", str(record(["place m1", "place m2", "fight di arms"], mission=6)))
    assert code == 0 and out == "" and "chance" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("command", ["replay", "legal", "view", "show"])
def test_an_illegal_move_is_one_line_exit_2(capsys, record, command):
    code, out, err = run(capsys, command, str(record(["place m1", "place m2", "FIGHT   Courage"])))
    assert code == 2 and out == ""
    assert err.splitlines() == [f"hzai {command}: move 2 'FIGHT   Courage': p1 holds no courage"]


def test_a_malformed_record_is_one_line_naming_the_key(capsys, tmp_record, record):
    raw = json.loads(record().read_text())
    raw["colour"] = "red"
    code, out, err = run(capsys, "replay", str(tmp_record(raw)))
    assert code == 2 and len(err.splitlines()) == 1 and "unknown key 'colour'" in err


def test_new_prints_a_seed_record_that_replays(capsys, tmp_path):
    code, out, err = run(capsys, "new", "--game", "legends", "--mission", "3", "--heroes", "perseus,Atalanta",
                         "--seed", "5", "--difficulty", "heroic", "--first-player", "p2")
    raw = json.loads(out)
    assert code == 0 and raw["seed"] == 5 and raw["heroes"] == ["Perseus", "Atalanta"] and raw["moves"] == []
    assert raw["difficulty"] == "heroic" and raw["first_player"] == "p2"
    path = tmp_path / "new.json"
    path.write_text(out)
    code, out, _ = run(capsys, "replay", str(path))
    assert json.loads(out)["to_move"] == "p2"
    # a parameter not given takes the game's default, as a front end's new game does (with_params)
    code, out, err = run(capsys, "new", "--game", "legends", "--mission", "3", "--seed", "5")
    assert code == 0 and json.loads(out)["heroes"] == make_game("legends").params["heroes"]
    code, out, err = run(capsys, "new", "--mission", "3", "--seed", "5")  # Hera and Zeus takes no mission
    assert code == 2 and out == "" and err.splitlines() == [
        "hzai new: --mission: hera_zeus has no parameter mission; it takes: deck, figure_removal, first_player, "
        "pythia_defence, turn_limit"]
    code, out, err = run(capsys, "new", "--game", "legends", "--param", "mission=3", "--param", 'heroes=["Jason"]',
                         "--variant", "relocation=free", "--seed", "5")
    raw = json.loads(out)
    assert code == 0 and (raw["mission"], raw["heroes"], raw["variants"]["relocation"]) == (3, ["Jason"], "free")
    code, out, err = run(capsys, "new", "--game", "legends", "--mission", "3", "--heroes", "Jason", "--seed", "5",
                         "--deal")
    assert code == 0 and "setup" in json.loads(out) and "seed" not in json.loads(out)


def test_view_and_show_as_a_seat(capsys, record):
    path = str(record(["place m1", "place m2", "fight ability guile"]))
    code, out, _ = run(capsys, "view", path, "--seat", "p2")
    view = json.loads(out)
    assert code == 0 and view["seat"] == "p2" and isinstance(view["seats"]["p1"]["hand"], int)
    assert view["monsters"][0]["played"][0]["card"] == "?" and view["moves"][-1] == "fight ability ?"
    code, out, _ = run(capsys, "show", path)
    assert code == 0 and "guile=arms" in out
    code, out, _ = run(capsys, "show", path, "--seat", "p2")
    assert code == 0 and "?=arms" in out and "guile=arms" not in out
    code, _, err = run(capsys, "view", path, "--seat", "p7")
    assert code == 2 and "--seat: a Legends of Hellas record's seats are p1, p2, not p7" in err


def test_help_names_legends(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    assert "--game legends" in capsys.readouterr().out


def test_the_real_command_never_shows_a_traceback(tmp_record, record):
    bad = tmp_record('{"format": "legends-record/1", "mission": 1, "heroes": ["Perseus"], "seed": 1, "moves": [7]}')
    for path in (bad, record(["place m1", "place m1"])):
        done = subprocess.run([sys.executable, "-m", "hzai.cli", "legal", str(path)], capture_output=True, text=True,
                              timeout=120)
        assert "Traceback" not in done.stderr
    assert done.returncode == 0 and "fight arms" in done.stdout.splitlines()


def test_team_plays_missions_with_one_bot_in_every_seat(capsys, tmp_path):
    out_file = tmp_path / "team.json"
    code, out, err = run(capsys, "team", "random", "--mission", "2", "--heroes", "Jason,Hercules", "--games", "2",
                         "--json", str(out_file))
    assert code == 0 and out.startswith("team of random") and "2 games" in out
    saved = json.loads(out_file.read_text())
    assert saved["games"] == 2 and len(saved["results"]) == 2 and not saved["all_seeing"]
    code, out, err = run(capsys, "team", "heuristic", "--mission", "2", "--heroes", "Jason", "--games", "1", "--all-seeing")
    assert code == 0 and out.startswith("all-seeing team")
    code, out, err = run(capsys, "team", "random", "--mission", "2", "--heroes", "Jason,Jason")
    assert code == 2 and "distinct" in err
