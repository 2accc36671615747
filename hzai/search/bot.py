"""The one interface every bot speaks: `decide(view, limits, seed) -> Move`.

A bot sees only a player's view (R-INFO-4): two games that look the same to that
player get the same move for the same seed and budget.
"""

from __future__ import annotations

import inspect
import math
from typing import Protocol

from hzai.belief import View
from hzai.rules import Move
from hzai.search.limits import Limits
from hzai.text import quoted


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
            raise BotError(f"bot option {quoted(item)} in {quoted(spec)}: write key=value")
        key = key.strip()
        if key in options:
            raise BotError(f"bot option {quoted(key)} is given twice in {quoted(spec)}")
        options[key] = value.strip()
    return name.strip().lower(), options


# ----- checking option values: every bad value is a BotError naming the option ----------
def number_option(option: str, value, low: float, high: float) -> float:
    """A finite number within low..high (a string as written after `option=`)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise BotError(f"option {option} must be a number, not {quoted(value)}") from None
    if not math.isfinite(number) or not low <= number <= high:
        raise BotError(f"option {option} must be a number within {low:g}..{high:g}, not {quoted(value)}")
    return number


def whole_option(option: str, value, low: int, high: int) -> int:
    """A whole number within low..high."""
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    if text is None or not text.lstrip("+-").isdigit() or len(text) > 20:
        raise BotError(f"option {option} must be a whole number {low}..{high}, not {quoted(value)}")
    number = int(text)
    if not low <= number <= high:
        raise BotError(f"option {option} must be a whole number {low}..{high}, not {number}")
    return number


def choice_option(option: str, value, choices) -> str:
    if value not in choices:
        raise BotError(f"option {option} must be one of {', '.join(choices)}, not {quoted(value)}")
    return value


def _check_keys(name: str, maker, options: dict) -> None:
    known = [p for p in inspect.signature(maker).parameters if p != "self"]
    for key in options:
        if key not in known:
            offer = f"options: {', '.join(known)}" if known else "it takes no options"
            raise BotError(f"bot {name}: unknown option {quoted(key)}; {offer}")


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
        raise BotError(f"unknown bot {quoted(name)}; choose from {', '.join(sorted(makers))}")
    _check_keys(name, makers[name], options)
    try:
        return makers[name](**options)
    except BotError as exc:
        raise BotError(f"bot {name}: {exc}") from None
