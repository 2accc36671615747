"""Uniformly random play, for tests and as the baseline playout."""

from __future__ import annotations

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules.effects import apply_legal
from hzai.games.hera_zeus.rules.legal import chance_outcomes, legal_moves
from hzai.games.hera_zeus.rules.state import State


def random_step(state: State, rng: SplitMix64) -> None:
    """One uniformly random legal move, or a chance result drawn by its probability
    (each card of the hand equally likely: drawing a hand position is exactly that)."""
    if state.is_chance:
        owner = 1 - state.pending[0].player
        hand = state.hands[owner]
        drawn = hand[rng.below(len(hand))]
        weights = {str(m): m for m, _ in chance_outcomes(state)}
        ref = state.card_ref(drawn, hand, owner)
        apply_legal(state, weights[f"chance {ref}"])
        return
    moves = legal_moves(state)
    apply_legal(state, moves[rng.below(len(moves))])


def random_playout(state: State, seed: int, max_moves: int | None = None) -> State:
    """Play `state` to the end (in place) with uniformly random moves; returns it."""
    rng = SplitMix64(seed)
    count = 0
    while not state.is_over and (max_moves is None or count < max_moves):
        random_step(state, rng)
        count += 1
    return state
