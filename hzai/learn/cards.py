"""The card-location net of Legends (docs/learning.md, "Beliefs"): for every partner
and kind, how many cards of that kind the partner holds, learned from self-play records
labelled with the truth.

The net reads the seat's own view features (the same as the value and policy nets) and
has one head of `card_classes` logits a label (a softmax each), trained with the masked
cross-entropy of the labels the record holds (-1: no such partner or kind). The search
weighs each world the sampler draws by the net's probability of its partners' hands over
the pool's own frequency of them, to the power `temper` (kept in the file's header). The game's
twin says the sizes (`card_labels`, `card_classes`); the model file keeps the net under
`cards/`, beside the value and policy nets, which stay as they are (the blueprint the
partners play is unchanged), and the core evaluates it when it weighs the worlds.

Held-out figures: the net's cross-entropy, and the same of the base rates (each label's
class frequencies in the training rows, the best a model that ignores the view can do).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from hzai.core.registry import make_game
from hzai.learn.paths import repo_path
from hzai.learn.selfplay import load
from hzai.learn.train import Net, TrainConfig, dense, log_softmax, run_epochs, split
from hzai.native.model import Weights, native_model, read, save

# The power of the worlds' weights: chosen on deals 770000.. (benchmarks/legends_beliefs.py,
# docs/learning.md "Beliefs"), where 0.3 fitted the partners' hands best.
DEFAULT_TEMPER = 0.3


def card_loss(net: Net, x: np.ndarray, labels: np.ndarray, classes: int, grad: bool):
    """Mean cross-entropy over the labels given (-1 masked), and the gradients."""
    outs, acts = net.forward(x)
    B, L = labels.shape
    ls = log_softmax(outs[0].reshape(B, L, classes))
    mask = labels >= 0
    count = max(1, int(mask.sum()))
    safe = np.maximum(labels, 0)
    picked = np.take_along_axis(ls, safe[:, :, None], axis=2)[:, :, 0]
    loss = float(-(picked * mask).sum() / count)
    if not grad:
        return loss, None
    d = np.exp(ls)
    d[np.arange(B)[:, None], np.arange(L)[None, :], safe] -= 1.0
    d *= mask[:, :, None]
    return loss, net.backward(acts, [(d / count).reshape(B, L * classes).astype(np.float32)])


def base_rate_loss(labels_train: np.ndarray, labels_held: np.ndarray, classes: int) -> float:
    """The held-out cross-entropy of each label's class frequencies in the training rows."""
    L = labels_train.shape[1]
    freq = np.ones((L, classes))  # add-one
    for c in range(classes):
        freq[:, c] += (labels_train == c).sum(0)
    logp = np.log(freq / freq.sum(1, keepdims=True))
    mask = labels_held >= 0
    picked = logp[np.arange(L)[None, :], np.maximum(labels_held, 0)]
    return float(-(picked * mask).sum() / max(1, int(mask.sum())))


def fit_card_net(data: dict, n_in: int, labels_n: int, classes: int, config: TrainConfig, rng,
                 quiet: bool = False) -> tuple[Net, dict]:
    """(net, figures): the card net over a seat's view features, trained on the records'
    labels (games whose number ends in 0 held out)."""
    labels = data["labels"]
    if labels.ndim != 2 or labels.shape[1] < labels_n:
        raise ValueError(f"the records hold {labels.shape[1] if labels.ndim == 2 else 0} labels each, not the "
                         f"{labels_n} of the card net: make them again with this version's self-play")
    labels = labels[:, :labels_n]  # records of 2026-12-07 hold a second group (a uniform world's), unused
    labels = labels.astype(np.int64)
    train, held = split(data)
    if not len(train) or not len(held):
        raise ValueError("the card net needs training and held-out games (game numbers ending in 0 are held out)")
    started = time.perf_counter()
    held = held[:20000]
    x_held = dense(data["view_idx"], data["view_ptr"], held, n_in)
    net = Net(n_in, config.widths(config.hidden), [labels_n * classes], rng)

    def step(rows) -> dict:
        x = dense(data["view_idx"], data["view_ptr"], rows, n_in, config.input_dropout, rng)
        loss, grads = card_loss(net, x, labels[rows], classes, True)
        net.step(grads, config.lr, config.weight_decay)
        return {"cards": loss}

    def held_loss() -> tuple[float, dict]:
        loss, _ = card_loss(net, x_held, labels[held], classes, False)
        return loss, {"cards": loss}

    curve = run_epochs(net, train, config, rng, ("cards",), step, held_loss,
                       lambda e, t, h, best: {"epoch": e, "train": t["cards"], "held_out": h["cards"], "best": best},
                       lambda r: f"card net epoch {r['epoch']}: train {r['train']:.4f}, held out "
                                 f"{r['held_out']:.4f} (best {r['best']:.4f})", quiet)
    figures = {"curve": curve, "held_out": min(c["best"] for c in curve),
               "base_rate_held_out": base_rate_loss(labels[train], labels[held], classes),
               "records": int(len(labels)), "held_out_records": int(len(held)),
               "seconds": round(time.perf_counter() - started, 1)}
    return net, figures


def add_card_net(game_name: str, model_file: str, folders: list[str], out: str, config: TrainConfig,
                 version: int | None = None, report: str | None = None, quiet: bool = False,
                 temper: float = DEFAULT_TEMPER) -> dict:
    """Write `out`: the model of `model_file` with its card net (re)trained on the
    labelled records of `folders`; its value and policy nets unchanged. `temper`: the
    power of the worlds' weights the search uses with it (0..10)."""
    if not 0.0 <= temper <= 10.0:
        raise ValueError(f"temper must be within 0..10, not {temper}")
    game = make_game(game_name)
    native = game.search.native if game.capabilities.model else None
    if native is None or not hasattr(native, "card_labels"):
        raise ValueError(f"game {game_name} has no card-location model to train (its twin names no card_labels)")
    weights = read(model_file)
    if weights.game != game.name:
        raise ValueError(f"model {weights.model_id} is for game {weights.game!r}, not {game.name!r}")
    data = load(folders)
    rng = np.random.default_rng(config.seed)
    net, figures = fit_card_net(data, native.feature_count(), native.card_labels, native.card_classes, config, rng,
                                quiet)
    nets = {**weights.nets, "cards": net.export()}
    info = {**weights.info, "cards": {"command": " ".join(["hzai", "train-cards", *map(repo_path, [model_file, *folders]),
                                                           "--out", repo_path(out)]),
                                      "data": [repo_path(f) for f in folders], "config": asdict(config), "temper": temper,
                                      **{k: v for k, v in figures.items() if k != "curve"}}}
    made = Weights(weights.game, weights.name, weights.version if version is None else version, nets, info)
    native_model(game, made)  # the core takes it (ModelError naming what does not fit)
    digest = save(made, out)
    result = {"model": made.model_id, "file": out, "sha256": digest, "records": figures["records"],
              "held_out": figures["held_out"], "base_rate_held_out": figures["base_rate_held_out"],
              "temper": temper, "seconds": figures["seconds"]}
    if report:
        Path(report).write_text(json.dumps({**result, "curve": figures["curve"]}, indent=1) + "\n")
    return result
