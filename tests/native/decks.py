"""A deck other than the classic one, so that the tests show nothing depends on its counts."""

from __future__ import annotations

from hzai.games.hera_zeus.cards import parse_deck
from hzai.games.hera_zeus.rules import Game

# Other counts, another deck size, a renamed plain card, and every power present.
SMALL_DECK = """
name = "small"
deck_size = 30

[[cards]]
name = { hera = "Io", zeus = "Argus" }
kind = "hostage"
count = 1

[[cards]]
name = { hera = "Hera", zeus = "Zeus" }
kind = "god"
count = 1

[[cards]]
name = "Titan"
strength = 7
kind = "plain"
traits = ["falls_to_pythia"]
count = 2

[[cards]]
name = "Hydra"
strength = 5
kind = "plain"
count = 3

[[cards]]
name = "Hero"
strength = 3
kind = "plain"
traits = ["slays_medusa"]
count = 3

[[cards]]
name = "Satyr"
strength = 2
kind = "plain"
count = 4

[[cards]]
name = "Pegasus"
strength = 1
kind = "myth"
power = "pegasus"
count = 4

[[cards]]
name = "Pythia"
strength = 1
kind = "myth"
power = "pythia"
count = 2

[[cards]]
name = "Medusa"
strength = 0
kind = "myth"
power = "medusa"
count = 2

[[cards]]
name = "Pandora"
strength = 0
kind = "myth"
power = "pandora"
count = 2

[[cards]]
name = "Sirens"
kind = "myth"
power = "sirens"
count = 2

[[cards]]
name = "Hades"
kind = "myth"
power = "hades"
count = 2

[[cards]]
name = "Persephone"
kind = "myth"
power = "persephone"
count = 1

[[cards]]
name = "Dionysus"
kind = "myth"
power = "dionysus"
count = 1
"""


def small_game(variants: dict | None = None) -> Game:
    from hzai.games.hera_zeus.rules.game import Variants

    return Game(parse_deck(SMALL_DECK, "small"), Variants.from_dict(variants), "small")
