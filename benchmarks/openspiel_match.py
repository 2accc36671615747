"""Our ISMCTS against OpenSpiel's ISMCTS, on the same game (hzai.games.hera_zeus.openspiel).

    python -m benchmarks.openspiel_match --games 200 --iterations 100 --millis 100
    python -m benchmarks.openspiel_match --games 4 --iterations 20 --millis 20   # a smoke run
    python -m benchmarks.openspiel_match --settings b --reuse-a benchmarks/results/openspiel.json  # (b) again

Two settings, each over the same deals (game 2k and 2k+1 share a deal, with the seats
swapped):
  (a) equal iterations: both searches get `--iterations` per decision;
  (b) equal wall time: ours gets `--millis` per decision; OpenSpiel's bot has only an
      iteration budget, so before each search it gets round(millis / 1000 * r), r a
      moving average of its iterations per second over its recent searches in that
      game (whole searches timed, so the fixed cost of a search counts), starting from
      its speed in setting (a) (or `--os-ips`).
Ours is `make_bot("ismcts:infer=0")` (native SO-ISMCTS with the uniform belief, as both
searches sample worlds alike, c = 0.7, random playouts, one thread);
theirs is `open_spiel.python.algorithms.ismcts.ISMCTSBot` with
`mcts.RandomRolloutEvaluator(1)`, UCT c = `--uct-c` (2, OpenSpiel's usual value for
returns in [-1, 1]), the most visited move, and worlds drawn by the game's
`resample_from_infostate` from a seeded sampler. A decision with one legal move is
played without a search by both (OpenSpiel's bot does so itself) and is not counted.

Writes benchmarks/results/openspiel.json and openspiel.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from benchmarks import harness

CONCERN = "strength"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
OURS = "ismcts:infer=0"  # the uniform belief: both searches draw their worlds alike


def openspiel_bot(game, seed: int, index: int, uct_c: float, iterations: int):
    """OpenSpiel's ISMCTSBot for game `index` of a run seeded `seed`: random rollouts,
    UCT constant `uct_c`, worlds drawn by the game's resample_from_infostate, all from
    one seeded numpy generator."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    os_random = np.random.RandomState((seed * 1_000_003 + index) % 2**32)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, os_random), uct_c, iterations, random_state=os_random)
    bot.set_resampler(
        lambda st, pl: st.resample_from_infostate(pl, pyspiel.UniformProbabilitySampler(int(os_random.randint(2**31 - 1)), 0.0, 1.0))
    )
    return bot


def chance_step(state, rng) -> None:
    """One chance outcome of an OpenSpiel state, drawn by `rng` (a numpy RandomState)
    with the game's probabilities."""
    actions, probs = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(actions, p=probs)))


def dealt_state(game, deal_seed: int):
    """A new OpenSpiel state of `game` with its deal drawn from `deal_seed`."""
    import numpy as np

    dealer = np.random.RandomState(deal_seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        chance_step(state, dealer)
    return state


def play_game(index: int, seed: int, ours_iterations: int | None, ours_millis: int | None, os_iterations: int,
              uct_c: float, os_millis: int | None = None, ours_spec: str = OURS) -> dict:
    """One game. With `os_millis`, OpenSpiel's iteration budget follows its own speed
    in this game: before each search it gets os_millis x r, r a moving average of the
    iterations per second of its recent searches (whole searches timed, so the
    per-search overhead counts; each new search weighs half), starting from
    `os_iterations` per os_millis. Its speed changes as the game goes on (shorter
    rollouts, fewer moves), which a plain average over the game would lag behind."""
    import numpy as np

    from hzai.games.hera_zeus import openspiel
    from hzai.search import Limits, analyze, make_bot
    from hzai.rng import mix_seed

    game = openspiel.load_game()
    deal_seed = seed + index // 2
    ours = index % 2  # the seat of our bot: 0 hera, 1 zeus
    referee = np.random.RandomState(deal_seed ^ 0xA7E4A)  # Pegasus draws
    bot = openspiel_bot(game, seed, index, uct_c, os_iterations)
    ours_bot = make_bot(ours_spec)
    limits = Limits(iterations=ours_iterations, millis=ours_millis)
    state = dealt_state(game, deal_seed)
    stats = {"ours": [0, 0, 0.0], "openspiel": [0, 0, 0.0]}  # decisions, iterations, seconds
    rate = os_iterations / (os_millis / 1000) if os_millis else 0.0  # OpenSpiel's iterations per second
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, referee)
            continue
        player = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            moves += 1
            continue
        start = time.perf_counter()
        if player == ours:
            view = state.view(player)
            analysis = analyze(view, limits, mix_seed(deal_seed, moves),
                               exploration=ours_bot.exploration, playout=ours_bot.playout)
            by_text = {state.action_to_string(player, a): a for a in legal}
            action = by_text[view.game.move_text(analysis.best)]  # analysis holds Moves; OpenSpiel speaks text
            side, iterations = "ours", analysis.iterations
        else:
            iterations = os_iterations
            if os_millis is not None:
                iterations = max(2, round(os_millis / 1000 * rate))  # its first iteration only expands the root
            bot._max_simulations = iterations
            action = int(bot.step(state))
            side = "openspiel"
            if os_millis is not None:
                rate = 0.5 * rate + 0.5 * iterations / max(time.perf_counter() - start, 1e-6)
        elapsed = time.perf_counter() - start
        stats[side][0] += 1
        stats[side][1] += iterations
        stats[side][2] += elapsed
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    score = (returns[ours] + 1) / 2  # 1 win, 0.5 draw, 0 loss
    reason = json.loads(str(state))["reason"]
    return {"index": index, "deal_seed": deal_seed, "ours_seat": ("hera", "zeus")[ours], "score": score,
            "reason": reason, "moves": moves, "stats": stats}


def summarize(label: str, games: list[dict], budget: dict, seconds: float) -> dict:
    from hzai.search import wilson_interval

    games = sorted(games, key=lambda g: g["index"])
    n = len(games)
    wins = sum(1 for g in games if g["score"] == 1)
    draws = sum(1 for g in games if g["score"] == 0.5)
    score = wins + draws / 2
    low, high = wilson_interval(score, n)
    sides = {}
    for side in ("ours", "openspiel"):
        decisions = sum(g["stats"][side][0] for g in games)
        iterations = sum(g["stats"][side][1] for g in games)
        secs = sum(g["stats"][side][2] for g in games)
        sides[side] = {
            "decisions": decisions,
            "iterations_per_decision": iterations / decisions if decisions else 0.0,
            "ms_per_decision": 1000 * secs / decisions if decisions else 0.0,
            "iterations_per_second": iterations / secs if secs else 0.0,
        }
    return {
        "setting": label,
        "budget": budget,
        "games": n,
        "ours_wins": wins,
        "draws": draws,
        "ours_losses": n - wins - draws,
        "ours_score": score / n if n else 0.0,
        "ours_score_ci95": [low, high],
        "ours_wins_as_hera": sum(1 for g in games if g["ours_seat"] == "hera" and g["score"] == 1),
        "ours_wins_as_zeus": sum(1 for g in games if g["ours_seat"] == "zeus" and g["score"] == 1),
        "mean_moves": sum(g["moves"] for g in games) / n if n else 0.0,
        "sides": sides,
        "seconds": seconds,
        "results": games,
    }


def run_setting(label: str, games: int, seed: int, jobs: int, ours_iterations, ours_millis, os_iterations: int,
                uct_c: float, os_millis: int | None = None, on_game=None, ours_spec: str = OURS) -> dict:
    budget = {"ours_iterations": ours_iterations, "ours_millis": ours_millis,
              "openspiel_iterations": os_iterations if os_millis is None else f"{os_iterations} at first, then adapted",
              "openspiel_millis": os_millis}
    start = time.perf_counter()
    done: list[dict] = []
    args = [(i, seed, ours_iterations, ours_millis, os_iterations, uct_c, os_millis, ours_spec) for i in range(games)]

    def progress() -> None:
        part = summarize(label, done, budget, time.perf_counter() - start)
        if on_game is not None:
            on_game(part)
        low, high = part["ours_score_ci95"]
        sys.stderr.write(
            f"\r[{label}] {len(done)}/{games}: ours {part['ours_wins']} - {part['ours_losses']} (draws {part['draws']}), "
            f"score {part['ours_score']:.1%} [{low:.0%}..{high:.0%}], "
            f"it/s ours {part['sides']['ours']['iterations_per_second']:.0f} "
            f"openspiel {part['sides']['openspiel']['iterations_per_second']:.0f}, {part['seconds']:.0f}s   "
        )
        sys.stderr.flush()

    errors: list[str] = []

    def failed(index: int, exc: BaseException) -> None:
        # One broken game must not cost the whole run; it is reported, not scored.
        errors.append(f"game {index}: {type(exc).__name__}: {exc}")
        sys.stderr.write(f"\n[{label}] {errors[-1]}\n")

    if jobs == 1:
        for a in args:
            try:
                done.append(play_game(*a))
            except Exception as exc:  # noqa: BLE001
                failed(a[0], exc)
            progress()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_game, *a): a[0] for a in args}
            for future in as_completed(futures):
                try:
                    done.append(future.result())
                except Exception as exc:  # noqa: BLE001
                    failed(futures[future], exc)
                progress()
    sys.stderr.write("\n")
    result = summarize(label, done, budget, time.perf_counter() - start)
    result["errors"] = errors
    return result


def markdown(report: dict) -> str:
    lines = [
        "# Our ISMCTS vs OpenSpiel's ISMCTS",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {harness.machine_text(report['machine'])}; {report['jobs']} games at a time; deals seeded from {report['seed']}, "
        "each deal played twice with the seats swapped.",
        "",
        "| setting | games | ours wins | draws | ours losses | our score | 95% interval | ours: it/decision, ms/decision, it/s | OpenSpiel: it/decision, ms/decision, it/s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["settings"]:
        low, high = r["ours_score_ci95"]
        o, t = r["sides"]["ours"], r["sides"]["openspiel"]
        lines.append(
            f"| {r['setting']} | {r['games']} | {r['ours_wins']} | {r['draws']} | {r['ours_losses']} | "
            f"{r['ours_score']:.1%} | {low:.1%}–{high:.1%} | "
            f"{o['iterations_per_decision']:.0f}, {o['ms_per_decision']:.1f}, {o['iterations_per_second']:.0f} | "
            f"{t['iterations_per_decision']:.0f}, {t['ms_per_decision']:.1f}, {t['iterations_per_second']:.0f} |"
        )
    lines += ["", report["calibration"], "", report["notes"], ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per setting (even: each deal from both seats)")
    parser.add_argument("--iterations", type=int, default=100, help="setting (a): iterations per decision for both")
    parser.add_argument("--millis", type=int, default=100, help="setting (b): wall time per decision")
    parser.add_argument("--settings", default="ab", help="which settings to run: a, b or ab")
    parser.add_argument("--os-ips", type=float, default=None,
                        help="OpenSpiel's iterations per second for (b); default: measured in (a)")
    parser.add_argument("--reuse-a", default=None,
                        help="with --settings b: take setting (a) and its speed from this earlier result file")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's UCT constant")
    parser.add_argument("--ours", default=OURS,
                        help=f"our bot, a make_bot spec (default {OURS}, the uniform belief; plain ismcts infers)")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(RESULTS / "openspiel.json"))
    args = parser.parse_args(argv)

    report = {
        "command": harness.command("openspiel_match", argv),
        "machine": harness.machine(),
        "jobs": args.jobs,
        "seed": args.seed,
        "uct_c": args.uct_c,
        "settings": [],
        "calibration": "",
        "notes": "",
    }
    os_ips = args.os_ips
    calibration = f"OpenSpiel's iterations per second for (b) given: {os_ips}." if os_ips else ""
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    notes = (
        f"Ours: make_bot({args.ours!r}) (native SO-ISMCTS, c=0.7, random playouts, 1 thread). "
        f"OpenSpiel: ISMCTSBot + RandomRolloutEvaluator(1), uct_c={args.uct_c}, max-visit move, worlds from "
        "resample_from_infostate (the hzai.games.hera_zeus.belief determinization sampler). Forced moves (one legal action) are "
        "not searched and not counted. it/s = iterations / search seconds over all searched decisions."
    )

    def write(settings: list[dict], partial: bool) -> None:
        report["settings"] = settings
        report["calibration"] = calibration
        report["notes"] = notes + (" PARTIAL: a setting is still running." if partial else "")
        harness.write_json(out, report)
        out.with_suffix(".md").write_text(markdown(report))

    finished: list[dict] = []
    if "a" not in args.settings and args.reuse_a:
        # (a) from an earlier run of this script: its result and its speed for (b)
        earlier = json.loads(Path(args.reuse_a).read_text())
        a = next(r for r in earlier["settings"] if r["setting"].startswith("(a)"))
        finished.append(a)
        report["command"] = earlier["command"] + " ; then for (b): " + report["command"]
        if os_ips is None:
            os_ips = a["sides"]["openspiel"]["iterations_per_second"]
    if "a" in args.settings:
        a = run_setting(f"(a) equal iterations, {args.iterations} per decision", args.games, args.seed, args.jobs,
                        args.iterations, None, args.iterations, args.uct_c,
                        on_game=lambda part: write(finished + [part], True), ours_spec=args.ours)
        finished.append(a)
        if os_ips is None:
            os_ips = a["sides"]["openspiel"]["iterations_per_second"]
    if "b" in args.settings and os_ips is not None and finished and finished[0]["setting"].startswith("(a)"):
        a = finished[0]
        calibration = (
            f"Calibration of (b): OpenSpiel's bot reached {os_ips:.0f} iterations/s over its "
            f"{a['sides']['openspiel']['decisions']} searched decisions in (a) (whole searches timed, same machine, "
            f"{args.jobs} games at a time). In (b) each of its searches gets round({args.millis} ms × r) iterations, "
            f"r a moving average of its iterations/s over its recent searches in that game (whole searches timed, so "
            f"the fixed cost of a search counts; each new search weighs half), starting from {os_ips:.0f}/s; "
            f"the ms/decision column shows what it really spent."
        )
    if "b" in args.settings:
        if os_ips is None:
            parser.error("setting b alone needs --os-ips (or run a first)")
        os_iterations = max(2, round(args.millis / 1000 * os_ips))
        b = run_setting(f"(b) equal time, {args.millis} ms per decision", args.games, args.seed, args.jobs,
                        None, args.millis, os_iterations, args.uct_c, os_millis=args.millis,
                        on_game=lambda part: write(finished + [part], True), ours_spec=args.ours)
        finished.append(b)
    write(finished, False)
    for r in report["settings"]:
        low, high = r["ours_score_ci95"]
        print(f"{r['setting']}: our score {r['ours_score']:.1%} [{low:.1%}..{high:.1%}] over {r['games']} games; "
              f"it/s ours {r['sides']['ours']['iterations_per_second']:.0f}, "
              f"openspiel {r['sides']['openspiel']['iterations_per_second']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
