"""A model header records how the model was made with paths relative to the
repository, never the absolute paths of the machine that trained it (`hzai train`,
`hzai train-cards`): the header travels with the file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hzai.learn.paths import REPOSITORY, repo_path
from hzai.native.model import read, save
from tests.learn.fixtures import selfplay_folder  # noqa: F401 (fixture)


def _no_absolute_path(text: str) -> None:
    for word in text.split():
        assert not os.path.isabs(word), f"an absolute path in the header: {word!r}"


def _no_absolute_string(info) -> None:
    """No string anywhere in the header's info (its command's words too) is an absolute path."""
    if isinstance(info, dict):
        for value in info.values():
            _no_absolute_string(value)
    elif isinstance(info, list):
        for value in info:
            _no_absolute_string(value)
    elif isinstance(info, str):
        _no_absolute_path(info)


def test_repo_path_is_relative_to_the_repository_inside_and_outside_it(tmp_path, monkeypatch):
    assert REPOSITORY.joinpath("hzai").is_dir()
    inside = REPOSITORY / "hzai" / "games" / "legends" / "models" / "legends.npz"
    assert repo_path(inside) == "hzai/games/legends/models/legends.npz"
    outside = tmp_path / "records" / "m1"
    rel = repo_path(outside)
    assert not os.path.isabs(rel) and rel.startswith("..")
    assert (REPOSITORY / rel).resolve() == outside.resolve()  # it still names the same folder
    monkeypatch.chdir(tmp_path)  # a relative path is read from the working folder, as the command did
    assert (REPOSITORY / repo_path("records/m1")).resolve() == outside.resolve()


def test_hzai_train_writes_repository_relative_paths(selfplay_folder, tmp_path):  # noqa: F811
    from hzai.learn.train import TrainConfig, train_model

    out = tmp_path / "m.npz"
    config = TrainConfig(epochs=1, batch=32, hidden="8", value_hidden="4", check_every=1000)
    train_model("hera_zeus", [str(selfplay_folder.resolve())], str(out.resolve()), config, name="t", quiet=True)
    info = read(out).info
    _no_absolute_path(info["command"])
    # the options that differ from the defaults follow, so that the command makes the model again
    assert info["command"] == (f"hzai train {repo_path(selfplay_folder)} --out {repo_path(out)}"
                               " --epochs 1 --batch 32 --hidden 8 --value-hidden 4")
    assert info["data"] == [repo_path(selfplay_folder)]
    assert (REPOSITORY / info["data"][0]).resolve() == Path(selfplay_folder).resolve()
    _no_absolute_string(info)


def test_hzai_train_cards_writes_repository_relative_paths(tmp_path):
    from hzai.learn.cards import add_card_net
    from hzai.learn.selfplay import SelfplayConfig, run
    from hzai.learn.train import TrainConfig
    from tests.learn.test_legends_cards import card_weights

    data = tmp_path / "sp"
    run(SelfplayConfig("legends", games=4, budget=6, seed=71, shard=4, params=json.dumps({"mission": 1, "seats": 2})),
        data, threads=1)
    base = tmp_path / "base.npz"
    weights = card_weights()
    del weights.nets["cards"]
    save(weights, base)
    out = tmp_path / "with.npz"
    add_card_net("legends", str(base.resolve()), [str(data.resolve())], str(out.resolve()),
                 TrainConfig(epochs=1, hidden="8", batch=32, check_every=5), quiet=True)
    cards = read(out).info["cards"]
    _no_absolute_path(cards["command"])
    assert cards["command"] == f"hzai train-cards {repo_path(base)} {repo_path(data)} --out {repo_path(out)}"
    assert cards["data"] == [repo_path(data)]
    _no_absolute_string(cards)
