"""benchmarks/ceiling.py and benchmarks/doubling.py: the share of the gap closed, its
paired interval, reproducible doubling games, and tiny runs that write their files."""

from __future__ import annotations

import json

import pytest

from benchmarks import ceiling, doubling

pytest.importorskip("hzai._native")


def test_the_gap_closed_runs_from_v1_to_the_ceiling():
    assert ceiling.gap_closed(0.2, 0.2) == 0.0  # plays like ismcts-v1
    assert ceiling.gap_closed(0.2, 0.5) == 1.0  # plays like the ceiling
    assert ceiling.gap_closed(0.2, 0.35) == pytest.approx(0.5)
    assert ceiling.gap_closed(0.2, 0.1) < 0  # worse than ismcts-v1
    assert ceiling.gap_closed(0.5, 0.6) is None  # no gap to close


def test_the_paired_interval_holds_the_estimate_and_is_reproducible():
    first = {d: float(d % 5 == 0) for d in range(200)}  # 20%
    second = {d: float(d % 3 == 0) for d in range(200)}  # 34%
    low, high = ceiling.paired_interval(first, second, 400, seed=3)
    estimate = ceiling.gap_closed(0.2, sum(second.values()) / 200)
    assert low < estimate < high and high - low < 1.0
    assert ceiling.paired_interval(first, second, 400, seed=3) == (low, high)
    even = {d: 0.5 for d in range(10)}  # no gap in any resample: undefined
    assert ceiling.paired_interval(even, even, 100, seed=1) == (None, None)


def test_a_tiny_ceiling_run_writes_its_table(tmp_path, capsys):
    assert ceiling.main(["--games", "2", "--ms", "5", "--jobs", "1", "--bootstrap", "50", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "ceiling.json").read_text())
    assert report["v1_vs_ceiling"]["games"] == report["default_vs_ceiling"]["games"] == 2
    assert report["v1_vs_ceiling"]["bot"] == "ismcts-v1" and report["default_vs_ceiling"]["bot"] == "ismcts"
    table = (tmp_path / "ceiling.md").read_text()
    assert "| `ismcts-v1` | 2 |" in table and "Target (at least half)" in table
    assert "share of the gap closed" in capsys.readouterr().out


def test_ceiling_rejects_a_bad_count(capsys):
    with pytest.raises(SystemExit):
        ceiling.main(["--games", "1"])
    assert "--games must be at least 2" in capsys.readouterr().err


def test_doubling_games_are_the_same_every_time_and_written(tmp_path):
    first = doubling.play(20, 4, seed=7, threads=1)
    again = doubling.play(20, 4, seed=7, threads=2)
    assert first["results"] == again["results"] and first["iterations"] == [40, 20]
    assert [row["index"] for row in first["results"]] == [0, 1, 2, 3]
    assert first["score"] == sum(row["score"] for row in first["results"]) / 4
    assert doubling.main(["--iterations", "10", "--games", "2", "--threads", "1", "--out", str(tmp_path)]) == 0
    written = json.loads((tmp_path / "doubling_10.json").read_text())
    assert written["games"] == 2 and written["command"].startswith("python -m benchmarks.doubling")
