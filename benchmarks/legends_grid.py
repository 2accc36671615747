"""Legends of Hellas, the whole strength grid of the learned team (issue 32).

    python -m benchmarks.legends_grid --ms 5 --jobs 2                 # the whole grid
    python -m benchmarks.legends_grid --missions 1,3,5 --difficulties human --teams ismcts
    python -m benchmarks.legends_grid --merge A/legends_grid.json B/legends_grid.json

A cell is a mission (1-12) x a seat count (2, 4) x a difficulty (human, godlike). Each
cell is played by five teams, one bot in every seat, on the same deals (game i of a cell
is dealt from --seed + i; self-play used seeds below 600000):

- random and heuristic: the cheap teams (--games a cell);
- ismcts-v2: today's unguided ISMCTS (kept as a bot name);
- ismcts: the learned team, the default (the shipped model's team value at the leaves);
- all-seeing: ISMCTS (ismcts-v2's search) on the true state, a ceiling never served.

The two searched teams play at equal time: --ms milliseconds a decision, turned into
each team's own iterations from its rate measured first on one core (the native arena
plays iteration budgets, so the games stay reproducible); the ceiling gets ismcts-v2's
iterations. They play --search-games a cell on the target cells (missions 1, 3 and 5
with 2 and 4 seats, human), --other-games elsewhere, and the ceiling --ceiling-games.

Reports per cell each team's win rate with its 95% Wilson interval, the learned team's
paired difference from ismcts-v2 with a 95% interval (normal approximation over the
per-deal differences of the deals both played), and the share of the gap to the ceiling
it closes. Writes legends_grid.json, .md and .png under benchmarks/results/ (or --out)
after every team-cell, so a run cut short keeps what it finished and a rerun resumes
(an entry is kept when its games, seed, iterations and model match).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai.core import Limits
from hzai.core.bot import wilson_interval
from hzai.games.legends.game import DEFAULT_HEROES
from hzai.search.arena import run_team

from benchmarks import harness
from benchmarks.legends_learned import decision_time

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 800000
TEAMS = ("random", "heuristic", "ismcts-v2", "ismcts", "all-seeing")
LEARNED, TODAY, CEILING = "ismcts", "ismcts-v2", "all-seeing"
SPECS = {"random": ("random", False), "heuristic": ("heuristic", False), TODAY: (TODAY, False),
         LEARNED: (LEARNED, False), CEILING: (TODAY, True)}
TARGET = {"missions": (1, 3, 5), "seats": (2, 4), "difficulty": "human", "gain": 0.10}
MISSIONS = tuple(range(1, 13))


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, not {text!r}") from None


def is_target(mission: int, seats: int, difficulty: str) -> bool:
    return mission in TARGET["missions"] and seats in TARGET["seats"] and difficulty == TARGET["difficulty"]


def team_plan(args, iterations: dict) -> list[dict]:
    """Every team-cell to play: the target cells first (their figures matter most), then
    the rest of the grid, each cell's teams cheap ones first."""
    plan = []
    for mission in args.missions:
        for seats in args.seats:
            for difficulty in args.difficulties:
                target = is_target(mission, seats, difficulty)
                for team in args.teams:
                    if team in ("random", "heuristic"):
                        games, its = args.games, 1
                    elif team == CEILING:
                        games, its = args.ceiling_games, iterations[TODAY]
                    else:
                        games, its = (args.search_games if target else args.other_games), iterations[team]
                    if games > 0:
                        plan.append({"mission": mission, "seats": seats, "difficulty": difficulty, "team": team,
                                     "games": games, "iterations": its, "seed": args.seed, "target": target})
    return sorted(plan, key=lambda e: not e["target"])


def play(entry: dict, jobs: int, model: str) -> dict:
    spec, all_seeing = SPECS[entry["team"]]
    spec = entry.get("spec") or spec  # the learned team's spec (--learned)
    params = {"mission": entry["mission"], "heroes": list(DEFAULT_HEROES[:entry["seats"]]),
              "difficulty": entry["difficulty"]}
    started = time.time()
    result = run_team(spec, entry["games"], Limits(iterations=entry["iterations"]), entry["seed"], params,
                      all_seeing=all_seeing, jobs=jobs)
    by_index = {r.index: r for r in result.results}
    wins = [int(by_index[i].won) if i in by_index else None for i in range(entry["games"])]
    return {**entry, "model": model if entry["team"] == LEARNED else None, "wins": wins,
            "ms_per_decision": result.ms_per_decision, "seconds": round(time.time() - started, 1)}


def _same(a: dict, b: dict) -> bool:
    keys = ("mission", "seats", "difficulty", "team", "games", "seed", "iterations", "model")
    return all(a.get(k) == b.get(k) for k in keys) and _spec(a) == _spec(b)


def _spec(entry: dict) -> str | None:
    """The learned team's bot spec (an entry made before --learned has none: `ismcts`)."""
    return (entry.get("spec") or LEARNED) if entry["team"] == LEARNED else None


def share(entry: dict) -> tuple[float, float, float, int]:
    played = [w for w in entry["wins"] if w is not None]
    n = len(played)
    low, high = wilson_interval(sum(played), n)
    return (sum(played) / n if n else 0.0), low, high, n


def cell_rows(entries: list[dict]) -> list[dict]:
    """One row a cell: each team's entry, the paired difference and the gap closed."""
    cells: dict = {}
    for e in entries:
        cells.setdefault((e["mission"], e["seats"], e["difficulty"]), {})[e["team"]] = e
    rows = []
    for key in sorted(cells, key=lambda k: (k[0], k[1], k[2] != "human")):
        teams = cells[key]
        row = {"mission": key[0], "seats": key[1], "difficulty": key[2], "teams": teams,
               "target": is_target(*key), "difference": None, "gap_closed": None}
        a, b = teams.get(LEARNED), teams.get(TODAY)
        if a is not None and b is not None:
            both = [i for i in range(min(a["games"], b["games"])) if a["wins"][i] is not None and b["wins"][i] is not None]
            if len(both) > 1:
                mean, low, high = harness.paired_difference([a["wins"][i] for i in both],
                                                            [b["wins"][i] for i in both])
                row["difference"] = {"mean": mean, "ci95": [low, high], "paired_games": len(both)}
            ceiling = teams.get(CEILING)
            if ceiling is not None:
                gap = share(ceiling)[0] - share(b)[0]
                if gap > 0:
                    row["gap_closed"] = (share(a)[0] - share(b)[0]) / gap
        rows.append(row)
    return rows


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(entries: list[dict], meta: dict) -> str:
    rows = cell_rows(entries)
    lines = ["# Legends of Hellas: the strength grid (issue 32)", "",
             f"Command: `{meta['command']}`", "",
             f"Model: {meta['model']}; the learned team is `{meta.get('learned', LEARNED)}`. Equal time: {meta['ms']} ms a decision, from each team's rate measured on one "
             f"core ({meta['iterations'][LEARNED]} iterations for ismcts, {meta['iterations'][TODAY]} for ismcts-v2 "
             f"and the all-seeing ceiling). Deals: seed {meta['seed']} + game index, the same for every team of a cell. "
             f"Machine: {harness.machine_text(meta['machine'])}; two cores shared with other work, so the ms figures are rough.", "",
             "Each team's win rate, its games in brackets; difference: ismcts − ismcts-v2 over the deals both played, "
             "with its 95% interval; gap closed: that difference over (ceiling − ismcts-v2), where the ceiling is "
             "above ismcts-v2.", "",
             "| mission | seats | difficulty | random | heuristic | ismcts-v2 | ismcts (learned) | all-seeing | "
             "difference | 95% (paired) | gap closed |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cols = []
        for team in TEAMS:
            e = r["teams"].get(team)
            if e is None:
                cols.append("")
                continue
            s, low, high, n = share(e)
            cols.append(f"{_pct(s)} [{_pct(low)}–{_pct(high)}] ({n})")
        d = r["difference"]
        diff = (f"{100 * d['mean']:+.1f} pts", f"{100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f}") if d else ("", "")
        gap = "" if r["gap_closed"] is None else f"{100 * r['gap_closed']:.0f}%"
        mark = " **(target)**" if r["target"] else ""
        lines.append(f"| {r['mission']}{mark} | {r['seats']} | {r['difficulty']} | " + " | ".join(cols)
                     + f" | {diff[0]} | {diff[1]} | {gap} |")
    lines += ["", f"## Targets", "",
              f"1. The learned team ≥ ismcts-v2 + {100 * TARGET['gain']:.0f} points on missions 1, 3 and 5 with 2 and 4 "
              "seats (human) at equal time, 200 games a cell. A cell is met when the difference is at least 10 points "
              "and its paired interval's lower end is above 0:", ""]
    for r in rows:
        d = r["difference"]
        if not r["target"] or d is None:
            continue
        met = d["mean"] >= TARGET["gain"] and d["ci95"][0] > 0
        lines.append(f"   - mission {r['mission']}, {r['seats']} seats ({d['paired_games']} paired games): "
                     f"{100 * d['mean']:+.1f} points [{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}]: "
                     f"**{'met' if met else 'missed'}**")
    worse = [r for r in rows if r["difference"] is not None and r["difference"]["ci95"][1] < 0]
    compared = [r for r in rows if r["difference"] is not None]
    lines += ["", f"2. Not worse on any cell (worse: the paired interval wholly below 0): {len(compared)} cells compared, "
                  f"{len(worse)} worse" + (": " + "; ".join(f"mission {r['mission']}, {r['seats']} seats, "
                                                          f"{r['difficulty']} ({100 * r['difference']['mean']:+.1f})"
                                                          for r in worse) if worse else "") + "."]
    closed = [r["gap_closed"] for r in rows if r["gap_closed"] is not None]
    if closed:
        lines += ["", f"3. Share of the gap to the all-seeing ceiling closed: median {100 * sorted(closed)[len(closed) // 2]:.0f}% "
                      f"over {len(closed)} cells where the ceiling is above ismcts-v2 (per cell in the table)."]
    return "\n".join(lines) + "\n"


def plot(entries: list[dict], path: Path) -> bool:
    plt = harness.pyplot()
    if plt is None:
        return False
    panels = sorted({(e["seats"], e["difficulty"]) for e in entries}, key=lambda p: (p[1] != "human", p[0]))
    if not panels:
        return False
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.2), squeeze=False)
    for ax, (seats, difficulty) in zip(axes[0], panels):
        for team, marker in zip(TEAMS, "xovs^"):
            points = sorted((e for e in entries if e["team"] == team and e["seats"] == seats
                             and e["difficulty"] == difficulty), key=lambda e: e["mission"])
            if not points:
                continue
            stats = [share(e) for e in points]
            xs = [e["mission"] + 0.08 * (TEAMS.index(team) - 2) for e in points]
            ys = [s[0] for s in stats]
            err = [[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]]
            ax.errorbar(xs, ys, yerr=err, marker=marker, capsize=2, linewidth=1, label=team)
        ax.set_title(f"{seats} seats, {difficulty}")
        ax.set_xlabel("mission")
        ax.set_ylabel("team win rate (95% interval)")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xticks(MISSIONS)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Legends of Hellas: win rate by mission and team (equal time for the searched teams)")
    fig.tight_layout()
    harness.save_plot(fig, path, dpi=100)
    return True


def write(out: Path, meta: dict, entries: list[dict]) -> None:
    harness.write_json(out / "legends_grid.json", {"meta": meta, "entries": entries})
    (out / "legends_grid.md").write_text(markdown(entries, meta))


def merge(paths: list[str], out: Path) -> int:
    """One report from several runs' JSON (parts of the grid played apart): an entry
    played in more than one run counts once, the run with the most games."""
    runs = []
    for p in paths:
        try:
            runs.append(json.loads(Path(p).read_text()))
        except (OSError, ValueError) as exc:
            print(f"--merge: cannot read {p}: {exc}", file=sys.stderr)
            return 2
    kept: dict = {}
    for run in runs:
        for e in run["entries"]:
            key = (e["mission"], e["seats"], e["difficulty"], e["team"])
            if key not in kept or e["games"] >= kept[key]["games"]:
                kept[key] = e
    meta = {**runs[0]["meta"], "command": " ; ".join(r["meta"]["command"] for r in runs)}
    out.mkdir(parents=True, exist_ok=True)
    entries = list(kept.values())
    write(out, meta, entries)
    plot(entries, out / "legends_grid.png")
    print(markdown(entries, meta))
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--missions", type=_ints, default=list(MISSIONS), help="e.g. 1,3,5 (default 1-12)")
    p.add_argument("--seats", type=_ints, default=[2, 4], help="seat counts (default 2,4)")
    p.add_argument("--difficulties", default="human,godlike", help="of human, godlike")
    p.add_argument("--teams", default=",".join(TEAMS), help=f"of {', '.join(TEAMS)}")
    p.add_argument("--games", type=int, default=200, help="games a cell of random and heuristic (default 200)")
    p.add_argument("--search-games", type=int, default=200,
                   help="games a target cell of ismcts and ismcts-v2 (default 200)")
    p.add_argument("--other-games", type=int, default=30, help="games of the searched teams elsewhere (default 30)")
    p.add_argument("--ceiling-games", type=int, default=20, help="games a cell of the all-seeing team (default 20)")
    p.add_argument("--ms", type=float, default=5.0, help="equal time: ms a decision (default 5)")
    p.add_argument("--rate-iterations", type=int, default=150, help="the budget the rates are measured at")
    p.add_argument("--iterations", type=_ints, default=None, metavar="LEARNED,TODAY",
                   help="the two searched teams' iterations a decision, as measured before (e.g. 211,234 for "
                        "5 ms): skips measuring the rates, which a busy machine would get wrong")
    p.add_argument("--jobs", type=int, default=2, help="threads of the native arena (default 2)")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--model", metavar="FILE", help="the learned team searches with this model file instead of the "
                                                   "shipped one (a candidate's evaluation; its entries are its own)")
    p.add_argument("--learned", default=LEARNED, metavar="SPEC",
                   help="the learned team's bot spec (default ismcts), e.g. ismcts:cards=1 for the card model's "
                        "beliefs; give its own --iterations for equal time")
    p.add_argument("--merge", nargs="+", metavar="JSON", help="play nothing: join these runs into one report in --out")
    args = p.parse_args(argv)
    out = Path(args.out)
    if args.merge:
        return merge(args.merge, out)
    args.difficulties = [d.strip() for d in args.difficulties.split(",") if d.strip()]
    args.teams = [t.strip() for t in args.teams.split(",") if t.strip()]
    bad = [t for t in args.teams if t not in TEAMS]
    if bad:
        p.error(f"--teams: unknown team {bad[0]!r}; teams: {', '.join(TEAMS)}")
    bad = [d for d in args.difficulties if d not in ("human", "godlike")]
    if bad:
        p.error(f"--difficulties: unknown difficulty {bad[0]!r}; give human, godlike")
    bad = [m for m in args.missions if m not in MISSIONS] + [s for s in args.seats if not 1 <= s <= 5]
    if bad:
        p.error(f"--missions are 1..12 and --seats 1..5; {bad[0]} is neither")
    if args.ms <= 0 or min(args.games, args.search_games, args.other_games, args.ceiling_games) < 0:
        p.error("--ms must be > 0 and the game counts ≥ 0")
    from hzai.core.registry import make_game
    from hzai.native.model import read, shipped_path

    if args.model is not None:
        if not Path(args.model).is_file():
            p.error(f"--model: no file {args.model}")
        from hzai.games.legends.parts import LegendsModel

        LegendsModel.file = Path(args.model).resolve()  # this process only: every search finds it as shipped

    path = shipped_path(make_game("legends"))
    if path is None:
        print("no learned Legends model (hzai/games/legends/models/legends.npz)", file=sys.stderr)
        return 2
    model = read(path).model_id
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "legends_grid.json"
    old = json.loads(json_path.read_text()) if json_path.exists() else {"meta": {}, "entries": []}
    timing = old["meta"].get("timing")
    if args.iterations is not None:
        if len(args.iterations) != 2 or min(args.iterations) < 1:
            p.error("--iterations takes two numbers ≥ 1: the learned team's and ismcts-v2's, e.g. 211,234")
        timing = {"iterations": args.rate_iterations, "given": True,
                  "iterations_per_ms": {LEARNED: args.iterations[0] / args.ms, TODAY: args.iterations[1] / args.ms}}
    elif timing is None or timing["iterations"] != args.rate_iterations or old["meta"].get("ms") != args.ms:
        print(f"measuring each team's iterations a ms at {args.rate_iterations} iterations ...", file=sys.stderr)
        timing = decision_time(args.rate_iterations)
    iterations = {t: max(1, round(args.ms * timing["iterations_per_ms"][t])) for t in (LEARNED, TODAY)}
    meta = {"command": harness.command("legends_grid", argv),
            "model": model, "learned": args.learned, "seed": args.seed, "ms": args.ms, "timing": timing,
            "iterations": iterations,
            "jobs": args.jobs, "machine": harness.machine()}
    entries = list(old["entries"])
    plan = team_plan(args, iterations)
    started = time.time()
    for n, entry in enumerate(plan, 1):
        label = f"[{n}/{len(plan)}] mission {entry['mission']}, {entry['seats']} seats, {entry['difficulty']}, {entry['team']}"
        if entry["team"] == LEARNED and args.learned != LEARNED:
            entry["spec"] = args.learned
        probe = {**entry, "model": model if entry["team"] == LEARNED else None}
        if any(_same(e, probe) for e in entries):
            print(f"{label}: kept from the last run", file=sys.stderr)
            continue
        print(f"{label}: {entry['games']} games at {entry['iterations']} iterations ...", file=sys.stderr, flush=True)
        done = play(entry, args.jobs, model)
        entries = [e for e in entries if (e["mission"], e["seats"], e["difficulty"], e["team"])
                   != (done["mission"], done["seats"], done["difficulty"], done["team"])] + [done]
        s, low, high, games = share(done)
        print(f"  won {_pct(s)} [{_pct(low)}–{_pct(high)}] of {games}, {done['ms_per_decision']:.1f} ms a decision, "
              f"{done['seconds']:.0f} s (run {time.time() - started:.0f} s)", file=sys.stderr, flush=True)
        write(out, meta, entries)
    write(out, meta, entries)
    plotted = plot(entries, out / "legends_grid.png")
    print(markdown(entries, meta))
    print(f"written: {json_path}, .md" + (", .png" if plotted else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
