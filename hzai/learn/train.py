"""Training the learned search's nets on self-play records, with numpy alone.

The nets are small (a few hundred thousand weights): a ReLU trunk over the sparse 0/1
features, linear heads, Adam. Backpropagation is written out by hand here, so training
needs nothing beyond numpy, which hzai already depends on (docs/learning.md says why no
framework): a fresh clone trains on its CPU with no extra download.

- The value net reads a full state's features and predicts the first seat's score of
  the game (win 1, draw 0.5): binary cross-entropy against a target blended from the
  game's result, the root's value (full-search records only) and the oracle value (the
  labelling model's value net on the true state), weights given or chosen by held-out
  cross-entropy against the results over a small grid (`blend="auto"`).
- The policy net reads the deciding seat's view features; head 0 predicts the root's
  visit shares over action ids (cross-entropy against them, full-search records only),
  head 1 the opponent's hostage class, head 2 the name of each opponent field card the
  view hides (cross-entropy where a label is given, -1 elsewhere; every record).
Games whose number ends in 0 are held out: their losses are the validation curves, and
the report gives them by phase of the game (setup, turns 1-10, 11-20, 21+) beside a
constant and the all-seeing (oracle) predictors.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from hzai.core.registry import make_game
from hzai.learn.factored import ActionTable, factored_loss
from hzai.learn.paths import repo_path
from hzai.learn.selfplay import feature_layouts, folder_game, load
from hzai.learn.warm import warm_start
from hzai.native.model import Weights, read, save


@dataclass(frozen=True)
class TrainConfig:
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    seed: int = 0
    hidden: str = "256,64"  # the policy net's trunk
    value_hidden: str = "64,32"
    minutes: float = 30.0  # each net stops after this long, at the end of a batch
    weight_decay: float = 1e-4  # decoupled (AdamW)
    value_mix: float = 0.8  # the value target: (1 - mix) * the game's result + mix * the root's value
    input_dropout: float = 0.3  # share of active input features dropped in training
    check_every: int = 150  # batches between held-out checks; the best weights seen are kept
    # The value target's weights "RESULT,ROOT,ORACLE" (normalised over the parts a record
    # has), "auto" (chosen over BLEND_GRID by held-out cross-entropy against the results),
    # or "" for (1 - value_mix, value_mix, 0).
    blend: str = ""
    blend_rows: int = 200_000  # auto: training records each candidate learns from (a fixed subsample)
    blend_epochs: int = 2  # auto: passes of each candidate over them
    held_rows: int = 50_000  # held-out records the best weights are chosen on (a fixed subsample)
    report_rows: int = 100_000  # held-out records of the report by phase (a fixed subsample)
    oracle_floor: bool = True  # also train the oracle-target net (blend 0,0,1) for the report's floor
    init: str = ""  # a model file whose nets are the first weights (hzai.learn.warm), "" random ones
    # The policy net (a game with card heads): which held-out loss keeps the best weights,
    # "sum" (policy + card heads, as before) or "policy" (the policy head's alone, so the
    # card heads' gains cannot hide a worse policy); and which records it learns from,
    # "all" or "full" (the full searches' only: more passes over the policy targets).
    keep_best: str = "sum"
    policy_records: str = "all"
    # Which nets learn: "both", or "value" / "policy" (the other kept as --init has it,
    # only scored on the held-out records: no time spent where nothing is to be learned).
    train: str = "both"

    def check_policy_options(self) -> None:
        """ValueError naming a bad keep_best, policy_records or train."""
        if self.keep_best not in ("sum", "policy"):
            raise ValueError(f"keep-best must be sum or policy, not {self.keep_best!r}")
        if self.policy_records not in ("all", "full"):
            raise ValueError(f"policy-records must be all or full, not {self.policy_records!r}")
        if self.train not in ("both", "value", "policy"):
            raise ValueError(f"train must be both, value or policy, not {self.train!r}")
        if self.train != "both" and not self.init:
            kept = "policy" if self.train == "value" else "value"
            raise ValueError(f"train {self.train} keeps the {kept} net of --init: give --init MODEL")

    def blend_weights(self) -> tuple[float, float, float] | None:
        """(result, root, oracle) weights, or None for auto; ValueError naming a bad blend."""
        if self.blend == "auto":
            return None
        if not self.blend:
            return (1.0 - self.value_mix, self.value_mix, 0.0)
        try:
            w = tuple(float(x) for x in self.blend.split(","))
        except ValueError:
            raise ValueError(f"blend must be auto or RESULT,ROOT,ORACLE weights, not {self.blend!r}") from None
        if len(w) != 3 or any(not (x >= 0.0) for x in w) or sum(w) <= 0:
            raise ValueError(f"blend must be auto or three weights ≥ 0 (RESULT,ROOT,ORACLE) with a positive sum, "
                             f"not {self.blend!r}")
        total = sum(w)
        return (w[0] / total, w[1] / total, w[2] / total)

    def widths(self, text: str) -> list[int]:
        try:
            widths = [int(w) for w in text.split(",") if w.strip()]
        except ValueError:
            raise ValueError(f"hidden layers must be comma-separated widths, not {text!r}") from None
        if not widths or any(not 1 <= w <= 1024 for w in widths):
            raise ValueError(f"hidden layers must be 1..1024 wide, not {text!r}")
        return widths


# ----- the net ----------------------------------------------------------------------------
SPARSE_FAN_IN = 80  # about how many features of an encoding are active (He initialisation)

class Net:
    """A ReLU trunk and linear heads, float32, with Adam; the same layout as the file
    (trunk w: inputs x outputs; head w: outputs x inputs)."""

    def __init__(self, n_in: int, widths: list[int], heads: list[int], rng: np.random.Generator):
        self.trunk = []
        prev = n_in
        for k, w in enumerate(widths):
            fan_in = SPARSE_FAN_IN if k == 0 else prev  # the first layer sees about that many active inputs
            self.trunk.append([(rng.standard_normal((prev, w)) * np.sqrt(2.0 / fan_in)).astype(np.float32),
                               np.zeros(w, np.float32)])
            prev = w
        self.heads = [[(rng.standard_normal((h, prev)) * np.sqrt(1.0 / prev)).astype(np.float32) * 0.5,
                       np.zeros(h, np.float32)] for h in heads]
        self.params = [p for layer in self.trunk + self.heads for p in layer]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def forward(self, x: np.ndarray):
        acts = [x]
        h = x
        for w, b in self.trunk:
            h = np.maximum(h @ w + b, 0.0)
            acts.append(h)
        outs = [h @ w.T + b for w, b in self.heads]
        return outs, acts

    def backward(self, acts, d_outs) -> list[np.ndarray]:
        h = acts[-1]
        grads_heads = []
        dh = np.zeros_like(h)
        for (w, _), d in zip(self.heads, d_outs):
            if d is None:
                grads_heads.append((np.zeros_like(w), np.zeros(w.shape[0], np.float32)))
                continue
            grads_heads.append((d.T @ h, d.sum(0)))
            dh += d @ w
        grads_trunk = []
        for i in range(len(self.trunk) - 1, -1, -1):
            w, _ = self.trunk[i]
            dz = dh * (acts[i + 1] > 0)
            grads_trunk.append((acts[i].T @ dz, dz.sum(0)))
            if i:
                dh = dz @ w.T
        grads_trunk.reverse()
        return [g for pair in grads_trunk + grads_heads for g in pair]

    def step(self, grads, lr: float, decay: float) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            g = g.astype(np.float32)
            p *= 1.0 - lr * decay
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= lr * (m / (1 - b1 ** self.t)) / (np.sqrt(v / (1 - b2 ** self.t)) + 1e-8)

    def snapshot(self) -> list[np.ndarray]:
        return [p.copy() for p in self.params]

    def restore(self, saved: list[np.ndarray]) -> None:
        for p, q in zip(self.params, saved):
            p[...] = q

    def export(self) -> dict:
        return {"trunk": [(w.copy(), b.copy()) for w, b in self.trunk],
                "heads": [(w.copy(), b.copy()) for w, b in self.heads]}


def dense(idx: np.ndarray, ptr: np.ndarray, rows: np.ndarray, n_in: int, drop: float = 0.0,
          rng: np.random.Generator | None = None) -> np.ndarray:
    """The 0/1 feature rows `rows` of a CSR set as a dense float32 batch; with `drop`,
    each active feature is dropped with that probability and the kept ones scaled up
    (inverted dropout over the inputs: a net over a few thousand games otherwise learns
    each game by heart from its deal)."""
    rows = np.asarray(rows, np.int64)
    out = np.zeros((len(rows), n_in), np.float32)
    starts, lens = ptr[rows].astype(np.int64), (ptr[rows + 1] - ptr[rows]).astype(np.int64)
    total = int(lens.sum())
    if total:
        which = np.repeat(np.arange(len(rows)), lens)
        at = np.arange(total) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(starts, lens)
        out[which, idx[at]] = 1.0
    if drop > 0.0:
        out *= (rng.random(out.shape) >= drop) / (1.0 - drop)
    return out


def log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


# ----- losses -----------------------------------------------------------------------------
def value_loss(net: Net, x, y, grad: bool):
    outs, acts = net.forward(x)
    z = outs[0][:, 0]
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-7
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    if not grad:
        return loss, p, None
    d = ((p - y) / len(y))[:, None].astype(np.float32)
    return loss, p, net.backward(acts, [d])


def policy_loss(net: Net, x, target, labels, n_names: int, grad: bool, full: np.ndarray | None = None):
    """target: dense visit shares (B x actions); labels: B x (1 + slots); `full`: which
    rows have a policy target (a full search's record; None: every row). The policy's
    loss is the mean over those rows, the card heads' over every row."""
    outs, acts = net.forward(x)
    B = len(x)
    lp = log_softmax(outs[0])
    mask = np.ones(B, bool) if full is None else np.asarray(full, bool)
    n_full = int(mask.sum())
    l_pol = float(-(target * lp).sum(1)[mask].sum() / max(1, n_full))
    d_pol = (np.exp(lp) - target) * (mask[:, None] / max(1, n_full))
    lh = log_softmax(outs[1])
    hostage = labels[:, 0]
    l_host = float(-lh[np.arange(B), hostage].mean())
    d_host = np.exp(lh)
    d_host[np.arange(B), hostage] -= 1.0
    d_host /= B
    slots = labels[:, 1:]
    S = slots.shape[1]
    ls = log_softmax(outs[2].reshape(B, S, n_names))
    mask = slots >= 0
    count = max(1, int(mask.sum()))
    picked = np.take_along_axis(ls, np.maximum(slots, 0)[:, :, None], axis=2)[:, :, 0]
    l_slot = float(-(picked * mask).sum() / count)
    d_slot = np.exp(ls)
    d_slot[np.arange(B)[:, None], np.arange(S)[None, :], np.maximum(slots, 0)] -= 1.0
    d_slot *= mask[:, :, None]
    d_slot = (d_slot / count).reshape(B, S * n_names)
    losses = {"policy": l_pol, "hostage": l_host, "slots": l_slot}
    if not grad:
        return losses, np.exp(lh), None
    grads = net.backward(acts, [d_pol.astype(np.float32), d_host.astype(np.float32), d_slot.astype(np.float32)])
    return losses, np.exp(lh), grads


# ----- training ---------------------------------------------------------------------------
def split(data: dict) -> tuple[np.ndarray, np.ndarray]:
    """Record rows of training games and of held-out games (game number ending in 0)."""
    held = data["game"] % 10 == 0
    return np.flatnonzero(~held), np.flatnonzero(held)


def policy_targets(data: dict, rows: np.ndarray, n_actions: int) -> np.ndarray:
    out = np.zeros((len(rows), n_actions), np.float32)
    ptr, act, prob = data["policy_ptr"], data["policy_action"], data["policy_prob"]
    for i, r in enumerate(rows):
        out[i, act[ptr[r]:ptr[r + 1]]] = prob[ptr[r]:ptr[r + 1]]
    return out


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def first_seat(data: dict, key: str, team: bool = False) -> np.ndarray:
    """A per-record value of the deciding seat (root_value, oracle_value) as the first
    seat's (a team game's value is the team's as it is); NaN stays NaN."""
    v = data[key].astype(np.float32)
    return v if team else np.where(data["seat"] == 0, v, 1.0 - v).astype(np.float32)


def blend_targets(data: dict, weights: tuple[float, float, float], team: bool = False) -> np.ndarray:
    """The first seat's score to learn: weights (result, root, oracle) over the game's
    result, the root's value (full-search records only: a fast record has none) and the
    oracle value (where the records have one), renormalised over the parts each record
    has (a record with none of the weighted parts learns its result)."""
    w_r, w_s, w_o = weights
    result = data["result"].astype(np.float32)
    root = first_seat(data, "root_value", team)
    full = data["full"].astype(bool) if "full" in data else np.ones(len(result), bool)
    has_s = full & ~np.isnan(root)
    oracle = first_seat(data, "oracle_value", team) if "oracle_value" in data else np.full(len(result), np.nan)
    has_o = ~np.isnan(oracle)
    ws = np.where(has_s, w_s, 0.0)
    wo = np.where(has_o, w_o, 0.0)
    total = w_r + ws + wo
    wr = np.where(total > 0, w_r, 1.0)
    total = np.where(total > 0, total, 1.0)
    y = (wr * result + ws * np.nan_to_num(root) + wo * np.nan_to_num(oracle)) / total
    return y.astype(np.float32)


def value_targets(data: dict, mix: float, team: bool = False) -> np.ndarray:
    """The game's result blended with the root's value, (1 - mix) / mix (blend_targets):
    far less noisy than the result alone, which a net over a few thousand games learns by
    heart."""
    return blend_targets(data, (1.0 - mix, mix, 0.0), team)


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    """Mean binary cross-entropy of predictions p against scores y (a draw 0.5)."""
    if not len(p):
        return float("nan")
    p = np.clip(p.astype(np.float64), 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


# The candidates of blend auto: (result, root, oracle).
BLEND_GRID = ((1.0, 0.0, 0.0), (0.5, 0.5, 0.0), (0.5, 0.25, 0.25), (0.5, 0.0, 0.5), (0.2, 0.8, 0.0),
              (0.2, 0.4, 0.4), (0.2, 0.0, 0.8), (0.0, 0.0, 1.0))


def run_epochs(net: Net, train: np.ndarray, config: TrainConfig, rng, keys: tuple[str, ...], step, held, row,
               say, quiet: bool = False) -> list[dict]:
    """The loop every net here trains by: epochs over the `train` rows in shuffled batches,
    `step(rows)` taking one optimizer step and giving the batch's mean of each of `keys`;
    every config.check_every batches and after each epoch `held()` gives (the held-out
    loss the best weights are kept by, {name: held-out value}); config.minutes bounds the
    whole. `row(epoch, train means, held-out values, best loss)` makes an epoch's entry of
    the curve (returned) and `say(entry)` its progress line. Ends with the best weights
    seen restored."""
    deadline = time.perf_counter() + config.minutes * 60
    best, (best_loss, start_values), steps, curve = net.snapshot(), held(), 0, []
    if config.epochs == 0:  # a net kept as it starts (hzai train --train): its held-out losses only
        entry = row(0, dict.fromkeys(keys, float("nan")), start_values, best_loss)
        _say(quiet, say(entry))
        return [{k: None if isinstance(v, float) and v != v else v for k, v in entry.items()}]  # JSON has no NaN
    for epoch in range(config.epochs):
        order = rng.permutation(train)
        sums, n = dict.fromkeys(keys, 0.0), 0
        for k in range(0, len(order), config.batch):
            rows = order[k:k + config.batch]
            for key, value in step(rows).items():
                sums[key] += value * len(rows)
            n += len(rows)
            steps += 1
            if steps % config.check_every == 0:
                loss, _ = held()
                if loss < best_loss:
                    best, best_loss = net.snapshot(), loss
            if time.perf_counter() > deadline:
                break
        loss, values = held()
        if loss < best_loss:
            best, best_loss = net.snapshot(), loss
        entry = row(epoch + 1, {k: v / max(1, n) for k, v in sums.items()}, values, best_loss)
        curve.append(entry)
        _say(quiet, say(entry))
        if time.perf_counter() > deadline:
            break
    net.restore(best)
    return curve


def _named_row(epoch: int, train: dict, held: dict, best_loss: float) -> dict:
    """A policy net's curve entry: train_<name> and held_out_<name> for each loss."""
    return {"epoch": epoch, **{f"train_{k}": v for k, v in train.items()}, **{f"held_out_{k}": v for k, v in held.items()}}


def _policy_line(entry: dict) -> str:
    return f"policy epoch {entry['epoch']}: " + ", ".join(f"{k} {v:.4f}" for k, v in entry.items() if k != "epoch")


def predict_value(net: Net, data: dict, rows: np.ndarray, n_in: int, chunk: int = 4096) -> np.ndarray:
    """The value net's first-seat score of records `rows`, in chunks."""
    out = np.zeros(len(rows), np.float32)
    for k in range(0, len(rows), chunk):
        part = rows[k:k + chunk]
        z = net.forward(dense(data["state_idx"], data["state_ptr"], part, n_in))[0][0][:, 0]
        out[k:k + chunk] = 1.0 / (1.0 + np.exp(-z))
    return out


def subsample(rows: np.ndarray, limit: int, seed: int) -> np.ndarray:
    """At most `limit` of `rows` (sorted), the same for a seed; all of them when fewer."""
    if limit <= 0 or len(rows) <= limit:
        return rows
    return np.sort(np.random.default_rng(seed).choice(rows, limit, replace=False))


def fit_value(data, n_in, config: TrainConfig, rng, quiet=False, team: bool = False, y: np.ndarray | None = None,
              train: np.ndarray | None = None, against_results: bool = False, label: str = "value"):
    """A value net learning `y` (default: config's blend or value_mix) on the `train` rows
    (default: every training record); the best weights are kept by the held-out loss
    against `y`, or with `against_results` against the games' results."""
    rows, held = split(data)
    train = rows if train is None else train
    held = subsample(held, config.held_rows, 1)
    net = Net(n_in, config.widths(config.value_hidden), [1], rng)
    if config.init:
        warm_start(net, read(config.init).nets["value"], "value")
    if y is None:
        weights = config.blend_weights()
        y = blend_targets(data, weights if weights is not None else (1.0 - config.value_mix, config.value_mix, 0.0),
                          team)
    result = data["result"].astype(np.float32)
    y_check = result[held] if against_results else y[held]
    x_held = dense(data["state_idx"], data["state_ptr"], held, n_in)

    def step(rows) -> dict:
        x = dense(data["state_idx"], data["state_ptr"], rows, n_in, config.input_dropout, rng)
        loss, _, grads = value_loss(net, x, y[rows], True)
        net.step(grads, config.lr, config.weight_decay)
        return {"train": loss}

    def held_loss() -> tuple[float, dict]:
        loss = value_loss(net, x_held, y_check, False)[0]
        return loss, {"held_out": loss}

    curve = run_epochs(net, train, config, rng, ("train",), step, held_loss,
                       lambda e, t, h, best: {"epoch": e, "train": t["train"], "held_out": h["held_out"], "best": best},
                       lambda r: f"{label} epoch {r['epoch']}: train {r['train']:.4f}, held out {r['held_out']:.4f} "
                                 f"(best {r['best']:.4f})", quiet)
    _, p_held, _ = value_loss(net, x_held, y_check, False)
    return net, curve, calibration(p_held, result[held])


def choose_blend(data, n_in, config: TrainConfig, quiet=False, team: bool = False) -> tuple[tuple, list[dict], dict]:
    """Blend auto: a value net for each weights of BLEND_GRID, trained alike (the same
    seed, `blend_rows` training records, `blend_epochs` passes, the best weights by the
    held-out cross-entropy against the results), scored by that cross-entropy over the
    held-out games (every held-out record, in chunks). Returns the best weights, the table
    and the nets by weights. Candidates that weigh a part no record has are skipped."""
    rows, held = split(data)
    train = subsample(rows, config.blend_rows, 2)
    has_root = bool((data["full"].astype(bool) & ~np.isnan(data["root_value"])).any()) if "full" in data else True
    has_oracle = bool((~np.isnan(data["oracle_value"])).any()) if "oracle_value" in data else False
    result = data["result"].astype(np.float32)
    table, nets = [], {}
    sub = replace(config, epochs=config.blend_epochs)
    for weights in BLEND_GRID:
        if (weights[1] > 0 and not has_root) or (weights[2] > 0 and not has_oracle):
            continue
        net, _, _ = fit_value(data, n_in, sub, np.random.default_rng(config.seed), True, team,
                              y=blend_targets(data, weights, team), train=train, against_results=True)
        ce = cross_entropy(predict_value(net, data, held, n_in), result[held])
        table.append({"result": weights[0], "root": weights[1], "oracle": weights[2], "held_out_ce": ce})
        nets[weights] = net
        _say(quiet, f"blend {weights[0]:.2f} result, {weights[1]:.2f} root, {weights[2]:.2f} oracle: "
                    f"held-out cross-entropy against the results {ce:.4f}")
    if not table:
        raise ValueError("blend auto: no candidate weights fit these records")
    best = min(table, key=lambda r: r["held_out_ce"])
    return (best["result"], best["root"], best["oracle"]), table, nets


def fit_policy(data, n_in, n_actions, n_names, config: TrainConfig, rng, quiet=False):
    """The policy net: its policy head on the full-search records' visit shares only, its
    card heads on every record (the hidden truth labels every record)."""
    config.check_policy_options()
    train, held = split(data)
    slots = (data["labels"].shape[1] - 1)
    net = Net(n_in, config.widths(config.hidden), [n_actions, 16, slots * n_names], rng)
    if config.init:
        warm_start(net, read(config.init).nets["policy"], "policy")
    labels = data["labels"].astype(np.int64)
    full = data["full"].astype(bool) if "full" in data else np.ones(len(labels), bool)
    if config.policy_records == "full":
        train, held = train[full[train]], held[full[held]]
    held_rows = held[:8000]
    if config.epochs and (config.policy_records == "full" or config.keep_best == "policy") and (
            not full[train].any() or not full[held_rows].any()):
        raise ValueError("the policy net would learn from, or be kept by, full-search records, and the "
                         f"{'training' if not full[train].any() else 'held-out'} games have none: "
                         "use --policy-records all --keep-best sum, or records with a policy target")

    def step(rows) -> dict:
        x = dense(data["view_idx"], data["view_ptr"], rows, n_in, config.input_dropout, rng)
        losses, _, grads = policy_loss(net, x, policy_targets(data, rows, n_actions), labels[rows], n_names, True,
                                       full[rows])
        net.step(grads, config.lr, config.weight_decay)
        return losses

    def held_total() -> tuple[float, dict]:
        losses = evaluate_policy(net, data, held_rows, n_in, n_actions, n_names, labels, full)
        return (losses["policy"] if config.keep_best == "policy" else sum(losses.values())), losses

    curve = run_epochs(net, train, config, rng, ("policy", "hostage", "slots"), step, held_total, _named_row,
                       _policy_line, quiet)
    return net, curve


def fit_factored_policy(data: dict, games: list, n_in: int, n_features: int, config: TrainConfig, rng,
                        quiet: bool = False):
    """The policy net of a game that scores action features (hzai.learn.factored): one
    head of `n_features` outputs, trained on the records' visit shares."""
    train, held = split(data)
    if "full" in data:  # a policy target only where a full search made the record
        full = data["full"].astype(bool)
        train, held = train[full[train]], held[full[held]]
    table = ActionTable(data, games)
    net = Net(n_in, config.widths(config.hidden), [n_features], rng)
    if config.init:
        warm_start(net, read(config.init).nets["policy"], "policy")
    held_rows = held[:8000]
    x_held = dense(data["view_idx"], data["view_ptr"], held_rows, n_in)

    def step(rows) -> dict:
        x = dense(data["view_idx"], data["view_ptr"], rows, n_in, config.input_dropout, rng)
        loss, agree, grads = factored_loss(net, x, table, rows, True)
        net.step(grads, config.lr, config.weight_decay)
        return {"policy": loss, "top1": agree}

    def held_values() -> tuple[float, dict]:
        loss, agree = (0.0, 0.0) if not len(held_rows) else factored_loss(net, x_held, table, held_rows, False)[:2]
        return loss, {"policy": loss, "top1": agree}

    curve = run_epochs(net, train, config, rng, ("policy", "top1"), step, held_values, _named_row, _policy_line,
                       quiet)
    return net, curve


def evaluate_policy(net, data, rows, n_in, n_actions, n_names, labels, full=None) -> dict:
    """Held-out losses of `rows`: the policy's mean over the full-search rows among them,
    the card heads' over all of them."""
    full = np.ones(len(labels), bool) if full is None else full
    sums, n, n_full = {"policy": 0.0, "hostage": 0.0, "slots": 0.0}, 0, 0
    for k in range(0, len(rows), 1024):
        part = rows[k:k + 1024]
        x = dense(data["view_idx"], data["view_ptr"], part, n_in)
        losses, _, _ = policy_loss(net, x, policy_targets(data, part, n_actions), labels[part], n_names, False,
                                   full[part])
        m = int(full[part].sum())
        sums["policy"] += losses["policy"] * m
        sums["hostage"] += losses["hostage"] * len(part)
        sums["slots"] += losses["slots"] * len(part)
        n += len(part)
        n_full += m
    return {"policy": sums["policy"] / max(1, n_full), "hostage": sums["hostage"] / max(1, n),
            "slots": sums["slots"] / max(1, n)}


# The phases of the report: (name, least turn, greatest turn); turn 0 is the setup.
PHASES = (("setup", 0, 0), ("turns 1-10", 1, 10), ("turns 11-20", 11, 20), ("turns 21+", 21, 1 << 30))


def phase_report(data: dict, n_in: int, value_net: Net, config: TrainConfig, floor_net: Net | None = None,
                 policy=None, team: bool = False) -> list[dict]:
    """Held-out losses by phase of the game (records' `turn`; records without one make
    a phase "unknown"), over at most config.report_rows held-out records: the value
    cross-entropy against the games' results of a constant (the training records' mean
    result), of the value net, of the oracle label (the labelling model's value net on
    the true state, `oracle_value`) and of the oracle-target net (`floor_net`, trained on
    the oracle value as its target); with `policy` (net, n_actions, n_names), the policy
    head's cross-entropy on the full records and the hostage head's."""
    train, held = split(data)
    held = subsample(held, config.report_rows, 3)
    result = data["result"].astype(np.float32)
    constant = float(np.clip(result[train].mean() if len(train) else 0.5, 1e-6, 1 - 1e-6))
    turn = data["turn"] if "turn" in data else np.full(len(result), -1)
    oracle = first_seat(data, "oracle_value", team) if "oracle_value" in data else np.full(len(result), np.nan)
    p_value = predict_value(value_net, data, held, n_in)
    p_floor = predict_value(floor_net, data, held, n_in) if floor_net is not None else None
    phases = [*PHASES, ("unknown", -1 << 30, -1), ("all", -1 << 30, 1 << 30)]
    out = []
    for name, lo, hi in phases:
        m = (turn[held] >= lo) & (turn[held] <= hi)
        if not m.any():
            continue
        rows, y = held[m], result[held[m]]
        o = oracle[rows]
        row = {"phase": name, "records": int(m.sum()), "constant": cross_entropy(np.full(len(y), constant), y),
               "value_net": cross_entropy(p_value[m], y),
               "oracle_label": cross_entropy(o[~np.isnan(o)], y[~np.isnan(o)]) if (~np.isnan(o)).any() else None,
               "oracle_net": cross_entropy(p_floor[m], y) if p_floor is not None else None}
        if policy is not None:
            net, n_actions, n_names = policy
            labels = data["labels"].astype(np.int64)
            full = data["full"].astype(bool) if "full" in data else np.ones(len(labels), bool)
            losses = evaluate_policy(net, data, rows[:20000], n_in, n_actions, n_names, labels, full)
            row["full_records"] = int(full[rows].sum())
            row["policy"] = losses["policy"] if full[rows[:20000]].any() else None
            row["hostage"] = losses["hostage"]
        out.append(row)
    return out


def phase_table(rows: list[dict]) -> str:
    """The phase report as a text table (held-out cross-entropy; lower is better)."""
    cols = [("records", "{:d}"), ("constant", "{:.4f}"), ("value_net", "{:.4f}"), ("oracle_label", "{:.4f}"),
            ("oracle_net", "{:.4f}"), ("policy", "{:.4f}"), ("hostage", "{:.4f}")]
    cols = [(c, f) for c, f in cols if any(c in r for r in rows)]
    lines = ["phase        " + " ".join(f"{c:>12}" for c, _ in cols)]
    for r in rows:
        cells = [f.format(r[c]) if r.get(c) is not None else "-" for c, f in cols]
        lines.append(f"{r['phase']:<12} " + " ".join(f"{x:>12}" for x in cells))
    return "\n".join(lines)


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict]:
    """Predicted against observed score in `bins` equal-width bins of the prediction."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        m = (p >= lo) & ((p < hi) if b < bins - 1 else (p <= hi))
        if m.any():
            out.append({"bin": [lo, hi], "n": int(m.sum()), "predicted": float(p[m].mean()),
                        "observed": float(y[m].mean())})
    return out


def train_model(game_name: str, folders: list[str], out: str, config: TrainConfig, name: str = "hz",
                version: int = 1, report: str | None = None, quiet: bool = False) -> dict:
    """Train both nets on the records of `folders` and write the model file `out`."""
    game = make_game(game_name)
    if not game.capabilities.model or game.search.native is None:
        raise ValueError(f"game {game_name} has no native features to learn from (capability model)")
    # A game whose policy scores action features (hzai.learn.factored) says so through
    # its twin (the model format is the twin's); a cooperative game's seats share one
    # result (the team value).
    factored = getattr(game.search.native, "policy_kind", None) == "action_features"
    team = game.capabilities.cooperative
    n_in = game.search.native.feature_count()
    data = load(folders)
    if len(data["seat"]) == 0:
        raise ValueError("the self-play folders hold no records")
    layouts = feature_layouts(folders)
    other = {f: layout for f, layout in layouts.items() if layout != game.model.feature_layout}
    if other and game.model.feature_layout:  # said even with --quiet: the model learns from another input
        print(f"warning: features of another layout than today's {game.model.feature_layout!r} in "
              + ", ".join(f"{f} ({layout or 'not named'})" for f, layout in other.items()), file=sys.stderr)
    rng = np.random.default_rng(config.seed)
    started = time.perf_counter()
    weights = config.blend_weights()  # ValueError naming a bad blend, before any training
    config.check_policy_options()
    if config.epochs < 1:  # (a net --train keeps gets 0 passes inside, never from here)
        raise ValueError(f"epochs must be 1 or more, not {config.epochs}")
    if config.init:
        read(config.init)  # ModelError naming a missing or broken file, before any training
    blend: dict = {"chosen_by": "given" if config.blend else "value_mix"}
    kept = replace(config, epochs=0)  # a net --train leaves as --init has it
    value_config = kept if config.train == "policy" else config
    policy_config = kept if config.train == "value" else config
    if config.train == "policy":  # no value net learns: no target to choose
        weights, blend = weights or (1.0, 0.0, 0.0), {"chosen_by": "not trained"}
    if weights is None:
        weights, table, _ = choose_blend(data, n_in, config, quiet, team)
        blend = {"chosen_by": "auto", "table": table, "rows": min(config.blend_rows, len(split(data)[0])),
                 "epochs": config.blend_epochs}
        _say(quiet, f"blend auto chose {weights[0]:.2f} result, {weights[1]:.2f} root, {weights[2]:.2f} oracle")
    blend["weights"] = {"result": weights[0], "root": weights[1], "oracle": weights[2]}
    value_net, value_curve, calib = fit_value(data, n_in, value_config, rng, quiet, team,
                                              y=blend_targets(data, weights, team))
    has_oracle = "oracle_value" in data and bool((~np.isnan(data["oracle_value"])).any())
    floor_net = None
    if config.oracle_floor and has_oracle and config.train != "policy":
        if weights == (0.0, 0.0, 1.0):
            floor_net = value_net
        else:  # trained as the value net is, on the oracle value alone
            floor_net = fit_value(data, n_in, config, np.random.default_rng(config.seed + 1), quiet, team,
                                  y=blend_targets(data, (0.0, 0.0, 1.0), team), label="oracle-target value")[0]
    if factored:
        games = [folder_game(f, game_name) for f in folders]
        policy_net, policy_curve = fit_factored_policy(data, games, n_in, game.search.native.action_feature_count(),
                                                       policy_config, rng, quiet)
    else:
        n_actions, n_names = game.num_actions, len(game.search.native.names)
        policy_net, policy_curve = fit_policy(data, n_in, n_actions, n_names, policy_config, rng, quiet)
    by_phase = phase_report(data, n_in, value_net, config, floor_net,
                            None if factored else (policy_net, n_actions, n_names), team)
    _say(quiet, "held-out cross-entropy by phase (value columns against the games' results):\n"
                + phase_table(by_phase))
    full = data["full"].astype(bool) if "full" in data else np.ones(len(data["seat"]), bool)
    init = ["--init", repo_path(config.init)] if config.init else []
    defaults = TrainConfig()
    for key in ("train", "keep_best", "policy_records", "epochs", "batch", "lr", "minutes", "blend", "seed", "hidden",
                "value_hidden"):
        if getattr(config, key) != getattr(defaults, key):
            init += [f"--{key.replace('_', '-')}", str(getattr(config, key))]
    if not config.oracle_floor:
        init.append("--no-oracle-floor")
    info = {"command": " ".join(["hzai", "train", *map(repo_path, folders), "--out", repo_path(out), *init]),
            "config": {**asdict(config), "init": repo_path(config.init) if config.init else ""}, "data": [repo_path(f) for f in folders],
            "features": game.model.feature_layout,
            "feature_layouts": {repo_path(f): layout for f, layout in layouts.items()}, "records": int(len(data["seat"])),
            "full_records": int(full.sum()), "games": int(len(np.unique(data["game"]))), "blend": blend,
            "by_phase": by_phase, "value_curve": value_curve, "policy_curve": policy_curve,
            "calibration": calib, "seconds": round(time.perf_counter() - started, 1)}
    model = Weights(game.name, name, version, {"value": value_net.export(), "policy": policy_net.export()}, info)
    digest = save(model, out)
    everything = next((r for r in by_phase if r["phase"] == "all"), {})
    result = {"model": model.model_id, "file": out, "sha256": digest, "records": info["records"],
              "full_records": info["full_records"], "games": info["games"], "seconds": info["seconds"],
              "value_held_out": value_curve[-1]["held_out"], "value_ce_results": everything.get("value_net"),
              "blend": blend["weights"], "policy_held_out": policy_curve[-1]["held_out_policy"],
              "hostage_held_out": policy_curve[-1].get("held_out_hostage"),
              "feature_layouts": info["feature_layouts"]}
    if report:
        Path(report).write_text(json.dumps({**result, **info}, indent=1) + "\n")
    return result
