"""Legends' history features (legends_learn.cpp, encode_history; docs/learning.md, "Beliefs
from partners' play"): the C++ encoding equals the Python reference over random games of
every seat count and several missions, through both ways a native view is made (the twin
from a reference view, and the seats' tracker the arena and self-play follow a game
with); no peeking (a seat's features are the same in every world drawn from its view,
and two games it cannot tell apart give it the same features); and a net reads the
table's features alone or all of them, another count refused naming both."""

from __future__ import annotations

import numpy as np
import pytest

from hzai.games.legends.game import DEFAULT_HEROES
from hzai.games.legends.native.twin import native_view, view_spec
from hzai.games.legends.view import LegendsView
from hzai.rng import SplitMix64
from tests.learn import legends_reference as reference
from tests.legends.helpers import game as legends_game
from tests.legends.helpers import play, start

# (mission, seats, games): every seat count, the missions with specials (5: forced recover,
# 6 and 7: the hand under a pile), 60 + 60 + 60 + 40 + 40 + 30 + 20 = 310 games.
SETTINGS = [(1, 2, 60), (3, 3, 60), (2, 4, 60), (5, 3, 40), (6, 2, 40), (7, 4, 30), (4, 5, 20)]


def _game(mission: int, seats: int):
    return legends_game(mission, tuple(DEFAULT_HEROES[:seats]))


def _walk(g, seed: int, every: int):
    """A game of uniformly random moves and chance outcomes from new_state(seed), yielding
    the state (and the action ids so far) every `every` moves and at the end."""
    s = g.new_state(seed)
    rng = SplitMix64(seed)
    actions = []
    while not s.is_terminal:
        if len(actions) % every == 0:
            yield s, list(actions)
        options = [o for o, _ in s.chance_outcomes()] if s.is_chance else s.legal_moves()
        move = options[rng.below(len(options))]
        actions.append(g.action_of(move))
        s.apply(move)
    yield s, list(actions)


@pytest.mark.parametrize("mission,seats,games", SETTINGS)
def test_history_features_of_cpp_and_python_are_equal_over_random_games(mission, seats, games):
    g = _game(mission, seats)
    L = reference.layout()
    assert g.search.native.feature_count() == L["total"] and g.search.native.table_feature_count() == L["table"]
    views = active = 0
    kinds_seen = set()
    for seed in range(games):
        for state, actions in _walk(g, 5000 + seed, every=9):
            followed = g.search.native.followed_view_features(g.search.native_start(5000 + seed), actions)
            for seat in range(g.n):
                view = LegendsView.of(state, seat)
                native = g.search.native.view_features(native_view(view))
                expected = reference.view_features(view)
                assert native == expected, (mission, seats, seed, len(actions), seat)
                assert followed[seat] == expected, ("followed", mission, seats, seed, len(actions), seat)
                history = [i for i in native if i >= L["history"]]
                assert history == g.search.native.history_features(native_view(view))
                assert all(i < L["total"] for i in native)
                active += len(history)
                kinds_seen.update((i - L["history"]) % L["hist_stride"] for i in history if i < L["unseen"])
                # what the seat cannot place: one feature a kind, one total, one a partner
                assert sum(i >= L["unseen"] for i in history) in (0, 9 + 1 + g.n - 1)
                views += 1
    assert views >= games * seats * 2 and active > views  # the history is there
    # Every block of the partner's history was met somewhere.
    blocks = sorted((L[k], k) for k in L if k.startswith("h_"))
    met = {max((at, name) for at, name in blocks if at <= x)[1] for x in kinds_seen}
    wanted = {"h_last", "h_count", "h_played", "h_support_to", "h_support_n", "h_received", "h_known"}
    assert wanted <= met, wanted - met


def test_the_blocks_the_random_games_rarely_reach_are_met_too():
    """The Oracle's choice and the attributes a partner did not fight with, over games of
    three seats (the random team rarely meets every block in a short test)."""
    g = _game(1, 3)
    L = reference.layout()
    met = set()
    for seed in range(40):
        for state, _ in _walk(g, 7000 + seed, every=7):
            for seat in range(g.n):
                view = LegendsView.of(state, seat)
                native = g.search.native.view_features(native_view(view))
                assert native == reference.view_features(view)
                met.update((i - L["history"]) % L["hist_stride"] for i in native if L["history"] <= i < L["unseen"])
    for block, size in (("h_back_out", 9), ("h_back_top", 9), ("h_declined", 8), ("h_fought", 8)):
        assert any(L[block] <= x < L[block] + size for x in met), block


def test_state_features_are_the_views_table_features():
    """A state keeps no history: its features are the seat's view's below the table's count."""
    from hzai.games.legends.native.twin import native_state

    g = _game(3, 3)
    table = g.search.native.table_feature_count()
    for state, _ in _walk(g, 11, every=10):
        for seat in range(g.n):
            view_feats = g.search.native.view_features(native_view(LegendsView.of(state, seat)))
            assert g.search.native.state_features(native_state(state), seat) == [i for i in view_feats if i < table]


def test_no_peeking_every_world_drawn_from_a_view_gives_the_seat_the_same_features():
    """Worlds drawn from a seat's view (the reference sampler, and the native one's states
    checked against the same view) put other cards in the partners' hands; the seat's
    features, its history's included, are the same in each."""
    from hzai import _native

    differed = checked = 0
    for mission, seats in ((1, 3), (3, 4), (6, 2)):
        g = _game(mission, seats)
        for seed in range(4):
            for state, _ in _walk(g, 300 + seed, every=15):
                if state.is_terminal:
                    continue
                for seat in range(g.n):
                    view = LegendsView.of(state, seat)
                    expected = reference.view_features(view)
                    assert any(i >= reference.layout()["history"] for i in expected) or not view.history
                    for world_seed in (1, 2, 3):
                        world = view.sample(world_seed)
                        if any(sorted(world.t.kind[i] for i in world.t.hands[p]) !=
                               sorted(state.t.kind[i] for i in state.t.hands[p]) for p in range(g.n) if p != seat):
                            differed += 1
                        again = LegendsView.of(world, seat)
                        assert g.search.native.view_features(native_view(again)) == expected
                        assert reference.view_features(again) == expected
                        # the native sampler's world: the seat's table features there are the view's
                        core = _native.legends_sample(native_view(view), world_seed)
                        table = g.search.native.table_feature_count()
                        assert g.search.native.state_features(core, seat) == [i for i in expected if i < table]
                        checked += 1
    assert checked >= 100 and differed >= 20


def _supported(cards_given: str, p2: list[str], p3: list[str]):
    """Three seats; p2 gives p3 two cards p1 does not see, p3 discards two; p1's view."""
    g = _game(1, 3)
    p1 = ["courage", "speed", "strength", "di"]
    state = start(g, {"p1": p1, "p2": p2, "p3": p3})
    play(state, "place m1", "place m1", "place m1", "recover 1", "discard strength",
         f"support p3 {cards_given}", "discard courage,courage")
    return g, state


def test_two_games_a_seat_cannot_tell_apart_give_it_the_same_features():
    """p2 gives p3 arms,arms in one game and guile,guile in the other (the deals differ
    only in p2's and p3's hands, which p1 never sees): p1's view, history included, is
    the same, so are its features; its partners' do differ."""
    g, a = _supported("arms,arms", ["arms", "arms", "guile", "speed"], ["guile", "guile", "courage", "courage"])
    _, b = _supported("guile,guile", ["arms", "guile", "guile", "speed"], ["arms", "guile", "courage", "courage"])
    assert a.t.hands != b.t.hands or [a.t.kind[i] for i in a.t.hands[1]] != [b.t.kind[i] for i in b.t.hands[1]]
    va, vb = LegendsView.of(a, 0), LegendsView.of(b, 0)
    assert view_spec(va) == view_spec(vb)
    fa = g.search.native.view_features(native_view(va))
    assert fa == g.search.native.view_features(native_view(vb)) == reference.view_features(vb)
    L = reference.layout()
    history = [i for i in fa if i >= L["history"]]
    p2 = L["history"]  # partner 1 of p1 is p2
    assert p2 + L["h_last"] + reference.ACT_KINDS.index("support") in history
    assert p2 + L["h_support_to"] + 2 in history and p2 + L["h_support_n"] + 1 in history  # p3, two cards
    p3 = L["history"] + L["hist_stride"]
    assert p3 + L["h_received"] + 1 in history  # two cards came to p3
    # p3 saw what it got: its features differ between the two games.
    assert g.search.native.view_features(native_view(LegendsView.of(a, 2))) != \
        g.search.native.view_features(native_view(LegendsView.of(b, 2)))


def test_a_partners_other_choice_changes_the_seats_history_features():
    g, a = _supported("arms,arms", ["arms", "arms", "guile", "speed"], ["guile", "guile", "courage", "courage"])
    c = start(g, {"p1": ["courage", "speed", "strength", "di"], "p2": ["arms", "arms", "guile", "speed"],
                  "p3": ["guile", "guile", "courage", "courage"]})
    play(c, "place m1", "place m1", "place m1", "recover 1", "discard strength", "recover 0", "discard speed")
    fa = g.search.native.view_features(native_view(LegendsView.of(a, 0)))
    fc = g.search.native.view_features(native_view(LegendsView.of(c, 0)))
    table = g.search.native.table_feature_count()
    assert [i for i in fa if i >= table] != [i for i in fc if i >= table]
    assert fc == reference.view_features(LegendsView.of(c, 0))


def test_a_view_before_any_move_has_no_history_features_and_the_first_moves_show():
    g = _game(3, 3)
    state = g.new_state(21)
    for seat in range(g.n):
        assert g.search.native.history_features(native_view(LegendsView.of(state, seat))) == []
    play(state, "place m1", "place m1", "place m1")  # the setup: no turn's action yet, no card moved
    L = reference.layout()
    for seat in range(g.n):  # only what the seat cannot place: the deck less its own hand
        feats = g.search.native.history_features(native_view(LegendsView.of(state, seat)))
        assert len(feats) == 9 + 1 + 2 and all(i >= L["unseen"] for i in feats)
        unknown = [i - L["unknown_in_hand"] for i in feats if i >= L["unknown_in_hand"]]
        assert unknown == [4, 10 + 4]  # each partner's 4 cards, none known
    play(state, "recover 1")
    feats = g.search.native.history_features(native_view(LegendsView.of(state, 2)))  # p1 is p3's partner 1
    assert L["history"] + L["h_last"] + reference.ACT_KINDS.index("recover") in feats
    assert L["history"] + L["h_count"] + reference.ACT_KINDS.index("recover") * 3 in feats


def test_a_bad_history_entry_is_refused_by_name():
    g = _game(3, 3)
    state = next(s for s, acts in _walk(g, 21, every=10) if len(acts) >= 10)
    spec = view_spec(LegendsView.of(state, 1))
    for bad, words in (((7, 1, 0), "history: seat out of range"), ((0, 1, 10 ** 7), "history: action out of range"),
                       ((0, 6, 0), "history: pending out of range")):
        spec2 = dict(spec, history=spec["history"] + [bad])
        with pytest.raises(ValueError, match=words):
            g.search.native.view(spec2)


# ----- nets of either width ---------------------------------------------------------------
def _model(g, n_in: int, seed: int = 0):
    from hzai.native.model import Weights, native_model

    rng = np.random.default_rng(seed)

    def net(heads):
        return {"trunk": [(rng.standard_normal((n_in, 16)).astype(np.float32), np.zeros(16, np.float32))],
                "heads": [(rng.standard_normal((h, 16)).astype(np.float32), np.zeros(h, np.float32)) for h in heads]}

    nets = {"value": net([1]), "policy": net([g.search.native.action_feature_count()]),
            "cards": net([g.search.native.card_labels * g.search.native.card_classes])}
    return native_model(g, Weights("legends", "width", 1, nets, {"made": "tests"}))


def test_a_net_reads_the_tables_count_or_all_and_another_count_is_refused_naming_both():
    from hzai.native.model import ModelError

    g = _game(3, 3)
    table, total = g.search.native.table_feature_count(), g.search.native.feature_count()
    old, new = _model(g, table), _model(g, total)
    # Two views of the same table with other histories: p2 (seat 1) gave or recovered.
    g3, a = _supported("arms,arms", ["arms", "arms", "guile", "speed"], ["guile", "guile", "courage", "courage"])
    old3, new3 = _model(g3, table), _model(g3, total)
    va = native_view(LegendsView.of(a, 0))
    # the old width reads exactly the table: its outputs equal those of the view stripped of its history
    spec = view_spec(LegendsView.of(a, 0))
    stripped_feats = [i for i in g3.search.native.view_features(va) if i < table]
    assert stripped_feats == [i for i in reference.view_features(LegendsView.of(a, 0)) if i < table]
    assert old3.card_probs(va) == old3.card_probs(va)
    # compare against a net with the same weights widened by zero rows for the history
    from hzai.native.model import Weights, native_model

    rng = np.random.default_rng(0)
    w = rng.standard_normal((table, 16)).astype(np.float32)
    heads = [(rng.standard_normal((g3.search.native.card_labels * g3.search.native.card_classes, 16)).astype(np.float32),
              np.zeros(g3.search.native.card_labels * g3.search.native.card_classes, np.float32))]
    narrow = {"trunk": [(w, np.zeros(16, np.float32))], "heads": heads}
    wide = {"trunk": [(np.vstack([w, np.zeros((total - table, 16), np.float32)]), np.zeros(16, np.float32))],
            "heads": heads}
    base = {"value": {"trunk": [], "heads": []}, "policy": {"trunk": [], "heads": []}}
    m_narrow = native_model(g3, Weights("legends", "n", 1, {**base, "cards": narrow}, {}))
    m_wide = native_model(g3, Weights("legends", "w", 1, {**base, "cards": wide}, {}))
    assert np.allclose(m_narrow.card_probs(va), m_wide.card_probs(va))
    # a net that reads all of them sees the history: two views equal on the table, not in the history
    c = start(g3, {"p1": ["courage", "speed", "strength", "di"], "p2": ["arms", "arms", "guile", "speed"],
                   "p3": ["guile", "guile", "courage", "courage"]})
    play(c, "place m1", "place m1", "place m1", "recover 1", "discard strength", "recover 0", "discard speed")
    vc = native_view(LegendsView.of(c, 0))
    hist_only = {"trunk": [(np.vstack([np.zeros((table, 16), np.float32),
                                       rng.standard_normal((total - table, 16)).astype(np.float32)]),
                            np.zeros(16, np.float32))], "heads": heads}
    m_hist = native_model(g3, Weights("legends", "h", 1, {**base, "cards": hist_only}, {}))
    assert not np.allclose(m_hist.card_probs(va), m_hist.card_probs(vc))
    assert old.has_cards and new.has_cards and new3.has_cards and spec
    # another count is refused, naming both
    with pytest.raises(ModelError, match=rf"card net reads 100 features, Legends has {total} \({table} without the"):
        native_model(g3, Weights("legends", "x", 1, {**base, "cards": {
            "trunk": [(np.zeros((100, 16), np.float32), np.zeros(16, np.float32))], "heads": heads}}, {}))
