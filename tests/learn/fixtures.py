"""Small models and self-play folders for the learned-search tests, made by the tests
(imported by the test modules: a conftest.py here would shadow tests/belief's, which
is imported by its bare name)."""

from __future__ import annotations

import numpy as np
import pytest

from hzai.core.registry import make_game


def tiny_weights(game, seed: int = 0, hidden: int = 8, value_hidden=(6, 4)):
    """A random model of the game's sizes with narrow layers (quick to build and read)."""
    from hzai.native.model import Weights
    from hzai.learn.train import Net

    rng = np.random.default_rng(seed)
    n_in = game.search.native.feature_count()
    value = Net(n_in, list(value_hidden), [1], rng)
    slots = 12 * len(game.search.native.names)
    policy = Net(n_in, [hidden], [game.num_actions, 16, slots], rng)
    for net in (value, policy):  # random heads, so outputs differ from move to move
        for w, b in net.heads:
            w += rng.standard_normal(w.shape).astype(np.float32) * 0.5
            b += rng.standard_normal(b.shape).astype(np.float32) * 0.1
    return Weights(game.name, "tiny", 1, {"value": value.export(), "policy": policy.export()}, {"made": "tests"})


@pytest.fixture(scope="session")
def hz():
    return make_game("hera_zeus")


@pytest.fixture(scope="session")
def tiny_model_file(tmp_path_factory, hz):
    from hzai.native.model import save

    path = tmp_path_factory.mktemp("models") / "tiny.npz"
    save(tiny_weights(hz), path)
    return path


@pytest.fixture(scope="session")
def selfplay_folder(tmp_path_factory):
    """Six short self-play games (budget 30), two shards."""
    from hzai.learn.selfplay import SelfplayConfig, run

    out = tmp_path_factory.mktemp("selfplay") / "r0"
    run(SelfplayConfig("hera_zeus", games=6, budget=30, seed=11, shard=3), out, threads=2)
    return out
