"""Write a deck in the plain form the core's self-test program reads (docs/native.md).

    python -m hzai.games.hera_zeus.native.deckfile [classic | DECK.toml] > deck.txt

One card instance a line, in id order: name, lower-case name, owner, kind, strength,
power, slays_medusa, falls_to_pythia (numbers as in hzai.games.hera_zeus.native.state).
"""

from __future__ import annotations

import sys

from hzai.games.hera_zeus.cards import load_deck
from hzai.games.hera_zeus.native.state import _card_specs


def deck_lines(spec: str = "classic") -> list[str]:
    return [" ".join(str(int(v)) if isinstance(v, bool) else str(v) for v in card) for card in _card_specs(load_deck(spec))]


if __name__ == "__main__":
    print("\n".join(deck_lines(sys.argv[1] if len(sys.argv) > 1 else "classic")))
