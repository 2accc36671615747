"""One model from the nets of two (`hzai combine`): the value net of one model file and
the policy net (with its card-location heads) of another, written as a new model with
its own name and version. A round of training can improve one net and not the other
(hz@3: the value net learned from 702,000 cheap games scored 55% against hz@2 at 200
iterations, its policy net 48.5%); the kept model then takes the better of each. The
header records both sources (paths relative to the repository, the models' ids and
SHA-256 of their files) and the command."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hzai.learn.paths import repo_path
from hzai.native.model import ModelError, Weights, read, save


def _source(path: str, weights: Weights) -> dict:
    return {"file": repo_path(path), "model": weights.model_id,
            "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest()}


def combine(value_from: str, policy_from: str, out: str, name: str, version: int) -> dict:
    """Write `out`: `value_from`'s value net beside `policy_from`'s policy net; ModelError
    when a file lacks its net or the two are models of different games."""
    v, p = read(value_from), read(policy_from)
    if v.game != p.game:
        raise ModelError(f"the value net's model is of game {v.game}, the policy net's of {p.game}")
    for weights, net, path in ((v, "value", value_from), (p, "policy", policy_from)):
        if net not in weights.nets:
            raise ModelError(f"model file {path!r} ({weights.model_id}) has no {net} net")
    info = {"command": " ".join(["hzai", "combine", "--value", repo_path(value_from), "--policy",
                                 repo_path(policy_from), "--out", repo_path(out), "--name", name,
                                 "--version", str(version)]),
            "value_from": {**_source(value_from, v), "info": v.info},
            "policy_from": {**_source(policy_from, p), "info": p.info}}
    model = Weights(v.game, name, version, {"value": v.nets["value"], "policy": p.nets["policy"]}, info)
    digest = save(model, out)
    return {"model": model.model_id, "file": out, "sha256": digest, "value_from": v.model_id,
            "policy_from": p.model_id}
