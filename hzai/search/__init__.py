"""Bots and search over any hzai.core game: one protocol
(`Bot.decide(view, limits, seed, stop, progress) -> PlayResult`), baseline bots,
information-set MCTS and PIMC in the native generic search, and analysis answers.

    >>> from hzai.search import Limits, make_bot
    >>> bot = make_bot("ismcts")
    >>> result = bot.decide(view, Limits(iterations=1000), seed=1)   # result.move, result.analysis
    >>> bot.decide(view, Limits(iterations=1000), root_moves=RootMoves(avoid=[result.move]))

Whole games and many positions: hzai.search.review (review_moves) and
hzai.search.positions (analyze_positions); docs/analysis.md.
"""

from hzai.core import Analysis, MoveInfo, PlayResult, wilson_interval
from hzai.core.bot import RootMoves, RootMovesError
from hzai.search.bot import Bot, BotError, make_bot, parse_spec
from hzai.core.limits import Limits, LimitsError
from hzai.search.simple import HeuristicBot, RandomBot

try:  # the search itself lives in the native core
    from hzai.search.ismcts import IsmctsBot, IsmctsV1Bot, PimcBot, analyze
    from hzai.search.levels import LevelBot
except ImportError:  # pragma: no cover - only without a built core
    IsmctsBot = IsmctsV1Bot = PimcBot = analyze = LevelBot = None

__all__ = [
    "Analysis",
    "Bot",
    "BotError",
    "HeuristicBot",
    "IsmctsBot",
    "IsmctsV1Bot",
    "LevelBot",
    "PimcBot",
    "analyze",
    "Limits",
    "LimitsError",
    "MoveInfo",
    "PlayResult",
    "RandomBot",
    "RootMoves",
    "RootMovesError",
    "make_bot",
    "parse_spec",
    "wilson_interval",
]
