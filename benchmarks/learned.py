"""The learned search's figures (issue: a bot that learns): speed, strength at equal time,
the ablation, the hostage head's calibration and the analysis' stability.

    python -m benchmarks.learned speed
    python -m benchmarks.learned strength --a ismcts --b ismcts-v2 --ms 100 --pairs 100
    python -m benchmarks.learned strength --a ismcts --b ismcts-v2 --ms 100 --ms-b 400 --pairs 50
    python -m benchmarks.learned ablation --games 400 --budget 200
    python -m benchmarks.learned hostage --games 60
    python -m benchmarks.learned stability --positions 100 --ms 1000
    python -m benchmarks.learned stability --positions 40 --iterations 70000 --replicas 1 --tag r1
    python -m benchmarks.learned judge --positions 60   # the levels' single moves, judged by a deeper search
    python -m benchmarks.learned table          # learned.md from every result file there is

Each part writes benchmarks/results/learned_<part>[_<tag>].json; `table` gathers them into
learned.md with the issue's targets, met or missed. Strength: paired deals (deal k played
twice, seats swapped), seeds from 800000 (never trained on: self-play used 0..306000,
the training matches 900000..), 95% intervals over the pairs. Every part takes --seed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def _write(name: str, data: dict, out: Path) -> Path:
    path = harness.write_json(out / f"learned_{name}.json", data)
    print(json.dumps(data if len(json.dumps(data)) < 2000 else {k: data[k] for k in list(data)[:12]}, indent=1))
    return path


def _command(argv) -> str:
    return harness.command("learned", argv)


def _positions(count: int, seed: int, min_turn: int = 4):
    """Mid-game positions of games between light bots (state, seat to move), deal seed+i."""
    from hzai.core import make_game
    from hzai.rng import SplitMix64
    from hzai.search import Limits, make_bot

    game = make_game("hera_zeus")
    bot = make_bot("light")
    out = []
    i = 0
    while len(out) < count:
        state = game.new_state(seed + i)
        rng = SplitMix64(seed + i)
        stop_at = min_turn + rng.below(14)
        moves = 0
        while not state.is_terminal and state.turn < stop_at:
            if state.is_chance:
                state.apply(game.search.draw_chance(state, rng))
                continue
            state.apply(bot.decide(state.view(state.current_seat), Limits(iterations=1), seed + moves).move)
            moves += 1
        if not state.is_terminal and not state.is_chance:
            out.append(state)
        i += 1
    return game, out


# ----- speed --------------------------------------------------------------------------
def speed(args) -> dict:
    from hzai import _native
    from hzai.core import make_game
    from hzai.learn.selfplay import SelfplayConfig, play_shard
    from hzai.native.model import model_path, load_cached
    from hzai.games.hera_zeus.native.state import NativeState
    from hzai.search.ismcts import DEFAULT_CPUCT, DEFAULT_MIX, search_view

    game = make_game("hera_zeus")
    path = model_path("hera_zeus", args.model)
    if path is None:
        raise SystemExit("speed needs a model (--model shipped or a file)")
    weights, model = load_cached(game, path)
    _, states = _positions(args.positions, args.seed)
    per_eval = []
    for state in states:
        ns, _ = model.time_values(NativeState.from_state(state).core, args.evals)
        per_eval.append(ns)
    rates = {"unguided": [], "value+policy": [], "value+policy+cards": []}
    for state in states:
        view = state.view(state.current_seat)
        spec = search_view(view)
        for label in rates:
            o = _native.SearchOptions(seed=1)
            native = game.search.native
            s = native.search(model.card_view(native, spec, 200, 1) if "cards" in label else spec, o)
            if label != "unguided":  # the default bot's settings
                s.set_model(model, True, True, DEFAULT_CPUCT, DEFAULT_MIX)
            start = time.perf_counter()
            s.run(args.iterations, -1.0)
            rates[label].append(args.iterations / (time.perf_counter() - start))
    sp = {}
    for label, model_file in (("unguided", None), ("guided", path)):
        config = SelfplayConfig("hera_zeus", games=args.games, budget=200, seed=args.seed, shard=args.games)
        start = time.perf_counter()
        play_shard(config, 0, 2, model_file)
        sp[label] = round(args.games / (time.perf_counter() - start) * 3600, 1)
    median_rates = {k: round(statistics.median(v), 1) for k, v in rates.items()}
    return {"model": weights.model_id, "value_eval_ns_median": round(statistics.median(per_eval), 1),
            "value_eval_ns": [round(x, 1) for x in per_eval], "iterations_per_s_median": median_rates,
            "guided_over_unguided": round(median_rates["value+policy"] / median_rates["unguided"], 3),
            "selfplay_games_per_hour_2_threads_budget_200": sp, "positions": len(states),
            "iterations_per_search": args.iterations, "cpu": os.cpu_count(), "load": os.getloadavg()[0]}


# ----- strength at wall-time budgets, paired deals --------------------------------------
def _pair(job):
    from hzai.search import Limits

    a, b, deal, k, ms_a, ms_b, model = job
    if model:  # this worker only: `ismcts` reads this file as the game's kept model (a candidate)
        from hzai.core import make_game

        type(make_game("hera_zeus").model).file = Path(model).resolve()
    played = harness.play_pair(a, b, deal, Limits(millis=ms_a), limits_b=Limits(millis=ms_b))
    return k, sum(r.a_points for r in played) / 2, [r.think_seconds for r in played], [r.decisions for r in played]


def strength(args) -> dict:
    ms_b = args.ms_b or args.ms
    jobs = [(args.a, args.b, args.seed + k, k, args.ms, ms_b, args.model) for k in range(args.pairs)]
    think = {"A": 0.0, "B": 0.0}
    decisions = {"A": 0, "B": 0}

    def count(thinks, decs) -> None:
        for t, d in zip(thinks, decs):
            for who in ("A", "B"):
                think[who] += t[who]
                decisions[who] += d[who]

    played = harness.paired_match(_pair, jobs, args.jobs, on_pair=count)
    mean, low, high = played.interval()
    return {"a": args.a, "b": args.b, "ms_a": args.ms, "ms_b": ms_b, "games": played.games, "seed": args.seed,
            "model": args.model or "shipped", "command": harness.command("learned"),
            "score_a": round(mean, 4), "low": round(low, 4), "high": round(high, 4),
            "ms_per_decision": {w: round(1000 * think[w] / max(1, decisions[w]), 1) for w in think},
            "seconds": round(played.seconds, 1), "jobs": args.jobs, "pair_scores": played.pair_scores()}


def pooled(runs: list[dict]) -> dict:
    """Runs of one match on disjoint deals as one: the games' mean score, and a 95%
    interval from the runs' standard errors (each read back from its interval) weighted
    by their games."""
    games = sum(r["games"] for r in runs)
    mean = sum(r["score_a"] * r["games"] for r in runs) / games
    se = sum((r["games"] * (r["high"] - r["low"]) / (2 * harness.Z95)) ** 2 for r in runs) ** 0.5 / games
    return {"score_a": mean, "low": mean - harness.Z95 * se, "high": mean + harness.Z95 * se, "games": games}


# ----- ablation at equal iterations, native arena -------------------------------------
def ablation(args) -> dict:
    from hzai.learn.match import match

    rows = []
    for label, side in (("all three", "shipped"), ("value alone", "shipped:policy=0,cards=0"),
                        ("policy alone", "shipped:value=0,cards=0"), ("cards alone", "shipped:value=0,policy=0")):
        r = match("hera_zeus", side, "none", args.games, args.budget, args.seed, args.jobs, quiet=True)
        r["label"] = label
        rows.append(r)
        print(f"{label}: {100 * r['score_a']:.1f}% [{100 * r['low']:.1f}-{100 * r['high']:.1f}]", file=sys.stderr)
    return {"budget": args.budget, "games": args.games, "seed": args.seed, "against": "the unguided search (none)",
            "rows": rows}


# ----- hostage calibration --------------------------------------------------------------
def hostage(args) -> dict:
    from benchmarks import calibration as cal
    from hzai.core import make_game
    from hzai.games.hera_zeus.belief import view_of
    from hzai.games.hera_zeus.belief.inference import DEFAULT_TEMPERATURE
    from hzai.games.hera_zeus.belief.report import hostage_location
    from hzai.native.model import load_cached, model_path
    from hzai.rng import mix_seed
    from hzai.search import make_bot

    game = make_game("hera_zeus")
    weights, model = load_cached(game, model_path("hera_zeus", args.model))
    bot = make_bot(cal.SELF_PLAY)
    rows = []
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        for state in cal.scored_positions(game, seed, args.budget, bot):
            p = state.current_seat
            view = view_of(state, p)  # the seat to decide: the head reads that seat's view
            preds = cal.predictions(view, [DEFAULT_TEMPERATURE], args.samples, mix_seed(seed, state.turn))
            support = {k for k, v in preds["uniform"].items() if v > 0}
            preds["learned"] = cal.learned_hostage(game, model, view, support) or preds["uniform"]
            rows.append({"seed": seed, "turn": state.turn, "seat": p, "truth": hostage_location(state, 1 - p),
                         "predictions": preds})
        print(f"\r[{i + 1}/{args.games}] {len(rows)} positions {time.perf_counter() - started:.0f} s", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)
    keys = ["uniform", f"T={DEFAULT_TEMPERATURE:g}", "learned"]
    levels = {level: cal.bootstrap(rows, keys, level, 1000, args.seed) for level in ("group", "fine")}
    fine = levels["fine"]
    def better(metric):
        return round(1 - fine["learned"][metric] / fine["uniform"][metric], 4)
    return {"model": weights.model_id, "games": args.games, "positions": len(rows), "self_play": cal.SELF_PLAY,
            "budget": args.budget, "seeds": [args.seed, args.seed + args.games - 1], "from_turn": cal.FROM_TURN,
            "samples": args.samples, "levels": levels, "learned_brier_better_than_uniform": better("brier"),
            "learned_log_loss_better_than_uniform": better("log_loss")}


# ----- analysis stability ---------------------------------------------------------------
_POSITIONS: dict = {}


def _stability_job(job):
    """Position `index` of _positions(count, seed), rebuilt in the worker (a state holds
    the native game, which does not pickle), analysed once for each seed."""
    from hzai.search import Limits
    from hzai.search.ismcts import analyze

    index, count, seed, seeds, ms, iterations, replicas = job
    if (count, seed) not in _POSITIONS:
        _POSITIONS[(count, seed)] = _positions(count, seed, min_turn=6)[1]
    state = _POSITIONS[(count, seed)][index]
    view = state.view(state.current_seat)
    answers = []
    limits = Limits(iterations=iterations) if iterations else Limits(millis=ms)
    for s in seeds:
        a = analyze(view, limits, seed=s, replicas=replicas)
        best = a.moves[0]
        answers.append((str(best.move), best.value, best.ci_high - best.ci_low, a.iterations))
    return index, answers


def stability(args) -> dict:
    seeds = [1, 2, 3, 4]
    jobs = [(i, args.positions, args.seed, seeds, args.ms, args.iterations, args.replicas)
            for i in range(args.positions)]
    rows = {}
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for i, answers in pool.imap_unordered(_stability_job, jobs):
            rows[i] = answers
            print(f"\r{len(rows)}/{len(jobs)} positions {time.perf_counter() - started:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    same = sum(1 for a in rows.values() if len({m for m, *_ in a}) == 1)
    # the reported interval against the spread of the best move's value across seeds
    wide_enough = 0
    widths, spreads = [], []
    for a in rows.values():
        values = [v for _, v, _, _ in a]
        spread = max(values) - min(values)
        width = statistics.median(w for _, _, w, _ in a)
        widths.append(width)
        spreads.append(spread)
        wide_enough += width >= spread
    return {"positions": len(rows), "ms": args.ms, "seeds": seeds, "same_best_move": same,
            "same_best_move_share": round(same / len(rows), 4), "interval_at_least_spread": wide_enough,
            "interval_at_least_spread_share": round(wide_enough / len(rows), 4),
            "median_interval_width": round(statistics.median(widths), 4),
            "median_value_spread": round(statistics.median(spreads), 4),
            "median_iterations": statistics.median(x for a in rows.values() for *_, x in a),
            "iterations": args.iterations, "replicas": args.replicas,
            "seed": args.seed, "bot": "Analyze's default (the learned search)"}


# ----- the levels' single moves, judged by a deeper search -------------------------------
def judge(args) -> dict:
    """For each position: every move's value by a deeper unguided search (the judge), then
    the judged value of the move each level, the random bot and the best move would play.
    A level's single moves, not its games (the rating list is for those)."""
    from hzai.search import Limits, RandomBot, analyze
    from hzai.search.levels import MAX_LEVEL, LevelBot
    from hzai.rng import mix_seed

    _, states = _positions(args.positions, args.seed)
    players = ["random"] + [f"level {n}" for n in range(1, MAX_LEVEL + 1)]
    totals = dict.fromkeys(players + ["best move", "mean move"], 0.0)
    started = time.perf_counter()
    for i, state in enumerate(states):
        view = state.view(state.current_seat)
        values = {str(m.move): m.value for m in analyze(view, Limits(iterations=args.judge), seed=mix_seed(i, 7),
                                                        guide=None, replicas=1).moves}
        totals["best move"] += max(values.values())
        totals["mean move"] += sum(values.values()) / len(values)
        totals["random"] += values[str(RandomBot().decide(view, Limits(iterations=1), seed=i).move)]
        for n in range(1, MAX_LEVEL + 1):
            move = LevelBot(n).decide(view, Limits(iterations=args.budget), seed=i).move
            totals[f"level {n}"] += values[str(move)]
        print(f"\r{i + 1}/{len(states)} positions {time.perf_counter() - started:.0f} s", end="", file=sys.stderr,
              flush=True)
    print(file=sys.stderr)
    return {"positions": len(states), "judge_iterations": args.judge, "level_budget": args.budget, "seed": args.seed,
            "mean_judged_value": {k: round(v / len(states), 4) for k, v in totals.items()}}


# ----- the table ------------------------------------------------------------------------
def _one_second(r: dict) -> bool:
    """Whether a stability run searched the issue's 1 s a position (about 70k iterations)."""
    return r["iterations"] >= 70000 if r.get("iterations") else r["ms"] >= 1000


def _budget(r: dict) -> str:
    """A stability run's budget in words (an iteration budget, else its wall time)."""
    if r.get("iterations"):
        return f"{r['iterations']} iterations, {r.get('replicas', 1)} replica(s)"
    return f"{r['ms']} ms"



def table(out: Path) -> str:
    def load(name):
        path = out / f"learned_{name}.json"
        return json.loads(path.read_text()) if path.exists() else None

    def pct(r):
        return f"{100 * r['score_a']:.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}], {r['games']} games"

    lines = ["# The learned search: figures against the issue's targets", "",
             "Made by `python -m benchmarks.learned PART` (see its docstring); each row's file is "
             "`benchmarks/results/learned_<name>.json` and records the command's arguments.", "",
             "| target | figure | status |", "|---|---|---|"]

    def row(target, name, fig, ok):
        lines.append(f"| {target} | {fig} | {ok} |")

    runs = [x for x in (load("strength_v2_100"), load("strength_v2_100_b")) if x]
    r = (runs[0] if len(runs) == 1 else pooled(runs)) if runs else None
    row("learned vs `ismcts-v2`, 100 ms: ≥ 65%, lower bound > 62%, ≥ 1000 games", "strength_v2_100",
        (pct(r) + (f" (2 runs pooled: {'; '.join(pct(x) for x in runs)})" if len(runs) > 1 else "")) if r
        else "not measured",
        "not measured" if not r else ("met" if r["score_a"] >= 0.65 and r["low"] > 0.62 and r["games"] >= 1000
                                      else "missed"))
    r = load("strength_v2_400")
    row("learned at 100 ms vs `ismcts-v2` at 400 ms: ≥ 50%", "strength_v2_400", pct(r) if r else "not measured",
        "not measured" if not r else ("met" if r["score_a"] >= 0.5 else "missed"))
    r = load("strength_pimc_100")
    row("vs PIMC at 100 ms: ≥ 75%", "strength_pimc_100", pct(r) if r else "not measured",
        "not measured" if not r else ("met" if r["score_a"] >= 0.75 else "missed"))
    r = load("ceiling")
    row("closes ≥ 50% of the gap to the all-seeing bot at 100 ms", "ceiling",
        f"{100 * r['gap_closed']:.0f}% [{100 * r['gap_closed_ci95'][0]:.0f}–{100 * r['gap_closed_ci95'][1]:.0f}]"
        f", {r['default_vs_ceiling']['games']} games a match (learned_ceiling.md)" if r else "not measured",
        "not measured" if not r else ("met" if r["gap_closed"] >= 0.5 else "missed"))
    r = load("hostage")
    row("hostage: log-loss and Brier ≥ 25% better than uniform from turn 10 on", "hostage",
        f"Brier {100 * r['learned_brier_better_than_uniform']:+.1f}%, log-loss "
        f"{100 * r['learned_log_loss_better_than_uniform']:+.1f}% ({r['positions']} positions)" if r else "not measured",
        "not measured" if not r else ("met" if min(r["learned_brier_better_than_uniform"],
                                                   r["learned_log_loss_better_than_uniform"]) >= 0.25 else "missed"))
    r = load("stability")
    row("analysis: same best move for 4 seeds at 1 s in ≥ 80% of positions", "stability",
        f"{100 * r['same_best_move_share']:.1f}% of {r['positions']} at {_budget(r)}" if r else "not measured",
        "not measured" if not r else ("met" if r["same_best_move_share"] >= 0.8 and r["positions"] >= 200
                                      and _one_second(r) else "missed"))
    if r:
        row("analysis: the interval at least as wide as the value's spread across seeds", "stability",
            f"{100 * r['interval_at_least_spread_share']:.1f}% of positions (median width "
            f"{r['median_interval_width']:.3f}, spread {r['median_value_spread']:.3f})",
            "met" if r["interval_at_least_spread_share"] >= 0.8 else "missed")
    r1 = load("stability_r1")
    if r and r1:
        row("(the same, one search as before the replicas)", "stability_r1",
            f"same best move {100 * r1['same_best_move_share']:.1f}%, interval ≥ spread in "
            f"{100 * r1['interval_at_least_spread_share']:.1f}% (width {r1['median_interval_width']:.3f}, spread "
            f"{r1['median_value_spread']:.3f}), {r1['positions']} positions at {_budget(r1)}", "before")
    r = load("speed")
    row("one model evaluation ≤ 3 µs on one core", "speed",
        f"{r['value_eval_ns_median'] / 1000:.2f} µs (value net, features included)" if r else "not measured",
        "not measured" if not r else ("met" if r["value_eval_ns_median"] <= 3000 else "missed"))
    if r:
        row("iterations a second with the models ≥ a third of today's", "speed",
            f"{r['iterations_per_s_median']['value+policy']:.0f} vs {r['iterations_per_s_median']['unguided']:.0f} "
            f"({r['guided_over_unguided']:.2f}×)", "met" if r["guided_over_unguided"] >= 1 / 3 else "missed")
        row("self-play throughput on 2 cores", "speed",
            f"{r['selfplay_games_per_hour_2_threads_budget_200']['guided']:.0f} games an hour guided, "
            f"{r['selfplay_games_per_hour_2_threads_budget_200']['unguided']:.0f} unguided (200 iterations)",
            "reported")
    r = load("ablation")
    if r:
        lines += ["", f"## Ablation at equal iterations ({r['budget']} a decision, against {r['against']})", "",
                  "| parts | score [95%] |", "|---|---|"]
        for x in r["rows"]:
            lines.append(f"| {x['label']} | {pct(x)} |")
    text = "\n".join(lines) + "\n"
    (out / "learned.md").write_text(text)
    return text


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python -m benchmarks.learned", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(RESULTS))
    sub = p.add_subparsers(dest="part", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--model", default="shipped")
    s.add_argument("--positions", type=int, default=20)
    s.add_argument("--evals", type=int, default=20000)
    s.add_argument("--iterations", type=int, default=3000)
    s.add_argument("--games", type=int, default=20)
    s.add_argument("--seed", type=int, default=810000)
    s = sub.add_parser("strength")
    s.add_argument("--a", default="ismcts")
    s.add_argument("--b", default="ismcts-v2")
    s.add_argument("--ms", type=int, default=100)
    s.add_argument("--ms-b", type=int)
    s.add_argument("--pairs", type=int, default=100)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--seed", type=int, default=800000)
    s.add_argument("--tag", required=True, help="the result file's name: learned_strength_TAG.json")
    s.add_argument("--model", default=None, help="a model file `ismcts` reads instead of the game's kept model "
                   "(a candidate, before it ships); ismcts-v3 and ismcts-v2 are unaffected")
    s = sub.add_parser("ablation")
    s.add_argument("--games", type=int, default=400)
    s.add_argument("--budget", type=int, default=200)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--seed", type=int, default=820000)
    s = sub.add_parser("hostage")
    s.add_argument("--model", default="shipped")
    s.add_argument("--games", type=int, default=60)
    s.add_argument("--budget", type=int, default=200)
    s.add_argument("--samples", type=int, default=400)
    s.add_argument("--seed", type=int, default=830000)
    s = sub.add_parser("stability")
    s.add_argument("--positions", type=int, default=100)
    s.add_argument("--ms", type=int, default=1000)
    s.add_argument("--iterations", type=int, default=0,
                   help="an iteration budget instead of --ms (the same work whatever the machine's load)")
    s.add_argument("--replicas", type=int, default=4, help="analysis replicas (1: the single search)")
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--seed", type=int, default=840000)
    s.add_argument("--tag", default="", help="the result file's name: learned_stability_TAG.json")
    s = sub.add_parser("judge")
    s.add_argument("--positions", type=int, default=60)
    s.add_argument("--judge", type=int, default=3000, help="the judge's iterations a position")
    s.add_argument("--budget", type=int, default=400, help="the levels' budget")
    s.add_argument("--seed", type=int, default=850000)
    sub.add_parser("table")
    args = p.parse_args(argv)
    out = Path(args.out)
    if args.part == "table":
        print(table(out))
        return 0
    data = globals()[args.part](args)
    data["command"] = _command(argv)
    _write(args.part + (f"_{args.tag}" if getattr(args, "tag", "") else ""), data, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
