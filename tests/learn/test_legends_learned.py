"""Legends' learned team (docs/learning.md, "Legends"): the model file and its native
bundle, `ismcts` guided by it (team value at the leaves, the blueprint at the root with
policy=1), its determinism, no peeking, and self-play and training through the shared
pipeline on a tiny data set the test makes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hzai.core import Limits
from hzai.core.bot import BotError
from hzai.games.legends.game import DEFAULT_HEROES, LegendsGame
from hzai.games.legends.view import LegendsView
from hzai.games.legends.native.twin import native_state, native_view
from hzai.games.legends.parts import LegendsModel
from hzai.search.bot import make_bot
from tests.legends.helpers import game as legends_game
from tests.legends.helpers import random_game


def _game(mission=1, seats=2):
    return legends_game(mission, tuple(DEFAULT_HEROES[:seats]))


def tiny_legends_weights(seed: int = 0):
    from hzai.learn.train import Net
    from hzai.native.model import Weights

    g = _game()
    rng = np.random.default_rng(seed)
    # The table's features, as the shipped nets read: a partner's blueprint inside the tree
    # (partners=1) reads its picture of a drawn world, which has no past, so only a policy
    # of this width gives it there what it gives from the partner's own view.
    n_in = g.search.native.table_feature_count()
    value = Net(n_in, [6, 4], [1], rng)
    policy = Net(n_in, [8], [g.search.native.action_feature_count()], rng)
    for net in (value, policy):
        for w, b in net.heads:
            w += rng.standard_normal(w.shape).astype(np.float32) * 0.5
            b += rng.standard_normal(b.shape).astype(np.float32) * 0.1
    return Weights("legends", "tiny-legends", 1, {"value": value.export(), "policy": policy.export()}, {"made": "tests"})


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    from hzai.native.model import save

    path = tmp_path_factory.mktemp("lgmodel") / "tiny.npz"
    save(tiny_legends_weights(), path)
    return path


@pytest.fixture()
def learned(monkeypatch, model_file):
    monkeypatch.setattr(LegendsModel, "file", model_file)
    return model_file


def _decision(g, seed=7, upto=6):
    state = random_game(g, seed, upto=upto)
    while state.is_chance or state.is_terminal:
        upto += 1
        state = random_game(g, seed, upto=upto)
    return state


def _move(spec, view, budget=60, seed=3, threads=1):
    result = make_bot(spec).decide(view, Limits(iterations=budget, threads=threads), seed=seed)
    return view.game.move_text(result.move)


def test_the_model_file_loads_and_its_outputs_are_a_team_value_and_a_distribution(learned):
    from hzai.native.model import load_cached

    g = _game()
    weights, model = load_cached(g, learned)
    assert weights.model_id == "tiny-legends@1" and model.has_value and model.has_policy
    state = _decision(g)
    values = model.values(native_state(state))
    assert len(values) == g.n and len(set(values)) == 1 and 0.0 < values[0] < 1.0
    view = LegendsView.of(state, state.current_seat)
    legal = sorted(g.action_of(m) for m in state.legal_moves())
    probs = model.policy(native_view(view), legal)
    assert len(probs) == len(legal) and abs(sum(probs) - 1.0) < 1e-9 and min(probs) > 0.0


def test_a_model_of_another_game_or_shape_is_refused_with_its_reason(tmp_path, learned):
    from hzai.native.model import ModelError, Weights, native_model, read, save

    g = _game()
    w = read(learned)
    other = Weights("hera_zeus", w.name, w.version, w.nets, w.info)
    with pytest.raises(ModelError, match="is for game 'hera_zeus'"):
        native_model(g, other)
    bad = tiny_legends_weights()
    bad.nets["policy"]["heads"][0] = (np.zeros((5, 8), np.float32), np.zeros(5, np.float32))
    with pytest.raises(ModelError, match="one head of .* outputs"):
        native_model(g, bad)
    broken = tmp_path / "broken.npz"
    save(tiny_legends_weights(), broken)
    data = dict(np.load(broken))
    data["value/head/0/b"] = data["value/head/0/b"] + 1
    np.savez(broken, **data)
    with pytest.raises(ModelError, match="checksum"):
        read(broken)


def test_without_a_model_file_ismcts_is_the_unguided_search(monkeypatch, tmp_path):
    monkeypatch.setattr(LegendsModel, "file", tmp_path / "absent.npz")
    g = _game()
    state = _decision(g)
    view = LegendsView.of(state, state.current_seat)
    assert make_bot("ismcts").guide(g) is None
    a = make_bot("ismcts").decide(view, Limits(iterations=60), seed=1).analysis
    b = make_bot("ismcts-v2").decide(view, Limits(iterations=60), seed=1).analysis
    assert [(m.visits, m.value) for m in a.moves] == [(m.visits, m.value) for m in b.moves]


def test_ismcts_searches_with_the_team_value_and_the_blueprint_when_asked_and_differs_from_ismcts_v2(learned):
    from hzai.search.ismcts import default_guide, new_tree

    g = _game(3, 4)
    assert make_bot("ismcts").parts(g) == (True, False, False)  # Legends' defaults (game.model.defaults)
    assert make_bot("ismcts:policy=1").parts(g) == (True, True, False)
    assert make_bot("ismcts-v2").guide(g) is None
    guide = default_guide(g, (True, True, False))
    assert guide.value and guide.policy and guide.model_id == "tiny-legends@1"
    moved = 0
    for seed in range(6):
        state = _decision(g, seed=20 + seed, upto=4 + seed)
        view = LegendsView.of(state, state.current_seat)
        tree = new_tree(view, 1, widen_root=True, guide=guide)
        prior = tree.root_prior()
        legal = [g.action_of(m) for m in state.legal_moves()]
        assert abs(sum(prior) - 1.0) < 1e-9 and all(prior[a] > 0 for a in legal)
        a = make_bot("ismcts").decide(view, Limits(iterations=80), seed=5).analysis
        b = make_bot("ismcts-v2").decide(view, Limits(iterations=80), seed=5).analysis
        moved += [(m.visits, round(m.value, 9)) for m in a.moves] != [(m.visits, round(m.value, 9)) for m in b.moves]
    assert moved >= 3


def test_a_bots_move_under_the_blueprint_keeps_the_widened_root(learned):
    """A bot's move widens the root in the game's policy order (widening.hpp): 2 moves
    at 150 iterations. The blueprint as the root's prior weighs those moves and must not
    open the root to every legal move (that root lost every Legends game, guided or not)."""
    import math

    g = _game(1, 2)
    checked = 0
    for seed in range(8):
        state = _decision(g, seed=60 + seed, upto=3 + 2 * seed)
        if len(state.legal_moves()) < 4:
            continue
        view = LegendsView.of(state, state.current_seat)
        offered = 1 + math.floor(0.125 * math.sqrt(150))
        for spec in ("ismcts:policy=1", "ismcts:policy=1,value=0", "ismcts-v2"):
            analysis = make_bot(spec).decide(view, Limits(iterations=150), seed=4).analysis
            assert len([m for m in analysis.moves if m.visits > 0]) <= offered, (spec, seed)
        checked += 1
    assert checked >= 4


def test_the_guided_search_is_deterministic_on_one_and_two_threads(learned):
    g = _game(1, 2)
    state = _decision(g, seed=9, upto=8)
    view = LegendsView.of(state, state.current_seat)
    for threads in (1, 2):
        assert _move("ismcts:policy=1", view, threads=threads) == _move("ismcts:policy=1", view, threads=threads)


def test_no_peeking_partners_hands_changed_behind_the_view_change_no_output_or_move(learned):
    """Worlds drawn from a seat's view hide other partner hands; that seat's features,
    the model's outputs from its picture and the guided search's move are the same in each."""
    from hzai.native.model import load_cached

    g = _game(1, 3)
    _, model = load_cached(g, learned)
    differed = 0
    for seed in range(3):
        state = _decision(g, seed=40 + seed, upto=9)
        seat = state.current_seat
        view = LegendsView.of(state, seat)
        legal = sorted(g.action_of(m) for m in state.legal_moves())
        moves, values, policies = set(), set(), set()
        for world_seed in (1, 2, 3):
            world = view.sample(world_seed)
            differed += any(sorted(world.t.kind[i] for i in world.t.hands[p]) !=
                            sorted(state.t.kind[i] for i in state.t.hands[p]) for p in range(g.n) if p != seat)
            seen = LegendsView.of(world, seat)
            moves.add(_move("ismcts:policy=1", seen, budget=40))
            values.add(tuple(model.values(native_state(world))))
            policies.add(tuple(model.policy(native_view(seen), legal)))
        assert len(moves) == len(values) == len(policies) == 1
    assert differed >= 2


def test_selfplay_and_training_make_a_model_the_learned_bot_plays(tmp_path, monkeypatch):
    from hzai.learn.selfplay import SelfplayConfig, load, run
    from hzai.learn.train import TrainConfig, train_model

    out = tmp_path / "sp"
    config = SelfplayConfig("legends", games=4, budget=12, seed=5, shard=2, params=json.dumps({"mission": 1, "seats": 2}))
    summary = run(config, out, threads=2)
    assert summary["games"] == 4 and summary["records"] > 40
    again = tmp_path / "sp2"
    run(config, again, threads=1)
    a, b = load([out]), load([again])
    assert all(np.array_equal(a[k], b[k]) for k in ("view_idx", "policy_action", "result"))  # seeded: reproducible
    assert set(np.unique(a["result"])) <= {0.0, 1.0}
    model = tmp_path / "m.npz"
    result = train_model("legends", [str(out)], str(model), TrainConfig(epochs=3, hidden="16", value_hidden="8",
                                                                          batch=32, check_every=5),
                         name="lg-test", quiet=True)
    from hzai.native.model import read

    w = read(model)
    curve = w.info["policy_curve"]
    assert curve[-1]["train_policy"] < curve[0]["train_policy"] + 1e-6 or len(curve) == 1
    assert result["model"] == "lg-test@1"
    monkeypatch.setattr(LegendsModel, "file", model)
    g = _game()
    state = _decision(g)
    assert _move("ismcts", LegendsView.of(state, state.current_seat), budget=20)


def _blueprint_logits(weights, game, view_idx, seat, actions):
    """The blueprint's logits of `actions` from a record's view features, in numpy (the
    file's policy net; an action's logit the sum at its features, hzai/learn/factored.py)."""
    net = weights.nets["policy"]
    h = np.zeros(game.search.native.feature_count(), np.float32)
    h[view_idx] = 1.0
    for w, b in net["trunk"]:
        h = np.maximum(h @ w.astype(np.float32) + b, 0.0)
    w, b = net["heads"][0]
    z = h @ w.astype(np.float32).T + b
    return np.array([z[list(game.search.native.action_features(seat, a))].sum() for a in actions])


def test_selfplay_lists_every_legal_root_move_and_the_blueprint_learns_to_rank_the_searched_ones_first(tmp_path):
    """The blueprint scores action features, so it learns only from the moves a record
    lists: a widened root visits one or two of them, and a record that lists only those
    leaves every other legal move unranked (the blueprint at the root then spread its
    prior over moves it never learned to rank and lost every game). Each record lists
    every legal move of its root, the unvisited ones with share 0, and the trained
    blueprint puts the searched move first among all of them."""
    from hzai.learn.selfplay import SelfplayConfig, load, run
    from hzai.learn.train import TrainConfig, train_model
    from hzai.native.model import read

    params = {"mission": 1, "seats": 2}
    config = SelfplayConfig("legends", games=12, budget=12, seed=11, shard=6, params=json.dumps(params))
    out = tmp_path / "sp"
    run(config, out, threads=2)
    data = load([out])
    g = _game()
    ptr, act, prob = data["policy_ptr"], data["policy_action"], data["policy_prob"]
    firsts = [r for r in range(len(data["seat"])) if data["move"][r] == 0]
    assert len(firsts) == 12
    for r in firsts:  # a game's first decision: the position the deal starts from
        legal = sorted(g.action_of(m) for m in g.new_state(config.seed + int(data["game"][r])).legal_moves())
        assert sorted(act[ptr[r]:ptr[r + 1]].tolist()) == legal
    listed = np.diff(ptr)
    visited = np.add.reduceat((prob > 0).astype(np.int64), ptr[:-1])
    assert (listed > visited).mean() > 0.5 and np.allclose(np.add.reduceat(prob, ptr[:-1]), 1.0, atol=1e-4)
    model = tmp_path / "m.npz"
    train_model("legends", [str(out)], str(model), TrainConfig(epochs=25, hidden="32", value_hidden="8", batch=32,
                                                               input_dropout=0.0, check_every=10 ** 6, lr=3e-3),
                name="lg-rank", quiet=True)
    weights = read(model)
    choices = [r for r in range(len(data["seat"])) if listed[r] >= 3]
    top_searched, chance = 0, 0.0
    for r in choices:
        actions, shares = act[ptr[r]:ptr[r + 1]], prob[ptr[r]:ptr[r + 1]]
        logits = _blueprint_logits(weights, g, data["view_idx"][data["view_ptr"][r]:data["view_ptr"][r + 1]],
                                   int(data["seat"][r]), actions)
        top_searched += shares[int(np.argmax(logits))] == shares.max()
        chance += (shares == shares.max()).mean()
    assert len(choices) > 50
    assert top_searched / len(choices) > 0.6 and top_searched > 2 * chance, (top_searched, chance, len(choices))


def test_bad_selfplay_options_are_named():
    from hzai.learn.selfplay import SelfplayConfig, SelfplayError

    with pytest.raises(SelfplayError, match="mission"):
        SelfplayConfig("legends", params=json.dumps({"mission": 99})).check()
    with pytest.raises(SelfplayError, match="unknown parameter"):
        SelfplayConfig("legends", params=json.dumps({"colour": 1})).check()
    with pytest.raises(SelfplayError, match="JSON"):
        SelfplayConfig("legends", params="{mission").check()
