"""Across thousands of positions from random games: the true state fits each player's
view (the tracker never invents), every sample fits the view it came from, and the
game plays on legally from a sample."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.belief import Determinizer, Knowledge, view_of
from hzai.games.hera_zeus.belief.check import fit_problems
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.invariants import invariant_problems
from hzai.games.hera_zeus.rules.playout import random_playout, random_step

VARIANTS = [
    {},
    {"first_player": "zeus", "figure_removal": "pegasus"},
    {"pythia_defence": "always_loses", "turn_limit": 30},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=["default", "zeus-pegasus", "pythia-short"])
def test_true_state_and_samples_fit_the_view_over_random_games(variant):
    game = Game.create(variant)
    positions = 0
    for seed in range(12):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        while not state.is_over:
            random_step(state, rng)
            if state.is_over:
                break
            for observer in (0, 1):
                knowledge = Knowledge.of(state, observer)
                assert not knowledge.degraded, "the model explained every event"
                view = view_of(state, observer, knowledge)
                assert fit_problems(view, state) == [], f"seed {seed}, move {len(state.history)}: the truth must fit"
                sample = Determinizer(view, game).sample(seed * 7919 + len(state.history))
                assert fit_problems(view, sample) == [], f"seed {seed}, move {len(state.history)}"
                assert invariant_problems(sample) == []
                positions += 1
    assert positions > 1000


def test_games_play_on_legally_from_samples():
    game = Game.create()
    finished = 0
    for seed in range(40):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        for _ in range(10 + seed % 30):
            if state.is_over:
                break
            random_step(state, rng)
        if state.is_over:
            continue
        sample = Determinizer(view_of(state, state.turn_player), game).sample(seed)
        # The sample offers the same legal moves as the truth would (they depend only on
        # what the mover sees) and plays to an end with every invariant kept.
        if not state.pending:
            assert [str(m) for m in sample.legal_moves()] == [str(m) for m in state.legal_moves()]
        end = random_playout(sample, seed)
        assert end.is_over and invariant_problems(end) == []
        finished += 1
    assert finished >= 25


def test_samples_differ_between_seeds_but_not_for_the_same_seed():
    """Determinism: the same view and seed give the same sample."""
    game = Game.create()
    state = Record(game, seed=3).start()
    rng = SplitMix64(3)
    for _ in range(30):
        random_step(state, rng)
    view = view_of(state, 0)
    def hidden(sample):
        return str((sample.hands, sample.decks, sample.columns))

    first = [hidden(Determinizer(view, game).sample(s)) for s in range(5)]
    again = [hidden(Determinizer(view, game).sample(s)) for s in range(5)]
    assert first == again
    assert len(set(first)) == 5


def test_games_between_search_bots_keep_the_truth_inside_every_view():
    """Bots play purposefully (spies, Pegasus, Sirens, Hades...), which random games
    rarely do in sequence; the truth must still fit both players' views throughout."""
    from hzai.search import Limits, make_bot

    game = Game.create()
    bots = [make_bot("heuristic"), make_bot("ismcts")]
    positions = 0
    for seed in range(6):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        knowledge = [Knowledge.of(state, 0), Knowledge.of(state, 1)]
        while not state.is_over:
            if state.is_chance:
                random_step(state, rng)
                continue
            for observer in (0, 1):
                view = view_of(state, observer, knowledge[observer].update(state))
                assert not knowledge[observer].degraded
                assert fit_problems(view, state) == []
                positions += 1
            p = state.to_move
            state.push(bots[(p + seed) % 2].decide(view_of(state, p, knowledge[p]), Limits(iterations=60), seed).move)
    assert positions > 300
