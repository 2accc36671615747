"""Differential play of the Legends twin against the reference engine
(hzai.games.legends.rules): random games where, at every step, the native legal actions
(or chance outcomes with their probabilities) equal the reference's, the same action
is applied to both, and the two positions' dumps are equal; at the end, the returns.
tests/native/test_legends_differential.py runs it; a longer soak:

    python -m hzai.games.legends.native.check --games 20000 --seed 1000000

prints `N passed, M failed` and the first failure."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter

from hzai.games.legends.data import DIFFICULTIES, load_data
from hzai.games.legends.game import LegendsGame
from hzai.games.legends.native.twin import native_state, table_dump
from hzai.rng import SplitMix64, mix_seed


class Mismatch(AssertionError):
    """The two engines differ; the message says where."""


def cells(data=None):
    """Every (mission, seats, difficulty) of the data."""
    data = data or load_data()
    return list(itertools.product(sorted(data.missions), range(1, 6), DIFFICULTIES))


def make_game(mission: int, seats: int, difficulty: str, seed: int) -> LegendsGame:
    """The game of one differential run: heroes, first player, relocation and a short turn
    limit (every third game) drawn from the seed."""
    rng = SplitMix64(mix_seed(seed, 0x1E6))
    heroes = [h for h, _ in load_data().heroes]
    rng.shuffle(heroes)
    return LegendsGame(mission=mission, heroes=heroes[:seats], difficulty=difficulty,
                       first_player=f"p{rng.below(seats) + 1}", relocation=("paid", "free")[rng.below(2)],
                       turn_limit=(200, 12, 40)[rng.below(3)])


class _Whole:
    """The full state offered to the heuristic as a view (its sample is the state)."""

    def __init__(self, state):
        self.state, self.seat, self.game = state, state.current_seat, state.game

    def sample(self, seed: int):
        return self.state


def _best(game: LegendsGame, state, actions: list[int], rng: SplitMix64) -> int:
    """A heuristic game's choice (game.search.heuristic_scores, ties broken at random), so
    that missions are won as well as lost."""
    scores = game.search.heuristic_scores(_Whole(state), [game.move_of(a) for a in actions])
    top = max(scores)
    best = [a for a, v in zip(actions, scores) if v == top]
    return best[rng.below(len(best))]


def play(game: LegendsGame, seed: int, seen: Counter | None = None, greedy: bool = False, on_decision=None) -> int:
    """One random game on both engines, compared after every step; the steps played.
    `seen` counts the pending decisions and the ends met (for coverage);
    `on_decision(state, twin, actions)` is called at every decision, before the move."""
    state = game.new_state(seed)
    twin = native_state(state)
    rng = SplitMix64(mix_seed(seed, 0xD1F))
    steps = 0

    def where(what: str) -> str:
        return f"{what} at step {steps} of seed {seed} ({game.params})"

    while True:
        if twin.dump() != table_dump(state.t):
            raise Mismatch(where("the positions differ"))
        if state.is_terminal:
            if twin.current_player != -2 or list(twin.returns()) != list(state.returns()):
                raise Mismatch(where("the ends differ"))
            if seen is not None:
                seen[state.t.reason] += 1
            return steps
        if seen is not None:
            seen[state.t.pending] += 1
        if state.is_chance:
            ref = [(game.action_of(m), p) for m, p in state.chance_outcomes()]
            got = twin.chance_outcomes()
            if sorted(a for a, _ in ref) != sorted(a for a, _ in got):
                raise Mismatch(where("the chance outcomes differ"))
            probs = dict(ref)
            if any(abs(probs[a] - p) > 1e-12 for a, p in got):
                raise Mismatch(where("the chance probabilities differ"))
            action = ref[rng.below(len(ref))][0]
        else:
            ref = sorted(game.action_of(m) for m in state.legal_moves())
            got = twin.legal_actions()
            if ref != got:
                extra = [game.move_text(game.move_of(a)) for a in sorted(set(ref) ^ set(got))]
                raise Mismatch(where(f"the legal actions differ ({', '.join(extra)})"))
            if twin.current_player != state.current_seat:
                raise Mismatch(where("the seats to move differ"))
            if on_decision is not None:
                on_decision(state, twin, ref)
            action = _best(game, state, ref, rng) if greedy else ref[rng.below(len(ref))]
        state.apply(game.move_of(action))
        twin.apply(action)
        steps += 1


def run(games: int, seed: int, seen: Counter | None = None) -> tuple[int, list[str]]:
    """`games` games spread over every cell; (passed, failure messages)."""
    all_cells = cells()
    passed, failures = 0, []
    for i in range(games):
        mission, seats, difficulty = all_cells[i % len(all_cells)]
        s = seed + i
        try:
            play(make_game(mission, seats, difficulty, s), s, seen, greedy=i % 4 == 3)
            passed += 1
        except Mismatch as exc:
            failures.append(str(exc))
    return passed, failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    passed, failures = run(args.games, args.seed)
    print(f"{passed} passed, {len(failures)} failed")
    if failures:
        print(failures[0])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
