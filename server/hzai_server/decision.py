"""One decision request: what a call asks of a bot, read from its message once.

A SuggestMove, an Analyze (each position of a batch), an AnalyzeStream and each bot move
of a hosted match (BotPlayTurn) are one `DecisionRequest`: the game, the deciding seat's
view (replayed once, natively where the game has a twin, and remembered by record), the
bot built from its spec (and level) once, the budget, the seed, the chosen root moves and
the admission class. The handler builds it, then hands this one object to the search
(`searches.decide`, `searches.run_analysis`): nothing below reads the protobuf message
again. An AnalyzeGame is one plan (hzai_server.game_review) with one analysing bot made
by `analyst_for`, whose search answers every decision. Every method decides with the
bot's own search (`Analyst.analyze` for the analyses, `decide` for a move), so one spec,
seed and budget give one answer whichever method asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from hzai.core import Game, Limits, View
from hzai.core.bot import Bot, RootMoves
from hzai.search.bot import ANALYSIS_BOT, BotError, require_analyst

from hzai_server.errors import invalid
from hzai_server.searches import make_checked_bot


@dataclass(frozen=True)
class Decision:
    """A position ready to search: the view of the seat to decide (never the state)."""

    game: Game
    view: View

    @property
    def seat(self) -> int:
        return self.view.seat


@dataclass(frozen=True)
class DecisionRequest:
    """Everything one decision needs, parsed and checked (module docstring)."""

    decision: Decision
    bot: Bot
    spec: str  # the bot spec as asked (when the request named none: "ismcts" for a move, ANALYSIS_BOT for an analysis)
    limits: Limits
    seed: int
    priority: str
    root_moves: RootMoves | None = None
    level: int = 0

    @property
    def game(self) -> Game:
        return self.decision.game

    @property
    def view(self) -> View:
        return self.decision.view


def analyst_for(spec: str, game: Game, field: str = "bot") -> tuple[Bot, str]:
    """The bot of `spec` (empty: the analysis bot ANALYSIS_BOT, the default bot with its
    replicas) whose search answers an analysis of `game`, and the spec; INVALID_ARGUMENT
    naming `field` for a bot that gives only moves."""
    spec = spec or ANALYSIS_BOT
    try:
        return require_analyst(make_checked_bot(spec, game, field), game), spec
    except BotError as exc:
        raise invalid(field, str(exc)) from None
