"""The bot options' bounds are checked twice: by Python (hzai.search.ismcts, a
BotError naming the option) and by the native core (search/ismcts.hpp, arena.hpp). The
core must take every value Python allows, and where both sides state the same limit
(root_widen, prior) refuse just past it: this test fails when the two drift apart."""

from __future__ import annotations

import pytest

from hzai import _native
from hzai.core import make_game
from hzai.native.tables import ARENA_BOTS
from hzai.search import ismcts

ISMCTS = ARENA_BOTS["ismcts"]


@pytest.fixture(scope="module")
def native_view():
    game = make_game("hera_zeus")
    state = game.new_state(5)
    assert state.current_seat is not None, "a new deal starts with a decision"
    return game, game.search.native_view(state.view(state.current_seat))


def search_with(native_view, **options):
    game, view = native_view
    return game.search.native.search(view, _native.SearchOptions(seed=1, **options))


def test_the_core_takes_every_bound_python_allows(native_view):
    search_with(native_view, root_widen=ismcts.MAX_ROOT_WIDEN, prior_weight=ismcts.MAX_PRIOR,
                exploration=ismcts.MAX_EXPLORATION)
    _native.BotSpec(ISMCTS, 10, root_widen=ismcts.MAX_ROOT_WIDEN, cpuct=ismcts.MAX_CPUCT, pool=ismcts.MAX_POOL,
                    mix=1.0)
    _native.BotSpec(ARENA_BOTS["pimc"], 10, worlds=ismcts.MAX_WORLDS)


def test_a_limit_both_sides_state_is_the_same_limit(native_view):
    with pytest.raises(ValueError, match="root_widen"):
        search_with(native_view, root_widen=ismcts.MAX_ROOT_WIDEN * 1.001)
    with pytest.raises(ValueError, match="root_widen"):
        _native.BotSpec(ISMCTS, 10, root_widen=ismcts.MAX_ROOT_WIDEN * 1.001)
    with pytest.raises(ValueError, match="prior"):
        search_with(native_view, prior_weight=ismcts.MAX_PRIOR * 1.001)
