"""Tight views: the opponent's face-down slots outnumber what a random deal can fill.

Zeus sees twelve face-down cards at Hera's side and nineteen Hera cards he has not
seen, seven of them myth-only (never placed on a side). A uniform deal of those nineteen
puts all seven in her hand and deck once in C(19, 7) = 50,388 tries, so the rejection
draw fails; the sampler then builds a fitting draw. Before the fallback, both samplers
raised "no state fits this view" here, and a search from such a view died (it stopped an
arena run at game 301 of 400).
"""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.belief import Determinizer, view_of
from hzai.games.hera_zeus.belief.check import fit_problems
from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.playout import random_step
from hzai.games.hera_zeus.rules.position import Side, position
from hzai.games.hera_zeus.native.search import native_sample
from hzai.rng import SplitMix64
from hzai.search import IsmctsBot, Limits, make_bot

ZEUS = 1


def tight_state():
    return position(
        hera=Side(
            columns=[["Io", "Centaur", "Satyr", "Pegasus"], ["Hydra", "Cyclops", "Harpy", "Hero"],
                     ["Amazon", "Pythia", "Medusa", "Nemesis"]],
            hand=["Sirens", "Dionysus", "Hera"],
            deck=["Sirens", "Dionysus", "Hades", "Persephone"],
        ),
        zeus=Side(columns=[["Centaur"], ["Satyr"]], hand=["Pegasus", "Hydra"]),
        rest={"hera": "discard", "zeus": "deck"}, turn=10, ap=3, to_move="zeus",
    )


def picture(state):
    return (state.hands, state.decks, state.columns, state.discards, sorted(state.face_up))


def test_rejection_cannot_fill_the_tight_view():
    view = view_of(tight_state(), ZEUS)
    det = Determinizer(view)
    assert sum(det.pools[0].values()) == 19
    rng = SplitMix64(0)
    fits = sum(det._place_in_groups(det._draw(rng)[0], rng) is not None for _ in range(2000))
    assert fits == 0, "the premise: one uniform deal in 50,388 fits"
    assert det.tight, "the construction's probe found no fitting draw either"


def test_ordinary_views_are_not_tight():
    game = Game.create({})
    for seed in range(4):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        while not state.is_over and len(state.history) < 30:
            random_step(state, rng)
            for observer in (0, 1):
                assert not Determinizer(view_of(state, observer), game).tight, f"seed {seed}, move {len(state.history)}"


def test_samples_of_a_tight_view_fit_it_and_the_two_samplers_agree():
    state = tight_state()
    view = view_of(state, ZEUS)
    det = Determinizer(view)
    hostage_places = set()
    for seed in range(60):
        sample = det.sample(seed)
        assert fit_problems(view, sample) == [], f"seed {seed}"
        assert picture(native_sample(view, seed, view.game)) == picture(sample), f"seed {seed}"
        hostage_places.add(next((c, r) for c, column in enumerate(sample.columns[0])
                                for r, card in enumerate(column) if sample.deck.cards[card].name == "Io"))
    assert len(hostage_places) > 3, "the hostage is not pinned to one slot by the fallback"


def test_a_hand_never_holds_a_placeable_card_the_fallback_needed():
    """All twelve slots take placeable cards, so the seven myth-only cards are in Hera's
    hand and deck in every sample."""
    view = view_of(tight_state(), ZEUS)
    for seed in range(30):
        sample = Determinizer(view).sample(seed)
        unseen = [sample.deck.cards[c].name for c in list(sample.hands[0]) + list(sample.decks[0])]
        assert sorted(unseen) == ["Dionysus", "Dionysus", "Hades", "Hera", "Persephone", "Sirens", "Sirens"]


@pytest.mark.parametrize("spec", ["ismcts", "ismcts:infer=0", "ismcts-v1", "pimc"])
def test_bots_decide_from_a_tight_view(spec):
    state = tight_state()
    view = view_of(state, ZEUS)
    legal = {str(m) for m in state.legal_moves()}
    bot = make_bot(spec)
    assert str(bot.decide(view, Limits(iterations=200), seed=4).move) in legal


def test_inferring_search_from_a_tight_view_is_reproducible():
    view = view_of(tight_state(), ZEUS)
    first = IsmctsBot().decide(view, Limits(iterations=300), seed=9)
    again = IsmctsBot().decide(view, Limits(iterations=300), seed=9)
    assert str(first.move) == str(again.move)
