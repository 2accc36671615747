"""R-INFO-4: two games that look the same to a player give that player the same view
and the same samples. The second game changes only what the player cannot know: the
order of the opponent's cards still in the deck, and opponent hand cards that never
left the hand."""

from __future__ import annotations

import copy
import json

from hzai.games.hera_zeus.belief import Determinizer, view_of
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, RecordError, deal, state_to_json
from hzai.games.hera_zeus.rules.playout import random_step


def _hidden_variant(game, setup, state, observer, rng):
    """The same record with the opponent's unseen cards changed, if that stays legal."""
    q = 1 - observer
    player = ("hera", "zeus")[q]
    changed = copy.deepcopy(setup)
    undrawn = len(state.decks[q])
    deck = changed[player]["deck"]
    tail = deck[len(deck) - undrawn :]
    rng.shuffle(tail)
    deck[len(deck) - undrawn :] = tail
    # Swap a never-played start-hand card with a card still deep in the deck.
    hand = changed[player]["hand"]
    hostage = game.deck.cards[game.deck.hostage_id[q]].name
    for j in range(len(deck) - undrawn, len(deck)):
        for i in range(len(hand)):
            if deck[j] != hand[i] and deck[j] != hostage:
                trial = copy.deepcopy(changed)
                trial[player]["hand"][i], trial[player]["deck"][j] = deck[j], hand[i]
                yield trial
    yield changed


def test_same_view_same_samples_over_many_games():
    game = Game.create()
    pairs = 0
    for seed in range(40):
        setup = deal(game, seed)
        state = Record(game, setup=setup).start()
        rng = SplitMix64(seed)
        for _ in range(6 + seed % 25):
            if state.is_over:
                break
            random_step(state, rng)
        if state.is_over:
            continue
        moves = [str(m) for m in state.history]
        observer = seed % 2
        view = view_of(state, observer).to_json()
        candidates = _hidden_variant(game, setup, state, observer, SplitMix64(seed + 1))
        for _, other_setup in zip(range(25), candidates):
            try:
                other = Record(game, setup=other_setup, moves=moves).replay()
            except RecordError:
                continue  # the change touched a card the game used: not a pure hidden change
            if state_to_json(other) == state_to_json(state):
                continue
            if view_of(other, observer).to_json() != view:
                continue  # the change was visible (a card was shown); not a test of peeking
            a = Determinizer(view_of(state, observer), game)
            b = Determinizer(view_of(other, observer), game)
            for s in range(3):
                assert json.dumps(state_to_json(a.sample(s))) == json.dumps(state_to_json(b.sample(s)))
            pairs += 1
            break
    assert pairs >= 25, "enough pairs of look-alike games were compared"


def test_hidden_change_of_the_opponents_hand_does_not_change_the_view():
    """Built directly: the two deals differ in Zeus's hand, the record is the same."""
    from conftest import HERA_HAND, SETUPS, ZEUS_HAND, crafted_setup

    game = Game.create()
    other_zeus = ["Centaur" if name == "Harpy" else name for name in ZEUS_HAND]
    a = Record(game, setup=crafted_setup(game, {"hera": HERA_HAND, "zeus": ZEUS_HAND}), moves=SETUPS + ["draw"]).replay()
    b = Record(game, setup=crafted_setup(game, {"hera": HERA_HAND, "zeus": other_zeus}), moves=SETUPS + ["draw"]).replay()
    assert state_to_json(a)["sides"]["zeus"]["hand"] != state_to_json(b)["sides"]["zeus"]["hand"]
    assert view_of(a, 0).to_json() == view_of(b, 0).to_json()
    assert view_of(a, 1).to_json() != view_of(b, 1).to_json(), "Zeus himself sees the difference"
    assert state_to_json(Determinizer(view_of(a, 0)).sample(9)) == state_to_json(Determinizer(view_of(b, 0)).sample(9))
