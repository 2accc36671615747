"""hzai combine (hzai.learn.combine): the value net of one model beside the policy net of
another, the header naming both sources; files that do not fit are refused by name."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from hzai.learn.combine import combine
from hzai.learn.train import Net
from hzai.native.model import ModelError, Weights, read, save


def _model(path, game="hera_zeus", seed=0, nets=("value", "policy"), version=1):
    rng = np.random.default_rng(seed)
    parts = {"value": Net(6, [4], [1], rng).export(), "policy": Net(6, [5], [3, 2], rng).export()}
    save(Weights(game, "t", version, {n: parts[n] for n in nets}, {"command": "made in a test"}), path)
    return read(path)


def test_the_value_of_one_and_the_policy_of_the_other(tmp_path):
    a, b = _model(tmp_path / "a.npz", seed=1), _model(tmp_path / "b.npz", seed=2, version=2)
    result = combine(str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), str(tmp_path / "c.npz"), "hz", 3)
    c = read(tmp_path / "c.npz")
    assert result["model"] == c.model_id == "hz@3" and (result["value_from"], result["policy_from"]) == ("t@1", "t@2")
    for net, source in (("value", a), ("policy", b)):
        for (w, bias), (w0, b0) in zip(c.nets[net]["trunk"] + c.nets[net]["heads"],
                                       source.nets[net]["trunk"] + source.nets[net]["heads"]):
            np.testing.assert_array_equal(w, w0)
            np.testing.assert_array_equal(bias, b0)
    assert not np.array_equal(c.nets["value"]["trunk"][0][0], b.nets["value"]["trunk"][0][0])
    assert c.info["value_from"]["sha256"] == hashlib.sha256((tmp_path / "a.npz").read_bytes()).hexdigest()
    assert c.info["policy_from"]["model"] == "t@2" and "hzai combine --value" in c.info["command"]
    assert not c.info["value_from"]["file"].startswith("/")


def test_models_that_do_not_fit_are_refused(tmp_path):
    _model(tmp_path / "hz.npz")
    _model(tmp_path / "lg.npz", game="legends")
    _model(tmp_path / "nopolicy.npz", nets=("value",))
    with pytest.raises(ModelError, match="game hera_zeus, the policy net's of legends"):
        combine(str(tmp_path / "hz.npz"), str(tmp_path / "lg.npz"), str(tmp_path / "x.npz"), "hz", 3)
    with pytest.raises(ModelError, match="has no policy net"):
        combine(str(tmp_path / "hz.npz"), str(tmp_path / "nopolicy.npz"), str(tmp_path / "x.npz"), "hz", 3)
    assert not (tmp_path / "x.npz").exists()
