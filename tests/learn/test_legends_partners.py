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
    monkeypatch.setattr(LegendsGame, "model_file", path)
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
    monkeypatch.setattr(LegendsGame, "model_file", tmp_path / "absent.npz")
    g = _game()
    state = _decision(g)
    with pytest.raises(BotError, match="ships no model with a policy"):
        make_bot("ismcts:partners=1").decide(LegendsView.of(state, state.current_seat), Limits(iterations=10), seed=1)
    _use(monkeypatch, tmp_path, tiny_legends_weights())
    assert _root("ismcts:partners=1,value=0,policy=0,cards=0", LegendsView.of(state, state.current_seat), budget=20)
