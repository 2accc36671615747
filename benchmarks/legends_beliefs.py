"""Legends of Hellas: how well a seat's belief about its partners' hands fits the truth
(issue 32, item 3), for today's uniform belief and for the learned card model.

    python -m benchmarks.legends_beliefs --games 20
    python -m benchmarks.legends_beliefs --model FILE --missions 1,3,5 --seats 2,4

The learned team (`--bot`, default `ismcts`, with the model) plays whole missions on
deals never trained on (game i of a cell dealt from --seed + i). At every --every-th
decision, the deciding seat's belief is read three ways against the partners' true
hands, label by label (partner r's count of kind k: 0, 1, 2, 3 or more, the card
model's labels):

- uniform: the frequencies over --pool worlds of today's sampler (smoothed by 0.5);
- model: the card net's probabilities, read from the seat's view alone;
- weighted: the frequencies over the pool the search draws from under `cards=1` (the
  same worlds, weighted by the model against their own frequencies and resampled).

Each is scored by its mean cross-entropy on the truth (nats a label; lower is better)
and by the share of the true labels it gives the highest probability. The weighted pool
is what the search sees: the gain over uniform is the gain of item 3's beliefs.
Writes legends_beliefs.json and .md under benchmarks/results/ (or --out).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from hzai.core import Limits
from hzai.games.legends.game import DEFAULT_HEROES
from hzai.rng import SplitMix64, mix_seed

from benchmarks import harness

CONCERN = "legends"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 760000  # self-play used seeds below 600000 and from 1000000 up
WAYS = ("uniform", "model", "weighted")


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, not {text!r}") from None


def frequencies(native, view, seat: int, seeds, labels: int, classes: int) -> list[list[float]]:
    """Each label's class frequencies over the worlds sample(view, seed) (smoothed by 0.5)."""
    from hzai import _native

    counts = [[0.5] * classes for _ in range(labels)]
    for s in seeds:
        world = _native.legends_sample(view, s)
        for l, c in enumerate(native.hidden_labels(world, seat)):
            if c >= 0:
                counts[l][c] += 1.0
    return [[x / sum(row) for x in row] for row in counts]


def score(probs: list[list[float]], truth: list[int]) -> tuple[float, int, int]:
    """(summed cross-entropy, labels the top class got right, labels) over the given labels."""
    ce, right, n = 0.0, 0, 0
    for row, t in zip(probs, truth):
        if t < 0:
            continue
        ce -= math.log(max(1e-9, row[t]))
        right += max(range(len(row)), key=row.__getitem__) == t
        n += 1
    return ce, right, n


def measure(game, model, view, state, seat: int, pool: int, seed: int) -> dict:
    from hzai.games.legends.native.twin import native_state, native_view

    native = game.search.native
    nv = native_view(view)
    truth = native.hidden_labels(native_state(state), seat)
    L, C = native.card_labels, native.card_classes
    rng = SplitMix64(seed)
    uniform = frequencies(native, nv, seat, [rng.next_u64() for _ in range(pool)], L, C)
    modelled = model.card_probs(nv)
    _, kept = model.card_view(nv, pool, mix_seed(seed, 0xCA4D5))
    weighted = frequencies(native, nv, seat, kept, L, C)
    return {w: score(p, truth) for w, p in zip(WAYS, (uniform, modelled, weighted))}


def play_cell(mission: int, seats: int, games: int, args, model) -> dict:
    from hzai.core.registry import make_game
    from hzai.search.bot import make_bot

    game = make_game("legends", mission=mission, heroes=list(DEFAULT_HEROES[:seats]), difficulty=args.difficulty)
    bot = make_bot(args.bot, game)
    sums = {w: [0.0, 0, 0] for w in WAYS}
    positions, started = 0, time.time()
    for i in range(games):
        seed = args.seed + i
        state, rng, decisions = game.new_state(seed), SplitMix64(seed), 0
        while not state.is_terminal:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                x, acc = rng.next_u64() / 2**64, 0.0
                for move, p in outcomes:
                    acc += p
                    if x < acc:
                        break
                state.apply(move)
                continue
            seat = state.current_seat
            view = state.view(seat)
            if decisions % args.every == 0:
                for w, (ce, right, n) in measure(game, model, view, state, seat, args.pool,
                                                 mix_seed(seed, decisions)).items():
                    sums[w][0] += ce
                    sums[w][1] += right
                    sums[w][2] += n
                positions += 1
            state.apply(bot.decide(view, Limits(iterations=args.iterations), seed=mix_seed(seed, decisions, 7)).move)
            decisions += 1
    out = {"mission": mission, "seats": seats, "games": games, "positions": positions,
           "seconds": round(time.time() - started, 1)}
    for w, (ce, right, n) in sums.items():
        out[w] = {"cross_entropy": ce / max(1, n), "top_right": right / max(1, n), "labels": n}
    return out


def markdown(rows: list[dict], meta: dict) -> str:
    lines = ["# Legends of Hellas: beliefs about the partners' hands (issue 32, item 3)", "",
             f"Command: `{meta['command']}`", "",
             f"Model: {meta['model']}. The team `{meta['bot']}` plays at {meta['iterations']} iterations a decision, "
             f"{meta['difficulty']} difficulty; every {meta['every']}th decision the deciding seat's belief about its "
             f"partners' hands is scored against the truth, label by label (a partner's count of one kind: 0, 1, 2, "
             f"3+). Uniform: today's sampler, {meta['pool']} worlds; model: the card net from the seat's view; "
             f"weighted: the pool the search draws from with `cards=1`. Cross-entropy in nats a label (lower is "
             f"better); top right: the share of labels whose most likely class is the true one. Deals: seed "
             f"{meta['seed']} + game index, never trained on.", "",
             "| mission | seats | positions | uniform CE | model CE | weighted CE | uniform top | model top | "
             "weighted top |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['mission']} | {r['seats']} | {r['positions']} | "
                     + " | ".join(f"{r[w]['cross_entropy']:.4f}" for w in WAYS) + " | "
                     + " | ".join(f"{100 * r[w]['top_right']:.1f}%" for w in WAYS) + " |")
    if rows:
        n = sum(r["uniform"]["labels"] for r in rows)
        mean = {w: sum(r[w]["cross_entropy"] * r[w]["labels"] for r in rows) / max(1, n) for w in WAYS}
        lines += ["", f"Over all {n} labels: uniform {mean['uniform']:.4f}, model {mean['model']:.4f}, weighted "
                      f"{mean['weighted']:.4f} nats a label ({100 * (1 - mean['weighted'] / mean['uniform']):+.1f}% "
                      f"for the weighted pool against uniform)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--missions", type=_ints, default=[1, 3, 5], help="e.g. 1,3,5 (default)")
    p.add_argument("--seats", type=_ints, default=[2, 4], help="seat counts (default 2,4)")
    p.add_argument("--difficulty", default="human", choices=("human", "godlike"))
    p.add_argument("--games", type=int, default=20, help="games a cell (default 20)")
    p.add_argument("--every", type=int, default=3, help="score every N-th decision (default 3)")
    p.add_argument("--pool", type=int, default=200, help="worlds a belief is read from (default 200)")
    p.add_argument("--bot", default="ismcts", help="the team that plays (default ismcts, the learned team)")
    p.add_argument("--iterations", type=int, default=150, help="the team's iterations a decision (default 150)")
    p.add_argument("--model", metavar="FILE", help="the model with the card net (default: the shipped one)")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    if min(args.games, args.every, args.pool, args.iterations) < 1:
        p.error("--games, --every, --pool and --iterations must be ≥ 1")
    from hzai.games.legends.parts import LegendsModel
    from hzai.core.registry import make_game
    from hzai.native.model import ModelError, load_cached, shipped_path

    if args.model is not None:
        if not Path(args.model).is_file():
            p.error(f"--model: no file {args.model}")
        LegendsModel.file = Path(args.model).resolve()  # this process only: the team plays it too
    path = shipped_path(make_game("legends"))
    try:
        weights, model = load_cached(make_game("legends"), path) if path else (None, None)
    except ModelError as exc:
        p.error(str(exc))
    if model is None or not model.has_cards:
        p.error("the model has no card net: give --model FILE made by `hzai train-cards`")
    meta = {"command": harness.command("legends_beliefs", argv),
            "model": weights.model_id, "bot": args.bot, "iterations": args.iterations, "difficulty": args.difficulty,
            "every": args.every, "pool": args.pool, "seed": args.seed,
            "machine": harness.machine()}
    rows = []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for mission in args.missions:
        for seats in args.seats:
            print(f"mission {mission}, {seats} seats: {args.games} games ...", file=sys.stderr, flush=True)
            rows.append(play_cell(mission, seats, args.games, args, model))
            (out / "legends_beliefs.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
            (out / "legends_beliefs.md").write_text(markdown(rows, meta))
    print(markdown(rows, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
