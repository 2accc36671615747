"""Making bots by name and checking their options; the protocol itself is
hzai.core.bot (`decide(view, limits, seed, stop, progress) -> PlayResult`)."""

from __future__ import annotations

import functools
import inspect

from hzai.core.bot import Bot, BotError
from hzai.text import quoted

__all__ = ["Bot", "BotError", "bot_names", "make_bot", "option_names", "parse_spec"]


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


@functools.lru_cache(maxsize=64)
def _option_names(maker) -> tuple[str, ...]:
    """The options a bot class takes (its constructor's parameters), read once."""
    return tuple(p for p in inspect.signature(maker).parameters if p != "self")


def _check_keys(name: str, maker, options: dict) -> None:
    known = _option_names(maker)
    for key in options:
        if key not in known:
            offer = f"options: {', '.join(known)}" if known else "it takes no options"
            raise BotError(f"bot {name}: unknown option {quoted(key)}; {offer}")


def _level_spec(spec: str) -> str:
    """'level:3,c=0.5' -> 'level:level=3,c=0.5' (a level's number may be written bare)."""
    name, sep, rest = spec.partition(":")
    first, comma, others = rest.partition(",")
    if name.strip().lower() == "level" and first and "=" not in first:
        return f"{name}{sep}level={first}{comma}{others}"
    return spec


def _makers() -> dict:
    """Bot name -> class; the searched bots only where the native core is built."""
    from hzai.search.simple import HeuristicBot, LightBot, RandomBot

    makers = {"random": RandomBot, "heuristic": HeuristicBot, "light": LightBot}
    try:
        from hzai.search.ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV2Bot, PimcBot
        from hzai.search.levels import LevelBot

        makers.update({"ismcts": IsmctsBot, "ismcts-v2": IsmctsV2Bot, "ismcts-v1": IsmctsV1Bot, "pimc": PimcBot,
                       "level": LevelBot})
    except ImportError:  # the native core is not built
        pass
    return makers


def bot_names() -> tuple[str, ...]:
    """Every bot name make_bot knows, sorted."""
    return tuple(sorted(_makers()))


def option_names(name: str) -> tuple[str, ...]:
    """The options bot `name` takes (its constructor's parameters, read once); BotError
    for a name make_bot does not know."""
    makers = _makers()
    if name not in makers:
        raise BotError(f"unknown bot {quoted(name)}; choose from {', '.join(sorted(makers))}")
    return _option_names(makers[name])


def make_bot(spec: str) -> Bot:
    """A bot by name: random, heuristic, light, ismcts, ismcts-v2, ismcts-v1, pimc, level (options
    after a colon; `level:3` is ISMCTS at strength level 3, hzai.search.levels)."""
    name, options = parse_spec(_level_spec(spec))
    makers = _makers()
    if name not in makers:
        raise BotError(f"unknown bot {quoted(name)}; choose from {', '.join(sorted(makers))}")
    _check_keys(name, makers[name], options)
    try:
        return makers[name](**options)
    except BotError as exc:
        raise BotError(f"bot {name}: {exc}") from None
