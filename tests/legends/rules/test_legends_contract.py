"""The command-line contract itself: the in-process calls are the real `hzai` command,
moves are read case-insensitively, malformed records are refused in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.legends.rules.contract import legal, record, refusal, replay, state, then, view

REPO = Path(__file__).resolve().parents[3]
REC = record(["Perseus", "Hercules"], 1, deck=["Minotaur", "Cyclops", "Hydra"],
             hands={"p1": ["arms", "guile", "courage", "di"]}, moves=["place m1", "place m1", "fight arms"])


def _console(args: list[str], tmp_path) -> tuple[int, str, str]:
    exe = shutil.which("hzai")
    assert exe, "the hzai console command is not on PATH"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(REC), encoding="utf-8")
    done = subprocess.run([exe, *args[:1], str(path), *args[1:]], capture_output=True, text=True,
                          env=dict(os.environ), cwd=REPO, check=False)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("command", ["replay", "legal", "view"])
def test_the_in_process_contract_is_the_hzai_command(command, tmp_path):
    inproc = {"replay": lambda: replay(REC), "legal": lambda: legal(REC), "view": lambda: view(REC, "p2")}[command]()
    args = [command] + (["--seat", "p2"] if command == "view" else [])
    real = _console(args, tmp_path)
    assert real[0] == inproc[0] == 0, real[2]
    assert real[1] == inproc[1]
    assert real[1].strip()


def test_moves_are_read_case_insensitively_with_any_spaces():
    assert state(then(REC, "FIGHT   Strength")) == state(then(REC, "fight strength"))


@pytest.mark.parametrize("text", ["{not json", "[]", '{"format": "legends-record/1"}'])
def test_a_malformed_record_is_one_line_exit_2(text):
    refusal(replay(text))
    refusal(legal(text))


def test_an_unknown_move_names_its_index_and_text():
    line = refusal(replay(then(REC, "fight")))
    assert "3" in line and "fight" in line
