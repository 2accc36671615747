"""Training (hzai.learn.train) on a tiny data set the tests make: the losses fall, the
written file loads and fits the game; the hand-written gradients are right."""

from __future__ import annotations

import numpy as np
import pytest

from hzai.native.model import native_model, read
from hzai.learn.train import Net, TrainConfig, policy_loss, train_model, value_loss
from tests.learn.fixtures import hz, selfplay_folder  # noqa: F401 (fixtures)


def test_the_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    n_in, names, slots = 12, 3, 2
    net = Net(n_in, [7, 5], [6, 16, slots * names], rng)
    x = (rng.random((4, n_in)) < 0.4).astype(np.float32)
    target = rng.random((4, 6)).astype(np.float32)
    target /= target.sum(1, keepdims=True)
    labels = np.array([[3, 1, -1], [0, 2, 0], [15, -1, -1], [7, 0, 1]])
    _, _, grads = policy_loss(net, x, target, labels, names, True)
    for k in (0, 1, len(net.params) - 2):  # a trunk weight, a trunk bias, the slot head's weights
        p = net.params[k]
        idx = tuple(rng.integers(0, s) for s in p.shape)
        old = float(p[idx])
        losses = []
        for delta in (1e-3, -1e-3):
            p[idx] = old + delta
            losses.append(sum(policy_loss(net, x, target, labels, names, False)[0].values()))
        p[idx] = old
        numeric = (losses[0] - losses[1]) / 2e-3
        assert grads[k][idx] == pytest.approx(numeric, rel=0.05, abs=2e-4)
    vnet = Net(n_in, [5], [1], rng)
    y = np.array([1.0, 0.0, 0.5, 1.0], np.float32)
    _, _, vgrads = value_loss(vnet, x, y, True)
    p = vnet.params[0]
    idx = (int(np.flatnonzero(x[0])[0]), 2)
    old = float(p[idx])
    p[idx] = old + 1e-3
    up = value_loss(vnet, x, y, False)[0]
    p[idx] = old - 1e-3
    down = value_loss(vnet, x, y, False)[0]
    p[idx] = old
    assert vgrads[0][idx] == pytest.approx((up - down) / 2e-3, rel=0.05, abs=1e-5)


def test_training_on_a_tiny_set_lowers_its_losses_and_writes_a_model_that_loads(selfplay_folder, tmp_path, hz):
    out = tmp_path / "m.npz"
    config = TrainConfig(epochs=3, batch=32, lr=3e-3, hidden="16", value_hidden="8", input_dropout=0.0,
                         check_every=1000)
    result = train_model("hera_zeus", [str(selfplay_folder)], str(out), config, name="t", version=2,
                         report=str(tmp_path / "r.json"), quiet=True)
    weights = read(out)
    assert weights.model_id == "t@2" and result["sha256"]
    curve_v, curve_p = weights.info["value_curve"], weights.info["policy_curve"]
    assert curve_v[-1]["train"] < curve_v[0]["train"]
    assert curve_p[-1]["train_policy"] < curve_p[0]["train_policy"]
    assert curve_p[-1]["train_hostage"] < curve_p[0]["train_hostage"]
    model = native_model(hz, weights)
    assert model.has_value and model.has_policy and model.id == "t@2"


def test_training_refuses_a_folder_without_records(tmp_path):
    with pytest.raises(ValueError, match="no self-play shards"):
        train_model("hera_zeus", [str(tmp_path)], str(tmp_path / "m.npz"), TrainConfig(epochs=1))


def _cheap_data(out):
    """Two cheap self-play games guided by the shipped model: some records full, some not."""
    from hzai.core.registry import make_game
    from hzai.learn.selfplay import SelfplayConfig, load, run
    from hzai.native.model import shipped_path

    run(SelfplayConfig("hera_zeus", games=2, budget=12, seed=31, shard=2, full_share=0.3, keep=1.0), out, threads=1,
        model_path=str(shipped_path(make_game("hera_zeus"))))
    return load([out])


@pytest.mark.parametrize("records, keep_best", [("all", "sum"), ("full", "policy")])
def test_the_policy_net_learns_from_the_records_and_keeps_the_weights_it_is_told(monkeypatch, tmp_path, hz, records,
                                                                                 keep_best):
    """--policy-records full: every training step of the policy net sees full-search
    records only; --keep-best policy: the best weights are kept by the policy head's
    held-out loss alone (sum: policy and card heads together)."""
    import hzai.learn.train as train

    data = _cheap_data(tmp_path / "cheap")
    full = data["full"].astype(bool)
    assert 0 < full.sum() < len(full)
    seen, held_losses = [], []
    real_loss, real_epochs = train.policy_loss, train.run_epochs

    def spy_loss(net, x, target, labels, n_names, grad, full_rows=None):
        if grad:
            seen.append(np.asarray(full_rows, bool).copy())
        return real_loss(net, x, target, labels, n_names, grad, full_rows)

    def spy_epochs(net, rows, config, rng, keys, step, held, *rest, **kw):
        loss, values = held()
        held_losses.append((loss, values))
        return real_epochs(net, rows, config, rng, keys, step, held, *rest, **kw)

    monkeypatch.setattr(train, "policy_loss", spy_loss)
    monkeypatch.setattr(train, "run_epochs", spy_epochs)
    config = TrainConfig(epochs=1, batch=16, hidden="8", input_dropout=0.0, keep_best=keep_best,
                         policy_records=records)
    train.fit_policy(data, hz.search.native.feature_count(), hz.num_actions, len(hz.search.native.names), config,
                     np.random.default_rng(0), quiet=True)
    rows_seen = np.concatenate(seen)
    assert rows_seen.all() if records == "full" else not rows_seen.all()
    loss, values = held_losses[0]
    assert loss == pytest.approx(values["policy"] if keep_best == "policy" else sum(values.values()))
    assert values["hostage"] > 0


def test_bad_policy_options_are_named():
    with pytest.raises(ValueError, match="keep-best must be sum or policy"):
        TrainConfig(keep_best="value").check_policy_options()
    with pytest.raises(ValueError, match="policy-records must be all or full"):
        TrainConfig(policy_records="some").check_policy_options()


@pytest.mark.parametrize("which", ["value", "policy"])
def test_train_one_net_keeps_the_other_as_init_has_it(selfplay_folder, tmp_path, which):
    """--train value / policy: the net not trained is written exactly as --init holds it,
    scored once on the held-out records (an epoch-0 entry); the other one trains."""
    first = tmp_path / "first.npz"
    small = dict(batch=32, hidden="16", value_hidden="8", input_dropout=0.0, check_every=1000, oracle_floor=False)
    train_model("hera_zeus", [str(selfplay_folder)], str(first), TrainConfig(epochs=1, **small), quiet=True)
    out = tmp_path / "second.npz"
    train_model("hera_zeus", [str(selfplay_folder)], str(out),
                TrainConfig(epochs=2, lr=3e-3, init=str(first), train=which, **small), quiet=True)
    a, b = read(first), read(out)
    kept, learned = ("policy", "value") if which == "value" else ("value", "policy")
    same = lambda net: all(np.array_equal(x, y) for (w0, b0), (w1, b1) in zip(a.nets[net]["trunk"] + a.nets[net]["heads"],
                                                                             b.nets[net]["trunk"] + b.nets[net]["heads"])
                           for x, y in ((w0, w1), (b0, b1)))
    assert same(kept)
    assert [e["epoch"] for e in b.info[f"{learned}_curve"]] == [1, 2]  # it learned (its best weights kept)
    curve = b.info[f"{kept}_curve"]
    assert len(curve) == 1 and curve[0]["epoch"] == 0
    with pytest.raises(ValueError, match="give --init"):
        TrainConfig(train=which).check_policy_options()
    with pytest.raises(ValueError, match="train must be both, value or policy"):
        TrainConfig(train="cards").check_policy_options()


def test_options_that_need_full_search_records_refuse_data_without_them(tmp_path):
    """--policy-records full or --keep-best policy over records with no policy target would
    keep the untrained net and report a loss of 0: refused, naming why; so are 0 epochs."""
    from hzai.learn.selfplay import SelfplayConfig, run
    from hzai.native.model import shipped_path
    from hzai.core.registry import make_game

    out = tmp_path / "cheap"
    run(SelfplayConfig("hera_zeus", games=4, budget=12, seed=41, shard=4, full_share=0.0, keep=1.0), out, threads=1,
        model_path=str(shipped_path(make_game("hera_zeus"))))
    small = dict(hidden="8", value_hidden="8", oracle_floor=False)
    for options in ({"policy_records": "full"}, {"keep_best": "policy"}):
        with pytest.raises(ValueError, match="full-search records"):
            train_model("hera_zeus", [str(out)], str(tmp_path / "m.npz"), TrainConfig(epochs=1, **small, **options),
                        quiet=True)
    with pytest.raises(ValueError, match="epochs must be 1 or more"):
        train_model("hera_zeus", [str(out)], str(tmp_path / "m.npz"), TrainConfig(epochs=0, **small), quiet=True)
