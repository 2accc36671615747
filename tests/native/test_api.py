"""The Python-facing API of the core: building states, playing ids, errors."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.native.state import NativeState
from hzai.games.hera_zeus.native.check import VARIANT_SETS, game_for
from hzai.games.hera_zeus.rules import Record, state_to_json
from hzai.games.hera_zeus.rules.record import deal
from hzai.games.hera_zeus.rules.actions import action_space


def test_from_setup_deal_and_state_agree():
    game = game_for(VARIANT_SETS[0])
    record = Record(game, seed=12)
    setup = deal(game, 12)
    a = NativeState.from_setup(game, setup)
    b = NativeState.deal(game, 12)
    c = NativeState.from_state(record.start())
    assert a.raw() == b.raw() == c.raw()
    assert a.to_json() == state_to_json(record.start())


def test_apply_checks_legality_and_the_end_of_the_game():
    game = game_for(VARIANT_SETS[0])
    state = NativeState.deal(game, 3)
    space = action_space(game.deck)
    with pytest.raises(ValueError, match="illegal"):
        state.apply(space.offsets["draw"])  # setup comes first
    with pytest.raises(ValueError):
        state.apply(-5)
    first_id, first_text = state.legal_actions()[0], state.legal_texts()[0]
    assert state.apply_text(first_text) == first_id
    assert state.raw()["to_move"] == 1  # Hera has set up
    with pytest.raises(ValueError):
        state.apply_text("draw")
    state.random_playout(4)
    assert state.is_over and state.legal_actions() == []
    with pytest.raises(ValueError, match="over"):
        state.apply(0)


def test_legal_moves_decode_to_the_reference_moves():
    game = game_for(VARIANT_SETS[0])
    ps = Record(game, seed=8).start()
    ns = NativeState.from_state(ps)
    assert ns.legal_moves() == ps.legal_moves()
    assert [ns.action_text(a) for a in ns.legal_actions()] == [str(m) for m in ps.legal_moves()]


def test_chance_outcomes_come_with_probabilities():
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules.playout import random_step

    game = game_for(VARIANT_SETS[0])
    for seed in range(200):  # find a chance event in some random game
        ps = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        while not ps.is_over and not ps.is_chance:
            random_step(ps, rng)
        if ps.is_chance:
            break
    assert ps.is_chance
    ns = NativeState.from_state(ps)
    assert ns.is_chance and ns.legal_actions() == []
    outcomes = ns.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert [(ns.action_text(a), p) for a, p in outcomes] == [(str(m), p) for m, p in ps.chance_outcomes()]


def test_inconsistent_states_are_refused():
    game = game_for(VARIANT_SETS[0])
    ps = Record(game, seed=1).start()
    ps.hands[0].append(ps.decks[0].pop())
    ps.hands[1].append(ps.hands[0][0])  # one card in two places
    with pytest.raises(ValueError):
        NativeState.from_state(ps)
    ps = Record(game, seed=1).start()
    ps.decks[0].pop()  # a card missing
    with pytest.raises(ValueError):
        NativeState.from_state(ps)
