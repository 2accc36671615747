"""Training the learned search's nets on self-play records, with numpy alone.

The nets are small (a few hundred thousand weights): a ReLU trunk over the sparse 0/1
features, linear heads, Adam. Backpropagation is written out by hand here, so training
needs nothing beyond numpy, which hzai already depends on (docs/learning.md says why no
framework): a fresh clone trains on its CPU with no extra download.

- The value net reads a full state's features and predicts the first seat's score of
  the game (win 1, draw 0.5): binary cross-entropy.
- The policy net reads the deciding seat's view features; head 0 predicts the root's
  visit shares over action ids (cross-entropy against them), head 1 the opponent's
  hostage class, head 2 the name of each opponent field card the view hides
  (cross-entropy where a label is given, -1 elsewhere).
Games whose number ends in 0 are held out: their losses are the validation curves.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from hzai.learn.paths import repo_path
from hzai.native.model import Weights, save


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
    out = np.zeros((len(rows), n_in), np.float32)
    for i, r in enumerate(rows):
        out[i, idx[ptr[r]:ptr[r + 1]]] = 1.0
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


def policy_loss(net: Net, x, target, labels, n_names: int, grad: bool):
    """target: dense visit shares (B x actions); labels: B x (1 + slots)."""
    outs, acts = net.forward(x)
    B = len(x)
    lp = log_softmax(outs[0])
    l_pol = float(-(target * lp).sum(1).mean())
    d_pol = (np.exp(lp) - target) / B
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


def value_targets(data: dict, mix: float, team: bool = False) -> np.ndarray:
    """The first seat's score to learn: the game's result blended with the root's value
    (the deciding seat's, turned to the first seat's): far less noisy than the result
    alone, which a net over a few thousand games learns by heart. In a team game
    (`team`: every seat shares the result) the root's value is the team's as it is."""
    root = data["root_value"] if team else np.where(data["seat"] == 0, data["root_value"], 1.0 - data["root_value"])
    return ((1.0 - mix) * data["result"] + mix * root).astype(np.float32)


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
    best, (best_loss, _), steps, curve = net.snapshot(), held(), 0, []
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


def fit_value(data, n_in, config: TrainConfig, rng, quiet=False, team: bool = False):
    train, held = split(data)
    net = Net(n_in, config.widths(config.value_hidden), [1], rng)
    y = value_targets(data, config.value_mix, team)
    result = data["result"].astype(np.float32)
    x_held = dense(data["state_idx"], data["state_ptr"], held, n_in)

    def step(rows) -> dict:
        x = dense(data["state_idx"], data["state_ptr"], rows, n_in, config.input_dropout, rng)
        loss, _, grads = value_loss(net, x, y[rows], True)
        net.step(grads, config.lr, config.weight_decay)
        return {"train": loss}

    def held_loss() -> tuple[float, dict]:
        loss = value_loss(net, x_held, y[held], False)[0]
        return loss, {"held_out": loss}

    curve = run_epochs(net, train, config, rng, ("train",), step, held_loss,
                       lambda e, t, h, best: {"epoch": e, "train": t["train"], "held_out": h["held_out"], "best": best},
                       lambda r: f"value epoch {r['epoch']}: train {r['train']:.4f}, held out {r['held_out']:.4f} "
                                 f"(best {r['best']:.4f})", quiet)
    _, p_held, _ = value_loss(net, x_held, y[held], False)
    return net, curve, calibration(p_held, result[held])


def fit_policy(data, n_in, n_actions, n_names, config: TrainConfig, rng, quiet=False):
    train, held = split(data)
    slots = (data["labels"].shape[1] - 1)
    net = Net(n_in, config.widths(config.hidden), [n_actions, 16, slots * n_names], rng)
    labels = data["labels"].astype(np.int64)
    held_rows = held[:8000]

    def step(rows) -> dict:
        x = dense(data["view_idx"], data["view_ptr"], rows, n_in, config.input_dropout, rng)
        losses, _, grads = policy_loss(net, x, policy_targets(data, rows, n_actions), labels[rows], n_names, True)
        net.step(grads, config.lr, config.weight_decay)
        return losses

    def held_total() -> tuple[float, dict]:
        losses = evaluate_policy(net, data, held_rows, n_in, n_actions, n_names, labels)
        return sum(losses.values()), losses

    curve = run_epochs(net, train, config, rng, ("policy", "hostage", "slots"), step, held_total, _named_row,
                       _policy_line, quiet)
    return net, curve


def fit_factored_policy(data: dict, games: list, n_in: int, n_features: int, config: TrainConfig, rng,
                        quiet: bool = False):
    """The policy net of a game that scores action features (hzai.learn.factored): one
    head of `n_features` outputs, trained on the records' visit shares."""
    from hzai.learn.factored import ActionTable, factored_loss

    train, held = split(data)
    table = ActionTable(data, games)
    net = Net(n_in, config.widths(config.hidden), [n_features], rng)
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


def evaluate_policy(net, data, rows, n_in, n_actions, n_names, labels) -> dict:
    sums, n = {"policy": 0.0, "hostage": 0.0, "slots": 0.0}, 0
    for k in range(0, len(rows), 1024):
        part = rows[k:k + 1024]
        x = dense(data["view_idx"], data["view_ptr"], part, n_in)
        losses, _, _ = policy_loss(net, x, policy_targets(data, part, n_actions), labels[part], n_names, False)
        for key in sums:
            sums[key] += losses[key] * len(part)
        n += len(part)
    return {k: v / max(1, n) for k, v in sums.items()}


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
    from hzai.core.registry import make_game
    from hzai.learn.selfplay import load

    from hzai.learn.selfplay import folder_game

    game = make_game(game_name)
    if not game.capabilities.model or game.native is None:
        raise ValueError(f"game {game_name} has no native features to learn from (capability model)")
    # A game whose policy scores action features (hzai.learn.factored) says so through
    # its twin (the model format is the twin's); a cooperative game's seats share one
    # result (the team value).
    factored = getattr(game.native, "policy_kind", None) == "action_features"
    team = game.capabilities.cooperative
    n_in = game.native.feature_count()
    data = load(folders)
    if len(data["seat"]) == 0:
        raise ValueError("the self-play folders hold no records")
    rng = np.random.default_rng(config.seed)
    started = time.perf_counter()
    value_net, value_curve, calib = fit_value(data, n_in, config, rng, quiet, team)
    if factored:
        games = [folder_game(f, game_name) for f in folders]
        policy_net, policy_curve = fit_factored_policy(data, games, n_in, game.native.action_feature_count(), config,
                                                       rng, quiet)
    else:
        n_actions, n_names = game.num_actions, len(game.native.names)
        policy_net, policy_curve = fit_policy(data, n_in, n_actions, n_names, config, rng, quiet)
    info = {"command": " ".join(["hzai", "train", *map(repo_path, folders), "--out", repo_path(out)]),
            "config": asdict(config), "data": [repo_path(f) for f in folders], "records": int(len(data["seat"])),
            "games": int(len(np.unique(data["game"]))), "value_curve": value_curve, "policy_curve": policy_curve,
            "calibration": calib, "seconds": round(time.perf_counter() - started, 1)}
    weights = Weights(game.name, name, version, {"value": value_net.export(), "policy": policy_net.export()}, info)
    digest = save(weights, out)
    result = {"model": weights.model_id, "file": out, "sha256": digest, "records": info["records"],
              "games": info["games"], "seconds": info["seconds"], "value_held_out": value_curve[-1]["held_out"],
              "policy_held_out": policy_curve[-1]["held_out_policy"],
              "hostage_held_out": policy_curve[-1].get("held_out_hostage")}
    if report:
        Path(report).write_text(json.dumps({**result, **info}, indent=1) + "\n")
    return result
