"""Bot strength: the arena matrix at several budgets, with 95% intervals.

    python -m benchmarks.strength --size quick     # minutes
    python -m benchmarks.strength --size full      # 200 games a pairing (about an hour on 2 cores)

Writes benchmarks/results/strength.json, strength.md and (with matplotlib) strength.png.
Each pairing plays seat-swapped games from the same deals (hzai.search.arena).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai.search.arena import run_arena
from hzai.search import Limits

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"

SIZES = {
    "smoke": {"games": 2, "budgets": [50], "equal_time_ms": 10},
    "quick": {"games": 24, "budgets": [200, 1000], "equal_time_ms": 30},
    "full": {"games": 200, "budgets": [200, 1000, 5000], "equal_time_ms": 50},
}


def pairings(size: dict) -> list[tuple[str, str, str, Limits]]:
    """(label, bot A, bot B, budget) in the order they are played."""
    plan = []
    for budget in size["budgets"]:
        plan.append((f"ismcts vs random @{budget}", "ismcts", "random", Limits(iterations=budget)))
        plan.append((f"ismcts vs heuristic @{budget}", "ismcts", "heuristic", Limits(iterations=budget)))
    middle = size["budgets"][min(1, len(size["budgets"]) - 1)]
    plan.append((f"light vs random playouts @{middle}", "ismcts:playout=light", "ismcts", Limits(iterations=middle)))
    ms = size["equal_time_ms"]
    plan.append((f"ismcts vs pimc @{ms}ms", "ismcts", "pimc", Limits(millis=ms)))
    plan.append(("heuristic vs random", "heuristic", "random", Limits(iterations=1)))
    return plan


def markdown(rows: list[dict]) -> str:
    lines = ["| pairing | games | A wins | draws | B wins | A score | 95% interval | ms/decision A | ms/decision B |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        low, high = r["a_score_ci95"]
        lines.append(
            f"| {r['label']} | {r['games']} | {r['a_wins']} | {r['draws']} | {r['b_wins']} | {r['a_score']:.1%} | "
            f"{low:.1%}–{high:.1%} | {r['ms_per_decision']['A']:.1f} | {r['ms_per_decision']['B']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], path: Path) -> bool:
    plt = harness.pyplot()
    if plt is None:
        return False
    from matplotlib.ticker import NullLocator

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for opponent, marker in (("random", "o"), ("heuristic", "s")):
        points = [r for r in rows if r["label"].startswith(f"ismcts vs {opponent} @")]
        if not points:
            continue
        budgets = [int(r["label"].split("@")[1]) for r in points]
        scores = [r["a_score"] for r in points]
        errors = [[s - r["a_score_ci95"][0] for s, r in zip(scores, points)], [r["a_score_ci95"][1] - s for s, r in zip(scores, points)]]
        ms = [r["ms_per_decision"]["A"] for r in points]
        axes[0].errorbar(budgets, scores, yerr=errors, marker=marker, capsize=3, label=f"vs {opponent}")
        axes[1].errorbar(ms, scores, yerr=errors, marker=marker, capsize=3, label=f"vs {opponent}")
    axes[0].set_xscale("log")
    axes[0].xaxis.set_minor_locator(NullLocator())
    budgets_seen = sorted({int(r["label"].split("@")[1]) for r in rows if r["label"].startswith("ismcts vs ") and "@" in r["label"] and not r["label"].endswith("ms")})
    axes[0].set_xticks(budgets_seen, [str(b) for b in budgets_seen])
    axes[0].set_xlabel("ISMCTS iterations per decision")
    axes[1].set_xscale("log")
    axes[1].set_xlabel("ms per decision")
    for ax in axes:
        ax.set_ylabel("ISMCTS score (wins + draws/2)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("ISMCTS strength against the baselines (95% Wilson intervals)")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(SIZES), default="quick")
    parser.add_argument("--games", type=int, default=None, help="games per pairing (overrides the size)")
    parser.add_argument("--jobs", type=int, default=None, help="parallel processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--out", default=str(RESULTS), help="results folder")
    parser.add_argument("--plot-only", action="store_true", help="redraw strength.png from strength.json, play nothing")
    args = parser.parse_args(argv)
    if args.plot_only:
        rows = json.loads((Path(args.out) / "strength.json").read_text())["pairings"]
        return 0 if plot(rows, Path(args.out) / "strength.png") else 1
    size = dict(SIZES[args.size])
    if args.games:
        size["games"] = args.games
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    started = time.time()
    for label, a, b, limits in pairings(size):
        t0 = time.time()
        print(f"{label}: {size['games']} games ...", file=sys.stderr, flush=True)
        result = run_arena(a, b, size["games"], limits, seed=args.seed, jobs=args.jobs)
        row = {"label": label, **{k: v for k, v in result.to_json().items() if k != "results"}}
        rows.append(row)
        print(f"  {result.summary()} [{time.time() - t0:.0f}s]", file=sys.stderr, flush=True)
        report = {
            "size": args.size,
            "games_per_pairing": size["games"],
            "machine": harness.machine(),
            "seconds": round(time.time() - started, 1),
            "pairings": rows,
        }
        harness.write_json(out / "strength.json", report)
        (out / "strength.md").write_text(
            f"# Bot strength ({args.size}: {size['games']} games a pairing, seats swapped)\n\n"
            f"Command: `python -m benchmarks.strength --size {args.size}`\n\n" + markdown(rows)
        )
    plotted = plot(rows, out / "strength.png")
    print(markdown(rows))
    print(f"written: {out / 'strength.json'}, {out / 'strength.md'}" + (f", {out / 'strength.png'}" if plotted else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
