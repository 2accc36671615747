"""History in the features (docs/learning.md): what a seat saw its opponent do, written
once in C++ (the knowledge tracker and the encoder) and once in Python (belief.view's
history_of and tests/learn/reference.py), held equal over random games; computed from the
seat's view alone; and read by a policy net of either feature count."""

from __future__ import annotations

import numpy as np
import pytest

from hzai import _native
from hzai.core.registry import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.belief.knowledge import Knowledge
from hzai.games.hera_zeus.native.decision import native_decision
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.rules import Record
from hzai.games.hera_zeus.rules.state import FIGURE, Event, Pending
from hzai.rng import SplitMix64
from tests.learn import reference

GAME = make_game("hera_zeus")
LAYOUT = reference.layout(len(GAME.search.native.names))


def _play(seed: int, steps: int):
    """A random game of `seed` after about `steps` moves (chance results included)."""
    state = Record(GAME, seed=seed).start()
    rng = SplitMix64(seed)
    for _ in range(steps):
        if state.is_over:
            break
        if state.is_chance:
            state.apply(GAME.search.draw_chance(state, rng))
        else:
            moves = state.legal_moves()
            state.apply(moves[rng.below(len(moves))])
    return state


def _history(features):
    return [i for i in features if i >= LAYOUT["base"]]


def test_the_layout_appends_the_history_after_the_table():
    assert GAME.search.native.feature_count() == LAYOUT["size"]
    assert LAYOUT["base"] == 1920  # the table's features, what the shipped model reads
    assert LAYOUT["size"] - LAYOUT["base"] == 12 * reference.SLOT_FEATURES + 4 * 17 + 17 * 3


def test_cpp_history_features_equal_the_reference_over_500_games():
    """(a) Each game is stopped after 8 to 60 random moves; both seats' views. The C++
    encoder over flat_view equals the Python reference, and the C++ tracker (the native
    decision path, from the record's moves) writes the same history as the Python one."""
    views = with_history = decisions = 0
    active = []
    for seed in range(500):
        state = _play(seed, 8 + seed % 53)
        for seat in (0, 1):
            view = view_of(state, seat)
            native = GAME.search.native.view_features(flat_view(view, GAME))
            assert native == reference.view_features(GAME, view)
            assert native == sorted(native) and all(0 <= i < LAYOUT["size"] for i in native)
            views += 1
            history = _history(native)
            with_history += bool(history)
            active.append(len(history))
        if state.is_over or state.is_chance or state.to_move is None:
            continue
        record = Record(GAME, seed=seed, moves=[str(m) for m in state.history])
        built = native_decision(record)
        assert built is not None and built[1] is not None
        fast = built[1].native_spec
        slow = flat_view(view_of(state, state.to_move), GAME)
        assert (fast.history_slots, fast.history_acts, fast.history_counts) == (
            slow.history_slots, slow.history_acts, slow.history_counts)
        assert GAME.search.native.view_features(fast) == GAME.search.native.view_features(slow)
        decisions += 1
    assert views == 1000 and with_history == views and decisions > 300
    assert 5 < np.mean(active) < 60


def _swappable(state, seat):
    """Two cards of the seat's opponent the seat never saw, of different names but the same
    kind, neither the hostage, at least one face down on the opponent's field."""
    q = 1 - seat
    deck = state.deck
    seen = set()
    for event in state.events:
        if event.kind == "reveal" and event.to in (None, seat):
            seen.add(event.card)
        if event.kind == "move" and event.dst is not None and event.dst[0] == "discard":
            seen.add(event.card)
        if event.kind == "dealt" and event.src[1] == seat:
            seen.update(event.cards)
    seen |= state.face_up
    seen |= {x for p in (0, 1) for x in state.discards[p]}
    hostage = deck.hostage_id[q]

    def hidden(card):
        return card.owner == q and card.id not in seen and card.id != hostage

    field = [x for column in state.columns[q] for x in column if x != FIGURE and hidden(deck.cards[x])]
    for a in field:
        for b in deck.cards:
            if hidden(b) and b.id != a and b.name != deck.cards[a].name and b.type.kind == deck.cards[a].type.kind:
                return a, b.id
    return None


def _swapped(state, a, b):
    """`state` where cards a and b trade places over the whole history."""
    def s(x):
        return b if x == a else a if x == b else x

    other = state.copy()
    other.hands = [sorted(s(x) for x in h) for h in state.hands]
    other.decks = [[s(x) for x in d] for d in state.decks]
    other.discards = [[s(x) for x in d] for d in state.discards]
    other.columns = [[[s(x) for x in c] for c in side] for side in state.columns]
    other.face_up = {s(x) for x in state.face_up}
    other.limbo = [s(x) for x in state.limbo]
    other.pending = [Pending(p.kind, p.player, tuple(s(x) for x in p.cards)) for p in state.pending]
    other.events = [Event(e.kind, s(e.card) if e.card >= 0 else e.card, e.src, e.dst, e.to,
                          tuple(s(x) for x in e.cards), e.turn, e.act, e.mover, e.first) for e in state.events]
    return other


def test_no_peeking_the_opponents_hidden_cards_changed_consistently_with_the_view():
    """(b) Two of the opponent's cards the seat never saw trade places over the whole game
    (one of them face down on the field): the seat's view and its features do not change,
    in C++ and in the reference. (c) So two histories the seat cannot tell apart (a
    different card played into the same slot) give identical features."""
    checked = 0
    for seed in range(120):
        state = _play(seed, 20 + seed % 40)
        for seat in (0, 1):
            pair = _swappable(state, seat)
            if pair is None:
                continue
            other = _swapped(state, *pair)
            assert other.columns != state.columns or other.hands != state.hands
            view, view2 = view_of(state, seat), view_of(other, seat)
            assert view2.to_json() == view.to_json()
            assert view2.history == view.history
            features = GAME.search.native.view_features(flat_view(view, GAME))
            assert GAME.search.native.view_features(flat_view(view2, GAME)) == features
            assert reference.view_features(GAME, view2) == features
            checked += 1
    assert checked > 100


def test_the_features_of_a_view_do_not_depend_on_the_world_drawn_from_it():
    """(b) Every world drawn from a view lies behind the same features: the encoder reads
    the view's spec, and drawing worlds leaves the spec (history included) as it was."""
    for seed in range(20):
        state = _play(seed, 30)
        view = view_of(state, 0)
        spec = flat_view(view, GAME)
        before = GAME.search.native.view_features(spec)
        worlds = {str(_native.sample_view(GAME.search.native, spec, w).get_raw()) for w in range(5)}
        assert GAME.search.native.view_features(spec) == before
        assert len(worlds) >= 1 and _history(before)


def _until_opponent_plays(seed: int):
    """A random game of `seed` up to the state before the second seat's first play of a
    card from its hand in the play phase, and that move."""
    state = Record(GAME, seed=seed).start()
    rng = SplitMix64(seed)
    while not state.is_over:
        if state.is_chance:
            state.apply(GAME.search.draw_chance(state, rng))
            continue
        moves = state.legal_moves()
        plays = [m for m in moves if m.kind == "play"]
        if state.to_move == 1 and state.phase == "play" and plays:
            return state, plays[rng.below(len(plays))]
        state.apply(moves[rng.below(len(moves))])
    raise AssertionError("the game ended before the second seat played a card")


def test_the_history_features_follow_the_opponents_visible_actions():
    """(d) The second seat plays a card face down: the first seat's history shows a card
    played from the hand this turn in that slot, nothing in front of it, 'play' as the
    opponent's last action and one more play counted; the cards behind it in the column
    count one card put in front of them since."""
    for seed in range(5):
        before, move = _until_opponent_plays(seed)
        after = before.copy()
        after.apply(move)
        old, new = view_of(before, 0).history, view_of(after, 0).history
        slot = (move.col - 1, move.row - 1)
        assert new["slots"][slot] == (1, 0, 0, False)
        assert new["acts"][0] == "play" and new["acts"][1:] == old["acts"][:3]
        assert new["counts"]["play"] == old["counts"].get("play", 0) + 1
        for (c, r), (origin, age, covered, moved) in old["slots"].items():
            if c == slot[0] and r >= slot[1]:
                assert new["slots"][(c, r + 1)] == (origin, age, covered + 1, moved)
        f_old = _history(GAME.search.native.view_features(flat_view(view_of(before, 0), GAME)))
        f_new = _history(GAME.search.native.view_features(flat_view(view_of(after, 0), GAME)))
        at = LAYOUT["hist_slot"] + (slot[0] * 4 + slot[1]) * reference.SLOT_FEATURES
        assert at + 1 in f_new and at + 1 not in f_old  # origin: played from the hand
        assert LAYOUT["hist_act"] + reference.ACTION_KINDS.index("play") in f_new


def test_a_position_without_its_history_has_no_history_features():
    state = _play(3, 40)
    knowledge = Knowledge.at_first_sight(state, 0)
    view = view_of(state, 0, knowledge)
    assert view.history == {}
    features = GAME.search.native.view_features(flat_view(view, GAME))
    assert features and not _history(features)
    assert features == reference.view_features(GAME, view)


# ----- the policy net reads the table's features alone or all of them -------------------
def _net(n_in: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    width, names = 16, len(GAME.search.native.names)
    trunk = [(rng.normal(0, 0.3, (n_in, width)).astype(np.float32), rng.normal(0, 0.1, width).astype(np.float32))]
    heads = [(rng.normal(0, 0.3, (n, width)).astype(np.float32), np.zeros(n, np.float32))
             for n in (GAME.search.native.n_actions, 16, 12 * names)]
    return trunk, heads


def _model(n_in: int):
    trunk, heads = _net(n_in)
    return _native.HzModel(GAME.search.native, "test", [], [], trunk, heads)


def test_a_policy_net_of_either_count_is_read_and_another_is_refused():
    state = _play(7, 40)
    view = view_of(state, state.to_move if state.to_move is not None else 0)
    spec = flat_view(view, GAME)
    bare = flat_view(view, GAME)
    bare.history_slots, bare.history_acts, bare.history_counts = [], [], []
    legal = list(range(GAME.search.native.n_actions))  # every action: the logits the net gives
    base, full = _model(LAYOUT["base"]), _model(LAYOUT["size"])
    # The table-only net ignores the history: the same policy with or without it.
    assert base.policy(GAME.search.native, spec, legal) == base.policy(GAME.search.native, bare, legal)
    # The full net reads it.
    assert full.policy(GAME.search.native, spec, legal) != full.policy(GAME.search.native, bare, legal)
    for wrong in (LAYOUT["base"] - 1, LAYOUT["size"] + 1):
        with pytest.raises(ValueError, match=f"reads {wrong} features, the game has {LAYOUT['size']} "
                                             f"\\({LAYOUT['base']} without the history\\)"):
            _model(wrong)


def test_every_move_of_the_opponent_is_counted_even_one_that_logs_no_card_event():
    """(e) A move that moves and reveals no card (a recall of the god figure alone, `top`
    when nothing is left to reorder, a challenge of two face-up cards) still logs its stamp
    (an "act" event), so the action blocks count every move the opponent made: the counts
    by kind equal the moves counted while the game was played, in the Python tracker and
    in the C++ one (the native decision path)."""
    silent = {"recall": 0, "top": 0}
    checked = 0
    for seed in range(40):
        state = Record(GAME, seed=900 + seed).start()
        rng = SplitMix64(900 + seed)
        made = [{}, {}]
        while not state.is_over and len(state.history) < 300:
            if state.is_chance:
                state.apply(GAME.search.draw_chance(state, rng))
                continue
            moves = state.legal_moves()
            move = moves[rng.below(len(moves))]
            mover, logged = state.to_move, len(state.events)
            state.apply(move)
            made[mover][move.kind] = made[mover].get(move.kind, 0) + 1
            if [e.kind for e in state.events[logged:]] == ["act"]:
                silent[move.kind] = silent.get(move.kind, 0) + 1
            if state.to_move is None or state.is_chance:
                continue
            seat = state.to_move
            counts = {k: n for k, n in view_of(state, seat).history["counts"].items() if n}
            assert counts == made[1 - seat], f"seed {900 + seed}, after {len(state.history)} moves"
            if len(state.history) % 17 == 0:
                record = Record(GAME, seed=900 + seed, moves=[str(m) for m in state.history])
                fast = native_decision(record)[1].native_spec
                slow = flat_view(view_of(state, seat), GAME)
                assert fast.history_counts == slow.history_counts
                assert fast.history_acts == slow.history_acts
                checked += 1
    assert silent["recall"] > 0 and silent["top"] > 0, silent
    assert checked > 20
