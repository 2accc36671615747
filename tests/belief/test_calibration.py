"""Belief reports against answers worked out by hand. Tolerances are 4 standard errors
of the sampled frequency at the stated number of samples."""

from __future__ import annotations

import math
from collections import Counter

from conftest import SETUPS

from hzai.games.hera_zeus.belief import Determinizer, belief_report, view_of
from hzai.rng import SplitMix64

HERA = 0


def tolerance(p: float, n: int) -> float:
    return 4 * math.sqrt(max(p * (1 - p), 1e-9) / n)


def locations(report) -> dict:
    return {loc["where"]: loc for loc in report["hostage"]["locations"]}


def test_after_the_deal_the_hostage_is_uniform_over_the_deck(play):
    """R-SETUP-1: Argus is in Zeus's deck, every position equally likely."""
    state = play(SETUPS)
    view = view_of(state, HERA)
    report = belief_report(view, samples=600, seed=1)
    assert locations(report) == {"deck": {"where": "deck", "probability": 1.0, "inferred": 1.0, "exact": 1.0}}
    n = 6800
    determinizer = Determinizer(view)
    rng = SplitMix64(2)
    positions = Counter()
    argus = state.deck.hostage_id[1]
    for _ in range(n):
        sample = determinizer.sample_with(rng)
        positions[sample.decks[1].index(argus)] += 1
    size = len(state.decks[1])
    assert size == 34 and set(positions) <= set(range(size))
    for k in range(size):
        assert abs(positions[k] / n - 1 / size) < tolerance(1 / size, n), f"deck position {k}"


def test_after_a_spy_the_hand_is_certain(play):
    """R-PYT-1: right after the spy every sample holds exactly the shown hand."""
    state = play(SETUPS + ["pythia spy"])
    report = belief_report(view_of(state, HERA), samples=300, seed=3)
    true_hand = Counter(state.card(x).name for x in state.hands[1])
    assert report["hand"]["expected"] == {name: float(n) for name, n in true_hand.items()}
    assert locations(report)["deck"]["probability"] == 1.0


def test_hostage_in_hand_after_three_draws_is_three_in_thirty_four(play):
    """The start hand holds no Argus; three cards drawn from a 34-card deck that holds
    him: P(hand) = 3/34, P(deck) = 31/34."""
    state = play(SETUPS + ["draw", "draw", "draw", "draw", "draw", "draw"])
    n = 8000
    report = belief_report(view_of(state, HERA), samples=n, seed=4)
    where = locations(report)
    assert math.isclose(where["hand"]["exact"], 3 / 34) and math.isclose(where["deck"]["exact"], 31 / 34)
    assert abs(where["hand"]["probability"] - 3 / 34) < tolerance(3 / 34, n)
    assert abs(where["deck"]["probability"] - 31 / 34) < tolerance(31 / 34, n)


def test_setup_cards_are_never_the_hostage_but_a_later_card_may_be(play):
    """The front row came from the start hand (no Argus); the card Zeus plays after
    drawing twice may be Argus (one of 8 hand cards, 2 of which were drawn)."""
    state = play(SETUPS + ["draw", "draw", "draw", "draw", "draw", "play Centaur c1r2"])
    report = belief_report(view_of(state, HERA), samples=3000, seed=5)
    cards = {s["slot"]: {c["card"]: c["probability"] for c in s["cards"]} for s in report["slots"]}
    assert set(cards) == {"c1r1", "c1r2", "c2r1", "c3r1"}
    for slot in ("c1r1", "c2r1", "c3r1"):
        assert "Argus" not in cards[slot]
    assert cards["c1r2"].get("Argus", 0) > 0
    for names in cards.values():  # myth-only cards are never on a side
        assert not set(names) & {"Sirens", "Hades", "Persephone", "Dionysus", "Zeus"}


def test_a_spied_hand_card_played_face_down_is_uniform_over_the_placeable_cards(play):
    """The spied hand after setup: Centaur, Sirens, Dionysus, Hades, Pythia, Harpy.
    A card from it was played face down: it is Centaur, Pythia or Harpy, a third each."""
    state = play(SETUPS + ["pythia spy", "draw", "draw", "play Centaur c1r2"])
    n = 3000
    report = belief_report(view_of(state, HERA), samples=n, seed=6)
    (slot,) = [s for s in report["slots"] if s["slot"] == "c1r2"]
    probabilities = {c["card"]: c["probability"] for c in slot["cards"]}
    assert set(probabilities) == {"Centaur", "Pythia", "Harpy"}
    for p in probabilities.values():
        assert abs(p - 1 / 3) < tolerance(1 / 3, n)
