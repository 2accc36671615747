"""The tables shared by the C++ core and Python come from one file, tables.def."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.native import tables
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.native.tables import PLAYOUTS, read_tables
from hzai.games.hera_zeus.native.check import VARIANT_SETS, game_for
from hzai.games.hera_zeus.rules import Game
from hzai.games.hera_zeus.rules.actions import BLOCKS, action_space

from .decks import small_game


def test_the_core_lays_action_ids_out_as_the_table_says():
    for game in (Game.create(), small_game()):
        core = native_game(game)
        assert core.offsets == tables.action_offsets(len(core.names))


def test_the_reference_engine_lays_ids_out_from_the_table():
    # hzai.games.hera_zeus.rules.actions reads its blocks from tables.def: kinds in order, sizes for two decks
    assert tuple(kind for kind, _ in tables.ACTION_BLOCKS) == BLOCKS
    for game in (Game.create(), small_game()):
        space = action_space(game.deck)
        assert [*space.offsets.values(), space.size] == tables.action_offsets(len(space.names))


def test_phase_reason_and_pending_texts_round_trip_through_the_core():
    game = game_for(VARIANT_SETS[0])
    seen = set()
    for seed in range(40):
        state = NativeState.deal(game, seed)
        state.random_playout(seed)
        raw = state.raw()
        assert raw["phase"] in tables.PHASES and raw["reason"] in tables.REASONS
        seen.add(raw["reason"])
        again = native_game(game).new_state()
        again.set_raw(raw)  # the core reads back the texts it wrote
        assert again.get_raw() == raw
    assert len(seen) > 1
    assert tables.PENDING_KINDS == ("chance", "place", "top") and tables.REASONS[0] is None


def test_a_malformed_table_line_is_named(tmp_path):
    bad = tmp_path / "tables.def"
    bad.write_text('HZ_PHASE(SETUP, "setup")\nHZ_PHASE SETUP\n', encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"tables.def:2: not a HZ_ table entry"):
        read_tables(bad, "HZ")
    with pytest.raises(ValueError, match="integers, N, R"):
        tables.block_size("__import__('os')", 3)


def test_the_playouts_are_the_search_s_own_table():
    # hzai.native.tables reads the playout policies, the one table the generic search shares
    assert PLAYOUTS == {"random": 0, "light": 1}
