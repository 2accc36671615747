"""Legends' beliefs from partners' play (issue 32, item 3; docs/learning.md, "Beliefs"):
the card labels a record holds, the card net of a model file, the worlds it weighs, and
`ismcts:cards=1` searching them: from the seat's view only, reproducible, the native
arena playing the same games as the Python loop."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hzai import _native
from hzai.core import Limits
from hzai.games.legends.game import DEFAULT_HEROES, LegendsGame
from hzai.games.legends.native.twin import native_state, native_view
from hzai.games.legends.parts import LegendsModel
from hzai.games.legends.view import LegendsView
from hzai.rng import SplitMix64
from hzai.search.bot import make_bot
from tests.legends.helpers import game as legends_game
from tests.learn.test_legends_learned import _decision

CLASSES = 4


def _game(mission=1, seats=2):
    return legends_game(mission, tuple(DEFAULT_HEROES[:seats]))


def card_weights(seed: int = 0, sure: tuple[int, int] | None = None, temper: float = 1.0):
    """A tiny Legends model with a card net of random weights; `sure` (label, class): the
    head all but sure of that class there, flat elsewhere; `temper` in its header."""
    from hzai.learn.train import Net
    from hzai.native.model import Weights

    g = _game()
    rng = np.random.default_rng(seed)
    n_in = g.search.native.feature_count()
    L = g.search.native.card_labels
    value = Net(n_in, [6], [1], rng)
    policy = Net(n_in, [8], [g.search.native.action_feature_count()], rng)
    cards = Net(n_in, [8], [L * CLASSES], rng)
    w, b = cards.heads[0]
    w += rng.standard_normal(w.shape).astype(np.float32)
    if sure is not None:
        w[...] = 0.0
        b[...] = 0.0
        label, cls = sure
        b[label * CLASSES + cls] = 8.0
    return Weights("legends", "tiny-cards", 1, {"value": value.export(), "policy": policy.export(),
                                                "cards": cards.export()}, {"made": "tests", "cards": {"temper": temper}})


def _native_model(weights):
    from hzai.native.model import native_model

    return native_model(_game(), weights)


@pytest.fixture()
def learned(monkeypatch, tmp_path):
    from hzai.native.model import save

    path = tmp_path / "cards.npz"
    save(card_weights(), path)
    monkeypatch.setattr(LegendsModel, "file", path)
    return path


def test_the_card_labels_are_each_partners_hand_by_kind_and_never_the_seats_own():
    for mission, seats in ((1, 2), (3, 4), (6, 3)):
        g = _game(mission, seats)
        kinds = len(g.data.kinds)
        for seed in range(3):
            state = _decision(g, seed=30 + seed, upto=5 + 3 * seed)
            for seat in range(seats):
                got = g.search.native.hidden_labels(native_state(state), seat)
                assert len(got) == 4 * 9
                for r in range(1, 5):
                    p = (seat + r) % seats
                    for k in range(9):
                        label = got[(r - 1) * 9 + k]
                        if r >= seats or k >= kinds:
                            assert label == -1
                        else:
                            held = sum(state.t.kind[c] == k for c in state.t.hands[p])
                            assert label == min(3, held), (mission, seats, seat, r, k)


def test_self_play_records_hold_the_card_labels_reproducibly(tmp_path):
    from hzai.learn.selfplay import SelfplayConfig, load, run

    config = SelfplayConfig("legends", games=2, budget=8, seed=11, shard=2,
                            params=json.dumps({"mission": 3, "seats": 3}))
    run(config, tmp_path / "a", threads=1)
    run(config, tmp_path / "b", threads=2)
    a, b = load([tmp_path / "a"]), load([tmp_path / "b"])
    labels = a["labels"]
    assert labels.shape[1] == 36 and np.array_equal(labels, b["labels"])
    g = _game(3, 3)
    kinds = len(g.data.kinds)
    assert (labels[:, :kinds] >= 0).all() and (labels[:, 9:9 + kinds] >= 0).all()  # two partners
    assert (labels[:, 18:] == -1).all() and (labels[:, kinds:9] == -1).all()
    assert len({tuple(r) for r in labels}) > 10


def test_a_card_net_loads_from_the_model_file_and_a_game_that_reads_none_refuses_it(tmp_path):
    from hzai.core.registry import make_game
    from hzai.native.model import ModelError, Weights, native_model, read, save

    path = tmp_path / "m.npz"
    save(card_weights(), path)
    weights = read(path)
    assert set(weights.nets) == {"value", "policy", "cards"}
    model = native_model(_game(), weights)
    assert model.has_cards and model.has_value and model.has_policy
    state = _decision(_game())
    probs = model.card_probs(native_view(LegendsView.of(state, state.current_seat)))
    assert len(probs) == 36 and all(abs(sum(row) - 1.0) < 1e-9 for row in probs)
    bad = card_weights()
    bad.nets["cards"]["heads"][0] = (np.zeros((7, 8), np.float32), np.zeros(7, np.float32))
    with pytest.raises(ModelError, match="card net needs one head of 144"):
        native_model(_game(), bad)
    hz = Weights("hera_zeus", "x", 1, {"cards": weights.nets["cards"]}, {})
    with pytest.raises(ModelError, match="has a card net, which game hera_zeus does not read"):
        native_model(make_game("hera_zeus"), hz)


def test_no_peeking_the_card_model_and_its_worlds_read_the_seats_view_only():
    """Worlds drawn from a seat's view put other cards in the partners' hands; the card
    net's output and the weighted pool are the same from each."""
    model = _native_model(card_weights())
    g = _game(3, 4)
    differed = 0
    for seed in range(3):
        state = _decision(g, seed=50 + seed, upto=8)
        seat = state.current_seat
        view = LegendsView.of(state, seat)
        probs, pools = set(), set()
        for world_seed in (1, 2, 3):
            world = view.sample(world_seed)
            differed += any(sorted(world.t.kind[i] for i in world.t.hands[p])
                            != sorted(state.t.kind[i] for i in state.t.hands[p]) for p in range(g.n) if p != seat)
            seen = native_view(LegendsView.of(world, seat))
            probs.add(tuple(map(tuple, model.card_probs(seen))))
            pools.add(tuple(model.card_view(seen, 40, 99)[1]))
        assert len(probs) == 1 and len(pools) == 1
    assert differed >= 2


def _label_shares(g, view, seeds, seat, label):
    counts = np.zeros(CLASSES)
    for s in seeds:
        counts[g.search.native.hidden_labels(_native.legends_sample(view, s), seat)[label]] += 1
    return counts / counts.sum()


def test_temper_0_leaves_the_pool_as_drawn_and_a_sure_net_moves_it():
    """Weights are the net's probability over the pool's own frequency, to the power
    temper: at 0 every world is kept once; a net sure of one class makes it more common,
    the more so the higher the power."""
    g = _game(1, 2)
    state = _decision(g, seed=3, upto=4)
    seat = state.current_seat
    view = native_view(LegendsView.of(state, seat))
    pool = 120
    _, seeds = _native_model(card_weights()).card_view(view, pool, 5, 0.0)
    assert len(seeds) == pool and len(set(seeds)) == pool
    _, seeds = _native_model(card_weights()).card_view(view, pool, 5)
    assert len(set(seeds)) < pool  # weighted: some worlds twice, some not at all
    # the label whose class varies most over the uniform pool, made sure of its rarest class
    rng = SplitMix64(8)
    uniform_seeds = [rng.next_u64() for _ in range(pool)]
    shares = {label: _label_shares(g, view, uniform_seeds, seat, label) for label in range(9)}
    label = max(shares, key=lambda l: 1.0 - shares[l].max())
    cls = min((c for c in range(CLASSES) if shares[label][c] > 0), key=lambda c: shares[label][c])
    sure = _native_model(card_weights(sure=(label, cls)))
    assert sure.card_temper == 1.0
    _, kept = sure.card_view(view, pool, 5)
    after = _label_shares(g, view, kept, seat, label)
    assert after[cls] > shares[label][cls] + 0.3, (label, cls, shares[label], after)
    assert sure.card_view(view, pool, 5)[1] == kept  # reproducible
    _, milder = _native_model(card_weights(sure=(label, cls), temper=0.3)).card_view(view, pool, 5)
    assert shares[label][cls] < _label_shares(g, view, milder, seat, label)[cls] < after[cls]


def test_ismcts_cards_1_searches_the_weighted_worlds_reproducibly(learned):
    g = _game(3, 4)
    state = _decision(g, seed=21, upto=7)
    view = LegendsView.of(state, state.current_seat)

    def root(spec):
        a = make_bot(spec).decide(view, Limits(iterations=80), seed=4).analysis
        return [(g.move_text(m.move), m.visits, round(m.value, 9)) for m in a.moves]

    assert make_bot("ismcts:cards=1").guide(g).cards and not make_bot("ismcts").guide(g).cards
    assert root("ismcts:cards=1") == root("ismcts:cards=1")
    differs = [root(f"ismcts:cards={c}") for c in (0, 1)]
    assert differs[0] != differs[1]  # other worlds, other statistics


def test_the_native_arena_plays_ismcts_cards_1_as_the_python_loop(learned):
    from hzai.search.arena import native_arena, native_team_results, play_team_game

    params = {"mission": 3, "heroes": ["Perseus", "Atalanta", "Hercules"]}
    from hzai.core.registry import make_game

    game = make_game("legends", **params)
    limits = Limits(iterations=14)
    bots = native_arena(game, ["ismcts:cards=1"], limits)
    assert bots is not None and bots[0].use_cards
    native = native_team_results(game, bots[0], [0, 1], 4400, threads=2, keep_actions=True)
    for i, got in enumerate(native):
        want = play_team_game("legends", params, "ismcts:cards=1", i, limits, 4400, keep_actions=True)
        assert got is not None and got.actions == want.actions, f"game {i}: the actions differ"


def test_train_cards_adds_a_card_net_and_keeps_the_rest(tmp_path):
    from hzai.learn.cards import add_card_net
    from hzai.learn.selfplay import SelfplayConfig, run
    from hzai.learn.train import TrainConfig
    from hzai.native.model import read, save

    data = tmp_path / "sp"
    run(SelfplayConfig("legends", games=10, budget=6, seed=70, shard=5,
                       params=json.dumps({"mission": 1, "seats": 3})), data, threads=2)
    base = tmp_path / "base.npz"
    weights = card_weights()
    del weights.nets["cards"]
    save(weights, base)
    out = tmp_path / "with.npz"
    result = add_card_net("legends", str(base), [str(data)], str(out),
                          TrainConfig(epochs=2, hidden="16", batch=32, check_every=5), version=2, quiet=True,
                          temper=0.5)
    made = read(out)
    assert made.model_id == "tiny-cards@2" and made.info["cards"]["temper"] == 0.5
    assert len(made.nets["cards"]["heads"]) == 1
    from hzai.native.model import native_model

    assert native_model(_game(), made).card_temper == 0.5
    for net in ("value", "policy"):
        for (w, b), (w0, b0) in zip(made.nets[net]["trunk"], read(base).nets[net]["trunk"]):
            assert np.array_equal(w, w0) and np.array_equal(b, b0)
    assert result["held_out"] > 0 and result["base_rate_held_out"] > 0
    with pytest.raises(ValueError, match="is for game"):
        bad = tmp_path / "hz.npz"
        from hzai.native.model import Weights

        save(Weights("hera_zeus", "x", 1, {}, {}), bad)
        add_card_net("legends", str(bad), [str(data)], str(tmp_path / "no.npz"), TrainConfig(epochs=1), quiet=True)


def test_a_net_far_from_the_pool_still_weighs_it_without_overflow():
    """The weights are shifted by their largest tempered log before exp: a net whose log
    ratios are all very negative (here every class nearly impossible) still gives a pool
    of drawn worlds, not an overflow."""
    g = _game(3, 4)
    state = _decision(g, seed=3, upto=6)
    view = native_view(LegendsView.of(state, state.current_seat))
    weights = card_weights()
    w, b = weights.nets["cards"]["heads"][0]
    w[...] = 0.0
    b[...] = -900.0
    b[::CLASSES] = 0.0  # class 0 sure everywhere: every other class at about e^-900
    _, kept = _native_model(weights).card_view(view, 60, 2, 0.3)
    rng = SplitMix64(2)  # the pool's worlds are drawn with the card view's seed's generator
    drawn = [rng.next_u64() for _ in range(60)]
    seat = state.current_seat

    def zeros(s):
        return sum(c == 0 for c in g.search.native.hidden_labels(_native.legends_sample(view, s), seat))

    best = max(zeros(s) for s in drawn)
    assert zeros(drawn[-1]) < best  # (an overflow left the pool as copies of the last world)
    assert len(kept) == 60 and set(kept) <= set(drawn) and all(zeros(s) == best for s in kept)
