"""The reference rules engine: readable, and the oracle for every other part.

    >>> from hzai.games.hera_zeus.rules import Game, Record
    >>> state = Record(Game.create(), seed=7).start()
    >>> move = state.legal_moves()[0]
    >>> state.push(move)
"""

from hzai.games.hera_zeus.rules.game import Game, Record
from hzai.games.hera_zeus.rules.variants import Variants, VariantError
from hzai.games.hera_zeus.rules.moves import CardRef, Move, NotationError, parse_move
from hzai.games.hera_zeus.rules.playout import random_playout
from hzai.games.hera_zeus.rules.record import RecordError, deal, initial_state, push_recorded, state_to_json
from hzai.games.hera_zeus.rules.replay_cache import ReplayCache
from hzai.games.hera_zeus.rules.state import FIGURE, IllegalMoveError, State

__all__ = [
    "FIGURE",
    "CardRef",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Record",
    "RecordError",
    "ReplayCache",
    "State",
    "VariantError",
    "Variants",
    "deal",
    "initial_state",
    "parse_move",
    "push_recorded",
    "random_playout",
    "state_to_json",
]
