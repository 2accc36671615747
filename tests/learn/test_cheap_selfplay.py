"""Cheap self-play (playout-cap randomisation) and its records: the fast/full split follows
full_share and the seed, policy targets only on full records, resumable with identical
records, the oracle value a label only (look-alike games decide alike), the options
checked with errors that name them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hzai.learn.selfplay import SelfplayConfig, SelfplayError, load, play_shard, run
from tests.learn.fixtures import hz, tiny_model_file  # noqa: F401 (fixtures)


def _same(a: dict, b: dict) -> bool:
    return set(a) == set(b) and all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)


def cheap(**kw) -> SelfplayConfig:
    base = dict(games=4, budget=12, seed=21, shard=4, full_share=0.3, keep=1.0)
    base.update(kw)
    return SelfplayConfig("hera_zeus", **base)


def test_the_split_follows_full_share_and_the_seed_on_one_and_two_threads(tiny_model_file):
    model = str(tiny_model_file)
    one = play_shard(cheap(games=6, shard=6), 0, 1, model)
    assert _same(one, play_shard(cheap(games=6, shard=6), 0, 2, model))  # threads change nothing
    n = len(one["seat"])
    assert n == int(one["decisions"]) > 300  # keep 1: every decision recorded
    share = one["full"].mean()
    assert abs(share - 0.3) < 4 * np.sqrt(0.3 * 0.7 / n), share  # binomial, four standard deviations
    assert int(one["full_decisions"]) == int(one["full"].sum())
    other = play_shard(cheap(games=6, shard=6, seed=22), 0, 1, model)
    assert not np.array_equal(one["full"][:100], other["full"][:100])
    none = play_shard(cheap(full_share=0.0), 0, 1, model)
    assert none["full"].sum() == 0 and int(none["full_decisions"]) == 0


def test_full_share_one_is_todays_records_move_for_move(tiny_model_file):
    today = play_shard(SelfplayConfig("hera_zeus", games=2, budget=12, seed=4, shard=2), 0, 1, str(tiny_model_file))
    assert today["full"].all() and not np.isnan(today["oracle_value"]).any()
    again = play_shard(SelfplayConfig("hera_zeus", games=2, budget=12, seed=4, shard=2, full_share=1.0, keep=0.2,
                                      fast_budget=5), 0, 1, str(tiny_model_file))
    assert _same(today, again)  # fast options mean nothing when every decision is full


def test_policy_targets_and_root_values_on_full_records_only(tiny_model_file):
    for fast_budget in (0, 6):
        data = play_shard(cheap(fast_budget=fast_budget), 0, 1, str(tiny_model_file))
        full = data["full"].astype(bool)
        listed = np.diff(data["policy_ptr"])
        assert full.any() and (~full).any()
        assert (listed[full] > 0).all() and (listed[~full] == 0).all()
        assert np.isnan(data["root_value"][~full]).all() and not np.isnan(data["root_value"][full]).any()
        shares = np.add.reduceat(data["policy_prob"], data["policy_ptr"][:-1][full])
        assert np.allclose(shares, 1.0, atol=1e-4)
        assert ((data["oracle_value"] > 0) & (data["oracle_value"] < 1)).all()  # every record has its oracle
        assert (data["action"] >= 0).all() and (data["turn"] >= 0).all()
        assert (data["turn"][data["move"] == 0] == 0).all()  # the first decision is the setup
        assert data["turn"].max() > 10


def test_keep_records_a_share_of_the_fast_decisions(tiny_model_file):
    data = play_shard(cheap(games=8, shard=8, keep=0.25), 0, 2, str(tiny_model_file))
    fast_kept = int((data["full"] == 0).sum())
    fast_all = int(data["decisions"]) - int(data["full_decisions"])
    assert int(data["full"].sum()) == int(data["full_decisions"])  # every full decision kept
    assert abs(fast_kept / fast_all - 0.25) < 4 * np.sqrt(0.25 * 0.75 / fast_all), (fast_kept, fast_all)
    # The kept decisions are a subset of the same game's decisions with keep 1 (same moves).
    every = play_shard(cheap(games=8, shard=8, keep=1.0), 0, 2, str(tiny_model_file))
    key = lambda d: set(zip(d["game"].tolist(), d["move"].tolist(), d["action"].tolist()))  # noqa: E731
    assert key(data) <= key(every)


def test_a_stopped_cheap_run_resumes_to_the_same_records(tmp_path, tiny_model_file):
    config = cheap(games=4, shard=2, keep=0.5, fast_budget=0)
    whole, part = tmp_path / "whole", tmp_path / "part"
    run(config, whole, threads=1, model_path=str(tiny_model_file))
    run(cheap(games=2, shard=2, keep=0.5), part, threads=1, model_path=str(tiny_model_file))  # stopped after shard 0
    summary = run(config, part, threads=1, model_path=str(tiny_model_file))
    assert summary["new_shards"] == 1 and summary["games"] == 2
    assert _same(load([whole]), load([part]))
    with pytest.raises(SelfplayError, match="full_share 0.3 -> 0.2"):
        run(cheap(games=4, shard=2, keep=0.5, full_share=0.2), part, threads=1, model_path=str(tiny_model_file))


def _look_alike_starts(hz, seed: int):
    """Two deals the first seat cannot tell apart: the second seat's hand differs by a card
    swapped with one of its deck (another name, never its hostage)."""
    a = hz.search.native_start(seed)
    raw = a.get_raw()
    names = [c.name for c in hz.deck.cards]
    hostage = hz.deck.hostage_id[1]
    hand, deck = raw["hands"][1], raw["decks"][1]
    i, j = next((i, j) for i in range(len(hand)) for j in range(len(deck))
                if hostage not in (hand[i], deck[j]) and names[hand[i]] != names[deck[j]])
    hand[i], deck[j] = deck[j], hand[i]
    raw["hands"][1] = sorted(hand)
    b = hz.search.native_start(seed)
    b.set_raw(raw)
    return a, b


@pytest.mark.parametrize("full_share", [1.0, 0.0])
def test_the_oracle_is_a_label_only_look_alike_deals_decide_alike(hz, tiny_model_file, full_share):
    """The first seat's first decision in two deals that differ only in the other seat's
    hidden cards: the same view, move and policy target, while the oracle value (the
    value net on the true state) and the state features differ."""
    from hzai.learn.selfplay import bot_spec
    from hzai.native.model import load_cached

    model = load_cached(hz, str(tiny_model_file))[1]
    spec = bot_spec(hz, 16, model)
    compared = 0
    for seed in (1, 2, 3):
        a, b = _look_alike_starts(hz, seed)
        ga, gb = hz.search.native.selfplay(spec, model, [a, b], [seed, seed], threads=1, full_share=full_share, keep=1.0)
        ra = {k: ga[k] for k in ("view_idx", "view_ptr", "state_idx", "state_ptr", "policy_action", "policy_prob",
                                 "action", "oracle_value", "seat")}
        rb = {k: gb[k] for k in ra}
        assert ra["seat"][0] == rb["seat"][0] == 0
        view = lambda r: r["view_idx"][r["view_ptr"][0]:r["view_ptr"][1]].tolist()  # noqa: E731
        state = lambda r: r["state_idx"][r["state_ptr"][0]:r["state_ptr"][1]].tolist()  # noqa: E731
        assert view(ra) == view(rb) and state(ra) != state(rb)
        assert ra["action"][0] == rb["action"][0]
        assert np.array_equal(ra["policy_action"][:40], rb["policy_action"][:40])
        assert np.array_equal(ra["policy_prob"][:40], rb["policy_prob"][:40])
        assert ra["oracle_value"][0] != rb["oracle_value"][0]
        compared += 1
    assert compared == 3


def test_no_search_code_can_read_the_oracle():
    """The oracle value lives in the record alone: no native file but the self-play loop
    and the function that turns its records into arrays names it, and the loop only
    writes it, from the referee's state, into the record. (Legends' Oracle is a card of
    that game, not this label: the field's name is what is searched for.)"""
    native = Path(__file__).resolve().parents[2] / "hzai" / "native"
    games = Path(__file__).resolve().parents[2] / "hzai" / "games"
    writers = {"selfplay.hpp", "py_nets.hpp"}
    sources = [*native.rglob("*.hpp"), *native.rglob("*.cpp"), *games.rglob("*.hpp"), *games.rglob("*.cpp")]
    assert len(sources) > 20
    for path in sources:
        if path.name not in writers:
            assert "oracle_value" not in path.read_text(), path
    code = "\n".join(line.split("//")[0] for line in (native / "search" / "selfplay.hpp").read_text().splitlines())
    uses = re.findall(r"[^\n]*oracle_value[^\n]*", code)
    assert len(uses) == 2 and all(re.search(r"(rec\.oracle_value = |float oracle_value = )", u) for u in uses), uses
    arrays = (native / "learn" / "py_nets.hpp").read_text()
    assert re.findall(r"[^\n]*oracle_value[^\n]*", arrays) == ["    oracle.push_back(r.oracle_value);",
                                                                  '  d["oracle_value"] = array_of(oracle);']


def test_policy_only_needs_a_model_with_a_policy(tmp_path):
    with pytest.raises(SelfplayError, match="need a model with a policy net"):
        run(cheap(), tmp_path / "o", threads=1)
    with pytest.raises(SelfplayError, match="hera_zeus only"):
        play_shard(SelfplayConfig("legends", games=1, budget=5, full_share=0.5, fast_budget=3), 0, 1)


@pytest.mark.parametrize("args, message", [
    (["--full-share", "1.5"], "full-share must be within 0..1"),
    (["--keep", "-0.1"], "keep must be within 0..1"),
    (["--fast-budget", "-1"], "fast-budget must be within"),
    (["--full-share", "0.1"], "need a model with a policy net"),
])
def test_the_command_names_bad_cheap_options(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "hzai.cli", "selfplay", "--out", str(tmp_path / "o"), "--quiet",
                           *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_the_command_plays_cheap_games_and_reports_games_an_hour(tmp_path, tiny_model_file):
    done = subprocess.run([sys.executable, "-m", "hzai.cli", "selfplay", "--games", "6", "--budget", "10", "--shard",
                           "3", "--model", str(tiny_model_file), "--full-share", "0.1", "--keep", "0.2", "--out",
                           str(tmp_path / "o"), "--threads", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 6 and summary["decisions"] > summary["records"] > 0
    assert summary["full_decisions"] < summary["decisions"] / 3
    assert "games/hour" in done.stderr
    meta = json.loads((tmp_path / "o" / "meta.json").read_text())
    assert meta["full_share"] == 0.1 and meta["keep"] == 0.2 and meta["fast_budget"] == 0


def test_the_oracle_is_the_value_net_on_the_true_state(hz, tiny_model_file):
    """The first decision's record is made at the deal itself: its oracle value is the
    model's value of that state for the deciding seat."""
    from hzai.learn.selfplay import bot_spec
    from hzai.native.model import load_cached

    model = load_cached(hz, str(tiny_model_file))[1]
    for seed in (3, 4):
        start = hz.search.native_start(seed)
        game = hz.search.native.selfplay(bot_spec(hz, 8, model), model, [start], [seed], threads=1, full_share=0.0)[0]
        seat = int(game["seat"][0])
        assert game["turn"][0] == 0 and game["oracle_value"][0] == pytest.approx(model.values(start)[seat], abs=1e-5)


# ----- training on cheap records ---------------------------------------------------------
@pytest.fixture(scope="module")
def cheap_folder(tmp_path_factory, tiny_model_file):
    out = tmp_path_factory.mktemp("cheap") / "c"
    run(cheap(games=30, shard=15, full_share=0.2, keep=0.3, budget=10), out, threads=2,
        model_path=str(tiny_model_file))
    return out


def test_blend_targets_renormalise_over_the_parts_a_record_has():
    from hzai.learn.train import blend_targets, value_targets

    data = {"result": np.array([1.0, 0.0, 1.0, 0.5], np.float32), "seat": np.array([0, 1, 1, 0]),
            "full": np.array([1, 0, 1, 0], np.uint8),
            "root_value": np.array([0.6, np.nan, 0.3, np.nan], np.float32),
            "oracle_value": np.array([0.8, 0.4, np.nan, np.nan], np.float32)}
    y = blend_targets(data, (0.2, 0.4, 0.4))
    # record 0: all parts; 1: no root (fast), oracle 0.4 for seat 1 -> 0.6; 2: no oracle, root
    # 0.3 for seat 1 -> 0.7; 3: the result alone
    assert y == pytest.approx([0.2 * 1 + 0.4 * 0.6 + 0.4 * 0.8, (0.2 * 0 + 0.4 * 0.6) / 0.6,
                               (0.2 * 1 + 0.4 * 0.7) / 0.6, 0.5], abs=1e-6)
    assert blend_targets(data, (0.0, 0.0, 1.0))[3] == pytest.approx(0.5)  # nothing weighted: its result
    assert value_targets(data, 0.8) == pytest.approx(blend_targets(data, (0.2, 0.8, 0.0)))


def test_the_policy_head_learns_from_full_records_only():
    from hzai.learn.train import Net, policy_loss

    rng = np.random.default_rng(1)
    net = Net(10, [6], [5, 16, 2 * 3], rng)
    x = (rng.random((6, 10)) < 0.4).astype(np.float32)
    target = np.zeros((6, 5), np.float32)
    full = np.array([1, 0, 1, 0, 0, 1], bool)
    target[full] = rng.dirichlet(np.ones(5), int(full.sum()))
    labels = np.array([[3, 1, -1], [0, 2, 0], [15, -1, -1], [7, 0, 1], [2, 1, 1], [9, -1, 0]])
    masked, _, grads = policy_loss(net, x, target, labels, 3, True, full)
    alone, _, grads_alone = policy_loss(net, x[full], target[full], labels[full], 3, True)
    assert masked["policy"] == pytest.approx(alone["policy"], rel=1e-6)
    head = 2 * len(net.trunk)  # the policy head's weights in the parameter list
    assert np.allclose(grads[head], grads_alone[head], atol=1e-6)  # the fast rows give it nothing
    every = policy_loss(net, x, target, labels, 3, False)[0]
    assert masked["hostage"] == pytest.approx(every["hostage"])  # the card heads see every record


def test_blend_auto_picks_from_the_grid_and_reports_losses_by_phase(cheap_folder, tmp_path):
    from hzai.learn.train import BLEND_GRID, TrainConfig, train_model

    config = TrainConfig(epochs=1, batch=64, hidden="16", value_hidden="8", blend="auto", blend_epochs=1,
                         check_every=1000)
    report = tmp_path / "r.json"
    result = train_model("hera_zeus", [str(cheap_folder)], str(tmp_path / "m.npz"), config, report=str(report),
                         quiet=True)
    info = json.loads(report.read_text())
    table = info["blend"]["table"]
    assert info["blend"]["chosen_by"] == "auto" and len(table) == len(BLEND_GRID)
    assert {(r["result"], r["root"], r["oracle"]) for r in table} == set(BLEND_GRID)
    best = min(table, key=lambda r: r["held_out_ce"])
    assert result["blend"] == {"result": best["result"], "root": best["root"], "oracle": best["oracle"]}
    assert 0 < info["full_records"] < info["records"]
    phases = {r["phase"]: r for r in info["by_phase"]}
    assert {"setup", "turns 1-10", "turns 11-20", "all"} <= set(phases)
    assert sum(r["records"] for name, r in phases.items() if name != "all") == phases["all"]["records"]
    for r in phases.values():
        assert all(r[k] > 0 for k in ("constant", "value_net", "oracle_label", "oracle_net", "hostage"))
    assert phases["all"]["value_net"] == pytest.approx(result["value_ce_results"])


def test_given_blend_weights_are_used_and_a_bad_blend_is_named(cheap_folder, tmp_path):
    from hzai.learn.train import TrainConfig

    assert TrainConfig(blend="1,1,2").blend_weights() == (0.25, 0.25, 0.5)
    assert TrainConfig().blend_weights() == pytest.approx((0.2, 0.8, 0.0))
    done = subprocess.run([sys.executable, "-m", "hzai.cli", "train", str(cheap_folder), "--out",
                           str(tmp_path / "m.npz"), "--blend", "0.5,x"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "blend must be auto or" in done.stderr and "Traceback" not in done.stderr
