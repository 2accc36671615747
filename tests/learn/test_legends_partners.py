"""Legends' search over the blueprint (issue 32, item 2; docs/learning.md, "Search over
the blueprint"): `ismcts:partners=1` keeps a tree of the seat's own decisions and draws
every partner's move in it from the model's blueprint over that partner's own picture of
the drawn world. The blueprint in the tree is the model the partner bots play; the
search is reproducible, plays the same games in the native arena as in the Python loop,
and reads the seat's view only."""

from __future__ import annotations

import numpy as np
import pytest

from hzai.core import Limits
from hzai.core.bot import BotError
from hzai.games.legends.game import DEFAULT_HEROES, LegendsGame
from hzai.games.legends.native.twin import native_state, native_view
from hzai.games.legends.parts import LegendsModel
from hzai.games.legends.view import LegendsView
from hzai.search.bot import make_bot
from tests.learn.test_legends_learned import _decision, tiny_legends_weights
from tests.legends.helpers import game as legends_game


def _game(mission=1, seats=3):
    return legends_game(mission, tuple(DEFAULT_HEROES[:seats]))


def _use(monkeypatch, tmp_path, weights, name="m.npz"):
    from hzai.native.model import save

    path = tmp_path / name
    save(weights, path)
    monkeypatch.setattr(LegendsModel, "file", path)
    return path


def _root(spec, view, budget=60, seed=3, threads=1):
    a = make_bot(spec).decide(view, Limits(iterations=budget, threads=threads), seed=seed).analysis
    return [(view.game.move_text(m.move), m.visits, round(m.value, 9)) for m in a.moves]


def test_the_blueprint_in_the_tree_is_the_model_the_partner_bots_play(monkeypatch, tmp_path):
    """The searching bot's blueprint is the very model object the default partner bots
    load; what it gives a partner from the partner's picture of the true state is what it
    gives that partner from its own view; and another model's blueprint searches
    otherwise, the same weights alike."""
    _use(monkeypatch, tmp_path, tiny_legends_weights(1))
    g = _game(1, 3)
    searcher, partner = make_bot("ismcts:partners=1"), make_bot("ismcts")
    assert searcher.guide(g).partners and searcher.guide(g).model is partner.guide(g).model
    model = partner.guide(g).model
    state = _decision(g, seed=12, upto=9)
    seat = state.current_seat
    legal = sorted(g.action_of(m) for m in state.legal_moves())
    from_state = model.state_policy(native_state(state), seat, legal)
    from_view = model.policy(native_view(LegendsView.of(state, seat)), legal)
    assert np.allclose(from_state, from_view, atol=1e-12)
    # the blueprint alone (no value net), at a start where the team still wins playouts:
    # the same weights search alike, others otherwise
    spec = "ismcts:partners=1,value=0,root_widen=2"
    start = _decision(g, seed=60, upto=2)
    view = LegendsView.of(start, start.current_seat)
    first = _root(spec, view, budget=80)
    assert len(first) > 1
    _use(monkeypatch, tmp_path, tiny_legends_weights(1), "same.npz")  # the same weights, another file
    assert _root(spec, view, budget=80) == first
    _use(monkeypatch, tmp_path, tiny_legends_weights(2), "other.npz")
    assert _root(spec, view, budget=80) != first


def test_partners_1_differs_from_the_playout_policys_partners_and_is_reproducible(monkeypatch, tmp_path):
    _use(monkeypatch, tmp_path, tiny_legends_weights())
    g = _game(1, 4)
    state = _decision(g, seed=5, upto=8)
    view = LegendsView.of(state, state.current_seat)
    assert _root("ismcts:partners=1", view) != _root("ismcts:own_only=1", view)
    for threads in (1, 2):
        assert _root("ismcts:partners=1", view, threads=threads) == _root("ismcts:partners=1", view, threads=threads)


def test_the_native_arena_plays_partners_1_as_the_python_loop(monkeypatch, tmp_path):
    from hzai.core.registry import make_game
    from hzai.search.arena import native_arena, native_team_results, play_team_game

    _use(monkeypatch, tmp_path, tiny_legends_weights())
    params = {"mission": 3, "heroes": ["Perseus", "Atalanta", "Hercules"]}
    game = make_game("legends", **params)
    limits = Limits(iterations=12)
    bots = native_arena(game, ["ismcts:partners=1"], limits)
    assert bots is not None and bots[0].partners and bots[0].own_only
    native = native_team_results(game, bots[0], [0, 1], 5100, threads=2, keep_actions=True)
    for i, got in enumerate(native):
        want = play_team_game("legends", params, "ismcts:partners=1", i, limits, 5100, keep_actions=True)
        assert got is not None and got.actions == want.actions, f"game {i}: the actions differ"


def test_no_peeking_partners_hands_changed_behind_the_view_change_no_move(monkeypatch, tmp_path):
    _use(monkeypatch, tmp_path, tiny_legends_weights())
    g = _game(1, 3)
    state = _decision(g, seed=44, upto=9)
    seat = state.current_seat
    view = LegendsView.of(state, seat)
    seen = {tuple(_root("ismcts:partners=1", LegendsView.of(view.sample(w), seat), budget=40)) for w in (1, 2, 3)}
    assert len(seen) == 1


def test_partners_needs_a_tree_of_own_decisions_and_a_model_with_a_blueprint(monkeypatch, tmp_path):
    with pytest.raises(BotError, match="cannot go with own_only=0"):
        make_bot("ismcts:partners=1,own_only=0")
    with pytest.raises(BotError, match="partners"):
        make_bot("ismcts:partners=1,tree=multi")
    with pytest.raises(BotError, match="partners must be"):
        make_bot("ismcts:partners=2")
    monkeypatch.setattr(LegendsModel, "file", tmp_path / "absent.npz")
    g = _game()
    state = _decision(g)
    with pytest.raises(BotError, match="ships no model with a policy"):
        make_bot("ismcts:partners=1").decide(LegendsView.of(state, state.current_seat), Limits(iterations=10), seed=1)
    _use(monkeypatch, tmp_path, tiny_legends_weights())
    assert _root("ismcts:partners=1,value=0,policy=0,cards=0", LegendsView.of(state, state.current_seat), budget=20)


# ----- the blueprint's price (issue 44, item 2; docs/learning.md, "Search over the blueprint") -----
# The blueprint inside the tree is evaluated by its own fast path (legends_learn.cpp: the
# trunk several outputs at a time in learn::Net's order of sums, the head at the legal
# actions' outputs only, a cache of each tree's pictures). It must give the very floats
# the plain evaluation gave, so the searches decide as before: the digests below are the
# root analyses that the build before that path (a80bac8's C++) gave for these positions.


def wide_legends_weights(seed: int = 0):
    """Nets wide enough for the fast path's blocks of 32 outputs and its remainder (40 and
    48 outputs), with two trunk layers each."""
    from hzai.learn.train import Net
    from hzai.native.model import Weights

    g = _game(1, 3)
    rng = np.random.default_rng(seed)
    n_in = g.search.native.table_feature_count()
    value = Net(n_in, [48, 36], [1], rng)
    policy = Net(n_in, [40, 36], [g.search.native.action_feature_count()], rng)
    for net in (value, policy):
        for w, b in net.heads:
            w += rng.standard_normal(w.shape).astype(np.float32) * 0.5
            b += rng.standard_normal(b.shape).astype(np.float32) * 0.1
    return Weights("legends", "wide-legends", 1, {"value": value.export(), "policy": policy.export()}, {"made": "tests"})


# (mission, seats, game seed, moves of history) -> the best move and the sha256 (first 16
# hex digits) of the root analysis' [move, visits, value to 9 places], 150 iterations, seed 11
BEFORE = {
    (1, 2, 5, 14): {"ismcts": ("recover 2", "9bd74cbd00392c58"), "ismcts:partners=1": ("recover 2", "9265a4eff832ecf3")},
    (1, 4, 5, 8): {"ismcts": ("fight arms", "0f4256c0b178aa98"), "ismcts:partners=1": ("fight arms", "f47609b4eb488999")},
    (3, 3, 5, 14): {"ismcts": ("recover 4", "23c9f337cd3836bb"), "ismcts:partners=1": ("recover 4", "2231b99c6f58244f")},
    (5, 4, 6, 8): {"ismcts": ("fight speed", "37bc290d433a3881"), "ismcts:partners=1": ("fight guile", "2ae05230f4996852")},
}


def test_the_fast_blueprint_decides_as_the_plain_evaluation_did(monkeypatch, tmp_path):
    import hashlib
    import json

    _use(monkeypatch, tmp_path, wide_legends_weights())
    for (mission, seats, seed, upto), want in BEFORE.items():
        g = _game(mission, seats)
        state = _decision(g, seed=seed, upto=upto)
        view = LegendsView.of(state, state.current_seat)
        for spec, (best, digest) in want.items():
            a = make_bot(spec).decide(view, Limits(iterations=150, threads=1), seed=11).analysis
            moves = [(g.move_text(m.move), m.visits, round(m.value, 9)) for m in a.moves]
            got = (g.move_text(a.best), hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:16])
            assert got == (best, digest), f"{spec} at {(mission, seats, seed, upto)}: {moves}"


def _reference_policy(weights, features, action_features):
    """The blueprint by numpy in float32 as the native nets (their sums in another order),
    its weights as the model file keeps them (float16): the whole head, then each legal
    action's logit."""
    def kept(w):
        return w.astype(np.float16).astype(np.float32)

    trunk = [(kept(w), b) for w, b in weights.nets["policy"]["trunk"]]
    heads = [(kept(w), b) for w, b in weights.nets["policy"]["heads"]]
    a = None
    for i, (w, b) in enumerate(trunk):
        a = np.maximum(b + (w[features].sum(0, dtype=np.float32) if i == 0 else a @ w), np.float32(0))
    hw, hb = heads[0]
    z = (hw @ a + hb).astype(np.float64)
    logits = np.array([z[f].sum() for f in action_features])
    p = np.exp(logits - logits.max())
    return p / p.sum()


def test_the_blueprint_scores_the_legal_actions_as_the_whole_head_does(monkeypatch, tmp_path):
    weights = wide_legends_weights(3)
    path = _use(monkeypatch, tmp_path, weights)
    from hzai.native.model import load_cached

    checked = 0
    for mission, seats, seed, upto in BEFORE:
        g = _game(mission, seats)
        model = load_cached(g, path)[1]
        state = _decision(g, seed=seed, upto=upto)
        for seat in range(seats):
            legal = sorted(g.action_of(m) for m in state.legal_moves())
            got = np.asarray(model.state_policy(native_state(state), seat, legal))
            features = np.asarray(g.search.native.state_features(native_state(state), seat))
            want = _reference_policy(weights, features, [g.search.native.action_features(seat, a) for a in legal])
            assert got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-7)
            assert abs(got.sum() - 1.0) < 1e-9 and got.std() > 0  # a distribution, not uniform
            checked += 1
    assert checked == 13
