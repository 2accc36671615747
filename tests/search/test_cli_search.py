"""hzai analyze, analyze-game and arena from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HANDMADE = Path(__file__).resolve().parents[1] / "data" / "handmade_game.json"


def hzai(*args, rc=0):
    proc = subprocess.run([sys.executable, "-m", "hzai.cli", *map(str, args)], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == rc, proc.stderr
    return proc


def test_analyze_prints_every_legal_move_as_json():
    answer = json.loads(hzai("analyze", HANDMADE, "--budget", "600", "--json").stdout)
    legal = hzai("legal", HANDMADE).stdout.split("\n")
    assert sorted(m["move"] for m in answer["moves"]) == sorted(x for x in legal if x)
    assert answer["perspective"] == "zeus" and answer["iterations"] == 600
    assert sum(m["visits"] for m in answer["moves"]) == 600


def test_analyze_table_and_wrong_side():
    out = hzai("analyze", HANDMADE, "--budget", "300", "--belief", "200").stdout
    assert "zeus to decide" in out and "Where is Io?" in out
    assert "hera is to decide" not in out
    proc = hzai("analyze", HANDMADE, "--as", "hera", "--budget", "10", rc=2)
    assert "zeus is to decide here, not hera" in proc.stderr
    assert "budget" in hzai("analyze", HANDMADE, "--budget", "lots", rc=2).stderr


def test_analyze_game_marks_each_decision(tmp_path):
    data = json.loads(HANDMADE.read_text())
    data["moves"] = data["moves"][:6]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    # 500 iterations: every one of a setup's up to 228 moves is tried, the played one too
    rows = json.loads(hzai("analyze-game", path, "--budget", "500", "--json", "--quiet").stdout)
    assert [r["index"] for r in rows] == [0, 1, 2, 3, 4, 5]
    assert [r["seat"] for r in rows] == ["hera", "zeus", "hera", "hera", "hera", "zeus"]
    assert all(r["loss"] >= 0 and 0 <= r["played_value"] <= 1 for r in rows)
    assert rows[2]["played"] == "draw"


def test_arena_reports_and_writes_json(tmp_path):
    out = tmp_path / "arena.json"
    proc = hzai("arena", "random", "heuristic", "--games", "4", "--budget", "10", "--jobs", "2", "--json", out)
    assert "random vs heuristic" in proc.stdout and "[4/4]" in proc.stderr
    result = json.loads(out.read_text())
    assert result["games"] == 4 and result["a_wins"] + result["b_wins"] + result["draws"] == 4
    assert [g["seating"]["hera"] for g in result["results"]] == ["A", "B", "A", "B"], "seats swap every game"
    assert "unknown bot 'nobody'" in hzai("arena", "nobody", "random", "--games", "1", rc=2).stderr


def test_the_arena_and_team_help_name_every_bot_make_bot_reads():
    """The help of the commands that take a bot spec lists the registry's bots and their
    options' examples (one text for both commands), and every example is a valid spec."""
    from hzai.search import make_bot
    from hzai.search.bot import bot_kinds, bot_spec_help

    help_text = bot_spec_help()
    for name in ("random", "heuristic", "light", "ismcts", "ismcts-v1", "ismcts-v2", "pimc", "level:N"):
        assert name in help_text
    for option in ("tree=multi", "prior=", "infer=1", "temp=", "own_only=1", "root_widen=", "worlds="):
        assert option in help_text
    examples = [e for kind in bot_kinds() for e in kind.examples]
    assert len(examples) >= 3
    for example in examples:
        make_bot(example)  # the examples given are valid specs
    assert "ismcts-v2" in hzai("arena", "--help").stdout, "the command's help is the registry's"
