"""Legends: what search over the blueprint costs a decision against the default.

`ismcts:partners=1` against `ismcts`, at the same iterations (issue 44, item 2).

    python -m benchmarks.legends_partners_cost [--iterations 211] [--rounds 5] [--games 1]
        [--out benchmarks/results/legends_partners_cost] [--compare OLD.json]

Positions: seeded games of missions 1, 3 and 5 with 2 and 4 seats, played by uniformly
random moves (SplitMix64 from the seed) to 4, 16 and 32 moves of history, then on to the
next decision of a seat. Each spec decides every position with the shipped model, one
thread, seed 7, at --iterations; a position's time is the best of --rounds rounds of the
process's CPU time (the machine is shared, so the best is the least disturbed). Prints
per-cell and overall ms a decision and iterations a second for both specs and their
ratio, and writes NAME.json and NAME.md with the command.

Then the grid's measure: --games whole games a cell of each spec as a team in the native
arena (one thread, deals from 870000 on, the tree kept between a seat's decisions, so
its walks are deeper than a fresh search's), CPU ms a decision (the process's CPU time
over the games) and the arena's own wall-clock ms.

The JSON keeps each decision's root analysis (moves, visits, values to 9 places): with
--compare OLD.json the run checks that every decision is the same as in OLD (the same
seed gives the same search after a change that should only make it cheaper) and says
which differ; the arena games must play the same actions.

    python -m benchmarks.legends_partners_cost --pair A/legends_grid.json B/legends_grid.json --out NAME

plays nothing: the learned team of grid run A against that of run B over the deals both
played in each cell (the grid deals game i of a cell from the same seed in every run),
paired difference A - B with its 95% interval, into NAME.md and NAME.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai.core import Limits
from hzai.games.legends.game import DEFAULT_HEROES, LegendsGame
from hzai.games.legends.parts import LegendsModel
from hzai.games.legends.view import LegendsView
from hzai.core.registry import make_game
from hzai.rng import SplitMix64
from hzai.search.arena import native_arena, native_team_results
from hzai.search.bot import make_bot

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SPECS = ("ismcts", "ismcts:partners=1")
CELLS = [(1, 2), (1, 4), (3, 2), (3, 4), (5, 2), (5, 4)]
DEPTHS = (4, 16, 32)
SEED = 7
GAME_SEED = 870000  # the arena games' deals: game i of a cell is dealt from GAME_SEED + i


def positions(cells=CELLS, depths=DEPTHS) -> list[dict]:
    """Each (mission, seats, depth): the game dealt from 44000 + 100 * mission + 10 *
    seats + depth, random moves to `depth`, then on to a seat's decision (skipped if the
    game ends first)."""
    out = []
    for mission, seats in cells:
        game = LegendsGame(mission=mission, heroes=list(DEFAULT_HEROES[:seats]))
        for depth in depths:
            seed = 44000 + 100 * mission + 10 * seats + depth
            state = game.new_state(seed)
            rng = SplitMix64(seed)
            while not state.is_terminal and (len(state.t.history) < depth or state.is_chance):
                options = [o for o, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
                state.apply(options[rng.below(len(options))])
            if state.is_terminal:
                continue
            out.append({"mission": mission, "seats": seats, "depth": depth, "game": game,
                        "view": LegendsView.of(state, state.current_seat)})
    return out


def decide(spec: str, view, iterations: int, rounds: int) -> dict:
    bot = make_bot(spec)
    best, analysis = None, None
    for _ in range(rounds):
        t0 = time.process_time()
        result = bot.decide(view, Limits(iterations=iterations, threads=1), seed=SEED)
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
        analysis = result.analysis
    moves = [[view.game.move_text(m.move), m.visits, round(m.value, 9)] for m in analysis.moves]
    return {"ms": 1000 * best, "iterations": analysis.iterations, "moves": moves}


def arena_games(spec: str, mission: int, seats: int, games: int, iterations: int) -> dict:
    """`games` whole games of the team `spec` in the native arena, one thread (the grid's
    measure of a decision's time, with the tree kept between a seat's decisions): the ms
    a decision over them (the arena's wall clock per decision) and each game's actions."""
    game = make_game("legends", mission=mission, heroes=list(DEFAULT_HEROES[:seats]))
    bots = native_arena(game, [spec], Limits(iterations=iterations))
    t0 = time.process_time()
    played = native_team_results(game, bots[0], list(range(games)), GAME_SEED, 1, keep_actions=True)
    cpu = time.process_time() - t0
    if any(r is None for r in played):
        raise RuntimeError(f"{spec}: the native arena could not play a game through (mission {mission}, {seats} seats)")
    decisions = sum(r.moves for r in played)
    return {"ms": 1000 * sum(r.think_seconds for r in played) / decisions, "cpu_ms": 1000 * cpu / decisions,
            "decisions": decisions, "won": sum(r.won for r in played), "actions": [list(r.actions) for r in played]}


def summarize(rows: list[dict], key) -> dict:
    out = {}
    for spec in SPECS:
        ms = sum(r[spec]["ms"] for r in rows if key(r))
        its = sum(r[spec]["iterations"] for r in rows if key(r))
        n = sum(1 for r in rows if key(r))
        out[spec] = {"ms_per_decision": ms / max(1, n), "iterations_per_s": 1000 * its / ms if ms > 0 else 0.0}
    out["ratio"] = out[SPECS[1]]["ms_per_decision"] / max(1e-9, out[SPECS[0]]["ms_per_decision"])
    out["decisions"] = n
    return out


def markdown(data: dict) -> str:
    a, b = SPECS
    lines = [f"# Legends: the cost of `{b}` against `{a}` at equal iterations", "",
             f"Command: `{data['command']}`", "",
             f"Model: {data['model']}; {data['iterations']} iterations a decision, one thread, seed {SEED}; "
             f"a decision's time is the best of {data['rounds']} rounds of process CPU time. Machine: "
             f"{harness.machine_text(data['machine'])} (two cores shared with other work).", "",
             f"| mission | seats | decisions | {a} ms | {b} ms | ratio | {a} it/s | {b} it/s |",
             "|---|---|---|---|---|---|---|---|"]
    for c in data["cells"] + [dict(data["all"], mission="all", seats="")]:
        lines.append(f"| {c['mission']} | {c['seats']} | {c['decisions']} | {c[a]['ms_per_decision']:.1f} | "
                     f"{c[b]['ms_per_decision']:.1f} | {c['ratio']:.2f} | {c[a]['iterations_per_s']:.0f} | "
                     f"{c[b]['iterations_per_s']:.0f} |")
    if data.get("games"):
        lines += ["", f"Whole games in the native arena ({data['games']} a cell, deals {GAME_SEED}.., one thread, "
                      "the tree kept between a seat's decisions: the grid's measure), CPU ms a decision (the "
                      "process's CPU time over the games) and, in brackets, the arena's wall clock:", "",
                  f"| mission | seats | decisions {a} / {b} | {a} ms | {b} ms | ratio |", "|---|---|---|---|---|---|"]
        for c in data["arena"]:
            lines.append(f"| {c['mission']} | {c['seats']} | {c[a]['decisions']} / {c[b]['decisions']} | "
                         f"{c[a]['cpu_ms']:.1f} ({c[a]['ms']:.1f}) | {c[b]['cpu_ms']:.1f} ({c[b]['ms']:.1f}) | "
                         f"{c[b]['cpu_ms'] / c[a]['cpu_ms']:.2f} |")

        def mean(spec, key):
            return sum(c[spec][key] * c[spec]["decisions"] for c in data["arena"]) / \
                sum(c[spec]["decisions"] for c in data["arena"])

        lines.append(f"| all | | | {mean(a, 'cpu_ms'):.1f} ({mean(a, 'ms'):.1f}) | {mean(b, 'cpu_ms'):.1f} "
                     f"({mean(b, 'ms'):.1f}) | {mean(b, 'cpu_ms') / mean(a, 'cpu_ms'):.2f} |")
    if data.get("compare"):
        cmp = data["compare"]
        lines += ["", f"Against {cmp['file']}: {cmp['same']} of {cmp['total']} decisions give the same root "
                      f"analysis (moves, visits, values to 9 places)" + (f"; differ: {cmp['differ']}" if cmp['differ'] else ".")]
    return "\n".join(lines) + "\n"


def pair(paths: list[str], out: Path, argv) -> int:
    """The learned teams of two legends_grid runs, paired by deal in every cell both played."""
    runs = [json.loads(Path(p).read_text()) for p in paths]

    def learned(run):
        cells = {}
        for e in run["entries"]:
            if e["team"] == "ismcts":
                cells[(e["mission"], e["seats"], e["difficulty"])] = e
        return cells

    a, b = (learned(r) for r in runs)
    rows = []
    for key in sorted(set(a) & set(b)):
        ea, eb = a[key], b[key]
        if ea["seed"] != eb["seed"]:
            continue
        both = [(x, y) for x, y in zip(ea["wins"], eb["wins"]) if x is not None and y is not None]
        mean, low, high = harness.mean_interval([x - y for x, y in both])
        rows.append({"mission": key[0], "seats": key[1], "difficulty": key[2], "games": len(both),
                     "a": {"spec": ea.get("spec") or "ismcts", "iterations": ea["iterations"],
                           "share": sum(x for x, _ in both) / len(both), "ms": ea["ms_per_decision"]},
                     "b": {"spec": eb.get("spec") or "ismcts", "iterations": eb["iterations"],
                           "share": sum(y for _, y in both) / len(both), "ms": eb["ms_per_decision"]},
                     "difference": {"mean": mean, "ci95": [low, high]}})
    if not rows:
        print("the two runs share no cell of the learned team with the same deals", file=sys.stderr)
        return 1
    lines = ["# Legends: two learned teams on the same deals", "", f"Command: `{harness.command('legends_partners_cost', argv)}`",
             "", f"A: {paths[0]}; B: {paths[1]}. Paired difference A - B over the deals both played, 95% interval "
             "(normal approximation); ms: the grid's wall-clock ms a decision (a shared machine: rough).", "",
             "| mission | seats | difficulty | games | A | iterations | won | B | iterations | won | A - B | 95% |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        d = r["difference"]
        lines.append(f"| {r['mission']} | {r['seats']} | {r['difficulty']} | {r['games']} | `{r['a']['spec']}` | "
                     f"{r['a']['iterations']} | {100 * r['a']['share']:.1f}% | `{r['b']['spec']}` | {r['b']['iterations']} | "
                     f"{100 * r['b']['share']:.1f}% | {100 * d['mean']:+.1f} pts | {100 * d['ci95'][0]:+.1f} to "
                     f"{100 * d['ci95'][1]:+.1f} |")
    text = "\n".join(lines) + "\n"
    harness.write_json(out.with_suffix(".json"), {"command": harness.command("legends_partners_cost", argv),
                                                  "runs": paths, "rows": rows})
    out.with_suffix(".md").write_text(text)
    print(text)
    return 0


def model_id(path) -> str:
    from hzai.native.model import load_cached

    game = LegendsGame(mission=1, heroes=list(DEFAULT_HEROES[:2]))
    return load_cached(game, path)[0].model_id


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iterations", type=int, default=211)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--games", type=int, default=1, help="whole arena games a cell for each spec (0: none)")
    p.add_argument("--out", default=str(RESULTS / "legends_partners_cost"), help="NAME: writes NAME.json and NAME.md")
    p.add_argument("--compare", metavar="OLD.json", help="check every decision equals OLD's")
    p.add_argument("--pair", nargs=2, metavar="GRID.json", help="play nothing: pair two legends_grid runs' learned teams")
    args = p.parse_args(argv)
    if args.pair:
        return pair(args.pair, Path(args.out), argv)
    if args.iterations < 1 or args.rounds < 1 or args.games < 0:
        p.error("--iterations and --rounds must be at least 1, --games at least 0")
    old = None
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        if old.get("iterations") != args.iterations:
            p.error(f"--compare: {args.compare} was made at {old.get('iterations')} iterations, not {args.iterations}")
    model_path = LegendsModel.file
    if not Path(model_path).exists():
        print(f"no learned Legends model ({model_path})", file=sys.stderr)
        return 2
    rows, chosen = [], positions()
    for spec in SPECS:  # load the model and warm up before timing
        decide(spec, chosen[0]["view"], 5, 1)
    for pos in chosen:
        row = {k: pos[k] for k in ("mission", "seats", "depth")}
        for spec in SPECS:
            row[spec] = decide(spec, pos["view"], args.iterations, args.rounds)
        rows.append(row)
        print(f"mission {row['mission']} seats {row['seats']} depth {row['depth']}: "
              + ", ".join(f"{s} {row[s]['ms']:.1f} ms" for s in SPECS), file=sys.stderr, flush=True)
    cells = []
    for mission, seats in CELLS:
        c = summarize(rows, lambda r: (r["mission"], r["seats"]) == (mission, seats))
        cells.append(dict(c, mission=mission, seats=seats))
    arena = []
    for mission, seats in CELLS if args.games else ():
        c = {"mission": mission, "seats": seats}
        for spec in SPECS:
            c[spec] = arena_games(spec, mission, seats, args.games, args.iterations)
        arena.append(c)
        print(f"arena mission {mission} seats {seats}: " + ", ".join(f"{s} {c[s]['cpu_ms']:.1f} ms" for s in SPECS),
              file=sys.stderr, flush=True)
    data = {"command": harness.command("legends_partners_cost", argv), "machine": harness.machine(),
            "model": model_id(model_path), "iterations": args.iterations, "rounds": args.rounds,
            "cells": cells, "all": summarize(rows, lambda r: True), "positions": rows, "games": args.games,
            "arena": arena}
    if old is not None:
        key = lambda r: (r["mission"], r["seats"], r["depth"])  # noqa: E731
        before = {key(r): r for r in old["positions"]}
        differ = [f"{s} at {key(r)}" for r in rows for s in SPECS
                  if key(r) not in before or before[key(r)][s]["moves"] != r[s]["moves"]]
        total = len(rows) * len(SPECS)
        games_before = {(c["mission"], c["seats"]): c for c in old.get("arena", [])}
        for c in arena:
            for s in SPECS:
                total += 1
                was = games_before.get((c["mission"], c["seats"]))
                if was is None or was[s]["actions"] != c[s]["actions"][:len(was[s]["actions"])] \
                        or len(was[s]["actions"]) > len(c[s]["actions"]):
                    differ.append(f"{s} arena games of mission {c['mission']}, {c['seats']} seats")
        data["compare"] = {"file": args.compare, "total": total, "same": total - len(differ), "differ": differ}
    out = Path(args.out)
    harness.write_json(out.with_suffix(".json"), data)
    out.with_suffix(".md").write_text(markdown(data))
    print(markdown(data))
    if old is not None and data["compare"]["differ"]:
        print(f"{len(data['compare']['differ'])} decisions differ from {args.compare}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
