"""The game-independent core: what every game implements and every algorithm reads.

    Game   the static game: its rules (seats, action ids, notation, new states), and its
           parts: `records` (Records), `search` (SearchSupport), `model` (Model or None),
           `presentation` (Presentation), put together by its package (`assemble`); its
           `capabilities` are the parts that are there
    State  one position with everything in it; chance and end are states too
    View   one seat's information set, which can draw a State consistent with it
    Bot    decide(view, limits, seed, stop, progress) -> PlayResult

Nothing here names a game's rules; games register themselves (`register_game`) and
algorithms find them by name (`make_game`). Modelled on OpenSpiel's Game/State split.
"""

from hzai.core.capabilities import Capabilities, MissingCapability, missing, require
from hzai.core.bot import Analysis, Analyst, Bot, BotError, MoveInfo, PlayResult, wilson_interval
from hzai.core.game import Game, Move, assemble
from hzai.core.limits import Limits, LimitsError
from hzai.core.presentation import Presentation
from hzai.core.record import NoDecision, Observed, RecordError, Records, ReplayStopped, SeedRecord
from hzai.core.search_support import Model, SearchSupport
from hzai.core.registry import (
    UnknownGameError, game_names, game_of_format, make_game, record_formats, register_game,
)
from hzai.core.state import State
from hzai.core.view import View

__all__ = [
    "Analysis", "Bot", "BotError", "Capabilities", "Game", "Limits", "LimitsError", "MissingCapability", "Model",
    "Move", "MoveInfo", "NoDecision", "Observed", "PlayResult", "Presentation", "RecordError", "Records",
    "ReplayStopped", "SearchSupport", "SeedRecord", "State", "UnknownGameError", "View", "assemble", "game_names",
    "game_of_format", "make_game", "missing", "record_formats", "register_game", "require", "wilson_interval",
]
