"""Crafted games for the belief tests: chosen hands and deck tops, the rest of each
deck in deck-file order."""

from __future__ import annotations

from collections import Counter

import pytest

from hzai.games.hera_zeus.rules import Game, Record


def crafted_setup(game: Game, hands: dict, tops: dict | None = None) -> dict:
    tops = tops or {}
    setup = {}
    for owner, player in enumerate(("hera", "zeus")):
        rest = Counter(c.name for c in game.deck.cards if c.owner == owner)
        rest.subtract(hands[player])
        rest.subtract(tops.get(player, []))
        deck = list(tops.get(player, []))
        for card_type in game.deck.side_types[owner]:
            if rest[card_type.name] > 0:
                deck.append(card_type.name)
                rest[card_type.name] -= 1
        setup[player] = {"hand": list(hands[player]), "deck": deck}
    return setup


HERA_HAND = ["Pythia", "Pegasus", "Sirens", "Hydra", "Cyclops", "Satyr", "Centaur", "Hero", "Harpy"]
ZEUS_HAND = ["Hydra", "Cyclops", "Satyr", "Centaur", "Sirens", "Dionysus", "Hades", "Pythia", "Harpy"]
SETUPS = ["setup Hydra Cyclops Satyr", "setup Hydra Cyclops Satyr"]


@pytest.fixture
def play():
    """Replay moves from the crafted deal; returns the final state."""

    def run(moves, hands=None, tops=None, variants=None):
        game = Game.create(variants)
        hands = hands or {"hera": HERA_HAND, "zeus": ZEUS_HAND}
        return Record(game, setup=crafted_setup(game, hands, tops), moves=list(moves)).replay()

    return run
