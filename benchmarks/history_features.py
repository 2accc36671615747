"""The cost of the history features (docs/learning.md, "History in the features"): one
policy evaluation (the view's features, the trunk and the policy head over the legal
moves) with and without them, and the encoding alone.

    nice -n 10 python -m benchmarks.history_features --positions 30 --evals 20000

Positions: random games (deal seed + i) stopped after 20 to 80 moves, the view of the
seat to move. Nets: the shipped policy net (it reads the table's 1,920 features), and the
same net with its first layer widened to read every feature (random rows for the history:
the same widths, so the difference is the encoding and the extra rows). Conditions:
- without: the shipped net on the view with its history removed (today's evaluation);
- base net, history encoded: the shipped net on the full view (what the shipped model
  costs now that the encoder writes the history too);
- with: the widened net on the full view.
Per position the fastest of --repeats interleaved runs (the least disturbed by other
work on the machine), then the median over positions, in ns an evaluation; the value
net's evaluation (state features, unchanged) beside them for scale. Writes history_features.json / .md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"


def _positions(count: int, seed: int):
    from hzai.core.registry import make_game
    from hzai.games.hera_zeus.belief import view_of
    from hzai.games.hera_zeus.native.search import flat_view
    from hzai.games.hera_zeus.native.state import NativeState
    from hzai.games.hera_zeus.rules import Record
    from hzai.rng import SplitMix64

    game = make_game("hera_zeus")
    out = []
    i = 0
    while len(out) < count:
        state = Record(game, seed=seed + i).start()
        rng = SplitMix64(seed + i)
        for _ in range(20 + (seed + i) % 61):
            if state.is_over:
                break
            if state.is_chance:
                state.apply(game.search.draw_chance(state, rng))
            else:
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])
        i += 1
        if state.is_over or state.is_chance or state.to_move is None:
            continue
        out.append((NativeState.from_state(state), flat_view(view_of(state, state.to_move), game)))
    return game, out


def run(args) -> dict:
    from hzai import _native
    from hzai.native.model import load_cached, shipped_path

    game, specs = _positions(args.positions, args.seed)
    n_all = game.search.native.feature_count()
    weights, shipped = load_cached(game, shipped_path(game))
    policy = weights.nets["policy"]
    (w0, b0), rest = policy["trunk"][0], policy["trunk"][1:]
    rng = np.random.default_rng(args.seed)
    extra = rng.normal(0, float(np.std(w0)), (n_all - w0.shape[0], w0.shape[1])).astype(np.float32)
    widened = _native.HzModel(game.search.native, "widened", [], [], [(np.vstack([w0, extra]), b0)] + list(rest),
                              policy["heads"])
    rows = {"without": [], "base net, history encoded": [], "with": []}
    features = {"without": [], "with": []}
    active = {"table": [], "history": []}
    base = w0.shape[0]
    values = []
    for state, spec in specs:
        legal = list(_native.sample_view(game.search.native, spec, 0).legal_actions())
        bare = spec.copy()
        bare.history_slots, bare.history_acts, bare.history_counts = [], [], []
        idx = game.search.native.view_features(spec)
        active["table"].append(sum(1 for i in idx if i < base))
        active["history"].append(sum(1 for i in idx if i >= base))
        best = [float("inf")] * 6
        for _ in range(args.repeats):  # conditions interleaved; the fastest repeat of each (the least disturbed)
            f0, p0, _ = _native.time_view_eval(shipped, game.search.native, bare, legal, args.evals)
            f1, p1, _ = _native.time_view_eval(shipped, game.search.native, spec, legal, args.evals)
            _, p2, _ = _native.time_view_eval(widened, game.search.native, spec, legal, args.evals)
            v0, _ = shipped.time_values(state.core, args.evals)
            best = [min(a, b) for a, b in zip(best, (f0, f1, p0, p1, p2, v0))]
        features["without"].append(best[0])
        features["with"].append(best[1])
        rows["without"].append(best[2])
        rows["base net, history encoded"].append(best[3])
        rows["with"].append(best[4])
        values.append(best[5])
    med = lambda xs: round(statistics.median(xs), 1)  # noqa: E731
    return {"command": harness.command("history_features", args.argv),
            "model": weights.model_id, "features": {"table": base, "all": n_all},
            "active_median": {k: statistics.median(v) for k, v in active.items()},
            "active_mean": {k: round(statistics.mean(v), 1) for k, v in active.items()},
            "policy_eval_ns_median": {k: med(v) for k, v in rows.items()},
            "features_ns_median": {k: med(v) for k, v in features.items()},
            "value_eval_ns_median": med(values),
            "policy_net": [int(w0.shape[1])] + [int(b.shape[0]) for _, b in rest],
            "positions": len(specs), "evals_per_position": args.evals, "repeats": args.repeats, "machine": harness.machine()}


def markdown(r: dict) -> str:
    p, f = r["policy_eval_ns_median"], r["features_ns_median"]
    return "\n".join([
        "# History in the features: the cost of an evaluation\n",
        f"Command: `{r['command']}` (model {r['model']}; {r['positions']} positions, {r['evals_per_position']} "
        f"evaluations each; {harness.machine_text(r['machine'])}).\n",
        f"Features: {r['features']['table']} of the table + {r['features']['all'] - r['features']['table']} of the history "
        f"= {r['features']['all']}; active (median) {r['active_median']['table']} + {r['active_median']['history']}.\n",
        "| measure | ns (median over positions) |", "|---|---|",
        f"| features alone, without the history | {f['without']} |",
        f"| features alone, with the history | {f['with']} |",
        f"| one policy evaluation without the history (shipped net, history removed) | {p['without']} |",
        f"| one policy evaluation, shipped net, history encoded | {p['base net, history encoded']} |",
        f"| one policy evaluation with the history (net reading all features) | {p['with']} |",
        f"| for scale: one value-net evaluation (state features + value net, unchanged) | {r['value_eval_ns_median']} |",
        "", f"Policy trunk widths {r['policy_net']}. Each figure: per position the fastest of "
        f"{r.get('repeats', 3)} interleaved repeats, then the median over positions.",
        "Target (issue 43): one evaluation with the history features ≤ 3 µs.", ""])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--evals", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=810000)
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args(argv)
    args.argv = list(argv if argv is not None else sys.argv[1:])
    report = run(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "history_features.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "history_features.md").write_text(markdown(report))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
