"""benchmarks.hostage_heads: the hostage head's log-loss per record, for a net reading
fewer features than the records hold (the first columns only)."""

from __future__ import annotations

import numpy as np

from benchmarks.hostage_heads import head_log_loss
from hzai.learn.train import Net
from hzai.native.model import Weights


def test_the_loss_reads_the_true_class_and_only_the_net_s_columns():
    rng = np.random.default_rng(0)
    net = Net(4, [3], [5, 16, 2], rng)
    weights = Weights("hera_zeus", "t", 1, {"policy": net.export()})
    # two records: features {0, 2} and {1, 5}; column 5 is beyond what the net reads
    data = {"view_idx": np.array([0, 2, 1, 5], np.int32), "view_ptr": np.array([0, 2, 4]),
            "labels": np.array([[3] + [-1] * 12, [7] + [-1] * 12], np.int32)}
    loss = head_log_loss(data, np.array([0, 1]), weights, 6)
    x = np.array([[1, 0, 1, 0], [0, 1, 0, 0]], np.float32)
    logits = net.forward(x)[0][1]
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose(loss, [-logp[0, 3], -logp[1, 7]], rtol=1e-5)
    assert loss[0] != loss[1]
