"""The command line names no game (issue 33): every record command reads its record through
one loader (hzai.record_file.load_record), whose `format` finds the game in the registry,
and then only the core interfaces; `hzai new --game NAME` makes any registered game. The
toy game of tests/toygame, which the library has never heard of, goes through the same
path as Hera and Zeus and Legends."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tests.toygame.plugin  # noqa: F401  (registers toy_guess and toy_team)
from hzai import record_file
from hzai.cli import build_parser, main
from hzai.core import game_names, make_game

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"
RECORD_COMMANDS = (["replay"], ["legal"], ["show"], ["view"], ["analyze", "--budget", "20"],
                   ["analyze-game", "--budget", "10", "--quiet", "--json"])


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def write(tmp_path, data, name="record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def toy_record(tmp_path, moves=()) -> Path:
    game = make_game("toy_guess")
    record = game.records.new(5)
    record.moves.extend(moves)
    return write(tmp_path, game.records.write(record))


def legends_record(tmp_path) -> Path:
    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"])
    return write(tmp_path, game.records.write(game.records.of_seed(7)), "legends.json")


@pytest.fixture
def loads(monkeypatch):
    """The paths the one loader was asked for, in order."""
    seen = []
    real = record_file.load_record

    def spy(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(record_file, "load_record", spy)
    return seen


@pytest.mark.parametrize("which", ["toy_guess", "hera_zeus", "legends"])
@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=lambda c: c[0])
def test_every_record_command_reads_every_game_through_the_one_loader(which, command, tmp_path, capsys, loads):
    path = {"toy_guess": lambda: toy_record(tmp_path), "hera_zeus": lambda: HANDMADE,
            "legends": lambda: legends_record(tmp_path)}[which]()
    code, out, err = run(capsys, command[0], path, *command[1:])
    assert code == 0, err
    assert loads == [str(path)], "read once, by the loader"
    assert out.strip() or command[0] == "legal" and "chance" in err


def test_the_toy_games_record_replays_shows_and_is_analysed(tmp_path, capsys):
    path = toy_record(tmp_path, ["bet"])
    code, out, _ = run(capsys, "legal", path)
    assert code == 0 and out.splitlines() == ["call", "fold", "guess 1", "guess 2", "guess 3"]
    code, out, _ = run(capsys, "view", path, "--seat", "first")
    assert code == 0 and json.loads(out) == make_game("toy_guess").records.replay(
        record_file.load_record(path)).view(0).to_json()
    code, out, _ = run(capsys, "analyze", path, "--budget", "30", "--json")
    assert code == 0 and json.loads(out)["perspective"] == "second"
    assert sorted(m["move"] for m in json.loads(out)["moves"]) == ["call", "fold", "guess 1", "guess 2", "guess 3"]
    code, out, _ = run(capsys, "analyze-game", path, "--budget", "20", "--quiet", "--json")
    rows = json.loads(out)
    assert code == 0 and [(r["index"], r["seat"], r["played"]) for r in rows] == [(0, "first", "bet")]
    code, out, err = run(capsys, "legal", toy_record(tmp_path, ["fold"]))
    assert code == 0 and out == "" and "the game is over" in err


def test_a_seat_the_toy_game_lacks_and_a_capability_it_lacks_are_named(tmp_path, capsys):
    path = toy_record(tmp_path)
    code, _, err = run(capsys, "show", path, "--seat", "hera")
    assert code == 2 and err.splitlines() == [
        "hzai show: --seat: a Toy guess record's seats are first, second, referee, not hera"]
    code, _, err = run(capsys, "belief", path)
    assert code == 2 and len(err.splitlines()) == 1
    assert "game toy_guess has no belief report" in err and "capability belief_report" in err
    code, _, err = run(capsys, "analyze", path, "--budget", "10", "--belief", "5")
    assert code == 2 and "capability belief_report" in err
    code, _, err = run(capsys, "belief", HANDMADE, "--temperature", "0")
    assert code == 2 and err.startswith("hzai belief: --temperature: temperature must be within"), err


@pytest.mark.parametrize("data, words", [
    ({"format": "chess-record/1", "moves": []}, "unknown record format 'chess-record/1'"),
    ({"moves": []}, "the record names no format"),
    ({"format": 7}, "unknown record format 7"),
])
def test_an_unknown_format_is_refused_naming_the_known_ones(data, words, tmp_path, capsys):
    path = write(tmp_path, data)
    for command in ("replay", "legal", "show", "analyze", "analyze-game"):
        code, out, err = run(capsys, command, path)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
        assert words in err
        for known in ("hzai-record/1 (hera_zeus)", "legends-record/1 (legends)", "toy_guess-record/1 (toy_guess)"):
            assert known in err


def test_a_batch_reads_every_game_and_names_a_bad_record(tmp_path, capsys):
    folder = tmp_path / "records"
    folder.mkdir()
    toy_record(folder, ["bet"])
    write(folder, {"format": "chess-record/1"}, "zz.json")
    code, out, err = run(capsys, "analyze-game", folder, "--budget", "10", "--quiet")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [Path(e["record"]).name for e in lines] == ["record.json", "zz.json"]
    assert [r["seat"] for r in lines[0]["decisions"]] == ["first"]
    assert "unknown record format 'chess-record/1'" in lines[1]["error"] and "zz.json" in err


def test_the_help_lists_the_registered_games():
    parser = build_parser()
    new_help = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "new")[1].format_help()

    def flat(help_text: str) -> str:  # argparse wraps lines at spaces and hyphens ("core-test-game")
        return re.sub(r"\s+", " ", re.sub(r"-\n\s*", "-", help_text))

    text, new_help = flat(parser.format_help()), flat(new_help)
    for name in game_names():  # every game registered so far in this process, another test's too
        assert name in text and name in new_help
    assert "toy_guess" in game_names() and "toy_team" in game_names()


def test_new_makes_any_registered_game(tmp_path, capsys):
    code, out, _ = run(capsys, "new", "--game", "toy_guess", "--seed", "3")
    data = json.loads(out)
    assert code == 0 and data["format"] == "toy_guess-record/1" and data["seed"] == 3
    path = write(tmp_path, data)
    assert run(capsys, "legal", path)[1].splitlines() == ["bet", "fold", "guess 1", "guess 2", "guess 3"]
    code, out, _ = run(capsys, "new", "--game", "legends", "--help-params")
    assert code == 0 and out.startswith("legends (Legends of Hellas): ") and "mission" in out
    code, _, err = run(capsys, "new", "--game", "chess", "--seed", "1")
    assert code == 2 and "--game: no game 'chess'" in err and "hera_zeus" in err and "toy_guess" in err
    code, _, err = run(capsys, "new", "--game", "toy_guess", "--seed", "1", "--param", "colour=red")
    assert code == 2 and "--param colour: toy_guess has no parameter colour" in err


def test_team_plays_any_cooperative_game(capsys):
    code, out, err = run(capsys, "team", "random", "--game", "toy_team", "--games", "2", "--budget", "10")
    assert code == 0 and out.startswith("team of random") and "2 games" in out, err
    code, _, err = run(capsys, "team", "random", "--game", "toy_guess", "--games", "1")
    assert code == 2 and "a team plays a cooperative game, and toy_guess is not one" in err
