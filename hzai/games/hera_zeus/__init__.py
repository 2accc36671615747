"""Hera and Zeus, as an hzai.core game: the rules engine (`rules`), what each seat knows
(`belief`), cards and decks, drawing and narrating positions, the heuristic policy and
the OpenSpiel wrapper, the adapters to its C++ twin (`native`).

The game is put together here, in one place: `HeraZeusGame` is the rules (rules/game.py),
and its parts are the records (records.py), the search support and the learned model
(search_support.py) and the presentation (presentation.py), each imported when a game
first asks for it (hzai.lazy): making a game and writing a record load neither the
beliefs nor the twin. `make` is the factory the registry finds by the folder
(hzai.core.registry.folder_games)."""

from hzai.core.game import assemble
from hzai.games.hera_zeus.rules.game import Game as HeraZeusGame
from hzai.lazy import lazy_call

assemble(HeraZeusGame, records=lazy_call("hzai.games.hera_zeus.records:HeraZeusRecords"),
         search=lazy_call("hzai.games.hera_zeus.search_support:HeraZeusSearch"),
         model=lazy_call("hzai.games.hera_zeus.search_support:HeraZeusModel"),
         presentation=lazy_call("hzai.games.hera_zeus.presentation:HeraZeusPresentation"))


def make(deck: str = "classic", **variants) -> HeraZeusGame:
    """The game for `make_game("hera_zeus", deck=..., first_player=..., ...)`."""
    return HeraZeusGame.create(variants, deck)


__all__ = ["HeraZeusGame", "make"]
