"""Hera and Zeus, as an hzai.core game: the rules engine (`rules`), what each seat knows
(`belief`), cards and decks, drawing and narrating positions, the heuristic policy and
the OpenSpiel wrapper, the adapters to its C++ twin (`native`).

The game is put together here, in one place: `HeraZeusGame` is the rules (rules/game.py),
and its parts are the records (records.py), the search support and the learned model
(search_support.py) and the presentation (presentation.py). `make` is the factory
pyproject.toml declares (entry point `hzai.games`: hera_zeus)."""

from hzai.core.game import assemble
from hzai.games.hera_zeus.presentation import HeraZeusPresentation
from hzai.games.hera_zeus.records import HeraZeusRecords
from hzai.games.hera_zeus.rules.game import Game as HeraZeusGame
from hzai.games.hera_zeus.search_support import HeraZeusModel, HeraZeusSearch

assemble(HeraZeusGame, records=HeraZeusRecords, search=HeraZeusSearch, model=HeraZeusModel,
         presentation=HeraZeusPresentation)


def make(deck: str = "classic", **variants) -> HeraZeusGame:
    """The game for `make_game("hera_zeus", deck=..., first_player=..., ...)`."""
    return HeraZeusGame.create(variants, deck)


__all__ = ["HeraZeusGame", "make"]
