"""The command-line contract of docs/notation.md: replay, legal, errors; plus new and show."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HANDMADE = Path(__file__).parent / "data" / "handmade_game.json"


def hzai(*args, check_rc=None):
    proc = subprocess.run([sys.executable, "-m", "hzai.cli", *map(str, args)], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr, proc.stderr
    if check_rc is not None:
        assert proc.returncode == check_rc, proc.stderr
    return proc


def test_console_script_is_installed():
    assert shutil.which("hzai"), "pip install puts the hzai command on PATH"


def test_replay_of_a_handmade_record_matches_the_hand_worked_result():
    """Every value below was worked out by hand from docs/rules.md for this record."""
    state = json.loads(hzai("replay", HANDMADE, check_rc=0).stdout)
    assert (state["winner"], state["reason"], state["to_move"], state["turn"], state["ap_left"]) == (None, None, "zeus", 6, 1)
    hera, zeus = state["sides"]["hera"], state["sides"]["zeus"]
    brief = lambda side: [[(c["card"], c["owner"], c["face_up"]) for c in col] for col in side["columns"]]
    assert brief(hera) == [[("Hydra", "hera", True), ("Centaur", "hera", False)], [("Pegasus", "zeus", False)], [("Satyr", "hera", True)]]
    assert brief(zeus) == [[], [("Poseidon", "zeus", True), ("Hydra", "zeus", False)], []]
    assert hera["hand"] == ["Amazon", "Harpy", "Hero", "Pegasus"] and zeus["hand"] == ["Cyclops", "Harpy", "Medusa", "Satyr"]
    assert hera["discard"] == ["Pythia", "Cyclops", "Sirens"] and zeus["discard"] == ["Dionysus", "Centaur", "Hero"]
    assert hera["deck_size"] == 33 and zeus["deck_size"] == 33
    assert hera["figure"] is None and zeus["figure"] is None


def test_legal_prints_sorted_moves_one_per_line():
    lines = hzai("legal", HANDMADE, check_rc=0).stdout.splitlines()
    assert lines == sorted(lines)
    assert len(lines) == 22  # draw, challenge c2, 4 cards x 5 slots
    assert "challenge c2" in lines and "draw" in lines and "play Medusa c2r3" in lines
    assert not any(line.startswith("pegasus") for line in lines)


def _with_moves(tmp_record, moves):
    data = json.loads(HANDMADE.read_text())
    data["moves"] = moves
    return tmp_record(data)


def test_illegal_move_exits_2_with_one_line_naming_index_move_and_reason(tmp_record):
    data = json.loads(HANDMADE.read_text())
    path = _with_moves(tmp_record, data["moves"][:4] + ["challenge c1"])
    for command in ("replay", "legal"):
        proc = hzai(command, path, check_rc=2)
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1
        assert "move 4" in lines[0] and "'challenge c1'" in lines[0] and "first turn" in lines[0]


def test_unreadable_move_and_malformed_record_exit_2(tmp_record):
    assert "unknown card 'Zebra'" in hzai("replay", _with_moves(tmp_record, ["setup Zebra Hydra Hydra"]), check_rc=2).stderr
    assert "not valid JSON" in hzai("legal", tmp_record("{ nope"), check_rc=2).stderr
    assert "cannot read" in hzai("replay", "/no/such/file.json", check_rc=2).stderr
    assert "record must be a JSON object" in hzai("replay", tmp_record("[1, 2]"), check_rc=2).stderr


def test_legal_at_a_chance_event_prints_nothing_and_says_so(tmp_record):
    data = json.loads(HANDMADE.read_text())
    path = _with_moves(tmp_record, data["moves"][:11] + ["pegasus hand"])
    proc = hzai("legal", path, check_rc=0)
    assert proc.stdout == "" and "chance" in proc.stderr
    state = json.loads(hzai("replay", path, check_rc=0).stdout)
    assert state["to_move"] is None and state["pending"][0]["decision"] == "chance"


def test_new_writes_a_record_that_replays(tmp_path):
    out = tmp_path / "g.json"
    hzai("new", "--seed", 9, "--variant", "first_player=zeus", "-o", out, check_rc=0)
    data = json.loads(out.read_text())
    assert data["format"] == "hzai-record/1" and data["variants"]["first_player"] == "zeus"
    assert len(data["setup"]["hera"]["hand"]) == 9
    moves = hzai("legal", out, check_rc=0).stdout.splitlines()
    assert moves and all(m.startswith("setup ") for m in moves)
    seed_only = json.loads(hzai("new", "--seed", 9, "--seed-only", check_rc=0).stdout)
    assert seed_only["seed"] == 9 and "setup" not in seed_only


def test_new_rejects_bad_variant():
    proc = hzai("new", "--seed", 1, "--variant", "first_player=apollo", check_rc=2)
    assert "first_player must be one of hera, zeus" in proc.stderr


@pytest.mark.parametrize("side", ["hera", "zeus", "referee"])
def test_show_hides_what_the_side_cannot_see(side):
    picture = hzai("show", HANDMADE, "--as", side, check_rc=0).stdout
    # Zeus's face-down Hydra at c2r2: Zeus and the referee see it, Hera does not.
    assert ("(Hydra)" in picture) == (side != "hera")
    # Hera's face-down Centaur at c1r2 is hidden from Zeus only.
    assert ("(Centaur)" in picture) == (side != "zeus")
    # The Pegasus Hera took from Zeus's pile stays known to Zeus (R-SIR-1).
    assert "(Pegasus@z)" in picture


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_new_rejects_a_seed_outside_64_bits_in_one_line(seed, tmp_path):
    """A seed `replay` would refuse is refused when the record is written, not later."""
    out = tmp_path / "game.json"
    for extra in ([], ["--seed-only"]):
        proc = hzai("new", "--seed", seed, *extra, "-o", out, check_rc=2)
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("hzai new: --seed: a whole number from 0 to "), proc.stderr
        assert str(seed) in proc.stderr
        assert not out.exists()


def test_new_accepts_the_largest_seed(tmp_path):
    out = tmp_path / "game.json"
    hzai("new", "--seed", 2**64 - 1, "--seed-only", "-o", out, check_rc=0)
    assert json.loads(out.read_text())["seed"] == 2**64 - 1
    hzai("replay", out, check_rc=0)
