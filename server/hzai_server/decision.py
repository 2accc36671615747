"""One decision request: what a call asks of a bot, read from its message once.

A SuggestMove, an Analyze (each position of a batch), an AnalyzeStream and each bot move
of a hosted match (BotPlayTurn) are one `DecisionRequest`: a Decision (the game and the
deciding seat's view, replayed once, natively where the game has a twin, and remembered
by record) with the bot built from its spec (and level) once, the budget, the seed, the
chosen root moves and the admission class. `Decisions.move_request` reads a SuggestMove
into one (the analyses' own parts are read by hzai_server.bot_service), then hands this
one object to the search (`searches.decide`, `searches.run_analysis`): nothing below
reads the protobuf message again, and `convert.suggestion_to_proto` writes the answer
from it and the search's result (the move with the action id the search knew it by:
never encoded back from the move). An AnalyzeGame is one plan (hzai_server.game_review)
with one analysing bot made by `analyst_for`, whose search answers every decision. Every
method decides with the bot's own search (`Analyst.analyze` for the analyses, `decide`
for a move), so one spec, seed and budget give one answer whichever method asks.

A position is found again by one key: the position as sent (`sent_key`: its game and
its record's text or message bytes, the same request sent again); a record not seen so
is read, and then also found by its canonical key (`convert.record_key`: the same record
written differently, spacing, key order, JSON or message), before it is replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from hzai.bounded_cache import BoundedCache
from hzai.core import Game, Limits, View
from hzai.core.bot import Bot, RootMoves
from hzai.search.bot import ANALYSIS_BOT, DEFAULT_BOT, BotError, require_analyst

from hzai_server import convert
from hzai_server.convert import make_checked_bot, priority_from_proto
from hzai_server.errors import invalid
from hzai_server.rpc import CallStop

# Estimated memory of a remembered decision: a view of a few KB, plus what grows with
# the record (an upper guess; the cache is bounded in these bytes), plus the text of a
# position remembered as sent.
DECISION_BASE_BYTES = 6 * 1024
DECISION_BYTES_PER_MOVE = 200


@dataclass(frozen=True)
class Decision:
    """A position ready to search: the view of the seat to decide (never the state)."""

    game: Game
    view: View

    @property
    def seat(self) -> int:
        return self.view.seat


@dataclass(frozen=True)
class DecisionRequest(Decision):
    """Everything one decision needs, parsed and checked (module docstring): the
    Decision (its game and view) and what is asked of it."""

    bot: Bot
    spec: str  # the bot spec as asked (when the request named none: "ismcts" for a move, ANALYSIS_BOT for an analysis)
    limits: Limits
    seed: int
    priority: str
    root_moves: RootMoves | None = None
    level: int = 0


def analyst_for(spec: str, game: Game, field: str = "bot") -> tuple[Bot, str]:
    """The bot of `spec` (empty: the analysis bot ANALYSIS_BOT, the default bot with its
    replicas) whose search answers an analysis of `game`, and the spec; INVALID_ARGUMENT
    naming `field` for a bot that gives only moves."""
    spec = spec or ANALYSIS_BOT
    try:
        return require_analyst(make_checked_bot(spec, game, field), game), spec
    except BotError as exc:
        raise invalid(field, str(exc)) from None


def sent_key(position) -> tuple | None:
    """The position as sent (its game, and its record's JSON text or its record message's
    type and bytes): the key of the same position sent again, read without encoding
    anything. None for a position that names no record."""
    source = position.WhichOneof("source")
    if source == "record_json":
        return ("json", position.game, position.record_json)
    if source == "record":
        return ("message", position.game, position.record.type_url, position.record.value)
    return None


class Decisions:
    """Positions read into Decisions, each once: a hosted match's from its store, a
    record's parsed, replayed and its view built, and remembered (`--replay-cache`
    decisions, `--cache-bytes` at most) under its sent key and its canonical key, so that
    the same record again (a retry, a second analysis, a load test) skips reading and
    replaying altogether: a decision's view is only ever read."""

    def __init__(self, config, matches):
        self.config = config
        self.matches = matches
        on = config.replay_cache > 0
        self.cache = BoundedCache(config.replay_cache, config.cache_bytes) if on else None

    def of(self, position, context, stop: CallStop) -> Decision:
        """The Decision of a request's position (a hosted match's: the token's seat must
        be the one to decide; a record's found by the position as sent, else read, found
        by its canonical key, else replayed)."""
        if position.WhichOneof("source") == "match_id":
            game, view = self.matches.view_for_decision(position.match_id, context)
            if position.game and position.game != game.name:
                raise invalid("position.game", f"the match is a game of {game.name}, not {position.game[:60]!r}")
            return Decision(game, view)
        sent = sent_key(position) if self.cache is not None else None
        if sent is not None:
            remembered = self.cache.get(sent)
            if remembered is not None:
                return remembered
        record, field = convert.record_from_position(position)
        key = convert.record_key(record) if self.cache is not None else None
        if key is not None:
            remembered = self.cache.get(key)
            if remembered is not None:
                return remembered
        decision = Decision(record.game, convert.view_to_decide(record, field, stop))
        if key is not None:
            size = DECISION_BASE_BYTES + DECISION_BYTES_PER_MOVE * len(record.moves)
            self.cache.put(key, decision, size)
            if sent is not None:
                self.cache.put(sent, decision, size + sum(map(len, sent[1:])))  # and the position as sent
        return decision

    def move_request(self, request, context, stop: CallStop) -> DecisionRequest:
        """A SuggestMove's request, read once: the budget, the position, the bot at its
        level, the seed and the admission class."""
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        decision = self.of(request.position, context, stop)
        bot = make_checked_bot(request.bot, decision.game, level=request.level)
        return DecisionRequest(decision.game, decision.view, bot, request.bot or DEFAULT_BOT, limits, request.seed,
                               priority_from_proto(request.priority, "SuggestMove"), level=request.level)
