"""R-DECK: the two decks and the data file they come from."""

from __future__ import annotations

from collections import Counter

import pytest

from hzai.games.hera_zeus.cards import DeckError, load_deck, parse_deck
from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.playout import random_playout

from .helpers import Side, position, push, result

# The table of docs/rules.md R-DECK-2, written out independently of the data file.
CLASSIC = {
    "Poseidon": (7, 1), "Nemesis": (7, 1), "Cyclops": (6, 3), "Hydra": (5, 4),
    "Centaur": (4, 5), "Hero": (3, 2), "Harpy": (3, 3), "Amazon": (2, 2), "Satyr": (2, 5),
    "Pegasus": (1, 5), "Pythia": (1, 2), "Medusa": (0, 1), "Pandora": (0, 1),
    "Sirens": (None, 2), "Hades": (None, 1), "Persephone": (None, 1), "Dionysus": (None, 2),
}


def side_counts(deck, owner):
    return Counter(deck.cards[x].name for x in deck.ids_of(owner))


def test_R_DECK_1_two_decks_of_43_with_own_hostage_and_god():
    deck = load_deck("classic")
    hera, zeus = side_counts(deck, 0), side_counts(deck, 1)
    assert sum(hera.values()) == 43 and sum(zeus.values()) == 43
    assert hera["Io"] == 1 and hera["Hera"] == 1 and "Argus" not in hera and "Zeus" not in hera
    assert zeus["Argus"] == 1 and zeus["Zeus"] == 1 and "Io" not in zeus and "Hera" not in zeus
    common = lambda c: {k: v for k, v in c.items() if k not in ("Io", "Hera", "Argus", "Zeus")}  # noqa: E731
    assert common(hera) == common(zeus)
    assert deck.cards[deck.hostage_id[0]].name == "Io" and deck.cards[deck.hostage_id[1]].name == "Argus"


def test_R_DECK_1_hera_wins_by_finding_argus():
    state = position(hera=Side(columns=[["Hydra"]]), zeus=Side(columns=[["Argus"]]))
    push(state, "challenge c1")
    assert result(state) == ("hera", "hostage_found")


def test_R_DECK_1_zeus_wins_by_finding_io():
    state = position(hera=Side(columns=[["Io"]]), zeus=Side(columns=[["Satyr"]]), to_move="zeus")
    push(state, "challenge c1")
    assert result(state) == ("zeus", "hostage_found")


def test_R_DECK_2_classic_deck_matches_the_rules_table():
    deck = load_deck("classic")
    for owner in (0, 1):
        counts = side_counts(deck, owner)
        for name, (strength, count) in CLASSIC.items():
            assert counts[name] == count, name
            assert deck.type_named(name).strength == strength, name
    assert deck.type_named("Io").strength is None and deck.type_named("Zeus").strength is None
    assert deck.type_named("Io").placeable and not deck.type_named("Hera").placeable
    assert not any(deck.type_named(n).placeable for n in ("Sirens", "Hades", "Persephone", "Dionysus"))


CUSTOM_DECK = """
name = "small"
deck_size = 20
[[cards]]
name = { hera = "Io", zeus = "Argus" }
kind = "hostage"
count = 1
[[cards]]
name = { hera = "Hera", zeus = "Zeus" }
kind = "god"
count = 1
[[cards]]
name = "Hydra"
strength = 5
kind = "plain"
count = 7
[[cards]]
name = "Pegasus"
strength = 1
kind = "myth"
power = "pegasus"
count = 8
[[cards]]
name = "Hero"
strength = 3
kind = "plain"
traits = ["slays_medusa"]
count = 3
"""


def test_R_DECK_2_counts_come_from_the_deck_file(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(CUSTOM_DECK, encoding="utf-8")
    deck = load_deck(path)
    assert side_counts(deck, 0) == Counter({"Io": 1, "Hera": 1, "Hydra": 7, "Pegasus": 8, "Hero": 3})
    assert len(deck) == 40
    # a whole game runs on it: nothing assumes 43 cards or the classic counts
    for seed in range(5):
        record = Record(Game.create({"turn_limit": 60}, str(path)), seed=seed)
        state = random_playout(record.start(), seed)
        assert state.is_over
        everywhere = sum(map(len, state.hands + state.decks + state.discards)) + len(state.side_cards(0)) + len(
            state.side_cards(1)
        ) + len(state.limbo)
        assert everywhere == 40
    # the position builder fills in from the same file
    state = position(hera=Side(columns=[["Hydra"]]), zeus=Side(columns=[["Hero"]]), deck=str(path))
    assert len(state.decks[0]) == 19 and len(state.decks[1]) == 19


def test_R_DECK_2_inconsistent_deck_file_is_rejected():
    with pytest.raises(DeckError, match="deck_size"):
        parse_deck(CUSTOM_DECK.replace("deck_size = 20", "deck_size = 43"))
    with pytest.raises(DeckError, match="hostage"):
        parse_deck(CUSTOM_DECK.replace('kind = "hostage"', 'kind = "plain"\nstrength = 1'))
