"""Self-play records (hzai selfplay): reproducible for a seed, the same on 1 and 2
threads and after a resume, the right shape; a folder of another run is refused."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from hzai.learn.selfplay import SelfplayConfig, SelfplayError, load, play_shard, run
from tests.learn.fixtures import hz, selfplay_folder  # noqa: F401 (fixtures)


def _same(a: dict, b: dict) -> bool:
    # float arrays NaN-aware: the oracle value is NaN in records played without a model
    return set(a) == set(b) and all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)


def test_records_are_reproducible_for_a_seed_and_the_same_on_one_and_two_threads():
    config = SelfplayConfig("hera_zeus", games=4, budget=20, seed=5, shard=4)
    one, again, two = play_shard(config, 0, 1), play_shard(config, 0, 1), play_shard(config, 0, 2)
    assert _same(one, again) and _same(one, two)
    other = play_shard(SelfplayConfig("hera_zeus", games=4, budget=20, seed=6, shard=4), 0, 1)
    assert not np.array_equal(one["view_idx"][:200], other["view_idx"][:200])


def test_a_record_holds_features_visits_value_labels_and_result(selfplay_folder, hz):
    data = load([selfplay_folder])
    n = len(data["seat"])
    assert n > 50 and len(np.unique(data["game"])) == 6
    assert len(data["view_ptr"]) == n + 1 and data["view_ptr"][-1] == len(data["view_idx"])
    assert data["view_idx"].max() < hz.search.native.feature_count() and data["state_idx"].max() < hz.search.native.feature_count()
    shares = np.add.reduceat(data["policy_prob"], data["policy_ptr"][:-1])
    assert np.allclose(shares, 1.0, atol=1e-4)  # the root visits, as shares
    assert data["policy_action"].max() < hz.num_actions
    assert set(np.unique(data["result"])) <= {0.0, 0.5, 1.0}
    assert ((data["root_value"] >= 0) & (data["root_value"] <= 1)).all()
    assert data["labels"].shape == (n, 13) and ((data["labels"][:, 0] >= 0) & (data["labels"][:, 0] < 16)).all()
    assert data["explored"][data["move"] >= 8].sum() == 0  # exploration covers the first 8 decisions only


def test_a_stopped_run_resumes_to_the_same_records(tmp_path):
    config = SelfplayConfig("hera_zeus", games=4, budget=15, seed=3, shard=2)
    whole = tmp_path / "whole"
    run(config, whole, threads=1)
    part = tmp_path / "part"
    run(SelfplayConfig("hera_zeus", games=2, budget=15, seed=3, shard=2), part, threads=1)  # stopped after shard 0
    summary = run(config, part, threads=1)  # resumed: only shard 1 is played
    assert summary["new_shards"] == 1
    assert _same(load([whole]), load([part]))


def test_a_folder_of_another_run_is_refused(tmp_path):
    run(SelfplayConfig("hera_zeus", games=1, budget=5, seed=1, shard=1), tmp_path, threads=1)
    with pytest.raises(SelfplayError, match="budget 5 -> 6"):
        run(SelfplayConfig("hera_zeus", games=1, budget=6, seed=1, shard=1), tmp_path, threads=1)


def test_a_folder_of_another_feature_layout_is_refused_and_training_says_so(tmp_path, capsys):
    """meta.json names the features' layout (game.model.feature_layout); a folder made under
    another one (or before layouts were named) is not resumed into, and `hzai train`
    warns when it learns from one, naming the folder."""
    from hzai.core.registry import make_game
    from hzai.learn.selfplay import feature_layouts
    from hzai.learn.train import TrainConfig, train_model

    layout = make_game("hera_zeus").model.feature_layout
    config = SelfplayConfig("hera_zeus", games=2, budget=5, seed=1, shard=1)
    run(config, tmp_path / "f", threads=1)
    meta_path = tmp_path / "f" / "meta.json"
    meta = json.loads(meta_path.read_text())
    assert layout and meta["features"] == layout
    assert feature_layouts([tmp_path / "f"]) == {str(tmp_path / "f"): layout}
    del meta["features"]  # as a folder made before the layout was named
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(SelfplayError, match=f"features None -> '{layout}'"):
        run(config, tmp_path / "f", threads=1)
    capsys.readouterr()
    info = train_model("hera_zeus", [str(tmp_path / "f")], str(tmp_path / "m.npz"),
                       TrainConfig(epochs=1, hidden="8", value_hidden="8", oracle_floor=False), quiet=True)
    assert "features of another layout" in capsys.readouterr().err
    assert list(info["feature_layouts"].values()) == [None]


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "games must be within"),
    (["--budget", "-3"], "budget must be within"),
    (["--model", "/no/such/model.npz"], "model.npz"),
])
def test_the_command_names_bad_input_in_one_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "hzai.cli", "selfplay", "--out", str(tmp_path / "o"), "--quiet",
                           *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_command_writes_shards_and_a_summary(tmp_path):
    done = subprocess.run([sys.executable, "-m", "hzai.cli", "selfplay", "--games", "2", "--budget", "10", "--shard",
                           "1", "--out", str(tmp_path / "o"), "--threads", "1"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["shards"] == 2 and summary["records"] > 0
    assert "shard 2/2" in done.stderr  # the progress bar
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["meta.json", "shard-00000.npz", "shard-00001.npz"]


def test_any_count_of_folders_loads_with_unique_game_numbers_and_the_first_split(selfplay_folder):
    """The shift between folders once doubled with each folder and overflowed an int64
    past about 60 folders (a round of expert iteration over 102 folders failed). Each
    folder's games stay distinct, and the held-out split (number % 10) is the one the
    first shift gave, so a model trained before is trained again on the same games."""
    one = load([selfplay_folder])
    games = len(np.unique(one["game"]))
    many = load([selfplay_folder] * 80)
    assert len(np.unique(many["game"])) == 80 * games
    assert int(many["game"].max()) < 80 * (int(one["game"].max()) + 1) + 10 * 80
    legacy = 0  # the first version's shift, exact
    for copy in range(80):
        mine = many["game"][many["folder"] == copy]
        assert np.array_equal(mine % 10, (one["game"] + legacy % 10) % 10), copy
        legacy += legacy + int(one["game"].max()) + 1
