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


def test_card_kinds_and_powers_are_the_table_s_and_the_core_counts_the_same():
    """Kinds and powers are written once (tables.def): the deck reader's names and the
    numbers the core is given come from the same lines, and the core takes exactly as
    many of each as the table lists."""
    from hzai import _native
    from hzai.games.hera_zeus import cards
    from hzai.games.hera_zeus.native.state import _card_specs

    assert cards.KINDS is tables.KINDS and cards.POWERS is tables.POWERS
    assert tables.KINDS == ("hostage", "god", "plain", "myth") and len(tables.POWERS) == 8
    specs = [list(spec) for spec in _card_specs(Game.create().deck)]
    myth = next(i for i, spec in enumerate(specs) if spec[5] >= 0)

    def core_with(index: int, value: int):
        changed = [list(spec) for spec in specs]
        changed[myth][index] = value
        return _native.Game([tuple(spec) for spec in changed], first_player=0, figure_removal_pegasus=False,
                            pythia_always_loses=False, turn_limit=200)

    core_with(5, len(tables.POWERS) - 1)  # the last power is one the core knows
    with pytest.raises(ValueError, match="out of range"):
        core_with(5, len(tables.POWERS))
    core_with(3, len(tables.KINDS) - 1)
    with pytest.raises(ValueError, match="out of range"):
        core_with(3, len(tables.KINDS))


def test_every_move_text_of_the_core_starts_with_its_block_s_kind_text():
    """The core writes each move's kind from the table, never a second copy."""
    core = native_game(small_game())
    offsets = core.offsets
    for block, (kind, _) in enumerate(tables.ACTION_BLOCKS):
        for action in range(offsets[block], offsets[block + 1]):
            text = core.action_text(action)
            assert text == kind or text.startswith(kind + " "), (action, text, kind)


def test_the_arena_s_bot_kinds_are_the_table_s():
    from hzai import _native
    from hzai.native.tables import ARENA_BOTS

    assert list(ARENA_BOTS) == ["random", "light", "ismcts", "pimc"]
    for name, kind in ARENA_BOTS.items():
        assert _native.BotSpec(kind, 10).kind == kind
    with pytest.raises(ValueError, match="worlds"):
        _native.BotSpec(ARENA_BOTS["pimc"], 10, worlds=0)  # the core's pimc is the table's
    with pytest.raises(ValueError, match="unknown bot kind"):
        _native.BotSpec(len(ARENA_BOTS))
