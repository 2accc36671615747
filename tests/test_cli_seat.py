"""One seat option for every game and every command: `--seat` (with `--as`, its older
name, meaning the same) takes a Hera and Zeus seat (hera, zeus) or a Legends one (p1..p5)
in show, view, belief, analyze, analyze-game and play; a seat the record's game does not
have is named in one line with exit status 2. And a seat's view saved by `hzai play
--save` is named as such where a record is wanted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hzai.cli import main

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"  # Zeus to move


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.fixture
def legends_record(tmp_path, capsys):
    path = tmp_path / "legends.json"
    assert run(capsys, "new", "--game", "legends", "--mission", "1", "--heroes", "Perseus,Atalanta", "--seed", "7",
               "-o", path)[0] == 0
    return path  # p1 places first


@pytest.mark.parametrize("option", ["--seat", "--as"])
def test_hera_and_zeus_commands_take_the_seat(option, capsys):
    code, out, _ = run(capsys, "show", HANDMADE, option, "hera")
    assert code == 0 and "hera" in out.lower()
    code, out, _ = run(capsys, "view", HANDMADE, option, "zeus")
    assert code == 0 and json.loads(out)["observer"] == "zeus"
    code, out, _ = run(capsys, "belief", HANDMADE, option, "zeus", "--samples", "50")
    assert code == 0 and out.strip()
    code, out, _ = run(capsys, "analyze", HANDMADE, option, "zeus", "--budget", "30")
    assert code == 0 and out.startswith("zeus to decide · budget 30 iterations: 30 iterations in ")
    code, out, _ = run(capsys, "analyze-game", HANDMADE, option, "zeus", "--budget", "10", "--quiet", "--json")
    assert code == 0 and {row["seat"] for row in json.loads(out)} == {"zeus"}


@pytest.mark.parametrize("option", ["--seat", "--as"])
def test_legends_commands_take_the_seat(option, legends_record, capsys):
    code, out, _ = run(capsys, "show", legends_record, option, "p2")
    assert code == 0 and "[as you, p2, see it]" in out
    code, out, _ = run(capsys, "view", legends_record, option, "p2")
    assert code == 0 and json.loads(out)["seat"] == "p2"
    code, out, _ = run(capsys, "analyze", legends_record, option, "p1", "--budget", "20")
    assert code == 0 and out.startswith("p1 to decide · budget 20 iterations")
    code, out, _ = run(capsys, "analyze-game", legends_record, option, "p2", "--budget", "10", "--quiet")
    assert code == 0


@pytest.mark.parametrize(("argv", "words"), [
    (["show", "HZ", "--seat", "p1"], "--seat: a Hera and Zeus record's seats are hera, zeus, referee, not p1"),
    (["view", "HZ", "--seat", "p2"], "--seat: a Hera and Zeus record's seats are hera, zeus, not p2"),
    (["belief", "HZ", "--seat", "poseidon"], "--seat: a Hera and Zeus record's seats are hera, zeus, not poseidon"),
    (["analyze", "HZ", "--seat", "p1"], "--seat: a Hera and Zeus record's seats are hera, zeus, not p1"),
    (["analyze", "HZ", "--seat", "hera"], "zeus is to decide here, not hera"),
    (["analyze-game", "HZ", "--as", "p3"], "--seat: a Hera and Zeus record's seats are hera, zeus, not p3"),
    (["show", "LG", "--seat", "hera"], "--seat: a Legends of Hellas record's seats are p1, p2, referee, not hera"),
    (["view", "LG", "--as", "p3"], "--seat: a Legends of Hellas record's seats are p1, p2, not p3"),
    (["analyze", "LG", "--seat", "zeus"], "--seat: a Legends of Hellas record's seats are p1, p2, not zeus"),
])
def test_a_seat_the_game_does_not_have_is_named(argv, words, legends_record, capsys):
    argv = [{"HZ": HANDMADE, "LG": legends_record}.get(a, a) for a in argv]
    code, _, err = run(capsys, *argv, *(["--budget", "10"] if argv[0].startswith("analyze") else []))
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_the_referee_is_still_the_default_picture(legends_record, capsys):
    assert "referee" in run(capsys, "show", legends_record)[1]
    assert "referee" in run(capsys, "show", legends_record, "--seat", "referee")[1]


def test_a_seat_view_is_named_where_a_record_is_wanted(tmp_path, capsys):
    from hzai_client.play_record import seat_view_json, write_json

    path = tmp_path / "left.json"
    write_json(str(path), seat_view_json("hera_zeus", "hera", "m1", [{"index": 0, "seat": "hera", "move": "draw",
                                                                       "narration": []}]))
    for argv in (["analyze-game", path, "--budget", "10", "--quiet"], ["replay", path], ["analyze", path]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "this is hera's view of an unfinished game (hzai-seat-view/1" in err and "not a game record" in err
        assert "unknown record field" not in err


def test_play_takes_the_seat_for_either_game():
    for game, seat, said in (("hera_zeus", "zeus", "you play Zeus"), ("legends", "p2", "you play P2")):
        run_ = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--game", game, "--seat", seat,
                               "--bot", "random", "--seed", "3"], input="quit\n", capture_output=True, text=True,
                              timeout=120)
        assert run_.returncode == 0, run_.stderr
        assert said in run_.stdout, run_.stdout
    bad = subprocess.run([sys.executable, "-m", "hzai_client.cli", "play", "--game", "legends", "--seat", "hera",
                          "--bot", "random"], input="quit\n", capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--seat: legends has no seat 'hera'" in bad.stderr
