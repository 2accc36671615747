"""Matches between guided searches in the native arena (expert iteration's gate, the
ablations): paired deals, seats swapped, the score with a 95% interval over the pairs.

A side is `none` (the unguided search), `shipped` (the game's kept model) or a model
file, optionally with parts switched off: `FILE:value=0,policy=0,cards=0`.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from hzai.core.registry import make_game
from hzai.learn.selfplay import bot_spec
from hzai.native.model import load_cached, model_path
from hzai.search.ismcts import DEFAULT_CPUCT, DEFAULT_MIX, DEFAULT_POOL

PARTS = ("value", "policy", "cards")


def parse_side(game, text: str):
    """(native model or None, (value, policy, cards), {cpuct, pool}, label) of one side."""
    path, _, opts = text.partition(":")
    use = dict.fromkeys(PARTS, True)
    tuning = {"cpuct": DEFAULT_CPUCT, "pool": DEFAULT_POOL, "mix": DEFAULT_MIX}
    for item in filter(None, opts.split(",")):
        key, eq, value = item.partition("=")
        try:
            if key in PARTS and value in ("0", "1"):
                use[key] = value == "1"
            elif key in tuning and eq:
                tuning[key] = type(tuning[key])(value)
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"side {text!r}: options are value=0|1, policy=0|1, cards=0|1, cpuct=X, pool=N, mix=X, "
                             f"not {item!r}") from None
    file = model_path(game.name, path)
    if file is None:
        return None, (False, False, False), tuning, "none"
    weights, model = load_cached(game, file)
    off = [k for k in PARTS if not use[k]]
    label = weights.model_id + (" without " + ", ".join(off) if off else "")
    if opts and any(k in opts for k in tuning):
        label += f" (cpuct {tuning['cpuct']:g}, pool {tuning['pool']}, mix {tuning['mix']:g})"
    return model, tuple(use[k] for k in PARTS), tuning, label


def interval(scores: np.ndarray) -> tuple[float, float, float]:
    """Mean and 95% interval of per-pair mean scores (normal approximation)."""
    n = len(scores)
    mean = float(scores.mean()) if n else 0.5
    if n < 2:
        return mean, 0.0, 1.0
    half = 1.96 * float(scores.std(ddof=1)) / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


def match(game_name: str, a: str, b: str, games: int, budget: int, seed: int, threads: int,
          budget_b: int | None = None, quiet: bool = False) -> dict:
    """`games` games (rounded up to pairs): pair k is deal seed+k with A first, then B first."""
    if games < 2 or games > 1_000_000:
        raise ValueError(f"games must be within 2..1000000, not {games}")
    if budget < 1:
        raise ValueError("budget must be at least 1 iteration")
    game = make_game(game_name)
    if not game.capabilities.model or game.search.native is None:
        raise ValueError(f"game {game_name} has no native learned search (capability model)")
    model_a, use_a, tune_a, label_a = parse_side(game, a)
    model_b, use_b, tune_b, label_b = parse_side(game, b)
    models = [m for m in (model_a, model_b) if m is not None]
    spec_a = bot_spec(game, budget, model_a, tune_a["cpuct"], tune_a["pool"], use=use_a, model_index=0,
                      mix=tune_a["mix"])
    spec_b = bot_spec(game, budget_b or budget, model_b, tune_b["cpuct"], tune_b["pool"], use=use_b,
                      model_index=1 if model_a is not None else 0, mix=tune_b["mix"])
    pairs = (games + 1) // 2
    scores = np.zeros(pairs)
    started = time.perf_counter()
    chunk = max(1, min(50, pairs))
    think = [0.0, 0.0]
    decisions = [0, 0]
    for lo in range(0, pairs, chunk):
        ks = list(range(lo, min(pairs, lo + chunk)))
        starts, seeds, seating = [], [], []
        for k in ks:
            for order in ([0, 1], [1, 0]):
                starts.append(game.search.native_start(seed + k))
                seeds.append(seed + k)
                seating.append(order)
        out = game.search.native.arena([spec_a, spec_b], starts, seeds, seating, threads, False, models=models)
        for j, k in enumerate(ks):
            total = 0.0
            for g in (0, 1):
                outcome, _ = out[2 * j + g]
                if outcome.error:
                    raise ValueError(f"game of deal {seed + k} could not be played: {outcome.error}")
                seat_a = seating[2 * j + g].index(0)
                total += outcome.returns[seat_a]
                for p in (0, 1):
                    bot = seating[2 * j + g][p]
                    think[bot] += outcome.think_ms[p]
                    decisions[bot] += outcome.decisions[p]
            scores[k] = total / 2
        if not quiet:
            done = ks[-1] + 1
            mean, low, high = interval(scores[:done])
            sys.stderr.write(f"\r{2 * done}/{2 * pairs} games: A {100 * mean:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"
                             f", {time.perf_counter() - started:.0f} s ")
            sys.stderr.flush()
    if not quiet:
        sys.stderr.write("\n")
    mean, low, high = interval(scores)
    return {"a": label_a, "b": label_b, "games": 2 * pairs, "budget": budget, "budget_b": budget_b or budget,
            "seed": seed, "score_a": round(mean, 4), "low": round(low, 4), "high": round(high, 4),
            "elo_a": round(elo(mean), 1), "ms_per_decision": [round(think[i] / max(1, decisions[i]), 3) for i in (0, 1)],
            "seconds": round(time.perf_counter() - started, 1)}
