"""Held-out log-loss of models' hostage heads on self-play records (issue 43): where the
opponent's hostage is (16 classes), read by each model's policy net from the records'
view features, over the held-out games (numbers ending in 0, as hzai train holds out).
A model reading the table's 1,920 features gets the records' first 1,920 columns, so a
table-only model and a history-reading one are compared on the same positions.

    python -m benchmarks.hostage_heads DATA MODEL [MODEL ...] [--rows 60000] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from benchmarks import harness

CONCERN = "learning"  # its group in `python -m benchmarks list`


def head_log_loss(data: dict, rows: np.ndarray, weights, n_features: int, chunk: int = 4096) -> np.ndarray:
    """Per row, minus the log-probability the model's hostage head gives the true class."""
    from hzai.learn.train import dense

    net = weights.nets["policy"]
    n_in = net["trunk"][0][0].shape[0]
    labels = np.maximum(data["labels"][rows, 0].astype(np.int64), 0)
    out = []
    for lo in range(0, len(rows), chunk):
        part = rows[lo:lo + chunk]
        h = dense(data["view_idx"], data["view_ptr"], part, n_features)[:, :n_in]
        for w, b in net["trunk"]:
            h = np.maximum(h @ np.asarray(w, np.float32) + np.asarray(b, np.float32), 0.0)
        w, b = net["heads"][1]
        z = h @ np.asarray(w, np.float32).T + np.asarray(b, np.float32)
        z -= z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        out.append(-logp[np.arange(len(part)), labels[lo:lo + chunk]])
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> int:
    from hzai.core.registry import make_game
    from hzai.learn.selfplay import load
    from hzai.learn.train import split, subsample
    from hzai.native.model import read

    parser = argparse.ArgumentParser(prog="python -m benchmarks.hostage_heads", description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="a self-play folder (hzai selfplay --out)")
    parser.add_argument("models", nargs="+", help="model files")
    parser.add_argument("--rows", type=int, default=60000, help="held-out records compared (default 60000)")
    parser.add_argument("--out", help="write the result as JSON here")
    args = parser.parse_args(argv)
    n_features = make_game("hera_zeus").search.native.feature_count()
    data = load([args.data])
    _, held = split(data)
    held = subsample(held, args.rows, 7)
    keep = data["labels"][held, 0] >= 0
    turn = data["turn"][held]
    result = {"command": harness.command("hostage_heads", argv),
              "records": int(keep.sum()), "models": []}
    for path in args.models:
        weights = read(path)
        loss = head_log_loss(data, held, weights, n_features)
        row = {"model": weights.model_id, "file": Path(path).name,
               "reads": int(weights.nets["policy"]["trunk"][0][0].shape[0]),
               "log_loss": round(float(loss[keep].mean()), 4),
               "log_loss_from_turn_10": round(float(loss[keep & (turn >= 10)].mean()), 4)}
        result["models"].append(row)
        print(f"{row['model']} ({row['file']}, {row['reads']} features): {row['log_loss']:.4f} nats, "
              f"{row['log_loss_from_turn_10']:.4f} from turn 10")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
