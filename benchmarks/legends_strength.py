"""Legends of Hellas: mission win rates of bot teams, with 95% intervals.

    python -m benchmarks.legends_strength                  # what fits on 2 shared cores (below)
    python -m benchmarks.legends_strength --size full      # the whole grid: 200 games a cell, 1000 iterations
    python -m benchmarks.legends_strength --size target --teams heuristic,ismcts,all-seeing
                                                           # the target's cells at 1000 iterations (below)

A cell is a mission x a seat count x a difficulty x a team; a team is one bot in every
seat (hzai.search.arena.run_team's games: game i is dealt from seed + i, the same deals
for every team of a cell). Teams: random, heuristic, ismcts (each seat decides from its
own view), all-seeing (ISMCTS on the true state: a yardstick, never served). The heroes
of N seats are the first N of hzai.games.legends.game.DEFAULT_HEROES.

The target of issue 14: ISMCTS at least 15 points above the heuristic team on missions
1-3 at human difficulty. The report says met or missed for every such cell, with both
win rates and their intervals, and the gap to the all-seeing team in every cell played.

A team whose bot is a native one (heuristic excepted: it is Python) plays in the native
arena (`run_team`: the same games as the Python loop, tests/search/test_native_arena.py);
the all-seeing team and --jobs > 1 play the Python loop.

Writes legends_strength.json, .md and (with matplotlib) .png under benchmarks/results/
(or --out), after every cell, so a run cut short keeps what it finished.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from hzai.core import Limits
from hzai.games.legends.game import DEFAULT_HEROES

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
TEAMS = {"random": ("random", False), "heuristic": ("heuristic", False), "ismcts": ("ismcts", False),
         "all-seeing": ("ismcts", True)}
SEARCHED = ("ismcts", "all-seeing")
TARGET_MISSIONS = (1, 2, 3)
TARGET_GAP = 0.15

# "fits": the cheap teams over the whole grid; the searched teams only on the target's
# cells, with few games and iterations.
SIZES = {
    "smoke": dict(missions=[1], seats=[2], difficulties=["human"], games=4, search_games=1, iterations=5,
                  search_cells="target"),
    "fits": dict(missions=[1, 2, 3, 5, 8, 10, 12], seats=[2, 4], difficulties=["human", "godlike"], games=200,
                 search_games=10, iterations=30, search_cells="target"),
    # the target's cells only (missions 1-3 x 2 and 4 seats, human), the searched teams at
    # the 1000 iterations a decision, 200 games a cell: ismcts plays in the native
    # arena, 4-8 s a game on the 2 shared cores (about 2.5 hours for its 6 cells); the
    # all-seeing team plays in the Python loop, slower (give it fewer with --search-games)
    "target": dict(missions=[1, 2, 3], seats=[2, 4], difficulties=["human"], games=200, search_games=200,
                   iterations=1000, search_cells="target"),
    "full": dict(missions=[1, 2, 3, 5, 8, 10, 12], seats=[2, 4], difficulties=["human", "godlike"], games=200,
                 search_games=200, iterations=1000, search_cells="all"),
}


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def cells(size: dict, teams: list[str]) -> list[dict]:
    """Every cell to play, in order: per mission, seats and difficulty, each team."""
    plan = []
    for mission in size["missions"]:
        for seats in size["seats"]:
            for difficulty in size["difficulties"]:
                target = mission in TARGET_MISSIONS and difficulty == "human"
                for team in teams:
                    searched = team in SEARCHED
                    if searched and size["search_cells"] == "target" and not target:
                        continue
                    plan.append({"mission": mission, "seats": seats, "difficulty": difficulty, "team": team,
                                 "games": size["search_games"] if searched else size["games"],
                                 "iterations": size["iterations"] if searched else 1})
    return plan


def play_cell(cell: dict, seed: int, pool) -> dict:
    """The cell's games, in `pool` (the Python loop, a game a task) when given, else by
    hzai.search.arena.run_team (the native arena where the team's bot is a native one:
    the same games, faster)."""
    spec, all_seeing = TEAMS[cell["team"]]
    params = {"mission": cell["mission"], "heroes": list(DEFAULT_HEROES[:cell["seats"]]),
              "difficulty": cell["difficulty"]}
    started = time.time()
    tally = harness.team_tally(harness.team_games(spec, cell["games"], Limits(iterations=cell["iterations"]), seed,
                                                  params, all_seeing=all_seeing, pool=pool))
    return {**cell, "won": tally["won"], "won_share": tally["share"], "won_ci95": tally["ci95"],
            "mean_turns": tally["mean_turns"], "ms_per_decision": tally["ms_per_decision"],
            "seconds": round(time.time() - started, 1), "seed": seed}


def _key(row: dict) -> tuple:
    return row["mission"], row["seats"], row["difficulty"]


def verdicts(rows: list[dict]) -> list[dict]:
    """The target, cell by cell: ISMCTS - heuristic on missions 1-3 at human difficulty."""
    by = {(_key(r), r["team"]): r for r in rows}
    out = []
    for (key, team), r in sorted(by.items()):
        if team != "ismcts" or key[0] not in TARGET_MISSIONS or key[2] != "human" or (key, "heuristic") not in by:
            continue
        h = by[(key, "heuristic")]
        gap = r["won_share"] - h["won_share"]
        out.append({"mission": key[0], "seats": key[1], "ismcts": r["won_share"], "ismcts_ci95": r["won_ci95"],
                    "ismcts_games": r["games"], "iterations": r["iterations"], "heuristic": h["won_share"],
                    "heuristic_ci95": h["won_ci95"], "heuristic_games": h["games"], "gap": gap,
                    "met": gap >= TARGET_GAP, "attainable": h["won_share"] + TARGET_GAP <= 1.0})
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(rows: list[dict], meta: dict) -> str:
    by = {(_key(r), r["team"]): r for r in rows}
    lines = [f"# Legends of Hellas: team win rates ({meta['size']})", "",
             f"Command: `{meta['command']}`", "",
             f"Cheap teams: {meta['games']} games a cell; searched teams (ismcts, all-seeing): "
             f"{meta['search_games']} games a cell at {meta['iterations']} iterations a decision, "
             f"{'on every cell' if meta['search_cells'] == 'all' else 'on the target cells only (missions 1-3, human)'}. "
             f"Deals: seed {meta['seed']} + game index, the same for every team of a cell. "
             f"{meta['seconds']:.0f} s on {harness.machine_text(meta['machine'])}.", "",
             "| mission | seats | difficulty | team | games | won | win rate | 95% interval | vs all-seeing | ms/decision |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        seer = by.get((_key(r), "all-seeing"))
        gap = "" if seer is None or r["team"] == "all-seeing" else f"{100 * (r['won_share'] - seer['won_share']):+.1f} pts"
        lines.append(f"| {r['mission']} | {r['seats']} | {r['difficulty']} | {r['team']} | {r['games']} | {r['won']} | "
                     f"{_pct(r['won_share'])} | {_pct(r['won_ci95'][0])}–{_pct(r['won_ci95'][1])} | {gap} | "
                     f"{r['ms_per_decision']:.1f} |")
    lines += ["", f"## Target: ISMCTS ≥ heuristic + {100 * TARGET_GAP:.0f} points (missions 1-3, human)", ""]
    found = verdicts(rows)
    if not found:
        lines.append("No target cell was played (both ismcts and heuristic on missions 1-3 at human difficulty).")
    for v in found:
        lines.append(f"- mission {v['mission']}, {v['seats']} seats: ismcts {_pct(v['ismcts'])} "
                     f"[{_pct(v['ismcts_ci95'][0])}–{_pct(v['ismcts_ci95'][1])}] ({v['ismcts_games']} games, "
                     f"{v['iterations']} iterations) vs heuristic {_pct(v['heuristic'])} "
                     f"[{_pct(v['heuristic_ci95'][0])}–{_pct(v['heuristic_ci95'][1])}] ({v['heuristic_games']} games): "
                     f"gap {100 * v['gap']:+.1f} points, **{'met' if v['met'] else 'missed'}**"
                     + ("" if v["attainable"] else " (cannot be met: the heuristic's rate + 15 points is over 100%)"))
    return "\n".join(lines) + "\n"


def plot(rows: list[dict], path: Path) -> bool:
    plt = harness.pyplot()
    if plt is None:
        return False
    panels = sorted({(r["seats"], r["difficulty"]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 4), squeeze=False)
    for ax, (seats, difficulty) in zip(axes[0], panels):
        for team, marker in zip(TEAMS, "ovs^"):
            points = sorted((r for r in rows if r["team"] == team and r["seats"] == seats
                             and r["difficulty"] == difficulty), key=lambda r: r["mission"])
            if not points:
                continue
            xs = [r["mission"] for r in points]
            ys = [r["won_share"] for r in points]
            err = [[y - r["won_ci95"][0] for y, r in zip(ys, points)], [r["won_ci95"][1] - y for y, r in zip(ys, points)]]
            ax.errorbar(xs, ys, yerr=err, marker=marker, capsize=3, label=f"{team} ({points[0]['games']} games)")
        ax.set_title(f"{seats} seats, {difficulty}")
        ax.set_xlabel("mission")
        ax.set_ylabel("team win rate (95% Wilson interval)")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Legends of Hellas: mission win rates by team")
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def _one_per_cell(cells) -> list[dict]:
    """A cell (mission, seats, difficulty, team) played in several runs counts once: the
    run with the most games (the later one on a tie); the others are named on stdout."""
    kept: dict = {}
    for cell in cells:
        key = (cell["mission"], cell["seats"], cell["difficulty"], cell["team"])
        other = kept.get(key)
        if other is not None:
            dropped = other if cell["games"] >= other["games"] else cell
            print(f"merge: mission {key[0]}, {key[1]} seats, {key[2]}, {key[3]}: the run of "
                  f"{dropped['games']} games is replaced by the one of {max(cell['games'], other['games'])}")
            if dropped is cell:
                continue
        kept[key] = cell
    return list(kept.values())


def merge(paths: list[Path], out: Path, argv) -> int:
    """One report from several runs: their cells in grid order, each run's settings kept."""
    runs = [json.loads(p.read_text()) for p in paths]
    order = {team: i for i, team in enumerate(TEAMS)}
    rows = sorted(_one_per_cell(c for r in runs for c in r["cells"]),
                  key=lambda c: (c["mission"], c["seats"], c["difficulty"] != "human", order[c["team"]]))
    meta = {**runs[0], "size": "merged", "seconds": sum(r["seconds"] for r in runs),
            "command": " ; ".join(r["command"] for r in runs)}
    meta["games"] = max(r["games"] for r in runs)
    searched = [c for c in rows if c["team"] in SEARCHED]
    if searched:
        meta["search_games"] = max(c["games"] for c in searched)
        meta["iterations"] = max(c["iterations"] for c in searched)
    meta.pop("cells", None)
    meta.pop("target", None)
    out.mkdir(parents=True, exist_ok=True)
    report = {**meta, "runs": [{k: v for k, v in r.items() if k not in ("cells", "target")} for r in runs],
              "cells": rows, "target": verdicts(rows)}
    harness.write_json(out / "legends_strength.json", report)
    (out / "legends_strength.md").write_text(markdown(rows, meta))
    plot(rows, out / "legends_strength.png")
    print(markdown(rows, meta))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(SIZES), default="fits")
    parser.add_argument("--missions", type=_ints, default=None, help="e.g. 1,3,5 (overrides the size)")
    parser.add_argument("--seats", type=_ints, default=None, help="seat counts, e.g. 2,4")
    parser.add_argument("--difficulties", default=None, help="e.g. human,godlike")
    parser.add_argument("--teams", default=",".join(TEAMS), help=f"of {', '.join(TEAMS)}")
    parser.add_argument("--games", type=int, default=None, help="games a cell for random and heuristic")
    parser.add_argument("--search-games", type=int, default=None, help="games a cell for ismcts and all-seeing")
    parser.add_argument("--iterations", type=int, default=None, help="ISMCTS iterations a decision")
    parser.add_argument("--search-cells", choices=["target", "all"], default=None,
                        help="where the searched teams play: the target's cells or every cell")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--out", default=str(RESULTS), help="results folder")
    parser.add_argument("--plot-only", action="store_true", help="redraw the plot from the JSON, play nothing")
    parser.add_argument("--merge", nargs="+", metavar="JSON", default=None,
                        help="play nothing: join the cells of these legends_strength.json files (runs of parts of "
                             "the grid, e.g. in parallel) into one report in --out")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.plot_only:
        rows = json.loads((out / "legends_strength.json").read_text())["cells"]
        return 0 if plot(rows, out / "legends_strength.png") else 1
    if args.merge:
        return merge([Path(p) for p in args.merge], out, argv)
    size = dict(SIZES[args.size])
    for key in ("missions", "seats", "games", "search_games", "iterations", "search_cells"):
        if getattr(args, key) is not None:
            size[key] = getattr(args, key)
    if args.difficulties:
        size["difficulties"] = args.difficulties.split(",")
    teams = [t.strip() for t in args.teams.split(",") if t.strip()]
    unknown = [t for t in teams if t not in TEAMS]
    if unknown:
        parser.error(f"--teams: unknown team {unknown[0]!r}; teams: {', '.join(TEAMS)}")
    out.mkdir(parents=True, exist_ok=True)
    meta = {"size": args.size, "command": harness.command("legends_strength", argv),
            "seed": args.seed, "jobs": args.jobs, "machine": harness.machine(),
            **{k: size[k] for k in ("games", "search_games", "iterations", "search_cells")}}
    plan = cells(size, teams)
    rows: list[dict] = []
    started = time.time()
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for n, cell in enumerate(plan, 1):
            print(f"[{n}/{len(plan)}] mission {cell['mission']}, {cell['seats']} seats, {cell['difficulty']}, "
                  f"{cell['team']}: {cell['games']} games ...", file=sys.stderr, flush=True)
            row = play_cell(cell, args.seed, pool)
            rows.append(row)
            print(f"  won {row['won']}/{row['games']} ({_pct(row['won_share'])}) [{row['seconds']:.0f}s]",
                  file=sys.stderr, flush=True)
            meta["seconds"] = time.time() - started
            report = {**meta, "cells": rows, "target": verdicts(rows)}
            harness.write_json(out / "legends_strength.json", report)
            (out / "legends_strength.md").write_text(markdown(rows, meta))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    plotted = plot(rows, out / "legends_strength.png")
    print(markdown(rows, meta))
    print(f"written: {out / 'legends_strength.json'}, .md" + (", .png" if plotted else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
