"""Model files (hzai.native.model): checked on load, evaluated in C++ as numpy evaluates
them, refused with a clear error when broken."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Record, deal
from hzai.native.model import ModelError, native_model, read, save
from hzai.learn.train import Net
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.native.state import NativeState
from tests.learn.fixtures import hz, tiny_model_file, tiny_weights  # noqa: F401 (fixtures)


def _numpy_net(part: dict) -> Net:
    net = Net.__new__(Net)
    net.trunk = [[w, b] for w, b in part["trunk"]]
    net.heads = [[w, b] for w, b in part["heads"]]
    return net


def _dense(idx, n):
    x = np.zeros((1, n), np.float32)
    x[0, idx] = 1.0
    return x


def test_a_saved_model_reads_back_with_its_id_and_checksum(tmp_path, hz):
    weights = tiny_weights(hz)
    digest = save(weights, tmp_path / "m.npz")
    back = read(tmp_path / "m.npz")
    assert back.model_id == "tiny@1" and back.game == "hera_zeus" and back.info == {"made": "tests"}
    assert len(digest) == 64 and set(back.nets) == {"value", "policy"}


def test_cpp_evaluates_the_model_as_numpy_does(tiny_model_file, hz):
    """The numbers the search uses are the numbers training computes: value, policy over
    the legal moves and the card heads, on positions of a real game."""
    weights = read(tiny_model_file)
    model = native_model(hz, weights)
    value, policy = _numpy_net(weights.nets["value"]), _numpy_net(weights.nets["policy"])
    n = hz.search.native.feature_count()
    state = Record(hz, setup=deal(hz, 4)).start()
    checked = 0
    from hzai.rng import SplitMix64

    rng = SplitMix64(4)
    for _ in range(60):
        if state.is_over:
            break
        if state.is_chance:
            state.apply(hz.search.draw_chance(state, rng))
            continue
        core = NativeState.from_state(state).core
        z = value.forward(_dense(hz.search.native.state_features(core), n))[0][0][0, 0]
        assert model.values(core)[0] == pytest.approx(1 / (1 + np.exp(-z)), abs=1e-5)
        view = view_of(state, state.to_move)
        spec = flat_view(view, hz)
        outs = policy.forward(_dense(hz.search.native.view_features(spec), n))[0]
        legal = sorted(hz.action_of(m) for m in view.legal_moves())
        logits = outs[0][0, legal]
        expected = np.exp(logits - logits.max())
        assert model.policy(hz.search.native, spec, legal) == pytest.approx(expected / expected.sum(), abs=1e-5)
        hostage, slots = model.cards(hz.search.native, spec)
        h = np.exp(outs[1][0] - outs[1][0].max())
        assert hostage == pytest.approx(h / h.sum(), abs=1e-5)
        assert len(slots) == 12 * len(hz.search.native.names) and sum(slots) == pytest.approx(12, abs=1e-4)
        checked += 1
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])
    assert checked > 20


def _rewrite(path, out, change):
    """`path` rewritten with `change(arrays, header)` applied, the header kept as it was."""
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    header = json.loads(bytes(arrays.pop("header")).decode())
    change(arrays, header)
    buf = io.BytesIO()
    np.savez(buf, header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8), **arrays)
    out.write_bytes(buf.getvalue())
    return out


def test_a_model_with_a_wrong_checksum_is_refused(tiny_model_file, tmp_path):
    def tamper(arrays, header):
        arrays["value/head/0/b"] = arrays["value/head/0/b"] + np.float32(1.0)

    bad = _rewrite(tiny_model_file, tmp_path / "bad.npz", tamper)
    with pytest.raises(ModelError, match="checksum mismatch"):
        read(bad)


def test_a_model_whose_shapes_do_not_match_its_header_is_refused(tiny_model_file, tmp_path):
    def tamper(arrays, header):
        arrays["value/trunk/1/b"] = np.zeros(5, np.float32)

    with pytest.raises(ModelError, match="shapes do not match"):
        read(_rewrite(tiny_model_file, tmp_path / "bad.npz", tamper))


def test_a_model_of_the_wrong_size_for_the_game_is_refused(tmp_path, hz):
    from hzai.native.model import Weights

    rng = np.random.default_rng(1)
    small = Net(100, [4], [1], rng)  # reads 100 features; the game has more
    save(Weights("hera_zeus", "small", 1, {"value": small.export()}), tmp_path / "small.npz")
    with pytest.raises(ModelError, match=r"does not fit game hera_zeus: the value net reads 100 features, the game has "
                                         r"\d+ \(1920 without the history\)"):
        native_model(hz, read(tmp_path / "small.npz"))


def test_a_model_of_another_game_is_refused(tmp_path, hz):
    weights = tiny_weights(hz)
    weights.game = "legends"
    save(weights, tmp_path / "other.npz")
    with pytest.raises(ModelError, match="is for game 'legends'"):
        native_model(hz, read(tmp_path / "other.npz"))


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04garbage"])
def test_a_file_that_is_no_model_is_refused(tmp_path, content):
    path = tmp_path / "x.npz"
    path.write_bytes(content)
    with pytest.raises(ModelError, match="not a model"):
        read(path)


def test_a_missing_model_file_is_named(tmp_path):
    with pytest.raises(ModelError, match="nope.npz"):
        read(tmp_path / "nope.npz")


def test_a_guided_arena_without_its_model_is_refused(hz):
    from hzai import _native

    bot = _native.BotSpec(2, 10, model=0, use_value=True)
    with pytest.raises(ValueError, match="names a model"):
        hz.search.native.arena([bot], [hz.search.native_start(1)], [1], [[0, 0]])


def test_a_model_file_written_again_at_its_path_is_read_again(tmp_path, hz):
    """load_cached keys on the file's version, not its path alone: a training round that
    rewrites its model in place (benchmarks.exploit resuming) must not play the old one."""
    from hzai.native.model import load_cached
    from tests.learn.fixtures import tiny_weights

    path = tmp_path / "round.npz"
    first = tiny_weights(hz, seed=1)
    first.version = 1
    save(first, path)
    assert load_cached(hz, path)[0].version == 1
    assert load_cached(hz, path)[1] is load_cached(hz, path)[1]  # read once while unchanged
    second = tiny_weights(hz, seed=2)
    second.version = 2
    path.unlink()
    save(second, path)
    assert load_cached(hz, path)[0].version == 2
