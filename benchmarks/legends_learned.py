"""Legends of Hellas: the learned team (`ismcts`, the default: ISMCTS with the team value
at its leaves) against today's unguided ISMCTS team (`ismcts-v2`), on paired deals (cell
game i is dealt from seed + i for both teams), seeds never trained on (self-play used
100000-560000; these start at 700000).

    python -m benchmarks.legends_learned --games 50 --iterations 150 --jobs 2
    python -m benchmarks.legends_learned --games 100 --ms 10 --jobs 1

Equal iterations (--iterations), or equal time (--ms M): each team's iterations a
millisecond measured first on one core (two games of mission 1, 2 seats, at
--iterations), then each team plays M ms worth of its own iterations a decision (the
native arena plays iteration budgets: the games stay reproducible).

Reports per cell each team's win rate with its 95% Wilson interval, and the paired
difference with a 95% interval (normal approximation over the per-deal differences).
Also the time of one decision at --time-iterations on one core (single game, one job).
Writes legends_learned.json and .md under benchmarks/results/ (or --out) after each
cell, so a run cut short keeps what it finished; cells already in the JSON are kept.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from hzai.core import Limits
from hzai.core.registry import make_game
from hzai.games.legends.game import DEFAULT_HEROES

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 700000
TEAMS = ("ismcts", "ismcts-v2")  # the learned default, today's unguided search
LEARNED, TODAY = TEAMS


def team_games(team: str, params: dict, games: int, iterations: int, jobs: int, seed: int) -> list:
    """The team's games in the native arena, every one of them: a game the twin could
    not play through is an error (no deal is left out; the sampler finds a world for
    every view a game reaches)."""
    return harness.team_games(team, games, Limits(iterations=iterations), seed, params, jobs=jobs, native_only=True)


def play_cell(mission: int, seats: int, games: int, iterations: dict, jobs: int, seed: int) -> dict:
    params = {"mission": mission, "heroes": list(DEFAULT_HEROES[:seats])}
    row = {"mission": mission, "seats": seats, "games": games, "iterations": iterations[LEARNED], "seed": seed}
    played = {}
    for team in TEAMS:
        started = time.time()
        played[team] = team_games(team, params, games, iterations[team], jobs, seed)
        row[team] = {"seconds": round(time.time() - started, 1), "iterations": iterations[team]}
    row["paired_games"] = games
    for team in TEAMS:
        tally = harness.team_tally(played[team])
        row[team].update({k: tally[k] for k in ("won", "share", "ci95", "ms_per_decision")})
    wins = {team: [int(r.won) for r in played[team]] for team in TEAMS}
    mean, low, high = harness.paired_difference(wins[LEARNED], wins[TODAY])
    row["difference"] = {"mean": mean, "ci95": [low, high]}
    return row


def decision_time(iterations: int, games: int = 2) -> dict:
    """ms a decision of each team at `iterations`, one game at a time on one core
    (mission 1, 2 seats), and the iterations a ms that makes."""
    out, rate = {}, {}
    params = {"mission": 1, "heroes": list(DEFAULT_HEROES[:2])}
    for team in TEAMS:
        out[team] = harness.team_tally(team_games(team, params, games, iterations, 1, SEED + 99000))["ms_per_decision"]
        rate[team] = iterations / out[team] if out[team] > 0 else 0.0
    return {"iterations": iterations, "ms_per_decision": out, "iterations_per_ms": rate}


def markdown(rows: list[dict], meta: dict) -> str:
    def pct(x):
        return f"{100 * x:.1f}%"

    budget = f"equal time, {meta['ms']} ms a decision (iterations from each team's rate)" if meta.get("ms") else \
        "equal iterations a decision"
    lines = ["# Legends of Hellas: the learned team (ismcts) against today's ISMCTS team (ismcts-v2)", "",
             f"Command: `{meta['command']}`", "",
             f"Model: {meta['model']}; {budget}. Paired deals: cell game i is dealt from seed {meta['seed']} + i "
             f"for both teams (self-play used seeds below 600000). Machine: {harness.machine_text(meta['machine'])} (two cores shared "
             "with other work: the ms figures are rough).", "",
             "| mission | seats | iterations ismcts / v2 | paired games | ismcts | 95% | ismcts-v2 | 95% | difference "
             "| 95% (paired) | ms/decision ismcts / v2 |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        a, b, d = r[LEARNED], r[TODAY], r["difference"]
        lines.append(f"| {r['mission']} | {r['seats']} | {a['iterations']} / {b['iterations']} | {r['paired_games']} | "
                     f"{pct(a['share'])} | {pct(a['ci95'][0])}–{pct(a['ci95'][1])} | {pct(b['share'])} | "
                     f"{pct(b['ci95'][0])}–{pct(b['ci95'][1])} | {100 * d['mean']:+.1f} pts | "
                     f"{100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f} | "
                     f"{a['ms_per_decision']:.1f} / {b['ms_per_decision']:.1f} |")
    t = meta.get("timing")
    if t:
        lines += ["", f"One decision at {t['iterations']} iterations, one game at a time on one core (mission 1, "
                      f"2 seats): ismcts {t['ms_per_decision'][LEARNED]:.1f} ms, ismcts-v2 "
                      f"{t['ms_per_decision'][TODAY]:.1f} ms (target < 250 ms)."]
    lines += ["", "Target of issue 32: the learned team ≥ today's + 10 points on each of these cells at equal time "
                  "(200 games a cell). A row is met only when the difference is at least 10 points and the paired "
                  "interval's lower end is above 0:", ""]
    for r in rows:
        d = r["difference"]
        verdict = "met" if d["mean"] >= 0.10 and d["ci95"][0] > 0 else "missed"
        lines.append(f"- mission {r['mission']}, {r['seats']} seats ({r['paired_games']} paired games): "
                     f"{100 * d['mean']:+.1f} points [{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}]: "
                     f"**{verdict}**")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--missions", default="1,3,5")
    p.add_argument("--seats", default="2,4")
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--iterations", type=int, default=150)
    p.add_argument("--ms", type=float, default=0.0, help="equal time: ms a decision (0: equal iterations)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--time-iterations", type=int, default=1000, help="the decision-time check's budget (0: skip)")
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    if args.ms < 0 or args.games < 1 or args.iterations < 1:
        p.error("--ms must be ≥ 0, --games and --iterations ≥ 1")
    from hzai.native.model import read, shipped_path

    game = make_game("legends")
    path = shipped_path(game)
    if path is None:
        print("no learned Legends model (hzai/games/legends/models/legends.npz)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "legends_learned.json"
    old = json.loads(json_path.read_text()) if json_path.exists() else {}
    meta = {"command": harness.command("legends_learned", argv),
            "model": read(path).model_id, "seed": args.seed, "ms": args.ms,
            "jobs": args.jobs, "machine": harness.machine(),
            "timing": None}
    same = {k: old.get("meta", {}).get(k) for k in ("model", "ms")} == {"model": meta["model"], "ms": args.ms}
    rows = list(old.get("rows", [])) if same else []  # a run cut short resumes; another model or budget starts afresh
    if same and old["meta"].get("timing"):
        meta["timing"] = old["meta"]["timing"]
    if args.ms:
        if meta["timing"] is None or meta["timing"]["iterations"] != args.iterations:
            meta["timing"] = decision_time(args.iterations)
        iterations = {t: max(1, round(args.ms * meta["timing"]["iterations_per_ms"][t])) for t in TEAMS}
    else:
        iterations = {t: args.iterations for t in TEAMS}
    key = lambda r: (r["mission"], r["seats"], r["games"], r["seed"])  # noqa: E731
    for mission in [int(x) for x in args.missions.split(",")]:
        for seats in [int(x) for x in args.seats.split(",")]:
            if any(key(r) == (mission, seats, args.games, args.seed) for r in rows):
                continue
            row = play_cell(mission, seats, args.games, iterations, args.jobs, args.seed)
            rows.append(row)
            print(json.dumps(row), flush=True)
            harness.write_json(json_path, {"meta": meta, "rows": rows})
            (out / "legends_learned.md").write_text(markdown(rows, meta))
    if args.time_iterations and not args.ms:
        meta["timing"] = decision_time(args.time_iterations)
    harness.write_json(json_path, {"meta": meta, "rows": rows})
    (out / "legends_learned.md").write_text(markdown(rows, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
