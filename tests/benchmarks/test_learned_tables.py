"""benchmarks/learned.py's table arithmetic: runs of one match on disjoint deals pooled
as one, and the table reads the result files there are."""

from __future__ import annotations

import json

import pytest

from benchmarks.learned import pooled, table


def run(score: float, low: float, high: float, games: int) -> dict:
    return {"score_a": score, "low": low, "high": high, "games": games}


def test_two_equal_runs_pool_to_the_same_score_with_an_interval_narrower_by_root_two():
    one = run(0.55, 0.50, 0.60, 200)
    both = pooled([one, one])
    assert both["games"] == 400 and both["score_a"] == pytest.approx(0.55)
    assert (both["high"] - both["low"]) == pytest.approx((0.60 - 0.50) / 2 ** 0.5)


def test_pooling_weighs_runs_by_their_games():
    both = pooled([run(0.6, 0.5, 0.7, 300), run(0.4, 0.3, 0.5, 100)])
    assert both["score_a"] == pytest.approx(0.55) and both["low"] < 0.55 < both["high"]


def test_the_table_pools_the_two_strength_runs_and_names_both(tmp_path):
    for name, r in (("strength_v2_100", run(0.55, 0.48, 0.62, 200)), ("strength_v2_100_b", run(0.6, 0.54, 0.66, 300))):
        (tmp_path / f"learned_{name}.json").write_text(json.dumps(r))
    text = table(tmp_path)
    row = next(line for line in text.splitlines() if "`ismcts-v2`, 100 ms" in line)
    assert "58.0%" in row and "500 games" in row and "2 runs pooled" in row and row.endswith("| missed |")
