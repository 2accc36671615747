"""Hera and Zeus as an OpenSpiel game (hzai.games.hera_zeus.openspiel): OpenSpiel's own checks, the
shared action ids, tensors, and worlds resampled from an information state."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e '.[openspiel]')")
hzos = pytest.importorskip("hzai.games.hera_zeus.openspiel")

from hzai.games.hera_zeus.belief import view_of  # noqa: E402
from hzai.games.hera_zeus.belief.check import fit_problems  # noqa: E402
from hzai.games.hera_zeus.belief.knowledge import Knowledge  # noqa: E402
from hzai.games.hera_zeus.rules import Game, Record  # noqa: E402
from hzai.games.hera_zeus.rules.actions import action_space  # noqa: E402


@pytest.fixture(scope="module")
def game():
    return pyspiel.load_game(hzos.GAME_NAME)


def chance_step(state, rng: random.Random) -> None:
    actions, probs = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(actions, probs)[0])


def dealt(game, rng: random.Random):
    state = game.new_initial_state()
    while state.is_chance_node():
        chance_step(state, rng)
    return state


def test_openspiel_random_simulation(game):
    # OpenSpiel's own API checks (legal actions sorted and masked, clones, observables
    # for both players at every decision and at the end, returns in range, zero sum),
    # over 40 random games, then with serialization on top.
    pyspiel.random_sim_test(game, num_sims=40, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_variants_pass_the_random_simulation():
    for params in ({"first_player": "zeus", "figure_removal": "pegasus"}, {"pythia_defence": "always_loses", "turn_limit": 6}):
        variant = pyspiel.load_game(hzos.GAME_NAME, params)
        pyspiel.random_sim_test(variant, num_sims=5, serialize=False, verbose=False)
        assert variant.max_game_length() == 2 + variant.get_parameters()["turn_limit"] * 21


def test_a_short_turn_limit_ends_in_a_draw():
    variant = pyspiel.load_game(hzos.GAME_NAME, {"turn_limit": 1})
    rng = random.Random(5)
    draws = 0
    for _ in range(20):
        state = dealt(variant, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                chance_step(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        draws += state.returns() == [0.0, 0.0]
        assert sum(state.returns()) == 0.0
    assert draws > 0


def test_the_game_type_is_what_the_issue_asks(game):
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.num_distinct_actions() == action_space(Game.create().deck).size


def test_the_deal_is_86_chance_nodes_with_the_documented_distribution(game):
    state = game.new_initial_state()
    space = action_space(Game.create().deck)
    chance_base = space.offsets["chance"]
    first = dict(state.chance_outcomes())
    assert abs(sum(first.values()) - 1) < 1e-9
    # Hera's first hand card: never Io, every other card by its number of copies.
    names = Counter(c.name for c in Game.create().deck.cards if c.owner == 0)
    names["Io"] = 0
    total = sum(names.values())
    for name, n in names.items():
        a = chance_base + 3 * space.names.index(name)
        assert first.get(a, 0.0) == pytest.approx(n / total)
    steps = 0
    rng = random.Random(2)
    while state.is_chance_node():
        chance_step(state, rng)
        steps += 1
    assert steps == 86
    reference = state._reference()
    for owner in (0, 1):
        hand = [reference.deck.cards[c] for c in reference.hands[owner]]
        assert len(hand) == 9 and all(c.type.kind != "hostage" for c in hand)
        assert len(reference.decks[owner]) == 34
    assert state.current_player() == 0  # Hera sets up first


def test_an_impossible_deal_card_is_refused(game):
    state = game.new_initial_state()
    io = action_space(Game.create().deck).offsets["chance"] + 3 * 0  # Io never starts in a hand
    with pytest.raises(Exception, match="not a possible card"):
        state.apply_action(io)


def test_legal_actions_are_the_shared_ids_of_the_reference_engine(game):
    rng = random.Random(11)
    space = action_space(Game.create().deck)
    for _ in range(3):
        state = dealt(game, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                expected = sorted(space.encode(m) for m, _ in state._reference().chance_outcomes())
                assert [a for a, _ in state.chance_outcomes()] == expected
                chance_step(state, rng)
                continue
            reference = state._reference()
            assert state.legal_actions() == sorted(space.encode(m) for m in reference.legal_moves())
            assert state.current_player() == reference.to_move
            action = rng.choice(state.legal_actions())
            assert state.action_to_string(state.current_player(), action) == str(space.decode(action))
            state.apply_action(action)


def test_an_illegal_action_is_refused_and_changes_nothing(game):
    state = dealt(game, random.Random(3))
    before = str(state)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in set(state.legal_actions()))
    with pytest.raises(Exception):
        state.apply_action(illegal)
    assert str(state) == before


def test_tensors_have_the_announced_shapes_and_differ_per_player(game):
    rng = random.Random(4)
    info_size = game.information_state_tensor_size()
    obs_size = game.observation_tensor_size()
    assert info_size > obs_size > 0
    state = dealt(game, rng)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        tensors = [np.array(state.information_state_tensor(p)) for p in (0, 1)]
        for p in (0, 1):
            assert tensors[p].shape == (info_size,)
            assert len(state.observation_tensor(p)) == obs_size
            assert np.isfinite(tensors[p]).all() and tensors[p].any()
        assert not np.array_equal(tensors[0], tensors[1])
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_information_state_is_the_players_view(game):
    rng = random.Random(6)
    state = dealt(game, rng)
    for _ in range(12):
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    reference = state._reference()
    for p in (0, 1):
        # the same view a fresh tracker reading the whole event log gives
        assert state.view(p).to_json() == view_of(reference, p, Knowledge.of(reference, p)).to_json()
        text = state.information_state_string(p)
        # no card of the opponent's hand is named in it, only counted
        opponent_hand = state.view(p).hands[1 - p]
        assert all(s.card is None or s.card[1] == p for s in opponent_hand)
        assert '"group"' in text or not opponent_hand
        assert '"group"' not in state.observation_string(p)


def play_on(state, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        for p in (0, 1):
            state.information_state_string(p)
            assert fit_problems(state.view(p), state._reference()) == []


@pytest.mark.parametrize("seed", range(4))
def test_resampled_worlds_fit_the_information_state(game, seed):
    rng = random.Random(100 + seed)
    state = dealt(game, rng)
    checked = differs = 0
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        decision += 1
        if decision % 3 == 0:
            for p in (0, 1):
                world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(rng.randrange(2**31), 0.0, 1.0))
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.information_state_tensor(p) == state.information_state_tensor(p)
                assert world.observation_string(p) == state.observation_string(p)
                assert world.current_player() == state.current_player()
                if p == state.current_player():  # the mover's options are part of its information
                    assert world.legal_actions() == state.legal_actions()
                assert fit_problems(state.view(p), world._reference()) == []
                differs += str(world) != str(state)
                checked += 1
                # the world plays on, both players' views still fit it
                play_on(world, rng, 6)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
    assert differs > 0  # the hidden cards were really drawn again


class FixedSampler:
    """A probability sampler that returns one value: the world's seed is known."""

    def __init__(self, value: float):
        self.value = value

    def __call__(self) -> float:
        return self.value


def test_the_world_is_the_belief_samplers_world(game):
    from hzai.games.hera_zeus.belief import Determinizer
    from hzai.games.hera_zeus.rules.record import state_to_json

    rng = random.Random(31)
    state = dealt(game, rng)
    compared = 0
    while not state.is_terminal() and compared < 12:
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        p = state.current_player()
        u = rng.random()
        world = state.resample_from_infostate(p, FixedSampler(u))
        expected = Determinizer(state.view(p)).sample(int(u * 2.0**53))
        assert json.loads(str(world)) == json.loads(json.dumps(state_to_json(expected)))
        compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 0


def test_resampling_never_touches_the_original(game):
    rng = random.Random(9)
    state = dealt(game, rng)
    for _ in range(10):
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    before = (str(state), state.information_state_string(0), state.information_state_string(1))
    for seed in range(5):
        world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        play_on(world, rng, 10)
    assert (str(state), state.information_state_string(0), state.information_state_string(1)) == before


def test_resampling_during_the_deal_keeps_the_own_hand(game):
    rng = random.Random(12)
    state = game.new_initial_state()
    for _ in range(50):  # Hera's hand and deck, part of Zeus's hand
        chance_step(state, rng)
    for p in (0, 1):
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(7, 0.0, 1.0))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert len(world._deal) == len(state._deal)
        while world.is_chance_node():
            chance_step(world, rng)
        assert not world.is_terminal()


def test_clones_are_independent(game):
    rng = random.Random(21)
    state = dealt(game, rng)
    for _ in range(8):
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state.information_state_string(0)
    clone = state.clone()
    before = (str(state), state.information_state_string(0), state.information_state_string(1))
    play_on(clone, rng, 15)
    assert (str(state), state.information_state_string(0), state.information_state_string(1)) == before
    play_on(state, rng, 5)  # the original moves on from its own copy of the shared tracker


def test_serialization_round_trip(game):
    rng = random.Random(8)
    state = dealt(game, rng)
    for _ in range(10):
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    for p in (0, 1):
        assert restored.information_state_string(p) == state.information_state_string(p)


def test_a_record_deal_and_the_openspiel_deal_agree():
    # The card-by-card deal of a record's seeded setup gives the same start as Record.
    game = pyspiel.load_game(hzos.GAME_NAME)
    reference = Record(Game.create(), seed=42).start()
    space = action_space(reference.deck)
    state = game.new_initial_state()
    for owner in (0, 1):
        names = [reference.deck.cards[c].name for c in reference.hands[owner]]
        names += [reference.deck.cards[c].name for c in reference.decks[owner]]
        for name in names:
            state.apply_action(space.offsets["chance"] + 3 * space.names.index(name))
    assert state.current_player() == 0
    assert state._reference().hands == reference.hands
    assert state._reference().decks == reference.decks
