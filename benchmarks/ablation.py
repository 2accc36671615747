"""Ablations of the search's ideas on Hera and Zeus (issue 15): each idea alone against
ismcts-v1, then the ideas that paid together against ismcts-v1, PIMC, and against an
all-seeing ismcts-v1 (the ceiling: it decides from the whole state).

    python -m benchmarks.ablation [--ms 25] [--minutes 30] [--max-games 400] [--jobs 2]
    python -m benchmarks.ablation --part reuse [--ms 25] [--iterations 300] [--minutes 30] [--jobs 1]

`--part reuse` plays only the tree-reuse rows (issue 15: `reuse=1`, and `reuse=1,credit=1`
the budget split, each against ismcts-v1 at equal time and at equal iterations) and
adds them to the JSON (key "reuse") and to the table's "Tree reuse" section, keeping
the other rows as they are.

Every match is seat-swapped games from the same deals (hzai.search.arena, deal i is
seed + i for every match), equal wall time a decision for both bots, a 95% Wilson
interval on the first bot's score. Each match gets an equal share of `--minutes` and
plays chunks of 20 games until its share is spent or `--max-games` is reached. An idea
"pays" when its score alone is above 50%. Writes benchmarks/results/ablation.json and
ablation.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hzai.core import Limits, wilson_interval
from hzai.search.arena import run_arena

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

ROOT = Path(__file__).resolve().parents[1]
BASE = "ismcts-v1"
# idea -> the bot options that turn it on (alone, over ismcts-v1's defaults)
IDEAS = {"multi-observer tree": "tree=multi", "progressive-bias prior": "prior=1", "light playouts": "playout=light"}
CHUNK = 20
SEED = 15000


def spec_of(options: list[str]) -> str:
    """ismcts with these options over ismcts-v1's settings, spelled out (so the row does
    not change when the default of `ismcts` does); no options: ismcts-v1 itself."""
    if not options:
        return BASE
    settings = {"tree": "single", "prior": "0", "playout": "random"}
    settings.update(item.split("=", 1) for item in options)
    return "ismcts:" + ",".join(f"{k}={v}" for k, v in settings.items())


def play(spec_a: str, spec_b: str, limits: Limits, seconds: float, max_games: int, jobs: int,
         all_seeing: str | None = None) -> dict:
    """Chunks of seat-swapped games until `seconds` are spent or `max_games` played."""
    results, start = [], time.perf_counter()
    while len(results) < max_games and time.perf_counter() - start < seconds:
        done = len(results)
        part = run_arena(spec_a, spec_b, CHUNK, limits, seed=SEED + done, jobs=jobs, all_seeing=all_seeing)
        results += part.results
    n = len(results)
    score = sum(r.a_points for r in results)
    think = {k: sum(r.think_seconds[k] for r in results) for k in ("A", "B")}
    count = {k: sum(r.decisions[k] for r in results) for k in ("A", "B")}
    row = {"a": spec_a, "b": spec_b, "all_seeing": all_seeing, "games": n, "score": score / n if n else 0.0,
           "ci95": list(wilson_interval(score, n)), "seconds": round(time.perf_counter() - start, 1),
           "ms_per_decision": {k: round(1000 * think[k] / count[k], 1) if count[k] else 0.0 for k in think}}
    print(f"{spec_a} vs {spec_b}{' (B all-seeing)' if all_seeing else ''}: {row['score']:.1%} "
          f"[{row['ci95'][0]:.1%}..{row['ci95'][1]:.1%}] over {n} games, {row['seconds']:.0f} s", flush=True)
    return row


# tree reuse rows: name -> the options over ismcts-v1's settings
REUSE = {"tree reuse": ["reuse=1"], "tree reuse, reused visits credited": ["reuse=1", "credit=1"]}
REUSE_MARK = "## Tree reuse"


def reuse_part(args) -> int:
    """The tree-reuse rows, at equal time (--ms) and at equal iterations (--iterations),
    merged into the existing results."""
    budgets = {f"{args.ms} ms": Limits(millis=args.ms, threads=1), f"{args.iterations} iterations":
               Limits(iterations=args.iterations, threads=1)}
    budgets = {k: v for k, v in budgets.items() if args.budgets == "both" or (args.budgets == "time") == k.endswith("ms")}
    ideas = {k: v for k, v in REUSE.items() if args.ideas == "both" or (args.ideas == "credit") == ("credit=1" in v)}
    share = args.minutes * 60 / (len(ideas) * len(budgets))
    command = " ".join(["python -m benchmarks.ablation --part reuse", f"--ms {args.ms}", f"--iterations {args.iterations}",
                        f"--budgets {args.budgets}", f"--ideas {args.ideas}", f"--minutes {args.minutes:g}",
                        f"--max-games {args.max_games}", f"--jobs {args.jobs}"])
    out_path = Path(args.out)
    data = json.loads(out_path.read_text()) if out_path.exists() else {}
    earlier = data.get("reuse", {})
    rows = earlier.get("rows", {})  # a run of some rows keeps the others
    for row in rows.values():
        row.setdefault("command", earlier.get("command", "?"))
    for budget, limits in budgets.items():
        for name, options in ideas.items():
            row = play(spec_of(options), BASE, limits, share, args.max_games, args.jobs)
            rows[f"{name} @ {budget}"] = dict(row, budget=budget, command=command)
    data["reuse"] = {"rows": rows}
    harness.write_json(out_path, data, indent=2)
    md = out_path.with_suffix(".md")
    text = md.read_text() if md.exists() else "# Ablations (Hera and Zeus)\n"
    text = text.split("\n" + REUSE_MARK)[0].rstrip("\n") + "\n"
    lines = ["", REUSE_MARK, "", f"Seat-swapped games from the same deals (seed {SEED} on), {args.jobs} process(es); "
             "`ms/decision` is the wall time each bot took a decision. Each row's command:", ""]
    for command in dict.fromkeys(row["command"] for row in rows.values()):
        lines.append(f"- `{command}`")
    lines += ["", "| match | budget | games | score of the first | ms/decision (first / ismcts-v1) |", "|---|---|---|---|---|"]
    for key, row in rows.items():
        ms = row["ms_per_decision"]
        lines.append(f"| `{row['a']}` vs {BASE} | {row['budget']} | {row['games']} | {fmt(row)} | {ms['A']} / {ms['B']} |")
    md.write_text(text + "\n".join(lines) + "\n")
    return 0


def fmt(row: dict) -> str:
    low, high = row["ci95"]
    return f"{row['score']:.1%} [{low:.1%}..{high:.1%}]"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=int, default=25, help="wall ms a decision, both bots (default 25)")
    parser.add_argument("--minutes", type=float, default=30.0, help="the whole run (default 30)")
    parser.add_argument("--max-games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/ablation.json"))
    parser.add_argument("--part", choices=("all", "reuse"), default="all",
                        help="reuse: only the tree-reuse rows, added to the existing results")
    parser.add_argument("--iterations", type=int, default=300, help="the equal-iterations budget of --part reuse")
    parser.add_argument("--budgets", choices=("both", "time", "iterations"), default="both",
                        help="--part reuse: the rows at equal time (--ms), at equal iterations, or both")
    parser.add_argument("--ideas", choices=("both", "reuse", "credit"), default="both",
                        help="--part reuse: the rows of reuse=1, of reuse=1,credit=1, or both")
    args = parser.parse_args(argv)
    if args.part == "reuse":
        return reuse_part(args)
    limits = Limits(millis=args.ms, threads=1)
    matches = len(IDEAS) + 4
    share = args.minutes * 60 / matches
    run = lambda a, b, seeing=None: play(a, b, limits, share, args.max_games, args.jobs, seeing)  # noqa: E731

    alone = {idea: run(spec_of([options]), BASE) for idea, options in IDEAS.items()}
    paying = [IDEAS[idea] for idea, row in alone.items() if row["score"] > 0.5]
    best = spec_of(paying)
    by_options = {IDEAS[idea]: row for idea, row in alone.items()}
    together = run(best, BASE) if len(paying) > 1 else None
    combined = together if together is not None else (by_options[paying[0]] if paying else None)
    if together is not None:  # the best measured: together, or the best idea alone
        top = max(paying, key=lambda o: by_options[o]["score"])
        if by_options[top]["score"] > together["score"]:
            best, combined = spec_of([top]), by_options[top]
    vs_pimc = run(best, "pimc")
    v1_ceiling = run(BASE, BASE, "B")
    best_ceiling = run(best, BASE, "B") if paying else v1_ceiling
    gap_v1, gap_best = 0.5 - v1_ceiling["score"], 0.5 - best_ceiling["score"]
    closed = (gap_v1 - gap_best) / gap_v1 if gap_v1 > 0 else 0.0
    targets = {
        "vs ismcts-v1 >= 60%": bool(combined and combined["score"] >= 0.60),
        "vs pimc >= 65%, lower bound > 55%": vs_pimc["score"] >= 0.65 and vs_pimc["ci95"][0] > 0.55,
        "closes >= half the gap to the all-seeing ceiling": closed >= 0.5,
    }
    out = {"ms_per_decision": args.ms, "minutes": args.minutes, "chunk": CHUNK, "seed": SEED, "machine": harness.machine(),
           "alone": alone, "paying": paying, "together": together, "best": best, "combined": combined, "vs_pimc": vs_pimc,
           "v1_vs_all_seeing": v1_ceiling, "best_vs_all_seeing": best_ceiling, "gap_closed": closed,
           "targets": targets}
    harness.write_json(args.out, out, indent=2)
    lines = [
        "# Ablations (Hera and Zeus)", "",
        f"`python -m benchmarks.ablation --ms {args.ms} --minutes {args.minutes:g}`: seat-swapped games from the "
        f"same deals (seed {SEED} on), {args.ms} ms of wall time a decision for both bots, 95% Wilson intervals on "
        "the first bot's score. The issue asks for 100 ms a decision and at least 400 games where differences are "
        f"small; on this machine's 2 shared cores that does not fit, so each match got {share / 60:.1f} minutes "
        "of one run (its game count below) and the intervals are wide accordingly.", "",
        "| match | games | score of the first |", "|---|---|---|",
    ]
    for idea, row in alone.items():
        lines.append(f"| {idea} alone (`{row['a']}`) vs {BASE} | {row['games']} | {fmt(row)} |")
    if together is not None:
        lines.append(f"| together (`{together['a']}`) vs {BASE} | {together['games']} | {fmt(together)} |")
    lines += [f"| `{best}` vs pimc | {vs_pimc['games']} | {fmt(vs_pimc)} |",
              f"| {BASE} vs all-seeing {BASE} | {v1_ceiling['games']} | {fmt(v1_ceiling)} |",
              f"| `{best}` vs all-seeing {BASE} | {best_ceiling['games']} | {fmt(best_ceiling)} |", "",
              f"Ideas that paid alone (score above 50%): {', '.join(paying) or 'none'}; the best measured: "
              f"`{best}` (together, unless one idea alone scored higher). "
              f"Share of the gap to the all-seeing ceiling closed: {closed:.0%}.", "", "Targets:"]
    lines += [f"- {name}: {'met' if ok else 'missed'}" for name, ok in targets.items()]
    Path(args.out).with_suffix(".md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
