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
    a = hz.native_start(seed)
    raw = a.get_raw()
    names = [c.name for c in hz.deck.cards]
    hostage = hz.deck.hostage_id[1]
    hand, deck = raw["hands"][1], raw["decks"][1]
    i, j = next((i, j) for i in range(len(hand)) for j in range(len(deck))
                if hostage not in (hand[i], deck[j]) and names[hand[i]] != names[deck[j]])
    hand[i], deck[j] = deck[j], hand[i]
    raw["hands"][1] = sorted(hand)
    b = hz.native_start(seed)
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
        ga, gb = hz.native.selfplay(spec, model, [a, b], [seed, seed], threads=1, full_share=full_share, keep=1.0)
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
