"""The single tree of the searching seat's own decisions (bot option own_only,
SearchOptions.own_only): the other seats' moves on the way down are the playout
policy's. Reproducible, blind to what the seat cannot know, the same as the full tree
where there is nobody else, and refused where it means nothing (the multi-observer tree).
And the root's widening factor (option root_widen)."""

from __future__ import annotations

import pytest

from hzai.core import BotError, Limits, make_game
from hzai.search import make_bot
from hzai.search.arena import native_bot
from hzai.search.ismcts import new_tree

pytest.importorskip("hzai._native")

HEROES = ["Perseus", "Atalanta", "Hercules", "Jason", "Achilles"]


def placed(seats: int, seed: int, mission: int = 1):
    """A Legends state after every seat placed its disc (the first listed move)."""
    state = make_game("legends", mission=mission, heroes=HEROES[:seats]).new_state(seed)
    for _ in range(seats):
        state.apply(state.legal_moves()[0])
    return state


def root_stats(view, own_only: bool, seed: int, iterations: int = 200) -> list[tuple]:
    search = new_tree(view, seed, widen_root=True, own_only=own_only)
    assert search.run(iterations, -1.0) == iterations
    return sorted(tuple(row) for row in search.root_stats())


def test_the_same_seed_and_budget_give_the_same_move():
    state = placed(4, seed=11)
    view = state.view(state.current_seat)
    bot = make_bot("ismcts:own_only=1")
    first = bot.decide(view, Limits(iterations=150), seed=5)
    again = make_bot("ismcts:own_only=1").decide(view, Limits(iterations=150), seed=5)
    assert first.move == again.move
    assert [(m.move, m.visits, m.value) for m in first.analysis.moves] == [
        (m.move, m.visits, m.value) for m in again.analysis.moves]
    assert root_stats(view, True, 5) == root_stats(view, True, 5)


def test_with_teammates_the_tree_of_own_decisions_searches_differently():
    differ = 0
    for seed in range(4):
        state = placed(4, seed)
        view = state.view(state.current_seat)
        own, full = root_stats(view, True, 3), root_stats(view, False, 3)
        assert sum(row[1] for row in own) == sum(row[1] for row in full) == 200
        differ += own != full
    assert differ > 0, "teammates' moves by the policy should change the root's statistics"


def test_a_single_seat_has_nobody_else_and_searches_the_full_tree():
    for seed in range(3):
        state = placed(1, seed)
        view = state.view(state.current_seat)
        assert root_stats(view, True, seed) == root_stats(view, False, seed)


def swapped(state, k: int):
    """A copy of a fresh deal with seat 2's k-th card swapped for a draw pile card of
    another kind (in the deal's record too): seat 1 cannot tell the two apart."""
    other = state.clone()
    t = other.t
    held = t.hands[1][k % len(t.hands[1])]
    pile = next(c for c in t.draw if t.kind[c] != t.kind[held])
    t.hands[1] = [pile if c == held else c for c in t.hands[1]]
    t.draw = [held if c == pile else c for c in t.draw]
    hands0, pile0 = t.initial
    hands0 = tuple(tuple(pile if c == held else c for c in h) for h in hands0)
    t.initial = (hands0, tuple(held if c == pile else c for c in pile0))
    return other


def test_views_a_seat_cannot_tell_apart_give_the_same_move():
    """Two deals that differ only in seat 2's hand give seat 1 the same view, and its
    search the same move and statistics (seat 2, who holds the card, sees the difference)."""
    for seed in range(3):
        deal = make_game("legends", mission=1, heroes=HEROES[:4]).new_state(seed)
        states = [deal.clone(), swapped(deal, seed)]
        for state in states:
            for _ in range(4):
                state.apply(state.legal_moves()[0])
        a, b = (s.view(0) for s in states)
        assert a.to_json() == b.to_json()
        moves = [make_bot("ismcts:own_only=1").decide(v, Limits(iterations=120), seed=7).move for v in (a, b)]
        assert moves[0] == moves[1]
        assert root_stats(a, True, 7, 120) == root_stats(b, True, 7, 120)
        assert states[0].view(1).hand != states[1].view(1).hand


def test_the_bot_option_follows_the_game_default_unless_given():
    legends = make_game("legends", mission=1, heroes=HEROES[:4])
    hera = make_game("hera_zeus")
    limits = Limits(iterations=10)
    assert hera.search.default_own_only is False
    for game in (legends, hera):
        assert native_bot(make_bot("ismcts:infer=0"), limits, game).own_only is game.search.default_own_only
        assert native_bot(make_bot("ismcts:own_only=1,infer=0"), limits, game).own_only is True
        assert native_bot(make_bot("ismcts:own_only=0,infer=0"), limits, game).own_only is False
    assert native_bot(make_bot("ismcts-v1"), limits, legends).own_only is False  # as it played before


def test_the_multi_observer_tree_has_no_such_option():
    view = placed(2, 1).view(0)
    with pytest.raises(BotError, match="own_only"):
        new_tree(view, 1, tree="multi", own_only=True)
    with pytest.raises(BotError, match="option own_only"):
        make_bot("ismcts:tree=multi,own_only=1")
    # the game's default does not reach the multi-observer tree: it searches as before
    search = new_tree(view, 1, tree="multi")
    assert search.run(20, -1.0) == 20
    from hzai import _native

    with pytest.raises(ValueError, match="own_only"):  # the native search refuses it too
        view.game.search.native.mo_search(view.game.search.native_view(view), _native.SearchOptions(playout=1, own_only=True))


def test_root_widen_sets_how_many_moves_a_bot_s_root_weighs():
    state = placed(4, seed=2)
    view = state.view(state.current_seat)
    assert len(view.legal_moves()) > 4
    scores = view.game.search.heuristic_scores(view, view.legal_moves())
    for spec, most in (("ismcts:root_widen=0", 1), ("ismcts:root_widen=0.0625", 2), ("ismcts:root_widen=0.125", 4)):
        answer = make_bot(spec).decide(view, Limits(iterations=1000), seed=4).analysis
        assert len(answer.moves) == most and sum(m.visits for m in answer.moves) == 1000
    only = make_bot("ismcts:root_widen=0").decide(view, Limits(iterations=50), seed=4).move
    assert scores[view.legal_moves().index(only)] == max(scores)  # the policy's best move
    wide = make_bot("ismcts:root_widen=4").decide(view, Limits(iterations=400), seed=4).analysis
    assert len(wide.moves) > 4
