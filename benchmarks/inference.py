"""Strength of inference alone: `ismcts:infer=1` against the uniform search, `ismcts:infer=0`.

    python -m benchmarks.inference --minutes 10      # per condition, one process

Two conditions, each given the same share of wall time: equal iterations (both bots
`--iterations` a move) and equal time (both `--millis` a move; the inferring bot's
weighing of worlds counts against its time). Games come in pairs on one deal with the
seats swapped (hzai.search.arena.play_game: game seed and move seeds equal, seats
exchanged), as many pairs as fit in the time; one process, so the clock is the
search's alone. The score is the inferring bot's (a win 1, a draw half) with its 95%
Wilson interval. Writes inference.json and inference.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai.core import wilson_interval
from hzai.search import Limits
from hzai.search.arena import play_game

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
INFER, PLAIN = "ismcts:infer=1", "ismcts:infer=0"


def condition(label: str, limits: Limits, seconds: float, seed: int, spec: str) -> dict:
    """Pairs of games on deals seed, seed+2, ... (seats swapped within a pair) until
    `seconds` have passed."""
    start = time.time()
    games = []
    pair = 0
    while time.time() - start < seconds:
        deal = seed + 2 * pair
        # play_game seats A first on even indices and plays deal seed + index
        for index, base in ((2 * pair, seed), (2 * pair + 1, seed - 1)):
            games.append(play_game("hera_zeus", None, spec, PLAIN, index, limits, base))
        assert games[-1].seed == games[-2].seed == deal
        pair += 1
        print(f"\r{label}: {len(games)} games {time.time() - start:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    a = sum(1 for g in games if g.winner != "draw" and g.seating[g.winner] == "A")
    d = sum(1 for g in games if g.winner == "draw")
    b = len(games) - a - d
    score = a + d / 2
    low, high = wilson_interval(score, len(games))
    think = {k: sum(g.think_seconds[k] for g in games) * 1000 / max(1, sum(g.decisions[k] for g in games)) for k in ("A", "B")}
    return {"label": label, "a": spec, "b": PLAIN, "budget": str(limits), "games": len(games), "a_wins": a, "draws": d,
            "b_wins": b, "a_score": round(score / len(games), 4), "a_score_ci95": [round(low, 4), round(high, 4)],
            "ms_per_decision": {k: round(v, 2) for k, v in think.items()}, "seconds": round(time.time() - start, 1),
            "deals": [seed, seed + 2 * (pair - 1)]}


def markdown(report: dict) -> str:
    lines = ["# Inference alone: `ismcts:infer=1` vs `ismcts:infer=0`\n", f"Command: `{report['command']}`\n",
             "Seat-swapped pairs on the same deals, one process, as many pairs as fit in the time of a condition. "
             "Score: the inferring bot's (draws half), 95% Wilson interval.\n",
             "| condition | budget | games | infer wins | draws | plain wins | infer score | 95% | ms/decision infer | ms/decision plain |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in report["conditions"]:
        lo, hi = r["a_score_ci95"]
        lines.append(f"| {r['label']} | {r['budget']} | {r['games']} | {r['a_wins']} | {r['draws']} | {r['b_wins']} | "
                     f"{r['a_score']:.1%} | {lo:.1%}–{hi:.1%} | {r['ms_per_decision']['A']:.1f} | {r['ms_per_decision']['B']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0, help="wall time of each condition")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--millis", type=int, default=20)
    parser.add_argument("--temp", default=None, help="the inferring bot's temperature (default: its own)")
    parser.add_argument("--seed", type=int, default=9001)
    parser.add_argument("--only", choices=("iterations", "time"), default=None,
                        help="play one condition and keep the other from the inference.json already there")
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    spec = INFER + (f",temp={args.temp}" if args.temp else "")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = harness.command("inference", argv)
    plan = {"iterations": ("equal iterations", Limits(iterations=args.iterations)),
            "time": ("equal time", Limits(millis=args.millis))}
    kept = []
    if args.only:
        previous = json.loads((out / "inference.json").read_text())
        kept = [c for c in previous["conditions"] if c["label"] != plan[args.only][0]]
        command = f"{previous['command']}; {command.strip()}"
    report = {"command": command.strip(), "machine": harness.machine(),
              "conditions": kept}
    for key in ("iterations", "time"):
        if args.only not in (None, key):
            continue
        label, limits = plan[key]
        report["conditions"].append(condition(label, limits, args.minutes * 60, args.seed, spec))
        report["conditions"].sort(key=lambda c: c["label"] != "equal iterations")
        (out / "inference.json").write_text(json.dumps(report, indent=1))
        (out / "inference.md").write_text(markdown(report))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
