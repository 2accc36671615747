"""The native determinization sampler draws exactly what the Python one draws."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.belief import Determinizer, view_of
from hzai.games.hera_zeus.belief.check import fit_problems
from hzai.games.hera_zeus.native.search import native_sample
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, state_to_json
from hzai.games.hera_zeus.rules.playout import random_step


def picture(state):
    return (state.hands, state.decks, state.columns, state.discards, sorted(state.face_up),
            [(p.kind, p.player, p.cards) for p in state.pending], state_to_json(state))


@pytest.mark.parametrize("fitted", [False, True], ids=["sample", "fitted-draw"])
@pytest.mark.parametrize(
    "variant",
    [{}, {"first_player": "zeus", "figure_removal": "pegasus"}, {"pythia_defence": "always_loses", "turn_limit": 25}],
    ids=["default", "zeus-pegasus", "pythia-short"],
)
def test_native_and_python_samples_are_identical(variant, fitted):
    """`fitted`: the fallback of tight views on its own (tests/belief/test_tight_views.py),
    over ordinary views too: hand slots in groups, hostage exclusions, restricted wildcards."""
    game = Game.create(variant)
    compared = 0
    for seed in range(10):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        while not state.is_over:
            random_step(state, rng)
            if state.is_over or len(state.history) % 3:
                continue
            for observer in (0, 1):
                view = view_of(state, observer)
                sample_seed = seed * 1000 + len(state.history) + observer
                determinizer = Determinizer(view, game)
                python = determinizer.sample_fitted(sample_seed) if fitted else determinizer.sample(sample_seed)
                native = native_sample(view, sample_seed, game, fitted=fitted)
                assert picture(native) == picture(python), f"seed {seed}, move {len(state.history)}, observer {observer}"
                assert fit_problems(view, native) == []
                compared += 1
    assert compared > 200
