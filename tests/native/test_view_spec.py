"""The view crosses into the core as typed structs; a malformed one is refused by name."""

from __future__ import annotations

import pytest

from hzai import _native
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.native.state import native_game
from hzai.games.hera_zeus.native.search import flat_view, new_pimc, new_search
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.playout import random_step


def mid_game(seed=3, turns=8):
    game = Game.create()
    state = Record(game, seed=seed).start()
    rng = SplitMix64(seed)
    while not state.is_over and (state.turn < turns or state.is_chance or state.pending):
        random_step(state, rng)
    return game, view_of(state, state.to_move)


def test_fields_are_named_and_read_back():
    game, view = mid_game()
    spec = flat_view(view, game)
    assert len(spec.columns) == 2 and all(len(side) == 3 for side in spec.columns)
    assert spec.to_move == ("hera", "zeus").index(view.public["to_move"])
    slots = [s for side in spec.columns for column in side for s in column] + [s for h in spec.hands for s in h]
    assert {s.kind for s in slots} >= {1, 2}  # known cards and hidden ones
    hidden = [s for s in slots if s.kind == 2]
    assert all(0 <= s.group < len(spec.groups) for s in hidden)
    slot = _native.ViewSlot()
    slot.excluded = [5, 1, 5]
    assert slot.excluded == [1, 5]


def spoiled(change):
    game, view = mid_game()
    spec = flat_view(view, game)
    change(spec)
    return game, spec


@pytest.mark.parametrize("change, message", [
    (lambda s: setattr(s, "pools", [[999], []]), "pool names no card"),
    (lambda s: setattr(s, "columns", s.columns[:1]), "one entry per side"),
    (lambda s: setattr(s, "columns", [s.columns[0][:2], s.columns[1]]), "three columns"),
    (lambda s: setattr(s, "hands", [[_native.ViewSlot()] * 40, s.hands[1]]), "hand too large"),
    (lambda s: setattr(s, "phase", 9), "unknown phase"),
    (lambda s: setattr(s, "to_move", 4), "to_move"),
    (lambda s: setattr(s, "discards", [[10_000], []]), "card code out of range"),
], ids=["pool", "sides", "columns", "hand", "phase", "to_move", "discard"])
def test_a_malformed_view_is_refused_with_its_field(change, message):
    game, spec = spoiled(change)
    core = native_game(game)
    with pytest.raises(ValueError, match=message):
        _native.sample_view(core, spec, 1)
    with pytest.raises(ValueError, match=message):
        new_search(game, spec, 1)


def test_hostile_name_ids_are_refused():
    with pytest.raises(ValueError, match="name id out of range"):
        _native.ViewSlot().excluded = [1 << 20]


def test_pimc_is_deterministic_and_votes_once_a_world():
    game, view = mid_game(seed=5)
    choices = []
    for _ in range(2):
        pimc = new_pimc(game, flat_view(view, game), seed=4, worlds=3)
        for w in range(3):
            search = pimc.world(w)
            search.run(150)
            assert pimc.vote(search)
        choices.append(pimc.choice())
        assert pimc.voted == 3
    assert choices[0] == choices[1] >= 0
    with pytest.raises(ValueError, match="worlds"):
        new_pimc(game, flat_view(view, game), seed=4, worlds=0)
