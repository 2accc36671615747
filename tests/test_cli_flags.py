"""The flags mean one thing in every command (issue 42, item 5): `--json [FILE]` (JSON on
stdout, or written to FILE), `--param` wherever `--variant` is, `--budget` with its forms
and its name in the error, `hzai new` naming an unknown game before anything else,
`--plot` refusing a format it does not draw, `hzai web --budget`, and a server's refusal
of a bot told as the flag's, with the list the help gives. All through `hzai`'s own main."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from hzai_client.cli import main

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def test_new_names_an_unknown_game_before_the_missing_seed(capsys):
    code, out, err = run(capsys, "new", "--game", "chess")
    assert code == 2 and out == ""
    # the games of the registry (other tests may have registered toy games too)
    found = re.fullmatch(r"hzai new: --game: no game 'chess'; the games: ([\w-]+(?:, [\w-]+)*)\n", err)
    assert found and {"hera_zeus", "legends"} <= set(found.group(1).split(", ")), err


def test_json_without_a_file_is_stdout_and_with_one_is_that_file(capsys, tmp_path):
    code, out, _ = run(capsys, "analyze", HANDMADE, "--budget", "30", "--json")
    assert code == 0 and json.loads(out)["iterations"] == 30
    target = tmp_path / "analysis.json"
    code, out, _ = run(capsys, "analyze", HANDMADE, "--budget", "30", "--json", target)
    assert code == 0 and out == "" and json.loads(target.read_text())["iterations"] == 30
    code, out, _ = run(capsys, "belief", HANDMADE, "--samples", "50", f"--json={tmp_path / 'belief.json'}")
    assert code == 0 and out == "" and json.loads((tmp_path / "belief.json").read_text())["samples"] == 50
    # arena: bare --json puts the JSON on stdout and the summary line on stderr
    code, out, err = run(capsys, "arena", "random", "random", "--games", "2", "--budget", "5", "--jobs", "1",
                         "--quiet", "--json")
    assert code == 0 and json.loads(out)["games"] == 2 and err.startswith("random vs random")
    code, out, _ = run(capsys, "arena", "random", "random", "--games", "2", "--budget", "5", "--jobs", "1",
                       "--quiet", "--json", tmp_path / "arena.json")
    assert code == 0 and out.startswith("random vs random") and json.loads((tmp_path / "arena.json").read_text())
    for command in ("analyze", "analyze-game", "arena", "team", "belief", "suggest"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "--json [FILE]" in capsys.readouterr().out, command


def test_a_record_right_after_json_is_the_record_as_when_json_took_no_value(capsys, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(HANDMADE.read_text())
    code, out, _ = run(capsys, "analyze", "--json", record, "--budget", "20")
    assert code == 0 and json.loads(out)["iterations"] == 20 and record.read_text() == HANDMADE.read_text()
    code, out, _ = run(capsys, "analyze-game", "--json", record, "--budget", "5", "--quiet")
    assert code == 0 and isinstance(json.loads(out), list) and record.read_text() == HANDMADE.read_text()


def test_json_never_overwrites_the_record_it_reads(capsys, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(HANDMADE.read_text())
    code, _, err = run(capsys, "analyze", record, "--budget", "10", "--json", record)
    assert code == 2 and err == f"hzai analyze: --json: {record} is the record read here; name another file for the JSON\n"
    assert record.read_text() == HANDMADE.read_text()


def test_arena_takes_param_as_it_takes_variant(capsys):
    code, out, _ = run(capsys, "arena", "random", "random", "--games", "2", "--budget", "5", "--jobs", "1",
                       "--quiet", "--param", "turn_limit=3")
    assert code == 0 and "2 draws" in out  # three turns: nobody finds a hostage
    code, _, err = run(capsys, "arena", "random", "random", "--games", "2", "--param", "colour=red")
    assert code == 2 and err.startswith("hzai arena: --param colour: hera_zeus has no parameter colour; it takes: ")
    code, _, err = run(capsys, "team", "random", "--games", "1", "--param", "mission")
    assert code == 2 and err == "hzai team: --param: write NAME=VALUE, not 'mission'\n"


@pytest.mark.parametrize("command", [["analyze", HANDMADE], ["arena", "random", "random"], ["web"], ["play"],
                                     ["suggest", HANDMADE, "--server", "127.0.0.1:1"],
                                     ["analyze", HANDMADE, "--server", "127.0.0.1:1"]])
@pytest.mark.parametrize("budget", ["5x", "infs", "nans"])  # an infinite time once ended in "internal error"
def test_a_bad_budget_names_the_flag_before_anything_runs(capsys, monkeypatch, command, budget):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = run(capsys, *command, "--budget", budget)
    assert code == 2 and err.endswith(f": --budget: '{budget}': write 1000 (iterations), 250ms, 2s, or 1000,250ms\n"), err
    assert err.count("\n") == 1  # no server was asked: nothing answers at 127.0.0.1:1


def test_web_takes_budget_and_hides_its_older_name(capsys):
    with pytest.raises(SystemExit):
        main(["web", "--help"])
    text = capsys.readouterr().out
    assert "--budget BUDGET" in text and "--iterations" not in text
    code, _, err = run(capsys, "web", "--budget", "100", "--iterations", "40")
    assert code == 2 and "--budget and --iterations (its older name) both given" in err


def test_plot_refuses_a_format_it_does_not_draw(capsys, tmp_path):
    code, out, err = run(capsys, "analyze-game", HANDMADE, "--budget", "10", "--quiet", "--plot", tmp_path / "x.gif")
    assert code == 2 and out == "" and not (tmp_path / "x.gif").exists()
    assert "--plot: " in err and "PNG, SVG or PDF" in err and "not .gif" in err
    with pytest.raises(SystemExit):
        main(["analyze-game", "--help"])
    assert ".png, .svg, .pdf" in re.sub(r"\s+", " ", capsys.readouterr().out)


def test_play_tells_the_servers_refusal_of_a_bot_as_the_flags(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = run(capsys, "play", "--bot", "foo")
    assert code == 2
    line = err.strip()
    assert "\n" not in line and "INVALID_ARGUMENT" not in line
    listed = re.fullmatch(r"hzai play: --bot: unknown bot 'foo'; choose from (.+)", line)
    assert listed, line
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    helped = re.search(r"a bot the server serves \(([^;]+);", re.sub(r"\s+", " ", capsys.readouterr().out))
    assert helped and helped.group(1) == listed.group(1)


@pytest.mark.parametrize("argv, line", [
    (["arena", "random", "random", "--games", "0"], "hzai arena: --games: at least 1, not 0"),
    (["team", "random", "--games", "0"], "hzai team: --games: at least 1, not 0"),
    (["new", "--seed", "-1"], "hzai new: --seed: a whole number from 0 to 18446744073709551615, not -1"),
    (["show", HANDMADE, "--upto", "-2"], "hzai show: --upto: a number of moves, 0 or more, not -2"),
    (["belief", HANDMADE, "--samples", "0"], "hzai belief: --samples: at least 1, not 0"),
])
def test_a_bad_number_is_told_flag_first(capsys, argv, line):
    code, _, err = run(capsys, *argv)
    assert (code, err) == (2, line + "\n")


def test_web_budget_in_time_is_the_embedded_servers_default(tmp_path):
    """`hzai web --budget 300ms`: an analysis that names no budget searches for about
    300 ms (not the 1000 iterations of a server's default), and a whole-game review
    that names none is not refused for the work its iterations would count."""
    import subprocess
    import sys
    import time

    from hzai_client import HzaiClient

    proc = subprocess.Popen([sys.executable, "-m", "hzai_client.cli", "web", "--budget", "300ms"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        served = re.search(r"gRPC server (127\.0\.0\.1:\d+)", line)
        assert served, line
        text = HANDMADE.read_text()
        with HzaiClient(served.group(1), timeout=30) as client:
            started = time.monotonic()
            analysis = client.analyze(text)
            assert 200 <= analysis.millis <= 400 and analysis.iterations > 1000, analysis
            assert time.monotonic() - started < 5
            rows = list(client.analyze_game(text, game="hera_zeus", seats=[1]))
            assert rows[-1].summary.complete and rows[-1].summary.decisions == rows[-1].summary.total > 0
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("command", [["arena", "random", "random", "--games", "2", "--budget", "5", "--jobs", "1"],
                                     ["team", "random", "--games", "1", "--budget", "5"]])
def test_a_json_file_that_cannot_be_written_is_said_before_the_games(capsys, tmp_path, command):
    for target, words in ((tmp_path / "no" / "x.json", "there is no folder"), (tmp_path, "is a folder")):
        code, out, err = run(capsys, *command, "--json", str(target))
        assert code == 2 and out == "" and f"--json: " in err and words in err, err  # no game was played
