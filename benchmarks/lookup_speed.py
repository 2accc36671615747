"""ISMCTS iterations a second on one thread, Hera and Zeus and Legends, at the start and
after some random moves: the measure of the child lookup (docs/search.md).

    python -m benchmarks.lookup_speed [--iterations 4000] [--tree single|multi]

Per CPU second of the process, best of three rounds per position; prints one line per
game and the total.
"""

from __future__ import annotations

import argparse
import time

from hzai.core import make_game
from hzai.rng import SplitMix64
from hzai.search.ismcts import new_tree

CONCERN = "engine"  # its group in `python -m benchmarks list`

CASES = [("hera_zeus", {}), ("legends", {"mission": 1, "heroes": ["Perseus", "Jason", "Achilles", "Hercules"]}),
         ("legends", {"mission": 6, "heroes": ["Perseus", "Jason"]})]


def views(name: str, params: dict, count: int = 4) -> list:
    """`count` decision views: random games, a view every few moves."""
    game = make_game(name, **params)
    out = []
    for k in range(count):
        state, rng = game.new_state(seed=100 + k), SplitMix64(k)
        steps = 0
        while not state.is_terminal and (steps < 6 * k or state.current_seat is None):
            if state.current_seat is None:
                state.apply(game.search.draw_chance(state, rng))
            else:
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])
            steps += 1
        if not state.is_terminal:
            out.append(state.view(state.current_seat))
    return out


def rate(view, iterations: int, tree: str) -> float:
    best = 0.0
    for _ in range(3):
        search = new_tree(view, seed=1, tree=tree)
        start = time.process_time()
        search.run(iterations, -1.0)
        best = max(best, iterations / max(1e-9, time.process_time() - start))
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=4000)
    parser.add_argument("--tree", default="single", choices=["single", "multi"])
    args = parser.parse_args(argv)
    for name, params in CASES:
        rates = [rate(v, args.iterations, args.tree) for v in views(name, params)]
        label = name + (f" m{params['mission']} {len(params['heroes'])} seats" if params else "")
        print(f"{label:28s} {sum(rates) / len(rates):10.0f} it/s (mean of {len(rates)} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
