"""The inference pool sized to the search against the fixed 1000-world pool (Hera and Zeus).

The default `ismcts` used to draw and weigh 1000 worlds before every search.

    python -m benchmarks.pool_size [--budgets 100 200 500 20ms] [--games 400] [--jobs 2]

The default bot prepares as many weighted worlds as its search can use (`worlds_bound`
in hzai/search/ismcts.py, `pool_size` in hzai/games/hera_zeus/belief/inference.py).
Both bots here are the same search with the
same opponent model and temperature; for this benchmark only, the second (spelled
`ismcts:temp=2`, the default temperature) is given the fixed pool of 1000 by wrapping
`HeraZeusSearch.inferred_view` in this process and its forked workers. Seat-swapped games from the
same deals (seed + i), a 95% Wilson interval on the first bot's score, the wall time a
decision of each. Writes benchmarks/results/pool_size.json and pool_size.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
from pathlib import Path

from hzai.core import Limits
from hzai.games.hera_zeus.belief.inference import POOL
from hzai.games.hera_zeus.search_support import HeraZeusSearch
from hzai.search.arena import run_arena

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

ROOT = Path(__file__).resolve().parents[1]
SIZED, FIXED = "ismcts", "ismcts:temp=2"


def fix_the_pool_of_explicit_temperatures() -> None:
    """An explicit temperature (the FIXED spelling) gets the pool of POOL worlds."""
    sized = HeraZeusSearch.inferred_view

    def inferred_view(self, view, temperature, seed, worlds=None):
        return sized(self, view, temperature, seed, POOL if temperature is not None else worlds)

    HeraZeusSearch.inferred_view = inferred_view


def budget_text(text: str) -> str:
    """A --budgets value as `Limits.parse` reads it, checked: argparse names the bad one."""
    try:
        Limits.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def table(data: dict) -> str:
    """The Markdown table of a pool_size.json."""
    lines = ["# The inference pool sized to the search vs a fixed pool of 1000 worlds", "",
             f"Command: `{data['command']}`. Both bots are the default search with the opponent model at "
             f"temperature 2; the second ({data['fixed']}) always draws and weighs that many worlds. Seat-swapped "
             "games from the same deals, score of the sized pool with its 95% interval, wall ms a decision.",
             "", "| budget a decision | games | score of the sized pool | ms a decision, sized / fixed | speed-up |",
             "|---|---|---|---|---|"]
    for row in data["rows"]:
        ms, (low, high) = row["ms_per_decision"], row["ci95"]
        lines.append(f"| {Limits.parse(row['budget'])} | {row['games']} | {row['score']:.1%} [{low:.1%}–{high:.1%}] "
                     f"| {ms['sized']} / {ms['fixed']} | {ms['fixed'] / ms['sized']:.2f}× |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", nargs="+", type=budget_text, default=["100", "200", "500", "20ms"],
                        help="budgets a decision: iterations (200) or wall time (20ms, 2s)")
    parser.add_argument("--games", type=int, default=400, help="games a budget (default 400)")
    parser.add_argument("--seed", type=int, default=40000, help="deal i is seed + i (default 40000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "pool_size.json"))
    args = parser.parse_args(argv)
    limits = {b: Limits.parse(b) for b in args.budgets}
    jobs = args.jobs if multiprocessing.get_start_method() == "fork" else 1  # the wrap reaches forked workers only
    fix_the_pool_of_explicit_temperatures()
    command = harness.command(
        "pool_size", ["--budgets", *args.budgets, "--games", str(args.games), "--seed", str(args.seed), "--jobs", str(jobs)])
    rows = []
    for budget, lim in limits.items():
        r = run_arena(SIZED, FIXED, args.games, lim, seed=args.seed, jobs=jobs)
        low, high = r.a_score_ci95
        rows.append({"budget": budget, "games": r.games, "score": r.a_score, "ci95": [low, high],
                     "ms_per_decision": {"sized": round(r.ms_per_decision["A"], 2), "fixed": round(r.ms_per_decision["B"], 2)}})
        print(f"{budget}: sized pool {r.a_score:.1%} [{low:.1%}..{high:.1%}] over {rows[-1]['games']} games; "
              f"ms a decision {rows[-1]['ms_per_decision']['sized']} (sized) / {rows[-1]['ms_per_decision']['fixed']} (fixed)",
              flush=True)
    out = Path(args.out)
    data = {"command": command, "machine": harness.machine(), "sized": SIZED,
            "fixed": f"{FIXED} with a pool of {POOL}", "rows": rows}
    harness.write_json(out, data, indent=2)
    out.with_suffix(".md").write_text(table(data))
    print(f"written: {out} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
