"""The one registry of bots: making bots by name and checking their options; the
protocol itself is hzai.core.bot (`decide(view, limits, seed, stop, progress) -> PlayResult`).

Every bot is registered once (`register_bot`) with what builds it, one line on how it
decides, whether the service offers it and the capabilities it needs of a game
(hzai.core.Capabilities: the games it plays are those that declare them); `make_bot`, the
service's list of bots (`served_bots`), the command line's help (`bot_spec_help`) and
the table of docs/search.md (checked by a test) all read this registry, so a bot
registered here is offered by the service with no change to the server.
"""

from __future__ import annotations

import functools
import inspect
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from hzai.core.bot import Bot, BotError
from hzai.core.capabilities import CAPABILITIES, missing
from hzai.search.replicas import REPLICAS
from hzai.search.simple import HeuristicBot, LightBot, RandomBot
from hzai.text import quoted

try:  # the searched bots run in the native core; only without a built core are they missing
    from hzai.search.ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV2Bot, IsmctsV3Bot, PimcBot
    from hzai.search.levels import LevelBot
except ImportError:  # pragma: no cover - only without a built core
    IsmctsBot = None

if TYPE_CHECKING:
    from hzai.core.game import Game

__all__ = ["ANALYSIS_BOT", "DEFAULT_BOT", "Bot", "analysing_bots", "require_analyst", "BotError", "BotKind", "bot_kind", "bot_kinds", "bot_names", "bot_spec_help",
           "bot_table", "make_bot", "option_names", "parse_spec", "register_bot", "served_bots"]

DEFAULT_BOT = "ismcts"  # the bot of a request or command that names none
# The bot of an analysis shown to a person when none is named (hzai analyze, analyze-game,
# the service's Analyze and AnalyzeGame, hence the web page): the default bot with four
# independent replicas (hzai.search.replicas), whose intervals cover the spread of a value
# across seeds. A bot's move (SuggestMove, play) stays DEFAULT_BOT's single search;
# docs/analysis.md states the cost.
ANALYSIS_BOT = f"{DEFAULT_BOT}:replicas={REPLICAS}"


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


@dataclass(frozen=True)
class BotKind:
    """One bot `make_bot` builds. `maker` is a class or function whose parameters are the
    spec's options; `summary` says in one line how it decides; `served`: the service
    offers it; `needs`: the capabilities (hzai.core.Capabilities) it needs of a game
    whatever its options, so it plays only the games that declare them; `option_needs(bot)`:
    those a bot built with its options needs besides, each with the option that asks for
    it (ismcts: {"opponent_model": "infer"}); `lacks(game)`: why `game` cannot be played
    for a reason no capability says (ismcts-v3: no earlier model kept), None when it can;
    `spec`: how the help writes its name (`level:N`), and `examples`: specs showing its
    options."""

    name: str
    maker: Callable[..., Bot]
    summary: str
    served: bool = True
    needs: tuple[str, ...] = ()
    spec: str | None = None
    examples: tuple[str, ...] = ()
    option_needs: Callable[[Bot], dict[str, str]] | None = None
    lacks: Callable[[Game], str | None] | None = None

    def __post_init__(self):
        unknown = [need for need in self.needs if need not in CAPABILITIES]
        if unknown:
            raise ValueError(f"bot {self.name}: {unknown[0]!r} is no capability; capabilities: {', '.join(CAPABILITIES)}")

    @property
    def analyses(self) -> bool:
        """Whether its bots give an analysis of every move they weigh (`analyze`), not
        only a move: the bots a service's Analyze runs."""
        return callable(getattr(self.maker, "analyze", None))

    def plays_game(self, game: Game) -> bool:
        return (all(game.capabilities.offers(need) for need in self.needs)
                and (self.lacks is None or self.lacks(game) is None))

    def check_game(self, bot: Bot, game: Game) -> None:
        """BotError naming the game and the capability when `bot` (one of this kind) needs
        what `game` does not declare, before anything is searched."""
        for need in self.needs:
            if not game.capabilities.offers(need):
                raise BotError(f"bot {self.name}: {missing(game, need)}")
        reason = None if self.lacks is None else self.lacks(game)
        if reason is not None:
            raise BotError(f"bot {self.name}: {reason}")
        for need, option in (self.option_needs(bot) if self.option_needs is not None else {}).items():
            if not game.capabilities.offers(need):
                raise BotError(str(missing(game, need, f"option {option} is not offered")))


_KINDS: dict[str, BotKind] = {}
_LOCK = threading.RLock()
_BUILT_IN_LOADED = False


def register_bot(name: str, maker: Callable[..., Bot], summary: str, *, served: bool = True,
                 needs: tuple[str, ...] = (), spec: str | None = None, examples: tuple[str, ...] = (),
                 option_needs: Callable[[Bot], dict[str, str]] | None = None) -> BotKind:
    """Make `make_bot(name)` build `maker(**options)`; registering a name again replaces
    it. The service offers it (`served`) for every game that declares the capabilities
    it `needs`."""
    if not isinstance(name, str) or not name or name != name.strip().lower() or any(c in name for c in ":,="):
        raise ValueError(f"a bot name is a non-empty lower-case word without ':', ',' or '=', not {name!r}")
    kind = BotKind(name, maker, summary, served, tuple(needs), spec, tuple(examples), option_needs)
    with _LOCK:
        _load_built_in()
        _KINDS[name] = kind
    return kind


def _load_built_in() -> None:
    """The library's own bots, registered on first use (the searched ones only where the
    native core is built), in the order the service lists them."""
    global _BUILT_IN_LOADED
    with _LOCK:
        if _BUILT_IN_LOADED:
            return
        _BUILT_IN_LOADED = True
        kinds = []
        if IsmctsBot is not None:
            kinds += [
                BotKind("ismcts", IsmctsBot, "information-set MCTS, below: one tree (`tree=single`, the "
                        "default) or one per seat (`tree=multi`), optionally with a prior (`prior=W`); guided by the "
                        "game's shipped model and its opponent model where the game has them, else uniform worlds",
                        examples=("ismcts:c=1,playout=light,tree=multi,prior=1,infer=1,temp=2,reuse=1,credit=1,split=0.5",
                                  "ismcts:own_only=1,root_widen=0.25"), option_needs=IsmctsBot.needs),
                BotKind("ismcts-v2", IsmctsV2Bot, "the default before the learned models: ismcts unguided by a model",
                        option_needs=IsmctsBot.needs),
                BotKind("ismcts-v3", IsmctsV3Bot, "the learned default before the history-reading model: ismcts "
                        "guided by the earlier model the game keeps (game.model.archive), move for move",
                        needs=("model",), option_needs=IsmctsBot.needs, lacks=IsmctsV3Bot.lacks),
                BotKind("pimc", PimcBot, "perfect-information Monte Carlo: N determinizations, a search on each as "
                        "if every card were known (deck orders stay random), the move most worlds chose",
                        examples=("pimc:worlds=8",)),
            ]
        kinds += [
            BotKind("heuristic", HeuristicBot, "the game's rules of thumb on the visible cards (`game.search.heuristic_scores`)",
                    needs=HeuristicBot.needs),
            BotKind("random", RandomBot, "a uniformly random legal move"),
            BotKind("light", LightBot, "the search's `playout=light` policy as a bot: its move in one world drawn "
                    "from the view (arena benchmarks)", served=False, needs=LightBot.needs),
        ]
        if IsmctsBot is not None:
            kinds += [
                BotKind("ismcts-v1", IsmctsV1Bot, "the single-observer search exactly as it played before issue 15, "
                        "uniform worlds: the same moves for the same view, seed and budget (tests/golden holds them)",
                        served=False, option_needs=IsmctsBot.needs),
                BotKind("level", LevelBot, "ISMCTS at strength level N of 1..8 (below); options `c` and `playout` "
                        "only (the service takes the level in a request's `level` field)", served=False, spec="level:N"),
            ]
        for kind in kinds:
            _KINDS.setdefault(kind.name, kind)


def bot_kinds() -> tuple[BotKind, ...]:
    """Every registered bot, in registration order (the library's own first)."""
    with _LOCK:
        _load_built_in()
        return tuple(_KINDS.values())


def bot_kind(name: str) -> BotKind | None:
    with _LOCK:
        _load_built_in()
        return _KINDS.get(name)


def bot_names() -> tuple[str, ...]:
    """Every bot name make_bot knows, sorted."""
    return tuple(sorted(kind.name for kind in bot_kinds()))


def served_bots(game: Game) -> list[str]:
    """The bot names the service offers for `game`, in registration order."""
    return [kind.name for kind in bot_kinds() if kind.served and kind.plays_game(game)]


def analysing_bots(game: Game) -> list[str]:
    """The served bots whose search a service's Analyze runs for `game` (`BotKind.analyses`)."""
    return [kind.name for kind in bot_kinds() if kind.served and kind.analyses and kind.plays_game(game)]


def require_analyst(bot: Bot, game: Game) -> Bot:
    """`bot` when its search reads as an analysis (`Analyst.analyze`); BotError naming the
    bots that analyse `game` otherwise."""
    if not callable(getattr(bot, "analyze", None)):
        raise BotError(f"bot {quoted(bot.name)} gives a move, not an analysis of the moves it weighs; "
                       f"an analysis of {game.name} is by {', '.join(analysing_bots(game))}")
    return bot


def bot_table() -> str:
    """The table of docs/search.md: every bot, how it decides, whether the service offers it."""
    rows = ["| bot | how it decides | served |", "|---|---|---|"]
    rows += [f"| {kind.spec or kind.name} | {kind.summary} | {'yes' if kind.served else 'no'} |" for kind in bot_kinds()]
    return "\n".join(rows)


def bot_spec_help() -> str:
    """The help of a command option that takes a bot spec: every bot and the examples."""
    kinds = bot_kinds()
    names = ", ".join(kind.spec or kind.name for kind in kinds)
    examples = "; ".join(e for kind in kinds for e in kind.examples)
    return f"bot spec: {names}; options after a colon ({examples}; docs/search.md)"


def _known(name: str) -> BotKind:
    kind = bot_kind(name)
    if kind is None:
        raise BotError(f"unknown bot {quoted(name)}; choose from {', '.join(bot_names())}")
    return kind


def option_names(name: str) -> tuple[str, ...]:
    """The options bot `name` takes (its constructor's parameters, read once); BotError
    for a name make_bot does not know."""
    return _option_names(_known(name).maker)


def make_bot(spec: str, game: Game | None = None) -> Bot:
    """A registered bot by name (`bot_names()`), options after a colon; `level:3` is
    ISMCTS at strength level 3 (hzai.search.levels). With `game`: BotError naming the
    game and the capability when the bot, with its options, needs one the game does not
    declare (`BotKind.check_game`), before anything is searched."""
    name, options = parse_spec(_level_spec(spec))
    kind = _known(name)
    _check_keys(name, kind.maker, options)
    try:
        bot = kind.maker(**options)
    except BotError as exc:
        raise BotError(f"bot {name}: {exc}") from None
    if game is not None:
        kind.check_game(bot, game)
    return bot
