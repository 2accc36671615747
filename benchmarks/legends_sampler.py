"""Legends of Hellas: how often the sampler gives up on a seat's view, before and after
the fitted draw (issue 44, item 5).

    python -m benchmarks.legends_sampler [--games 24] [--seeds 8] [--random 0.2]

Over the grid's settings and the other seat counts (missions 1-12, 2-5 seats, human and
godlike), --games games a setting (deals 1000 * mission + 100 * seats + game, + 100000
for godlike) are played by the heuristic team
(hzai.games.legends.heuristic, ties and --random of the moves drawn at random: a team
that hands cards over and slides hands under the piles as real teams do; pure random
play rarely reaches the hard views). At every decision, for every seat, the seat's view
is sampled with seeds 0..--seeds-1 by the native sampler (what the bots use) twice:

- before: the rejection draw alone (ATTEMPTS replays, then "no determinization found":
  the sampler as it was, whose give-ups the team runs left out);
- after: LegendsView.sample's draw (the rejection draw, then the fitted draw where it
  fails).

Counts the give-ups of each, per setting, and writes benchmarks/results/legends_sampler.json
and .md (or --out). About 2 minutes of one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai import _native
from hzai.games.legends.game import DEFAULT_HEROES, LegendsGame
from hzai.games.legends.heuristic import best_moves
from hzai.games.legends.native.check import _Whole
from hzai.games.legends.native.twin import native_view
from hzai.rng import SplitMix64

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 0  # deal SEED + 1000 * mission + 100 * seats + game, + 100000 for godlike


def _move(game, state, rng: SplitMix64, random_share: float):
    if state.is_chance:
        options = [m for m, _ in state.chance_outcomes()]
        return options[rng.below(len(options))]
    options = state.legal_moves()
    if rng.below(1000) < random_share * 1000:
        return options[rng.below(len(options))]
    best = best_moves(game.search.heuristic_scores(_Whole(state), options))
    return options[best[rng.below(len(best))]]


def count(mission: int, seats: int, difficulty: str, games: int, seeds: int, random_share: float) -> dict:
    game = LegendsGame(mission=mission, heroes=list(DEFAULT_HEROES[:seats]), difficulty=difficulty)
    out = {"mission": mission, "seats": seats, "difficulty": difficulty, "games": games, "views": 0, "samples": 0,
           "before": 0, "after": 0, "after_errors": [], "before_views": 0}
    for g in range(games):
        deal = SEED + 100000 * (difficulty == "godlike") + 1000 * mission + 100 * seats + g
        state, rng = game.new_state(deal), SplitMix64(deal)
        while not state.is_terminal:
            if not state.is_chance:
                for seat in range(seats):
                    spec = native_view(state.view(seat))  # samples seed 0 (auto) to check the view
                    out["views"] += 1
                    failed_here = False
                    for seed in range(seeds):
                        out["samples"] += 1
                        try:
                            _native.legends_sample(spec, seed, "rejection")
                        except RuntimeError:
                            out["before"] += 1
                            failed_here = True
                        try:
                            _native.legends_sample(spec, seed)
                        except RuntimeError as exc:
                            out["after"] += 1
                            out["after_errors"].append(f"deal {deal}, move {len(state.t.history)}, p{seat + 1}, "
                                                       f"seed {seed}: {exc}")
                    out["before_views"] += failed_here
            state.apply(_move(game, state, rng, random_share))
    return out


def markdown(data: dict) -> str:
    rows = data["settings"]
    total = {k: sum(r[k] for r in rows) for k in ("views", "samples", "before", "after", "before_views")}
    lines = ["# Legends sampler: give-ups before and after the fitted draw", "",
             f"Command: `{data['command']}` ({data['seconds']:.0f} CPU seconds of one process; {harness.machine_text(data['machine'])}).", "",
             f"{total['samples']:,} samples of {total['views']:,} views (every decision of {data['games']} heuristic "
             f"games a setting with {100 * data['random']:.0f}% random moves, every seat, seeds 0..{data['seeds'] - 1}), "
             "by the native sampler.", "",
             f"- before (the rejection draw alone, as the sampler was): **{total['before']} give-ups** "
             f"on {total['before_views']} views;",
             f"- after (the rejection draw, then the fitted draw): **{total['after']} give-ups**.", "",
             "| mission | seats | difficulty | views | samples | give-ups before | views with one | give-ups after |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['mission']} | {r['seats']} | {r['difficulty']} | {r['views']} | {r['samples']} | "
                     f"{r['before']} | {r['before_views']} | {r['after']} |")
    errors = [e for r in rows for e in r["after_errors"]]
    if errors:
        lines += ["", "Give-ups after:", *(f"- {e}" for e in errors)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=24, help="games a setting, at most 100 (default 24)")
    ap.add_argument("--seeds", type=int, default=8, help="sample seeds a view (default 8)")
    ap.add_argument("--random", type=float, default=0.2, help="share of random moves (default 0.2)")
    ap.add_argument("--missions", default="1-12", help="missions, e.g. 1-12 or 6,7 (default 1-12)")
    ap.add_argument("--out", default=str(RESULTS), help="folder for legends_sampler.json and .md")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 100 or args.seeds < 1 or not 0.0 <= args.random <= 1.0:
        ap.error("--games must be within 1..100, --seeds at least 1 and --random within 0..1")
    lo, _, hi = args.missions.partition("-")
    missions = list(range(int(lo), int(hi) + 1)) if hi else [int(m) for m in args.missions.split(",")]
    if not all(1 <= m <= 12 for m in missions):
        ap.error("--missions must name missions 1-12")
    started = time.process_time()
    rows = []
    for mission in missions:
        for seats in (2, 3, 4, 5):
            for difficulty in ("human", "godlike"):
                rows.append(count(mission, seats, difficulty, args.games, args.seeds, args.random))
                r = rows[-1]
                print(f"mission {mission}, {seats} seats, {difficulty}: {r['samples']} samples, "
                      f"before {r['before']}, after {r['after']}", flush=True)
    data = {"command": harness.command("legends_sampler", argv),
            "games": args.games, "seeds": args.seeds, "random": args.random, "seed": SEED,
            "seconds": time.process_time() - started,
            "machine": harness.machine(),
            "settings": rows}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "legends_sampler.json").write_text(json.dumps(data, indent=1) + "\n")
    (out / "legends_sampler.md").write_text(markdown(data))
    print(markdown(data).split("\n\n")[3])
    return 1 if any(r["after"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
