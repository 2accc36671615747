"""Legends' learned-search features (hzai/games/legends/native/legends_learn.cpp, docs/learning.md): the
C++ encoding of a seat's view held equal to a second writing in Python over the reference
rules' views, over random games of several missions and seat counts; a full state seen
from a seat gives that seat's view features; and no peeking: what a seat cannot see
(its partners' hands, the pile's order) changes nothing in its features."""

from __future__ import annotations

import pytest

from hzai.games.legends.view import LegendsView
from hzai.games.legends.native.twin import native_state, native_view
from tests.learn import legends_reference as reference
from tests.legends.helpers import game as legends_game
from tests.legends.helpers import random_game

SETTINGS = [(1, 2), (3, 4), (5, 3), (6, 2), (7, 2), (2, 5)]  # (mission, seats): specials and seat counts


def _game(mission: int, seats: int):
    from hzai.games.legends.game import DEFAULT_HEROES

    return legends_game(mission, tuple(DEFAULT_HEROES[:seats]))


def _positions(mission: int, seats: int, games: int = 3, every: int = 3):
    """Positions of random games (every `every`-th decision, and each game's end)."""
    g = _game(mission, seats)
    for seed in range(games):
        end = random_game(g, 100 + seed)
        for k in range(0, len(end.t.history) + 1, every):
            yield g, random_game(g, 100 + seed, upto=k)


@pytest.mark.parametrize("mission,seats", SETTINGS)
def test_view_features_of_cpp_and_python_are_equal_over_random_games(mission, seats):
    checked = 0
    total = reference.layout()["total"]
    for g, state in _positions(mission, seats):
        assert g.search.native.feature_count() == total
        for seat in range(g.n):
            view = LegendsView.of(state, seat)
            native = g.search.native.view_features(native_view(view))
            assert native == reference.view_features(view), (mission, seats, seat, len(state.t.history))
            assert native == sorted(native) and len(set(native)) == len(native) and all(0 <= i < total for i in native)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("mission,seats", SETTINGS)
def test_a_state_seen_from_a_seat_encodes_as_that_seats_view(mission, seats):
    """The value net reads a drawn world as the seat to act there would know it: the same
    numbers as that seat's view of the very same position, below the history (a state
    keeps none: tests/learn/test_legends_history.py)."""
    for g, state in _positions(mission, seats, games=2):
        core = native_state(state)
        table = g.search.native.table_feature_count()
        for seat in range(g.n):
            view = g.search.native.view_features(native_view(LegendsView.of(state, seat)))
            assert g.search.native.state_features(core, seat) == [i for i in view if i < table]


def test_no_peeking_worlds_that_differ_behind_a_seats_view_give_it_the_same_features():
    """Two worlds drawn from one seat's view differ in the partners' hands (and the pile),
    never in what the seat saw: its features from either world are the same."""
    g = _game(1, 3)
    differed = 0
    for seed in range(4):
        state = random_game(g, 300 + seed, upto=12)
        for seat in range(g.n):
            view = LegendsView.of(state, seat)
            expected = g.search.native.view_features(native_view(view))
            for world_seed in (1, 2, 3):
                world = view.sample(world_seed)
                if any(sorted(world.t.kind[i] for i in world.t.hands[p]) !=
                       sorted(state.t.kind[i] for i in state.t.hands[p]) for p in range(g.n) if p != seat):
                    differed += 1
                assert g.search.native.state_features(native_state(world), seat) == \
                    [i for i in expected if i < g.search.native.table_feature_count()]
                assert g.search.native.view_features(native_view(LegendsView.of(world, seat))) == expected
    assert differed >= 5  # the worlds did hide different partner hands


def test_action_features_name_the_block_and_stay_in_range():
    g = _game(3, 4)
    total = g.search.native.action_feature_count()
    state = g.new_state(5)
    seen_blocks = set()
    for seed in range(3):
        end = random_game(g, 400 + seed)
        for k in range(0, len(end.t.history)):
            s = random_game(g, 400 + seed, upto=k)
            if s.is_chance or s.is_terminal:
                continue
            for move in s.legal_moves():
                a = g.action_of(move)
                feats = g.search.native.action_features(s.current_seat, a)
                assert feats and all(0 <= f < total for f in feats)
                seen_blocks.add(feats[0])
    assert len(seen_blocks) >= 4
    with pytest.raises(ValueError, match="out of range"):
        g.search.native.action_features(0, g.num_actions)
    with pytest.raises(ValueError, match="seat"):
        g.search.native.action_features(9, 0)
    del state


def test_support_features_name_the_receiver_relative_to_the_giver():
    """A blueprint shared by every seat reads 'the next seat' alike from any seat."""
    g = _game(1, 4)
    support = next(a for a in range(g.num_actions) if type(g.move_of(a)).__name__ == "Support"
                   and g.move_of(a).seat == 1)
    from_0 = g.search.native.action_features(0, support)
    from_2 = g.search.native.action_features(2, support)
    assert from_0 != from_2  # seat 1 is the next seat of 0, the one before 2 (three on)
