"""The one interface every bot speaks: `decide(view, limits, seed) -> Move`.

A bot sees only a player's view (R-INFO-4): two games that look the same to that
player get the same move for the same seed and budget.
"""

from __future__ import annotations

from typing import Protocol

from hzai.belief import View
from hzai.rules import Move
from hzai.search.limits import Limits


class BotError(ValueError):
    """An unknown bot or bad bot option; the message names it."""


class Bot(Protocol):
    """Searching bots also take `should_stop`, a callable polled while they think; when
    it returns True they answer with their best move so far."""

    name: str

    def decide(self, view: View, limits: Limits, seed: int) -> Move: ...


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'ismcts:c=0.7,playout=heuristic' -> ('ismcts', {'c': '0.7', 'playout': 'heuristic'})"""
    name, _, rest = spec.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise BotError(f"bot option {item!r} in {spec!r}: write key=value")
        options[key.strip()] = value.strip()
    return name.strip().lower(), options


def make_bot(spec: str) -> Bot:
    """A bot by name: random, heuristic, ismcts, pimc (options after a colon)."""
    from hzai.search.simple import HeuristicBot, RandomBot

    name, options = parse_spec(spec)
    makers = {"random": RandomBot, "heuristic": HeuristicBot}
    try:
        from hzai.search.ismcts import IsmctsBot, PimcBot

        makers.update(ismcts=IsmctsBot, pimc=PimcBot)
    except ImportError:  # the native core is not built
        pass
    if name not in makers:
        raise BotError(f"unknown bot {name!r}; choose from {', '.join(sorted(makers))}")
    try:
        return makers[name](**options)
    except TypeError as exc:
        raise BotError(f"bot {name}: {exc}") from None
