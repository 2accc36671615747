"""The live code against the committed golden files, exactly: the bots' moves and root
visit counts, and seeded playthroughs step by step (make_golden.py writes them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden import make_golden

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def live() -> dict:
    return make_golden.build()


def test_every_golden_file_is_produced():
    committed = sorted(p.name for p in HERE.glob("*.json"))
    assert committed == sorted(["decisions.json", "learned_decisions.json",
                                *(f"playthrough_{s}.json" for s in make_golden.PLAYTHROUGH_SEEDS)])


def test_decisions_are_unchanged(live):
    golden = json.loads((HERE / "decisions.json").read_text())
    assert len(golden) == len(live["decisions.json"]) >= 100
    for expected, actual in zip(golden, live["decisions.json"]):
        assert actual == expected


def test_ismcts_v3_plays_the_retired_default_moves(live):
    """ismcts-v3 keeps the moves (and root visits) the learned default made with hz@2."""
    golden = json.loads((HERE / "learned_decisions.json").read_text())
    assert len(golden) == len(live["learned_decisions.json"]) >= 40
    assert len({row["move"] for row in golden}) > 10  # the rows are real decisions, not one move
    for expected, actual in zip(golden, live["learned_decisions.json"]):
        assert actual == expected


@pytest.mark.parametrize("seed", make_golden.PLAYTHROUGH_SEEDS)
def test_playthrough_is_unchanged(live, seed):
    golden = json.loads((HERE / f"playthrough_{seed}.json").read_text())
    actual = live[f"playthrough_{seed}.json"]
    assert len(actual["steps"]) == len(golden["steps"])
    for index, (expected, step) in enumerate(zip(golden["steps"], actual["steps"])):
        assert step == expected, f"step {index}"
    assert actual == golden
