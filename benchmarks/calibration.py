"""Calibration of the hostage belief: inferred (opponent model) against uniform.

    python -m benchmarks.calibration --games 300            # about 10 minutes on one core
    python -m benchmarks.calibration --games 4 --out /tmp/x # a smoke run

Self-play games of `ismcts:infer=0` (the uniform search) against itself at a modest budget, a fresh deal per game.
At the first decision of every turn from turn 10 on, each seat in turn says where the
opponent's hostage is, from its own view: uniform (every world consistent with the view
alike) and inferred (worlds weighted by the opponent model of
hzai/games/hera_zeus/belief/inference.py, at each temperature asked), both over the same
`--samples` determinizations drawn by the native core. Scored against the truth:
- at the group level (deck / hand / field / discard) and at the fine level (deck, hand,
  discard, face up, each face-down slot cXrY);
- the Brier score (sum over locations of (p - truth)^2) and the log-loss (-ln p of the
  true location, p clipped at 1e-4), means over positions;
- 95% intervals by the bootstrap over games (positions of one game move together);
- a reliability plot of the group-level probabilities, uniform and inferred.
The issue's target: inferred Brier at least 20% below uniform from turn 10 on.

Writes calibration.json, calibration.md and (with matplotlib) calibration.png.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

from hzai import _native
from hzai.core import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.belief.inference import DEFAULT_TEMPERATURE, normalised_weights
from hzai.games.hera_zeus.belief.hostage import group_of
from hzai.games.hera_zeus.belief.report import hostage_location
from hzai.games.hera_zeus.native.state import native_game
from hzai.games.hera_zeus.native.inference import inference_spec
from hzai.rng import SplitMix64, mix_seed
from hzai.search import Limits, make_bot

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SELF_PLAY = "ismcts:infer=0"  # the uniform search: the games the model was set on
FROM_TURN = 10
CLIP = 1e-4
TARGET = 0.20  # the issue: Brier at least 20% better than uniform
BINS = 10


def location_name(code: int) -> str:
    """The native core's hostage location code (weighted_hostage) as the report writes it."""
    fixed = {0: "deck", 1: "hand", 2: "discard", 3: "face up"}
    if code in fixed:
        return fixed[code]
    c, r = divmod(code - 10, 4)
    return f"c{c + 1}r{r + 1}"


def predictions(view, temperatures, samples: int, seed: int) -> dict[str, dict[str, float]]:
    """'uniform' and 'T=<t>' -> location -> probability, over the same worlds."""
    core = native_game(view.game)
    out = {}
    for t in temperatures:
        spec = inference_spec(view, t, seed, pool=0)
        drawn = _native.weighted_hostage(core, spec, seed, samples)
        if "uniform" not in out:
            uniform: dict[str, float] = defaultdict(float)
            for _, code in drawn:
                uniform[location_name(code)] += 1 / samples
            out["uniform"] = dict(uniform)
        weights = normalised_weights([logw for logw, _ in drawn])
        inferred: dict[str, float] = defaultdict(float)
        for w, (_, code) in zip(weights, drawn):
            inferred[location_name(code)] += w
        out[f"T={t:g}"] = dict(inferred)
    return out


def grouped(p: dict[str, float]) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for where, x in p.items():
        out[group_of(where)] += x
    return dict(out)


def brier(p: dict[str, float], true: str) -> float:
    keys = set(p) | {true}
    return sum((p.get(k, 0.0) - (1.0 if k == true else 0.0)) ** 2 for k in keys)


def log_loss(p: dict[str, float], true: str) -> float:
    return -math.log(max(p.get(true, 0.0), CLIP))


def scored_positions(game, game_seed: int, budget: int, bot=None):
    """The self-play game `game_seed` of SELF_PLAY at `budget` iterations a move (the
    referee's draws seeded from it), yielding its state at the first decision of each
    turn from FROM_TURN on, before that decision is made; the caller only reads it. Every
    hostage benchmark scores the beliefs on these positions."""
    bot = make_bot(SELF_PLAY) if bot is None else bot
    state = game.new_state(game_seed)
    referee = SplitMix64(game_seed ^ 0xCA11B)
    seen_turns, moves = set(), 0
    while not state.is_terminal:
        if state.is_chance:
            state.apply(game.search.draw_chance(state, referee))
            continue
        if state.turn >= FROM_TURN and state.turn not in seen_turns:
            seen_turns.add(state.turn)
            yield state
        move = bot.decide(state.view(state.current_seat), Limits(iterations=budget), mix_seed(game_seed, moves)).move
        state.apply(move)
        moves += 1


def learned_hostage(game, model, view, support) -> dict[str, float] | None:
    """The model's hostage head at `view`, renormalised over the locations of `support`
    (the uniform belief's nonzero ones); None where it gives them no weight."""
    from hzai.games.hera_zeus.belief.report import HOSTAGE_CLASSES, _slot_name

    names = list(HOSTAGE_CLASSES) + [_slot_name(c, r) for c in range(3) for r in range(4)]
    head, _ = model.cards(game.search.native, game.search.native_view(view))
    total = sum(head[names.index(k)] for k in support if k in names)
    return {k: head[names.index(k)] / total for k in support if k in names} if total else None


def play(game_seed: int, budget: int, temperatures, samples: int) -> list[dict]:
    """One self-play game; a scored row per seat at the first decision of each turn
    from FROM_TURN on."""
    rows = []
    for state in scored_positions(make_game("hera_zeus"), game_seed, budget):
        for seat in (0, 1):
            view = view_of(state, seat)
            true = hostage_location(state, 1 - seat)
            preds = predictions(view, temperatures, samples, mix_seed(game_seed, state.turn, seat))
            rows.append({"seed": game_seed, "turn": state.turn, "seat": seat, "truth": true,
                         "evidence": len(view.evidence), "predictions": preds})
    return rows


def scores(rows: list[dict], key: str, level: str) -> tuple[list[float], list[float]]:
    b, ll = [], []
    for row in rows:
        p, true = row["predictions"][key], row["truth"]
        if level == "group":
            p, true = grouped(p), group_of(true)
        b.append(brier(p, true))
        ll.append(log_loss(p, true))
    return b, ll


def bootstrap(rows: list[dict], keys, level: str, rounds: int, seed: int) -> dict:
    """Per key: mean Brier, log-loss and their 95% intervals, and the Brier improvement
    over uniform (1 - B/B_uniform) with its interval, resampling whole games."""
    by_game = defaultdict(list)
    for i, row in enumerate(rows):
        by_game[row["seed"]].append(i)
    games = sorted(by_game)
    per = {k: scores(rows, k, level) for k in keys}
    rng = SplitMix64(seed)

    def means(indices, k):
        b, ll = per[k]
        return sum(b[i] for i in indices) / len(indices), sum(ll[i] for i in indices) / len(indices)

    draws = defaultdict(list)
    for _ in range(rounds):
        picked = [i for _ in games for i in by_game[games[rng.below(len(games))]]]
        base = means(picked, "uniform")[0]
        for k in keys:
            b, ll = means(picked, k)
            draws[k].append((b, ll, 1 - b / base if base else 0.0))
    everything = list(range(len(rows)))
    out = {}
    base = means(everything, "uniform")[0]
    for k in keys:
        b, ll = means(everything, k)
        col = list(zip(*draws[k]))

        def ci(values):
            return [round(x, 5) for x in harness.interval95(values, rule="lower")]

        out[k] = {"brier": round(b, 5), "brier_ci95": ci(col[0]), "log_loss": round(ll, 5),
                  "log_loss_ci95": ci(col[1]), "brier_improvement": round(1 - b / base if base else 0.0, 5),
                  "brier_improvement_ci95": ci(col[2])}
    return out


def reliability(rows: list[dict], key: str) -> list[dict]:
    """Group-level (p, outcome) pairs binned by p: mean p, observed frequency, count."""
    bins = [[0.0, 0, 0] for _ in range(BINS)]
    for row in rows:
        p, true = grouped(row["predictions"][key]), group_of(row["truth"])
        for g in ("deck", "hand", "field", "discard"):
            x = p.get(g, 0.0)
            b = bins[min(BINS - 1, int(x * BINS))]
            b[0] += x
            b[1] += 1 if g == true else 0
            b[2] += 1
    return [{"p": round(s / n, 4), "observed": round(hits / n, 4), "n": n} for s, hits, n in bins if n]


def plot(report: dict, path: Path) -> bool:
    plt = harness.pyplot()
    if plt is None:
        return False
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="perfect calibration")
    for key, style in (("uniform", "o-"), (report["default"], "s-")):
        pts = report["reliability"][key]
        ax.plot([p["p"] for p in pts], [p["observed"] for p in pts], style,
                label=key if key == "uniform" else f"inferred ({key})")
    ax.set_xlabel("predicted probability (deck / hand / field / discard)")
    ax.set_ylabel("observed frequency")
    ax.set_title(f"Hostage belief from turn {FROM_TURN} on, {report['positions']} positions")
    ax.legend()
    fig.tight_layout()
    harness.save_plot(fig, path)
    return True


def markdown(report: dict, command: str) -> str:
    lines = [f"# Hostage belief calibration: inferred vs uniform\n",
             f"Command: `{command}`\n",
             f"{report['games']} self-play games of `{SELF_PLAY}` at {report['budget']} iterations a move (seeds "
             f"{report['seeds'][0]}..{report['seeds'][1]}); {report['positions']} positions (both seats at the first "
             f"decision of every turn from turn {FROM_TURN} on), each from the seat's own view, {report['samples']} "
             f"determinizations a position. Brier: sum over locations of (p - truth)^2; log-loss: -ln p(truth), p "
             f"clipped at {CLIP:g}. Intervals: 95%, bootstrap over games ({report['bootstrap_rounds']} rounds).\n"]
    for level in ("group", "fine"):
        lines += [f"\n## {'deck / hand / field / discard' if level == 'group' else 'fine: deck, hand, discard, face up, each slot'}\n",
                  "| belief | Brier | 95% | log-loss | 95% | Brier better than uniform | 95% |", "|---|---|---|---|---|---|---|"]
        for key, s in report["levels"][level].items():
            lo, hi = s["brier_ci95"]
            llo, lhi = s["log_loss_ci95"]
            ilo, ihi = s["brier_improvement_ci95"]
            lines.append(f"| {key} | {s['brier']:.4f} | {lo:.4f}–{hi:.4f} | {s['log_loss']:.4f} | {llo:.4f}–{lhi:.4f} | "
                         f"{s['brier_improvement']:+.1%} | {ilo:+.1%}–{ihi:+.1%} |")
    verdict = report["target"]
    lines += ["", f"**Target** (inferred Brier ≥ {TARGET:.0%} better than uniform from turn {FROM_TURN} on, group "
              f"level, default temperature {report['default']}): **{'met' if verdict['met'] else 'missed'}** "
              f"({verdict['improvement']:+.1%}, 95% {verdict['ci95'][0]:+.1%}–{verdict['ci95'][1]:+.1%}).",
              "", "Reliability plot: calibration.png (group-level probabilities in ten bins)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--budget", type=int, default=200, help="ISMCTS iterations a move in the self-play")
    parser.add_argument("--samples", type=int, default=400, help="determinizations a position")
    parser.add_argument("--temperatures", default="1,2,4,8", help="comma list; the default temperature is always added")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    temperatures = sorted({float(t) for t in args.temperatures.split(",") if t.strip()} | {DEFAULT_TEMPERATURE})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    rows = []
    for i in range(args.games):
        rows += play(args.seed + i, args.budget, temperatures, args.samples)
        print(f"\r[{i + 1}/{args.games}] {len(rows)} positions {time.time() - started:.0f}s", end="", file=sys.stderr,
              flush=True)
    print(file=sys.stderr)
    keys = ["uniform"] + [f"T={t:g}" for t in temperatures]
    default = f"T={DEFAULT_TEMPERATURE:g}"
    levels = {level: bootstrap(rows, keys, level, args.bootstrap, args.seed) for level in ("group", "fine")}
    chosen = levels["group"][default]
    report = {
        "games": args.games, "budget": args.budget, "samples": args.samples, "seeds": [args.seed, args.seed + args.games - 1],
        "from_turn": FROM_TURN, "positions": len(rows), "bootstrap_rounds": args.bootstrap, "default": default,
        "machine": harness.machine(),
        "seconds": round(time.time() - started, 1), "levels": levels,
        "target": {"improvement": chosen["brier_improvement"], "ci95": chosen["brier_improvement_ci95"],
                   "required": TARGET, "met": chosen["brier_improvement"] >= TARGET},
        "reliability": {k: reliability(rows, k) for k in ("uniform", default)},
        "evidence_per_position": round(sum(r["evidence"] for r in rows) / max(1, len(rows)), 2),
    }
    command = harness.command("calibration", argv)
    harness.write_json(out / "calibration.json", {"command": command, **report})
    (out / "calibration.md").write_text(markdown(report, command))
    plotted = plot(report, out / "calibration.png")
    print(markdown(report, command))
    print(f"written: {out / 'calibration.json'}, {out / 'calibration.md'}" + (f", {out / 'calibration.png'}" if plotted else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
