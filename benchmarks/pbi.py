"""Policy-based inference (issue 43, item 2; docs/learning.md): what it costs a decision
and what it says about the opponent's hostage.

    python -m benchmarks.pbi cost [--games 6] [--pool 200]
    python -m benchmarks.pbi hostage [--games 20] [--budget 200] [--samples 400]
    python -m benchmarks.pbi match --a "ismcts:pbi=1" --b ismcts [--iterations 200] [--pairs 50]
    python -m benchmarks.pbi truth [--games 6]

cost: positions of self-play games of the default bot (`ismcts`, 200 iterations), the
seat to decide at each; the milliseconds of the card model's pool (`cards`, the
default's worlds) and of the same pool also weighted by the policy-based inference
(`cards+pbi`), the evidence included, on one thread; decisions scored, distinct
information sets evaluated and the pool's effective size.

hostage: benchmarks/calibration.py's positions (self-play of the uniform search, both
seats at the first decision of every turn from turn 10 on) with the policy-based
distribution of the opponent's hostage beside the uniform one, the hand-made opponent
model (T=2) and the hostage head, over the same worlds (`pbi`: the ratio to a uniform
player, the default; `pbi_likelihood`: the policy's likelihood itself); Brier and log-loss with 95%
intervals over games (calibration.bootstrap).

truth: how the true state scores against the worlds the seat draws: every third decision
of self-play games of `ismcts` (100 iterations, turns < 30) where the opponent's decisions
are scored, the true state's log-weight against a pool of 100 worlds of the view, for T
1 and 3 and both factors (ratio, likelihood): the share of the pool below the truth (0.5:
no information), the truth's weight over the pool's mean weight (log; > 0: the weighting
favours the truth) and the effective pool.

match: A against B at a fixed number of iterations a decision (the cost of the weighting
left out: what the weighted worlds themselves are worth), paired seat-swapped deals from
--seed, a 95% interval over the pairs (benchmarks.learned's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`

OUT = Path(__file__).parent / "results" / "pbi"


def cost(args) -> dict:
    from hzai.core import make_game
    from hzai.games.hera_zeus.native.policy_infer import evidence_of, policy_view
    from hzai.native.model import shipped_model
    from hzai.rng import SplitMix64, mix_seed
    from hzai.search import Limits, make_bot
    from hzai.search.ismcts import guided, default_guide

    game = make_game("hera_zeus")
    _, model = shipped_model(game)
    guide = default_guide(game)
    bot = make_bot("ismcts")
    rows = []
    for g in range(args.games):
        seed = args.seed + g
        state = game.new_state(seed)
        referee = SplitMix64(seed ^ 0xA7E4A)
        moves = 0
        while not state.is_terminal:
            if state.is_chance:
                state.apply(game.search.draw_chance(state, referee))
                continue
            p = state.current_seat
            view = state.view(p)
            if state.phase == "play":
                s = mix_seed(seed, moves)
                t0 = time.perf_counter()
                cards = guided(view, guide, s, args.pool)
                t1 = time.perf_counter()
                ev = evidence_of(view)
                t2 = time.perf_counter()
                weighted = policy_view(view, cards, model, args.pool, s)
                t3 = time.perf_counter()
                stats = getattr(weighted, "stats", None)
                rows.append({"turn": state.turn, "cards_ms": 1000 * (t1 - t0), "evidence_ms": 1000 * (t2 - t1),
                             "pbi_ms": 1000 * (t3 - t2), "decisions": ev.decisions if ev else 0,
                             "evaluations": stats["evaluations"] if stats else 0,
                             "effective_pool": stats["effective_pool"] if stats else float(args.pool),
                             "native_ms": stats["ms"] if stats else 0.0})
            state.apply(bot.decide(view, Limits(iterations=args.budget), mix_seed(seed, moves)).move)
            moves += 1
        print(f"\r[{g + 1}/{args.games}] {len(rows)} decisions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    scored = [r for r in rows if r["decisions"]]

    def mean(key, among=rows):
        return round(statistics.fmean(r[key] for r in among), 3) if among else None

    def median(key, among=rows):
        return round(statistics.median(r[key] for r in among), 3) if among else None

    return {"games": args.games, "seed": args.seed, "pool": args.pool, "budget": args.budget,
            "command": harness.command("pbi"), "decisions": len(rows),
            "with_evidence": len(scored),
            "ms": {"cards_mean": mean("cards_ms"), "evidence_mean": mean("evidence_ms"),
                   "pbi_mean": mean("pbi_ms"), "pbi_median": median("pbi_ms"),
                   "pbi_mean_with_evidence": mean("pbi_ms", scored), "native_mean_with_evidence": mean("native_ms", scored),
                   "evidence_mean_all": mean("evidence_ms")},
            "scored_decisions_mean": mean("decisions", scored),
            "evaluations_mean": mean("evaluations", scored),
            "effective_pool_mean": mean("effective_pool", scored),
            "effective_pool_median": median("effective_pool", scored)}


def hostage(args) -> dict:
    from benchmarks import calibration as cal
    from hzai.core import make_game
    from hzai.games.hera_zeus.belief.inference import DEFAULT_TEMPERATURE
    from hzai.games.hera_zeus.belief.report import hostage_location
    from hzai.games.hera_zeus.native.policy_infer import hostage_distribution
    from hzai.native.model import shipped_model
    from hzai.rng import mix_seed
    from hzai.search import make_bot

    game = make_game("hera_zeus")
    weights, model = shipped_model(game)
    bot = make_bot(cal.SELF_PLAY)
    rows = []
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        for state in cal.scored_positions(game, seed, args.budget, bot):
            for seat in (0, 1):
                view = game.search.view_of(state, seat)
                s = mix_seed(seed, state.turn, seat)
                preds = cal.predictions(view, [DEFAULT_TEMPERATURE], args.samples, s)
                pbi = hostage_distribution(view, model, args.samples, s, args.temperature, args.epsilon)
                preds["pbi"] = preds["uniform"] if pbi is None else pbi[0]
                plain = hostage_distribution(view, model, args.samples, s, args.temperature, args.epsilon, False)
                preds["pbi_likelihood"] = preds["uniform"] if plain is None else plain[0]
                support = {k for k, v in preds["uniform"].items() if v > 0}
                # the head reads the deciding seat's view (docs/learning.md)
                learned = cal.learned_hostage(game, model, view, support) if seat == state.current_seat else None
                preds["learned"] = learned or preds["uniform"]
                rows.append({"seed": seed, "turn": state.turn, "seat": seat,
                             "truth": hostage_location(state, 1 - seat), "scored": 0 if pbi is None else
                             pbi[1]["decisions"], "predictions": preds})
        print(f"\r[{i + 1}/{args.games}] {len(rows)} positions {time.perf_counter() - started:.0f} s", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)
    keys = ["uniform", f"T={DEFAULT_TEMPERATURE:g}", "learned", "pbi", "pbi_likelihood"]
    levels = {level: cal.bootstrap(rows, keys, level, 1000, args.seed) for level in ("group", "fine")}
    fine = levels["fine"]
    informed = [r for r in rows if r["scored"]]
    by_informed = cal.bootstrap(informed, keys, "fine", 1000, args.seed) if informed else None
    return {"model": weights.model_id, "games": args.games, "positions": len(rows),
            "positions_with_evidence": len(informed), "self_play": cal.SELF_PLAY, "budget": args.budget,
            "seeds": [args.seed, args.seed + args.games - 1], "from_turn": cal.FROM_TURN, "samples": args.samples,
            "temperature": args.temperature, "epsilon": args.epsilon,
            "command": harness.command("pbi"),
            "seconds": round(time.perf_counter() - started, 1), "levels": levels, "fine_with_evidence": by_informed,
            "pbi_log_loss_better_than_uniform": round(1 - fine["pbi"]["log_loss"] / fine["uniform"]["log_loss"], 4),
            "pbi_brier_better_than_uniform": round(1 - fine["pbi"]["brier"] / fine["uniform"]["brier"], 4),
            "pbi_likelihood_log_loss_better_than_uniform":
                round(1 - fine["pbi_likelihood"]["log_loss"] / fine["uniform"]["log_loss"], 4)}


def truth(args) -> dict:
    import math

    from hzai import _native
    from hzai.core import make_game
    from hzai.games.hera_zeus.native.policy_infer import evidence_of
    from hzai.games.hera_zeus.native.search import flat_view
    from hzai.games.hera_zeus.native.state import NativeState, native_game
    from hzai.native.model import shipped_model
    from hzai.rng import SplitMix64, mix_seed
    from hzai.search import Limits, make_bot

    game = make_game("hera_zeus")
    core = native_game(game)
    _, model = shipped_model(game)
    bot = make_bot("ismcts")
    settings = [(1.0, True), (1.0, False), (3.0, True), (3.0, False)]
    rows = {s: [] for s in settings}
    for g in range(args.games):
        seed = args.seed + g
        state = game.new_state(seed)
        referee = SplitMix64(seed ^ 1)
        k = 0
        while not state.is_terminal and state.turn < 30:
            if state.is_chance:
                state.apply(game.search.draw_chance(state, referee))
                continue
            view = game.search.view_of(state, state.current_seat)
            ev = evidence_of(view)
            if ev is not None and ev.decisions and state.phase == "play" and k % 3 == 0:
                spec = flat_view(view, game).copy()
                inference = _native.Inference()
                inference.side, inference.pool, inference.seed = 1 - view.seat, 100, seed + k
                spec.inference = inference
                worlds = _native.inference_pool(core, spec) + [NativeState.from_state(state).core]
                for t, ratio in settings:
                    logw, _ = _native.pbi_scores(model, ev, worlds, t, 0.25, 1, ratio)
                    true, pool = logw[-1], logw[:-1]
                    top = max(pool)
                    w = [math.exp(x - top) for x in pool]
                    rows[(t, ratio)].append((sum(x < true for x in pool) / len(pool),
                                             math.log(math.exp(true - top) / (sum(w) / len(w))),
                                             sum(w) ** 2 / sum(x * x for x in w)))
            state.apply(bot.decide(view, Limits(iterations=100), mix_seed(seed, k)).move)
            k += 1
        print(f"\r[{g + 1}/{args.games}]", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {"games": args.games, "seed": args.seed, "pool": 100,
            "command": harness.command("pbi"),
            "settings": [{"temperature": t, "factor": "ratio" if ratio else "likelihood", "positions": len(r),
                          "truth_rank": round(statistics.fmean(x[0] for x in r), 4),
                          "truth_log_gain": round(statistics.fmean(x[1] for x in r), 4),
                          "effective_pool": round(statistics.fmean(x[2] for x in r), 1)}
                         for (t, ratio), r in rows.items() if r]}


def _pair(job):
    from hzai.search import Limits

    a, b, deal, k, iterations = job
    return k, sum(r.a_points for r in harness.play_pair(a, b, deal, Limits(iterations=iterations))) / 2


def match(args) -> dict:
    jobs = [(args.a, args.b, args.seed + k, k, args.iterations) for k in range(args.pairs)]
    played = harness.paired_match(_pair, jobs, args.jobs)
    mean, low, high = played.interval()
    return {"a": args.a, "b": args.b, "iterations": args.iterations, "games": played.games, "seed": args.seed,
            "command": harness.command("pbi"), "score_a": round(mean, 4),
            "low": round(low, 4), "high": round(high, 4), "seconds": round(played.seconds, 1),
            "pair_scores": played.pair_scores()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.pbi", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cost")
    c.add_argument("--games", type=int, default=6)
    c.add_argument("--seed", type=int, default=950000)
    c.add_argument("--pool", type=int, default=200)
    c.add_argument("--budget", type=int, default=200)
    h = sub.add_parser("hostage")
    h.add_argument("--games", type=int, default=20)
    h.add_argument("--seed", type=int, default=7200)
    h.add_argument("--budget", type=int, default=200)
    h.add_argument("--samples", type=int, default=400)
    h.add_argument("--temperature", type=float, default=1.0)
    h.add_argument("--epsilon", type=float, default=0.25)
    tr = sub.add_parser("truth")
    tr.add_argument("--games", type=int, default=6)
    tr.add_argument("--seed", type=int, default=0)
    m = sub.add_parser("match")
    m.add_argument("--a", default="ismcts:pbi=1")
    m.add_argument("--b", default="ismcts")
    m.add_argument("--iterations", type=int, default=200)
    m.add_argument("--pairs", type=int, default=50)
    m.add_argument("--jobs", type=int, default=2)
    m.add_argument("--seed", type=int, default=800000)
    m.add_argument("--tag", default="", help="the result file's name: match_TAG.json")
    args = ap.parse_args(argv)
    report = {"cost": cost, "hostage": hostage, "match": match, "truth": truth}[args.what](args)
    out = harness.write_json(OUT / (f"match_{args.tag}.json" if args.what == "match" and args.tag else f"{args.what}.json"),
                             report)
    print(json.dumps({k: v for k, v in report.items() if k not in ("levels", "pair_scores")}, indent=1))
    print(f"written {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
