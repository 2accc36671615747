"""Invariants over random legal games from many seeds and all variants (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, parse_move
from hzai.games.hera_zeus.rules.effects import canonical
from hzai.games.hera_zeus.rules.invariants import invariant_problems
from hzai.games.hera_zeus.rules.playout import random_step

variants = st.fixed_dictionaries(
    {
        "first_player": st.sampled_from(["hera", "zeus"]),
        "figure_removal": st.sampled_from(["action", "pegasus"]),
        "pythia_defence": st.sampled_from(["normal", "always_loses"]),
        "turn_limit": st.sampled_from([200, 40, 7]),
    }
)
seeds = st.integers(min_value=0, max_value=2**63)


def check_invariants(state) -> None:
    assert invariant_problems(state) == []


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, variant=variants)
def test_random_games_keep_invariants_and_end(seed, variant):
    game = Game.create(variant)
    state = Record(game, seed=seed % 2**32).start()
    rng = SplitMix64(seed)
    bound = 30 * variant["turn_limit"] + 10  # far above any real game; a loop would pass it
    steps = 0
    while not state.is_over:
        check_invariants(state)
        random_step(state, rng)
        steps += 1
        assert steps < bound, "the game must end"
        assert state.turn <= variant["turn_limit"]
    check_invariants(state)
    assert state.reason in {"hostage_found", "no_cards", "no_action", "pandora", "turn_limit"}
    assert (state.winner is None) == (state.reason == "turn_limit")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, variant=variants)
def test_every_legal_move_prints_and_parses_back(seed, variant):
    game = Game.create(variant)
    state = Record(game, seed=seed % 2**32).start()
    rng = SplitMix64(seed)
    while not state.is_over:
        moves = state.chance_outcomes() and [m for m, _ in state.chance_outcomes()] or state.legal_moves()
        texts = [str(m) for m in moves]
        assert len(set(texts)) == len(texts), "one text per distinct move"
        for move, text in zip(moves, texts):
            parsed = parse_move(text, game.deck)
            assert parsed == move
            assert canonical(state, parsed) == move
            assert parse_move(text.upper(), game.deck) == move, "card names are case-insensitive"
        random_step(state, rng)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, variant=variants)
def test_record_round_trip_reproduces_the_state(seed, variant):
    """Writing the moves of a game as a record and replaying it gives the same state."""
    from hzai.games.hera_zeus.rules import deal, state_to_json

    game = Game.create(variant)
    record = Record(game, setup=deal(game, seed % 2**32))
    state = record.start()
    rng = SplitMix64(seed)
    while not state.is_over:
        random_step(state, rng)
    record.moves = [str(m) for m in state.history]
    reread = Record.from_json(record.to_json())
    assert state_to_json(reread.replay()) == state_to_json(state)
