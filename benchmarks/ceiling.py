"""The all-seeing ceiling at the issue's budget (issue 15): how much of the gap between
ismcts-v1 and a bot that sees every card the default search closes.

    python -m benchmarks.ceiling [--games 200] [--ms 100] [--jobs 2] [--seed 18000]

Two matches on the same deals (deal i is seed + i, seats alternating, equal wall time a
decision): ismcts-v1 against the all-seeing ismcts-v1 (it decides from the whole state:
the ceiling), then the default `ismcts` against the same all-seeing bot. With s1 and s2
the two scores against the ceiling, the share of the gap closed is
(s2 - s1) / (0.5 - s1): 0 plays like ismcts-v1, 1 like the ceiling (the measure of
benchmarks/ablation.py). Its 95% interval is a paired bootstrap over the deals (a deal's
two games, one from each match, are drawn together). Progress on stderr; writes
benchmarks/results/ceiling.json and ceiling.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hzai.core import Limits
from hzai.rng import SplitMix64
from hzai.search.arena import run_arena

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

BASELINE, CANDIDATE = "ismcts-v1", "ismcts"
OUT = Path(__file__).parent / "results"


def scores(result) -> dict[int, float]:
    """Deal index -> the first bot's score in that game (1, 0.5 or 0)."""
    return {game.index: game.a_points for game in result.results}


def gap_closed(s1: float, s2: float) -> float | None:
    """(s2 - s1) / (0.5 - s1); None when ismcts-v1 already holds the ceiling to 50%."""
    return None if s1 >= 0.5 else (s2 - s1) / (0.5 - s1)


def paired_interval(first: dict[int, float], second: dict[int, float], rounds: int, seed: int):
    """95% percentile interval of gap_closed over deals drawn with replacement (the
    deals both matches finished); (None, None) when too few resamples are defined."""
    deals = sorted(set(first) & set(second))
    rng = SplitMix64(seed)
    values = []
    for _ in range(rounds):
        pick = [deals[rng.next_u64() % len(deals)] for _ in deals]
        value = gap_closed(sum(first[d] for d in pick) / len(pick), sum(second[d] for d in pick) / len(pick))
        if value is not None:
            values.append(value)
    if len(values) < rounds // 2:
        return None, None
    return harness.interval95(values, rule="floor")


def match(spec: str, games: int, limits: Limits, seed: int, jobs: int) -> tuple[dict, dict[int, float]]:
    def progress(done, total, summary):
        print(f"\r[{done}/{total}] {spec} vs all-seeing {BASELINE}: {summary.a_score:.1%}", end="", file=sys.stderr,
              flush=True)

    result = run_arena(spec, BASELINE, games, limits, seed=seed, jobs=jobs, all_seeing="B", progress=progress)
    print(file=sys.stderr)
    low, high = result.a_score_ci95
    row = {"bot": spec, "games": result.games, "score": result.a_score, "ci95": [low, high],
           "ms_per_decision": result.ms_per_decision, "mean_moves": result.mean_moves, "seconds": result.seconds}
    print(f"{spec} vs all-seeing {BASELINE}: {result.a_score:.1%} [{low:.1%}..{high:.1%}] over {result.games}")
    return row, scores(result)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games a match (default 200)")
    parser.add_argument("--ms", type=int, default=100, help="wall ms a decision, every bot (default 100)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel processes (default 2)")
    parser.add_argument("--seed", type=int, default=18000, help="deal i is seed + i (default 18000)")
    parser.add_argument("--bootstrap", type=int, default=2000, help="bootstrap rounds (default 2000)")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for ceiling.json and ceiling.md")
    args = parser.parse_args(argv)
    if args.games < 2 or args.ms < 1 or args.jobs < 1:
        parser.error("--games must be at least 2, --ms and --jobs at least 1")
    limits = Limits(millis=args.ms)
    started = time.time()
    v1, v1_scores = match(BASELINE, args.games, limits, args.seed, args.jobs)
    new, new_scores = match(CANDIDATE, args.games, limits, args.seed, args.jobs)
    closed = gap_closed(v1["score"], new["score"])
    low, high = paired_interval(v1_scores, new_scores, args.bootstrap, args.seed)
    report = {"command": harness.command("ceiling", argv),
              "ms": args.ms, "seed": args.seed, "machine": harness.machine(), "v1_vs_ceiling": v1,
              "default_vs_ceiling": new, "gap_closed": closed, "gap_closed_ci95": [low, high],
              "target_half_gap_met": closed is not None and closed >= 0.5, "minutes": (time.time() - started) / 60}
    harness.write_json(args.out / "ceiling.json", report)
    (args.out / "ceiling.md").write_text(markdown(report))
    print(f"share of the gap closed: {fmt_share(closed)} [95% {fmt_share(low)}..{fmt_share(high)}]")
    return 0


def fmt_share(x: float | None) -> str:
    return "undefined" if x is None else f"{x:.0%}"


def markdown(r: dict) -> str:
    rows = []
    for row in (r["v1_vs_ceiling"], r["default_vs_ceiling"]):
        low, high = row["ci95"]
        ms = row["ms_per_decision"]
        rows.append(f"| `{row['bot']}` | {row['games']} | {row['score']:.1%} [{low:.1%}..{high:.1%}] | "
                    f"{ms['A']:.0f} / {ms['B']:.0f} |")
    low, high = r["gap_closed_ci95"]
    verdict = "met" if r["target_half_gap_met"] else "missed"
    return "\n".join([
        "# The all-seeing ceiling (Hera and Zeus)", "",
        f"Command: `{r['command']}`", "",
        f"Seat-swapped games from the same deals (seed {r['seed']} on), {r['ms']} ms of wall time a decision for "
        "every bot; the all-seeing bot is ismcts-v1 deciding from the whole state. 95% Wilson intervals on the "
        "scores; the share of the gap closed, (s2 - s1) / (0.5 - s1), has a paired bootstrap interval over the "
        f"deals. {r['minutes']:.0f} minutes.", "",
        "| bot against the all-seeing ismcts-v1 | games | score | ms/decision (bot / ceiling) |",
        "|---|---|---|---|", *rows, "",
        f"Share of the gap between ismcts-v1 and the ceiling that the default closes: **{fmt_share(r['gap_closed'])}** "
        f"[95% {fmt_share(low)}..{fmt_share(high)}]. Target (at least half): **{verdict}**.", ""])


if __name__ == "__main__":
    sys.exit(main())
