"""`python -m benchmarks.arena_speed` runs end to end at its smallest and writes a row per
match (no figure is asserted: the machine is shared)."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("hzai._native")


def test_arena_speed_writes_every_match(tmp_path):
    from benchmarks import arena_speed

    out = tmp_path / "arena_speed.json"
    assert arena_speed.main(["--games", "2", "--python-games", "2", "--ismcts-games", "1", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["game"], r["match"]) for r in rows] == [
        ("hera_zeus", "random vs random"), ("hera_zeus", "ismcts@100 vs ismcts@100"),
        ("legends", "team of light bots"), ("legends", "team of ismcts@100")]
    for r in rows:
        for key in ("python_games_per_s", "native_games_per_s", "native_over_python"):
            assert math.isfinite(r[key]) and r[key] > 0
        # the same games on both sides: equal move counts for the games both played
        if r["python_games"] == r["native_games"]:
            assert r["python_moves_per_game"] == r["native_moves_per_game"]
