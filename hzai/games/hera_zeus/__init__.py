"""Hera and Zeus, as an hzai.core game: the rules engine (`rules`), what each seat knows
(`belief`), cards and decks, drawing and narrating positions, the heuristic policy and
the OpenSpiel wrapper, the adapters to its C++ twin (`native`). `HeraZeusGame` is the
static game (rules/game.py); `make` is the factory pyproject.toml declares (entry point
`hzai.games`: hera_zeus)."""

from hzai.games.hera_zeus.rules.game import Game as HeraZeusGame


def make(deck: str = "classic", **variants) -> HeraZeusGame:
    """The game for `make_game("hera_zeus", deck=..., first_player=..., ...)`."""
    return HeraZeusGame.create(variants, deck)


__all__ = ["HeraZeusGame", "make"]
