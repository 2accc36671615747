"""Random playouts and the batch API of the core."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from hzai.games.hera_zeus.native.state import NativeState, random_playouts
from hzai.games.hera_zeus.native.check import VARIANT_SETS, game_for
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Record, random_playout, state_to_json
from hzai.games.hera_zeus.rules.playout import random_step


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: "-".join(v.values()))
def test_native_playout_is_the_reference_playout(variants):
    """Same seed, same generator use: the very same game, move for move."""
    game = game_for(variants)
    for seed in range(12):
        ps = Record(game, seed=seed).start()
        ns = NativeState.from_state(ps)
        random_playout(ps, seed + 1)
        ns.random_playout(seed + 1)
        assert ns.core.moves_played == len(ps.history)
        assert ns.to_json() == state_to_json(ps)


def test_playouts_from_mid_game_positions_equal():
    game = game_for(VARIANT_SETS[0])
    for seed in range(30):
        ps = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        for _ in range(seed % 40):
            if ps.is_over:
                break
            random_step(ps, rng)
        ns = NativeState.from_state(ps)
        random_playout(ps, 99 + seed)
        ns.random_playout(99 + seed)
        assert ns.to_json() == state_to_json(ps)


def test_batch_is_the_same_on_one_and_two_threads_and_matches_single_playouts():
    game = game_for(VARIANT_SETS[0])
    start = NativeState.deal(game, 5)
    w1, l1, t1 = random_playouts(start, 400, seed=1000, threads=1)
    w2, l2, t2 = random_playouts(start, 400, seed=1000, threads=2)
    w3, l3, t3 = random_playouts(start, 400, seed=1000, threads=3)
    for a, b, c in ((w1, w2, w3), (l1, l2, l3), (t1, t2, t3)):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    assert set(np.unique(w1)) <= {-1, 0, 1} and {0, 1} <= set(np.unique(w1))
    assert (l1 > 0).all()
    for i in (0, 1, 77, 399):  # game i is the single playout with seed + i
        one = start.clone()
        one.random_playout(1000 + i)
        assert (one.winner if one.winner is not None else -1) == w1[i]
        assert one.core.moves_played == l1[i] and one.core.turn == t1[i]
    assert start.raw()["phase"] == "setup"  # the batch leaves its start state alone


def test_batch_accepts_a_reference_state_and_ends_in_draws_at_the_turn_limit():
    game = game_for(dict(VARIANT_SETS[0], turn_limit=4))
    winners, lengths, turns = random_playouts(Record(game, seed=2).start(), 200, seed=7, threads=2)
    assert (turns <= 4).all()
    assert (winners == -1).sum() > 0
    assert ((winners != -1) | (turns == 4)).all()


def test_batch_runs_without_the_gil():
    """While a long batch runs on another thread, this thread keeps running Python."""
    state = NativeState.deal(game_for(VARIANT_SETS[0]), 1)
    t0 = time.perf_counter()
    random_playouts(state, 3000, seed=0, threads=1)
    single = time.perf_counter() - t0
    n = max(3000, int(3000 * 0.6 / max(single, 1e-3)))  # a batch of about 0.6 s
    worker = threading.Thread(target=random_playouts, args=(state, n, 0, 1))
    worker.start()
    ticks, last, longest = 0, time.perf_counter(), 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
        ticks += 1
    total = time.perf_counter() - t0 - single
    worker.join()
    assert ticks > 1000
    assert longest < 0.5 * total


def test_bad_arguments():
    state = NativeState.deal(game_for(VARIANT_SETS[0]), 1)
    with pytest.raises(ValueError):
        random_playouts(state, 10, seed=0, threads=0)
    with pytest.raises(ValueError):
        random_playouts(state, -1, seed=0)
    assert len(random_playouts(state, 0, seed=0)[0]) == 0
