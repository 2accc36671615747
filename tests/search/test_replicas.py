"""Analysis by independent replicas (hzai.search.replicas): intervals that cover the
answer's spread across seeds, reproducible, and the single search unchanged."""

from __future__ import annotations

import pytest

from hzai.core import Limits, wilson_interval
from hzai.search import BotError, analyze
from hzai.search.replicas import MIN_SHARE, REPLICAS, replicas_for, spread_interval, t975
from tests.search.test_levels import positions


def test_the_interval_is_wilson_s_for_one_replica_and_wider_when_replicas_disagree():
    assert spread_interval([0.6], 60.0, 100) == pytest.approx(wilson_interval(60.0, 100))
    agree = spread_interval([0.6, 0.6, 0.6, 0.6], 2400.0, 4000)
    assert agree == pytest.approx(wilson_interval(2400.0, 4000))  # no spread: the binomial's
    low, high = spread_interval([0.55, 0.65, 0.6, 0.6], 2400.0, 4000)
    sd = (0.005 / 3) ** 0.5
    assert high - 0.6 == pytest.approx(t975(3) * sd / 2) and 0.6 - low == pytest.approx(t975(3) * sd / 2)
    assert spread_interval([0.0, 1.0], 50.0, 100) == (0.0, 1.0)  # clipped to [0, 1]
    assert t975(1) > t975(3) > t975(30) > 1.96


def test_a_small_budget_runs_fewer_replicas_so_every_move_is_tried():
    assert replicas_for(4, Limits(iterations=120), 33) == 1
    assert replicas_for(4, Limits(iterations=MIN_SHARE * 10 * 2), 10) == 2
    assert replicas_for(4, Limits(iterations=100000), 30) == 4
    assert replicas_for(4, Limits(millis=50), 300) == 4  # a time budget keeps them all


def test_replicas_are_reproducible_and_one_replica_is_the_single_search():
    view = positions(1, seed=5)[0]
    limits = Limits(iterations=4000)
    first = analyze(view, limits, seed=3)
    again = analyze(view, limits, seed=3)
    assert [(str(m.move), m.visits, m.value, m.ci_low, m.ci_high) for m in first.moves] == \
           [(str(m.move), m.visits, m.value, m.ci_low, m.ci_high) for m in again.moves]
    assert first.iterations == 4000
    single = analyze(view, limits, seed=3, replicas=1)
    assert [(str(m.move), m.visits) for m in single.moves] != [(str(m.move), m.visits) for m in first.moves]
    for m in single.moves:  # the single search: the binomial interval
        assert (m.ci_low, m.ci_high) == pytest.approx(wilson_interval(m.value * m.visits, m.visits))
    with pytest.raises(BotError, match="replicas"):
        analyze(view, limits, seed=3, replicas=0)


def test_the_intervals_cover_the_values_other_seeds_find():
    """Four analyses of each position with other seeds: the best move's value of each
    lies inside the intervals the others give it far more often with replicas than the
    single search's binomial intervals allow."""
    covered = {1: 0, REPLICAS: 0}
    pairs = 0
    for view in positions(3, seed=21):
        for replicas in covered:
            answers = [analyze(view, Limits(iterations=6000), seed=s, replicas=replicas) for s in range(4)]
            best = str(answers[0].best)
            rows = [next(m for m in a.moves if str(m.move) == best) for a in answers]
            for i, a in enumerate(rows):
                for j, b in enumerate(rows):
                    if i != j:
                        covered[replicas] += a.ci_low <= b.value <= a.ci_high
                        pairs += replicas == 1
    assert covered[REPLICAS] >= 0.8 * pairs
    assert covered[REPLICAS] > covered[1]
