"""R-SETUP: the deal, the hidden front rows, the starting zones."""

from __future__ import annotations

from collections import Counter

import pytest

from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, RecordError, deal

from .helpers import explicit_setup, js, moves, push, record, reveals, whole_deck

PLACEABLE_9 = ["Hydra", "Cyclops", "Satyr", "Centaur", "Hero", "Pegasus", "Sirens", "Hades", "Dionysus"]
ZEUS_9 = ["Hydra", "Hydra", "Satyr", "Centaur", "Medusa", "Pythia", "Sirens", "Persephone", "Dionysus"]


def test_R_SETUP_1_hostage_never_starts_in_a_hand():
    game = Game.create()
    for seed in range(300):
        setup = deal(game, seed)
        for owner, player in enumerate(("hera", "zeus")):
            side = setup[player]
            assert len(side["hand"]) == 9
            assert Counter(side["hand"] + side["deck"]) == Counter(whole_deck(game, owner))
            assert game.deck.cards[game.deck.hostage_id[owner]].name not in side["hand"]


def test_R_SETUP_1_hostage_among_the_nine_is_replaced_by_the_next_card():
    """Re-run the documented generator: a hostage in the first 9 is replaced by card 10."""
    game = Game.create()
    seen_replacement = 0
    for seed in range(200):
        rng = SplitMix64(seed)
        cards = list(game.deck.ids_of(0))
        rng.shuffle(cards)
        names = [game.deck.cards[x].name for x in cards]
        expected = [n for n in names[:10] if n != "Io"][:9]
        hand = deal(game, seed)["hera"]["hand"]
        assert hand == expected
        seen_replacement += "Io" in names[:9]
    assert seen_replacement > 0  # the case was exercised


def test_R_SETUP_1_record_with_hostage_in_hand_is_rejected():
    game = Game.create()
    setup = explicit_setup(game, ["Io"] + PLACEABLE_9[:8], ZEUS_9)
    with pytest.raises(RecordError, match="hostage"):
        Record(game, setup=setup).start()


def test_R_SETUP_2_three_placeable_cards_one_per_column_hera_first():
    state = record(PLACEABLE_9, ZEUS_9).start()
    assert js(state)["phase"] == "setup" and js(state)["to_move"] == "hera"
    hera_setups = moves(state)
    assert "setup Hydra Cyclops Satyr" in hera_setups
    for text in hera_setups:
        cards = text.split()[1:]
        assert len(cards) == 3 and "-" not in cards
        assert not {"Sirens", "Hades", "Dionysus"} & set(cards)  # myth-only cards are never placed
    # 6 distinct placeable names -> 6*5*4 ordered choices
    assert len(hera_setups) == 6 * 5 * 4
    push(state, "setup Hydra Cyclops Satyr")
    assert js(state)["to_move"] == "zeus"
    sides = js(state)["sides"]["hera"]["columns"]
    assert [c[0]["card"] for c in sides] == ["Hydra", "Cyclops", "Satyr"]
    assert not any(c[0]["face_up"] for c in sides)


def test_R_SETUP_2_zeus_chooses_without_seeing_heras_cards():
    a = record(PLACEABLE_9, ZEUS_9).start()
    b = record(PLACEABLE_9, ZEUS_9).start()
    n = len(a.events)
    push(a, "setup Hydra Cyclops Satyr")
    push(b, "setup Pegasus Hero Centaur")
    assert moves(a) == moves(b)
    assert reveals(a, n) == [] and reveals(b, n) == []  # nothing shown to Zeus


def test_R_SETUP_2_fewer_than_three_placeable_cards_are_all_placed():
    hand = ["Hydra", "Satyr", "Hera", "Sirens", "Sirens", "Hades", "Persephone", "Dionysus", "Dionysus"]
    state = record(hand, ZEUS_9).start()
    setups = moves(state)
    # two cards into distinct columns, one column empty: 3 * 2 placements
    assert setups == {
        "setup Hydra Satyr -", "setup Hydra - Satyr", "setup Satyr Hydra -",
        "setup Satyr - Hydra", "setup - Hydra Satyr", "setup - Satyr Hydra",
    }
    push(state, "setup - Satyr Hydra")
    assert [len(c) for c in js(state)["sides"]["hera"]["columns"]] == [0, 1, 1]


def test_R_SETUP_3_after_setup_decks_hidden_piles_empty_figures_off():
    state = push(record(PLACEABLE_9, ZEUS_9).start(), "setup Hydra Cyclops Satyr", "setup Hydra Satyr Centaur")
    j = js(state)
    assert j["phase"] == "play" and j["turn"] == 1 and j["to_move"] == "hera"
    for player in ("hera", "zeus"):
        side = j["sides"][player]
        assert side["discard"] == [] and side["figure"] is None
        assert side["deck_size"] == 34 and "deck" not in side  # only the size is shown
        assert len(side["hand"]) == 6
        assert all(not c["face_up"] for col in side["columns"] for c in col)
