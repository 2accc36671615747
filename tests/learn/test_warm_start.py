"""Warm starts (hzai train --init, hzai.learn.warm): a net seeded by an earlier model that
reads fewer features computes that model's function exactly, its new features' rows start
at zero, and a model whose layers do not fit is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from hzai.learn.train import Net, TrainConfig, train_model
from hzai.learn.warm import WarmStartError, warm_start
from hzai.native.model import read
from tests.learn.fixtures import hz, selfplay_folder  # noqa: F401 (fixtures)


def _earlier(n_in: int, rng) -> dict:
    net = Net(n_in, [6, 4], [5, 2], rng)
    return net.export()


def test_a_wider_input_starts_with_the_earlier_function_and_zero_new_rows():
    rng = np.random.default_rng(3)
    earlier = _earlier(10, rng)
    net = Net(14, [6, 4], [5, 2], np.random.default_rng(4))
    warm_start(net, earlier, "policy")
    assert not net.trunk[0][0][10:].any()  # the 4 new features' rows
    old = Net(10, [6, 4], [5, 2], np.random.default_rng(5))
    warm_start(old, earlier, "policy")
    x_old = (rng.random((8, 10)) < 0.5).astype(np.float32)
    x_new = np.concatenate([x_old, np.ones((8, 4), np.float32)], axis=1)  # new features on: still no effect
    for a, b in zip(net.forward(x_new)[0], old.forward(x_old)[0]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    # training can move the new rows (they are parameters like any other)
    assert any(p is net.trunk[0][0] for p in net.params)


@pytest.mark.parametrize("widths,heads,match", [
    ([7, 4], [5, 2], "first layer is 10 x 6, this one 14 x 7"),
    ([6, 3], [5, 2], "trunk layer 1"),
    ([6, 4], [5, 3], "head 1"),
    ([6], [5, 2], "2 trunk layers and 2 heads, this one 1 and 2"),
])
def test_a_net_that_does_not_fit_is_refused_by_name(widths, heads, match):
    earlier = _earlier(10, np.random.default_rng(3))
    with pytest.raises(WarmStartError, match=match):
        warm_start(Net(14, widths, heads, np.random.default_rng(4)), earlier, "policy")
    with pytest.raises(WarmStartError, match="may read no more features"):
        warm_start(Net(8, [6, 4], [5, 2], np.random.default_rng(4)), earlier, "value")


def test_train_init_starts_from_the_model_and_names_it(selfplay_folder, tmp_path, hz):
    config = TrainConfig(epochs=1, batch=32, hidden="16", value_hidden="8", input_dropout=0.0, check_every=1000,
                         oracle_floor=False)
    first = tmp_path / "first.npz"
    train_model("hera_zeus", [str(selfplay_folder)], str(first), config, name="t", version=1, quiet=True)
    tiny = TrainConfig(epochs=1, batch=32, lr=1e-9, hidden="16", value_hidden="8", input_dropout=0.0,
                       check_every=1000, oracle_floor=False, init=str(first))
    second = tmp_path / "second.npz"
    train_model("hera_zeus", [str(selfplay_folder)], str(second), tiny, name="t", version=2, quiet=True)
    a, b = read(first), read(second)
    # a step of 1e-9 leaves the warm weights where the first model's were (float16 in the file)
    for net in ("value", "policy"):
        np.testing.assert_allclose(b.nets[net]["trunk"][0][0], a.nets[net]["trunk"][0][0], atol=2e-3)
    assert "--init" in b.info["command"] and not b.info["config"]["init"].startswith("/")
    bad = TrainConfig(epochs=1, hidden="32", value_hidden="8", init=str(first), oracle_floor=False)
    with pytest.raises(WarmStartError, match="policy net's first layer"):
        train_model("hera_zeus", [str(selfplay_folder)], str(tmp_path / "x.npz"), bad, quiet=True)


def test_train_init_starts_a_factored_policy_from_the_model_too(tmp_path):
    """Legends' policy scores action features (fit_factored_policy): --init seeds it as well."""
    import json

    from hzai.learn.selfplay import SelfplayConfig, run

    out = tmp_path / "sp"
    run(SelfplayConfig("legends", games=2, budget=12, seed=5, shard=2,
                       params=json.dumps({"mission": 1, "seats": 2})), out, threads=1)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    config = TrainConfig(epochs=1, batch=32, hidden="16", value_hidden="8", oracle_floor=False)
    train_model("legends", [str(out)], str(first), config, name="t", quiet=True)
    warm = TrainConfig(epochs=1, batch=32, lr=1e-9, seed=7, hidden="16", value_hidden="8", oracle_floor=False,
                       init=str(first))  # another seed: random first weights would differ
    train_model("legends", [str(out)], str(second), warm, name="t", version=2, quiet=True)
    a, b = read(first), read(second)
    for net in ("value", "policy"):
        np.testing.assert_allclose(b.nets[net]["trunk"][0][0], a.nets[net]["trunk"][0][0], atol=2e-3)
