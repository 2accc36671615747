"""Bots and search: one interface (`Bot.decide(view, limits, seed) -> Move`), baseline
bots, information-set MCTS in the native core, and analysis answers.

    >>> from hzai.search import Limits, make_bot
    >>> bot = make_bot("ismcts")
    >>> move = bot.decide(view, Limits(iterations=1000), seed=1)
"""

from hzai.search.analysis import Analysis, MoveInfo, wilson_interval
from hzai.search.bot import Bot, BotError, make_bot, parse_spec
from hzai.search.limits import Limits, LimitsError
from hzai.search.simple import HeuristicBot, RandomBot

try:  # the search itself lives in the native core
    from hzai.search.ismcts import IsmctsBot, PimcBot, analyze
except ImportError:  # pragma: no cover - only without a built core
    IsmctsBot = PimcBot = analyze = None

__all__ = [
    "Analysis",
    "Bot",
    "BotError",
    "HeuristicBot",
    "IsmctsBot",
    "PimcBot",
    "analyze",
    "Limits",
    "LimitsError",
    "MoveInfo",
    "RandomBot",
    "make_bot",
    "parse_spec",
    "wilson_interval",
]
