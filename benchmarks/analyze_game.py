"""A whole-game review against one analysis per prefix, in this process (no service).

1. Two ISMCTS bots play one seeded game of Hera and Zeus at a small budget; its record
   is written to benchmarks/results/analyze_game_record.json.
2. The review of every decision of both seats (hzai.search.review.review_moves) at
   `--budget` iterations a decision, timed.
3. The same decisions the way separate Analyze calls see them: for each, read the
   record, replay its prefix, take the view and analyse it with the review's seed,
   timed; every analysis must equal the review's (the figure is void otherwise).

Figures go to benchmarks/results/analyze_game.json. Not a test: nothing but the
equality is asserted. The picture of the same review is the command line's:

    python -m benchmarks.analyze_game --budget 1000
    hzai analyze-game benchmarks/results/analyze_game_record.json --budget 1000 \
        --plot benchmarks/results/analyze_game.png
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hzai.games.hera_zeus.rules import Game, Record
from hzai.rng import SplitMix64, mix_seed
from hzai.search import Limits, analyze, make_bot
from hzai.search.arena import referee_step
from hzai.search.review import decision_seed, resolve_move, review_moves

from benchmarks import harness

CONCERN = "engine"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def play(seed: int, budget: int) -> Record:
    """One game between two ISMCTS bots; chance drawn by the arena's referee."""
    game = Game.create()
    state = game.new_state(seed)
    referee = SplitMix64(seed ^ 0xA7E4A)
    bots = [make_bot("ismcts"), make_bot("ismcts:playout=light")]
    moves: list[str] = []
    while not state.is_terminal:
        before = len(state.history)
        if state.is_chance:
            referee_step(state, referee)
        else:
            view = state.view(state.current_seat)
            state.apply(bots[state.current_seat].decide(view, Limits(iterations=budget), mix_seed(seed, len(moves))).move)
        moves.append(str(state.history[before]))
    return Record(game, None, seed, moves)


def plain(analysis) -> dict:
    data = analysis.to_json()
    data.pop("millis")
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5, help="seed of the game and of the review")
    parser.add_argument("--play-budget", type=int, default=300, help="iterations a move while the game is played")
    parser.add_argument("--budget", type=int, default=1000, help="iterations a decision in the review")
    args = parser.parse_args()
    record = play(args.seed, args.play_budget)
    record_path = RESULTS / "analyze_game_record.json"
    record_path.write_text(json.dumps(record.to_json(), indent=1) + "\n")
    limits = Limits(iterations=args.budget)

    start = time.perf_counter()
    rows = list(review_moves(record.game, record.start(), record.moves, limits, args.seed))
    review_seconds = time.perf_counter() - start

    data = record.to_json()
    start = time.perf_counter()
    for row in rows:  # what one Analyze call per decision does: read, replay, view, search
        prefix = Record.from_json({**data, "moves": data["moves"][: row.index]})
        state = prefix.start()
        for text in prefix.moves:
            state.apply(resolve_move(state, text))
        alone = analyze(state.view(state.current_seat), limits, decision_seed(args.seed, row.index))
        assert plain(alone) == plain(row.analysis), f"decision {row.index} differs"
    prefix_seconds = time.perf_counter() - start

    figures = {
        "game": {"seed": args.seed, "moves": len(record.moves), "decisions": len(rows),
                 "play_budget": args.play_budget, "record": str(record_path.relative_to(RESULTS.parent.parent))},
        "budget": args.budget,
        "review_seconds": round(review_seconds, 3),
        "per_prefix_seconds": round(prefix_seconds, 3),
        "ratio_review_to_per_prefix": round(review_seconds / prefix_seconds, 3),
        "ms_per_decision_review": round(1000 * review_seconds / len(rows), 2),
        "marks": {"??": sum(r.mark == "??" for r in rows), "?": sum(r.mark == "?" for r in rows)},
        "machine": harness.machine(),
    }
    (RESULTS / "analyze_game.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
