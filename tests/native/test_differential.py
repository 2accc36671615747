"""Differential tests: random games played move by move in the reference engine and
the native core; legal moves, chance outcomes, card placement by instance id and the
state JSON must be equal at every step (hzai.games.hera_zeus.native.check). Longer runs:
`python -m hzai.games.hera_zeus.native.check --games 20000` (docs/native.md)."""

from __future__ import annotations

import random

import pytest

from hzai.games.hera_zeus.native.state import NativeState
from hzai.games.hera_zeus.native.check import (
    VARIANT_SETS,
    Mismatch,
    check_game,
    compare_moves,
    compare_states,
    play_both,
    python_raw,
)
from hzai.games.hera_zeus.rules import Record
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.effects import apply_legal
from hzai.games.hera_zeus.rules.moves import Move

from .decks import small_game

GAMES_WITH_JSON = 110  # per variant set: the state JSON compared after every move
GAMES_RAW = 170  # per variant set: instance-level placement compared after every move
SHORT_LIMITS = (1, 3, 8, 20)
GAMES_PER_SHORT_LIMIT = 12


def _name(v: dict) -> str:
    return "-".join(str(x) for x in v.values())


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_name)
def test_random_games_equal_with_state_json(variants):
    steps = sum(check_game(variants, seed) for seed in range(GAMES_WITH_JSON))
    assert steps > GAMES_WITH_JSON * 10


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_name)
def test_random_games_equal_raw(variants):
    base = 10_000 + 1_000 * VARIANT_SETS.index(variants)
    steps = sum(check_game(variants, seed, check_json=False) for seed in range(base, base + GAMES_RAW))
    assert steps > GAMES_RAW * 10


@pytest.mark.parametrize("limit", SHORT_LIMITS)
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=_name)
def test_turn_limit_games_equal(variants, limit):
    for seed in range(GAMES_PER_SHORT_LIMIT):
        check_game(dict(variants, turn_limit=limit), 50_000 + seed)


@pytest.mark.parametrize("variants", [VARIANT_SETS[0], VARIANT_SETS[-1]], ids=_name)
def test_random_games_equal_on_another_deck(variants):
    game = small_game(variants)
    for seed in range(60):
        ps = Record(game, seed=seed).start()
        ns = NativeState.from_state(ps)
        assert NativeState.deal(game, seed).raw() == ns.raw()
        play_both(ps, ns, random.Random(seed), f"small deck seed {seed}")


def test_states_converted_at_every_step_equal_the_core_played_ones():
    """from_state at any point (pending chance, place, top included) gives the state
    the core reached by playing; both continue alike."""
    pending_seen = set()
    for seed in range(40):
        game = check_game.__globals__["game_for"](VARIANT_SETS[seed % len(VARIANT_SETS)])
        ps = Record(game, seed=seed).start()
        ns = NativeState.from_state(ps)
        space = action_space(game.deck)
        chooser = random.Random(seed)
        while not ps.is_over:
            converted = NativeState.from_state(ps)
            assert converted.raw() == ns.raw()
            assert converted.legal_texts() == ns.legal_texts()
            pending_seen.update(p.kind for p in ps.pending)
            if ps.is_chance:
                owner = 1 - ps.pending[0].player
                hand = ps.hands[owner]
                move = Move("chance", card=ps.card_ref(hand[chooser.randrange(len(hand))], hand, owner))
            else:
                moves = ps.legal_moves()
                move = moves[chooser.randrange(len(moves))]
            apply_legal(ps, move)
            ns.apply(space.encode(move))
        assert NativeState.from_state(ps).to_json() == ns.to_json()
    assert "chance" in pending_seen


def test_a_difference_is_detected():
    """The comparison itself can fail: a state one move apart is reported."""
    game = check_game.__globals__["game_for"](VARIANT_SETS[0])
    ps = Record(game, seed=3).start()
    ns = NativeState.from_state(ps)
    moves = ps.legal_moves()
    apply_legal(ps, moves[0])
    with pytest.raises(Mismatch):
        compare_states(ps, ns, "test")
    ns.apply(action_space(game.deck).encode(moves[1]))
    with pytest.raises(Mismatch):
        compare_states(ps, ns, "test")
    assert python_raw(ps)["columns"] != ns.raw()["columns"]
    with pytest.raises(Mismatch):
        compare_moves(Record(game, seed=4).start(), ns, "test")
