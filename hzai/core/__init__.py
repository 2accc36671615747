"""The game-independent core: what every game implements and every algorithm reads.

    Game   the static game: its rules (seats, action ids, notation, records), the search's
           hooks (SearchHooks) and the front ends' (FrontEnd), and its `capabilities`
           (Capabilities: what it offers beyond the rules, declared, never probed)
    State  one position with everything in it; chance and end are states too
    View   one seat's information set, which can draw a State consistent with it
    Bot    decide(view, limits, seed, stop, progress) -> PlayResult

Nothing here names a game's rules; games register themselves (`register_game`) and
algorithms find them by name (`make_game`). Modelled on OpenSpiel's Game/State split.
"""

from hzai.core.capabilities import Capabilities, MissingCapability
from hzai.core.bot import Analysis, Analyst, Bot, BotError, MoveInfo, PlayResult, wilson_interval
from hzai.core.game import Game, Move
from hzai.core.limits import Limits, LimitsError
from hzai.core.record import NoDecision, Observed, RecordError, ReplayStopped, SeedRecord
from hzai.core.registry import (
    UnknownGameError, game_names, game_of_format, make_game, record_formats, register_game,
)
from hzai.core.state import State
from hzai.core.view import View

__all__ = [
    "Analysis", "Bot", "BotError", "Capabilities", "Game", "Limits", "LimitsError", "MissingCapability", "Move",
    "MoveInfo", "NoDecision", "Observed", "PlayResult", "RecordError", "ReplayStopped", "SeedRecord", "State",
    "UnknownGameError", "View", "game_names", "game_of_format", "make_game", "record_formats", "register_game",
    "wilson_interval",
]
