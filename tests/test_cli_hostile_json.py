"""Records of hostile shape on the command line (issue 34): deep nesting, NaN, numbers of
thousands of digits. Before hzai.jsonread, `hzai replay` / `hzai legal` exited 3 with
"internal error: RecursionError" on a deeply nested record of either game; the contract
is exit 2 and one line naming what is wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hzai import jsonread
from tests.legends.helpers import game, record_of

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"


def hera_zeus_text() -> str:
    return HANDMADE.read_text(encoding="utf-8")


def legends_text() -> str:
    return json.dumps(record_of(game(), {"p1": ["di", "arms", "strength", "guile"]},
                                monsters=["Minotaur", "Harpy", "Gorgon", "Hydra"], moves=[]))


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def hostile(text: str, shape: str) -> str:
    """The record `text` with its moves replaced by a value of `shape`."""
    data = json.loads(text)
    data["moves"] = "PLACEHOLDER"
    values = {"deep": nested(100_000), "deep-parses": nested(500), "nan": "[NaN]",
              "infinity": "[-Infinity]", "digits": "[" + "7" * 5000 + "]"}
    return json.dumps(data).replace('"PLACEHOLDER"', values[shape])


def hzai(*args):
    return subprocess.run([sys.executable, "-m", "hzai_client.cli", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("shape", ["deep", "deep-parses", "nan", "infinity", "digits"])
@pytest.mark.parametrize("which", ["hera_zeus", "legends"])
def test_hostile_records_exit_2_with_one_line(tmp_path, which, shape):
    text = hostile(hera_zeus_text() if which == "hera_zeus" else legends_text(), shape)
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    for command in ("replay", "legal"):
        proc = hzai(command, path)
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr[-500:]
        assert proc.returncode == 2, (command, proc.returncode, proc.stderr[-300:])
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert str(path) in lines[0] and len(lines[0]) < 400
        if shape.startswith("deep"):
            assert "nested" in lines[0]
        elif shape in ("nan", "infinity"):
            assert "not a JSON number" in lines[0]
        else:
            assert "digits" in lines[0]


def test_a_record_just_within_the_depth_is_read_as_before(tmp_path):
    """The bound refuses nothing a record needs: the handmade record still replays."""
    path = tmp_path / "ok.json"
    path.write_text(hera_zeus_text(), encoding="utf-8")
    assert hzai("replay", path).returncode == 0


def test_the_reader_measures_depth_without_recursion():
    assert jsonread.depth_of(json.loads(nested(900))) == 900
    assert jsonread.depth_of({"a": [1, {"b": []}], "c": 2}) == 4
    assert jsonread.depth_of(5) == 0
    assert jsonread.loads(nested(jsonread.MAX_DEPTH)) == json.loads(nested(jsonread.MAX_DEPTH))
    with pytest.raises(jsonread.JsonShapeError, match="nested 65 levels"):
        jsonread.loads(nested(jsonread.MAX_DEPTH + 1), "x")
    with pytest.raises(jsonread.JsonShapeError, match="nested too deeply"):
        jsonread.loads(nested(200_000), "x")


def test_the_service_commands_read_the_record_the_same_way(tmp_path):
    """`hzai analyze RECORD --server ...` checks the file before connecting."""
    from hzai_client.commands import CommandError, _record_text

    path = tmp_path / "deep.json"
    path.write_text(hostile(hera_zeus_text(), "deep"), encoding="utf-8")
    with pytest.raises(CommandError, match="nested too deeply"):
        _record_text(str(path))
