"""The hard cases of knowledge tracking (R-INFO-3), each with the exact knowledge
expected afterwards. Hera observes Zeus unless said otherwise."""

from __future__ import annotations

from conftest import SETUPS

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.belief.check import fit_problems

HERA, ZEUS = 0, 1
AFTER_SETUP_ZEUS = {"Centaur": 1, "Sirens": 1, "Dionysus": 1, "Hades": 1, "Pythia": 1, "Harpy": 1}


def seen(state, observer=HERA):
    view = view_of(state, observer)
    assert fit_problems(view, state) == [], "the true state always fits the view"
    return view.to_json()


def groups_of(slots):
    return {s["group"] for s in slots if "group" in s}


def test_start_hand_excludes_the_hostage_and_setup_cards_are_one_of_the_hand():
    """R-SETUP-1, R-INFO-3: Zeus's front row came from his hand, which held no Argus."""
    from conftest import HERA_HAND, ZEUS_HAND, crafted_setup

    from hzai.games.hera_zeus.rules import Game, Record

    game = Game.create()
    state = Record(game, setup=crafted_setup(game, {"hera": HERA_HAND, "zeus": ZEUS_HAND}), moves=SETUPS).replay()
    view = seen(state)
    zeus = view["sides"]["zeus"]
    assert groups_of([col[0] for col in zeus["columns"]]) == groups_of(zeus["hand"]) == {0}
    assert view["groups"][0] == {"owner": "zeus", "known": {}, "wildcards": [{"count": 9, "excluded": ["Argus"]}]}


def test_card_leaving_a_spied_hand_face_down_is_one_of_the_spied_cards(play):
    state = play(SETUPS + ["pythia spy", "draw", "draw", "play Centaur c1r2"])
    view = seen(state)
    zeus = view["sides"]["zeus"]
    slot = zeus["columns"][0][1]
    assert "group" in slot and not slot["face_up"]
    assert slot["excluded"] == ["Argus"], "it came from a hand known to hold no Argus"
    g = slot["group"]
    assert groups_of(zeus["hand"]) == {g} and len(zeus["hand"]) == 5
    assert view["groups"][g]["known"] == AFTER_SETUP_ZEUS
    assert view["groups"][g]["wildcards"] == []


def test_a_draw_mixes_one_unknown_card_into_a_known_hand(play):
    state = play(SETUPS + ["pythia spy", "draw", "draw", "play Centaur c1r2", "draw"])
    view = seen(state)
    zeus = view["sides"]["zeus"]
    g = zeus["columns"][0][1]["group"]
    assert view["groups"][g]["known"] == AFTER_SETUP_ZEUS and view["groups"][g]["wildcards"] == []
    # The hand: five of the spied cards, and one drawn card that may be anything left.
    parts = [s["group"] for s in zeus["hand"]]
    assert parts.count(g) == 5 and len(parts) == 6
    (new,) = set(parts) - {g}
    assert view["groups"][new] == {"owner": "zeus", "known": {}, "wildcards": [{"count": 1, "excluded": []}]}


def test_a_known_face_down_card_keeps_its_identity_when_dionysus_moves_it(play):
    """R-SIR-1 and R-INFO-3: Zeus takes Hera's Pythia with Sirens, plays it face down
    and moves it with Dionysus; Hera follows it all the way."""
    moves = SETUPS + ["pythia spy", "draw", "draw", "sirens", "play Pythia@hera c2r2", "dionysus c2r2 c3r2"]
    state = play(moves)
    zeus_side = seen(state)["sides"]["zeus"]
    assert zeus_side["columns"][2][1] == {"face_up": False, "card": "Pythia", "owner": "hera"}
    assert len(zeus_side["columns"][1]) == 1, "c2 closed up: only the setup card is left"
    # Zeus sees his own side in full, the Sirens card included.
    assert seen(state, ZEUS)["sides"]["zeus"]["columns"][2][1]["card"] == "Pythia"


def test_a_card_of_the_observer_in_the_opponents_hand_is_known(play):
    """R-SIR-1: the card keeps its owner's back."""
    state = play(SETUPS + ["pythia spy", "draw", "draw", "sirens"])
    hand = seen(state)["sides"]["zeus"]["hand"]
    assert {"face_up": False, "card": "Pythia", "owner": "hera"} in hand


def test_pegasus_places_a_card_face_up_and_the_hand_loses_it(play):
    moves = SETUPS + ["pythia spy", "draw", "draw", "draw", "draw", "draw", "pegasus hand", "chance Centaur", "place c1"]
    state = play(moves)
    view = seen(state)
    zeus = view["sides"]["zeus"]
    assert zeus["columns"][0][0] == {"face_up": True, "card": "Centaur", "owner": "zeus"}
    # The Centaur may be the spied one or one of the three drawn since: Hera cannot
    # tell, so the two parts of the hand become one group, and the name is taken from
    # the known ones (a drawn card may still be a Centaur: nothing is ruled out).
    (g,) = groups_of(zeus["hand"])
    expected = dict(AFTER_SETUP_ZEUS)
    del expected["Centaur"]
    assert view["groups"][g] == {"owner": "zeus", "known": expected, "wildcards": [{"count": 3, "excluded": []}]}


def test_hades_takes_a_known_card_back_into_the_hand_without_pinning_it(play):
    """R-HAD-1 is public; once back in the hand the card is one of the hand."""
    state = play(SETUPS + ["draw", "draw", "draw", "pythia c1", "hades Pythia", "play Harpy c2r2"])
    view = seen(state)
    zeus = view["sides"]["zeus"]
    assert all("group" in s for s in zeus["hand"]), "no hand card is pinned"
    (g,) = groups_of(zeus["hand"])
    assert view["groups"][g]["known"] == {"Pythia": 1}
    assert view["groups"][g]["wildcards"] == [{"count": 7, "excluded": ["Argus"]}]
    assert zeus["columns"][1][1]["group"] == g, "the played card is one of the hand"


def test_public_reveal_pins_a_face_down_card(play):
    """R-PYT-2 and R-INFO-1: a card turned over is known to both for good."""
    state = play(SETUPS + ["draw", "draw", "draw", "pythia c1"])
    hera_side = seen(state, ZEUS)["sides"]["hera"]
    assert hera_side["columns"][0][0] == {"face_up": True, "card": "Hydra", "owner": "hera"}


def test_own_cards_are_always_known():
    """R-INFO-2, R-ACT-6."""
    from conftest import HERA_HAND, ZEUS_HAND, crafted_setup

    from hzai.games.hera_zeus.rules import Game, Record

    game = Game.create()
    state = Record(game, setup=crafted_setup(game, {"hera": HERA_HAND, "zeus": ZEUS_HAND}), moves=SETUPS).replay()
    mine = seen(state, HERA)["sides"]["hera"]
    assert sorted(s["card"] for s in mine["hand"]) == sorted(["Pythia", "Pegasus", "Sirens", "Centaur", "Hero", "Harpy"])
    assert [col[0]["card"] for col in mine["columns"]] == ["Hydra", "Cyclops", "Satyr"]
