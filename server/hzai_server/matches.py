"""Hosted matches: the only state of the service.

A match holds the record and the referee's state. Moves are tried on a copy and
committed only when legal (chance results drawn by the server included), so a rejected
move never changes a match. Each match has a lock; idle matches expire; the store holds
a bounded number of them.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field

import grpc

from hzai.belief import view_of
from hzai.cards import PLAYERS
from hzai.render import render
from hzai.rng import MASK64, SplitMix64
from hzai.rules import Game, IllegalMoveError, Move, Record, State, deal
from hzai.rules import moves as mv
from hzai.search import Limits
from hzai_proto.v1 import match_pb2, match_pb2_grpc

from hzai_server import convert
from hzai_server.errors import ApiError, invalid, not_found, precondition, quoted
from hzai_server.rpc import handler
from hzai_server.searches import CallStop, Searches, decide, make_checked_bot, within_deadline

# A turn has at most a handful of actions; this only guards against a bot that never
# passes the turn.
MAX_BOT_MOVES_PER_CALL = 64


@dataclass
class Match:
    id: str
    seed: int
    record: Record
    state: State
    bots: tuple[bool, bool]
    bot_spec: str
    limits: Limits
    chance_rng: SplitMix64
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)


def resolve_chance(state: State, rng: SplitMix64) -> list[Move]:
    """Draw every pending chance result (R-PEG-H1: a uniform card of the hand)."""
    drawn = []
    while state.is_chance and not state.is_over:
        owner = 1 - state.pending[0].player
        hand = state.hands[owner]
        card = hand[rng.below(len(hand))]
        move = Move(mv.CHANCE, card=state.card_ref(card, hand, owner))
        state.push(move)
        drawn.append(move)
    return drawn


class MatchStore:
    def __init__(self, max_matches: int, ttl: float, clock=time.monotonic):
        self.max_matches = max_matches
        self.ttl = ttl
        self.clock = clock
        self._matches: dict[str, Match] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._matches)

    def _expire(self) -> None:
        now = self.clock()
        for match_id in [m.id for m in self._matches.values() if now - m.last_used > self.ttl and not m.lock.locked()]:
            del self._matches[match_id]

    def add(self, match: Match) -> None:
        with self._lock:
            self._expire()
            if len(self._matches) >= self.max_matches:
                raise ApiError(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"this server hosts at most {self.max_matches} matches and all are in use; "
                    "delete finished ones or retry later",
                )
            self._matches[match.id] = match

    def get(self, match_id: str, field: str = "match_id") -> Match:
        if not match_id:
            raise invalid(field, "give the id CreateMatch returned")
        with self._lock:
            self._expire()
            match = self._matches.get(match_id)
            if match is None:
                raise not_found(f"{field}: no match {quoted(match_id)} (never created, deleted, or idle for over {self.ttl:g} s)")
            match.last_used = self.clock()
            return match

    def delete(self, match_id: str) -> None:
        with self._lock:
            if self._matches.pop(match_id, None) is None:
                raise not_found(f"match_id: no match {quoted(match_id)}")

    def snapshot(self, match_id: str) -> State:
        match = self.get(match_id, "position.match_id")
        if not match.lock.acquire(timeout=5.0):
            raise ApiError(grpc.StatusCode.ABORTED, f"match {match_id} is busy with another call; retry")
        try:
            return match.state.copy()
        finally:
            match.lock.release()


class _Locked:
    """Hold a match's lock for one call; a call that cannot get it in time is told so
    rather than waiting past its deadline."""

    def __init__(self, match: Match, context):
        self.match = match
        remaining = context.time_remaining() if context is not None else None
        self.timeout = 10.0 if remaining is None else max(0.0, min(10.0, remaining - 0.05))

    def __enter__(self) -> Match:
        if not self.match.lock.acquire(timeout=self.timeout):
            raise ApiError(grpc.StatusCode.ABORTED, f"match {self.match.id} is busy with another call; retry")
        return self.match

    def __exit__(self, *exc) -> None:
        self.match.last_used = time.monotonic()
        self.match.lock.release()


class MatchServicer(match_pb2_grpc.MatchServiceServicer):
    def __init__(self, config, searches: Searches, store: MatchStore):
        self.config = config
        self.searches = searches
        self.store = store

    @handler
    def CreateMatch(self, request, context):
        variants = convert.variants_from_proto(request.variants)
        try:
            game = Game.create(variants)
        except ValueError as exc:
            raise invalid("variants", str(exc)) from None
        bot_spec = request.bot or "ismcts"
        make_checked_bot(bot_spec)
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        seed = request.seed
        record = Record(game, setup=deal(game, seed))
        match = Match(
            id=secrets.token_hex(8),
            seed=seed,
            record=record,
            state=record.start(),
            bots=(request.hera_bot, request.zeus_bot),
            bot_spec=bot_spec,
            limits=limits,
            chance_rng=SplitMix64(seed ^ 0xC4A9CE),
        )
        self.store.add(match)
        return match_pb2.CreateMatchResponse(status=convert.match_status_to_proto(match))

    @handler
    def GetView(self, request, context):
        player = convert.player_from_proto(request.player, "player")
        with _Locked(self.store.get(request.match_id), context) as match:
            view = view_of(match.state, player)
            return match_pb2.GetViewResponse(
                view=convert.view_to_proto(view),
                board=render(match.state, player),
                status=convert.match_status_to_proto(match),
            )

    @handler
    def ListLegalMoves(self, request, context):
        player = convert.player_from_proto(request.player, "player")
        with _Locked(self.store.get(request.match_id), context) as match:
            moves = match.state.legal_moves() if match.state.to_move == player else []
            return match_pb2.ListLegalMovesResponse(
                moves=[convert.move_to_proto(m) for m in sorted(moves, key=str)],
                status=convert.match_status_to_proto(match),
            )

    @handler
    def PlayMove(self, request, context):
        player = convert.player_from_proto(request.player, "player")
        if not request.HasField("move"):
            raise invalid("move", "give the move as text (or its fields)")
        with _Locked(self.store.get(request.match_id), context) as match:
            move = convert.move_from_proto(request.move, match.state.deck, "move")
            state = match.state
            if state.is_over:
                raise precondition(f"match {match.id} is over")
            if state.to_move != player:
                raise precondition(f"it is not {PLAYERS[player]}'s decision now (to move: {state.player_to_move})")
            if match.bots[player]:
                raise precondition(f"{PLAYERS[player]} is a bot seat in this match; use BotPlayTurn")
            if move.is_chance:
                raise invalid("move", "chance results are drawn by the server")
            trial = state.copy()
            try:
                trial.push(move)
            except IllegalMoveError as exc:
                raise invalid("move", f"move {len(match.record.moves)} {str(move)!r}: {exc}") from None
            chance = resolve_chance(trial, match.chance_rng)
            match.state = trial
            match.record.moves.extend(str(m) for m in [move, *chance])
            return match_pb2.PlayMoveResponse(
                played=convert.move_to_proto(move),
                chance=[convert.move_to_proto(m) for m in chance],
                status=convert.match_status_to_proto(match),
            )

    @handler
    def BotPlayTurn(self, request, context):
        match = self.store.get(request.match_id)
        bot = make_checked_bot(match.bot_spec)
        with _Locked(match, context), self.searches.admitted():
            state = match.state
            if state.is_over:
                raise precondition(f"match {match.id} is over")
            seat = state.to_move
            if seat is None or not match.bots[seat]:
                raise precondition(f"{state.player_to_move} is not a bot seat in this match")
            turn = state.turn
            stop = CallStop(context)
            played: list[Move] = []
            while not state.is_over and state.to_move == seat and state.turn == turn and not stop():
                if len(played) >= MAX_BOT_MOVES_PER_CALL:
                    break
                try:
                    budgeted = within_deadline(match.limits, context)
                except ApiError:
                    if played:
                        break  # what was played stands; the caller calls again
                    raise
                seed = ((request.seed or match.seed * 0x9E3779B1) + len(match.record.moves)) & MASK64
                view = view_of(state, seat)
                move, _ = decide(bot, view, budgeted.limits, seed, stop, state.deck)
                trial = state.copy()
                trial.push(move)  # a bot move the rules reject is a server bug: INTERNAL
                chance = resolve_chance(trial, match.chance_rng)
                match.state = state = trial
                match.record.moves.extend(str(m) for m in [move, *chance])
                played += [move, *chance]
            return match_pb2.BotPlayTurnResponse(
                moves=[convert.move_to_proto(m) for m in played],
                status=convert.match_status_to_proto(match),
            )

    @handler
    def DeleteMatch(self, request, context):
        if not request.match_id:
            raise invalid("match_id", "give the id CreateMatch returned")
        self.store.delete(request.match_id)
        return match_pb2.DeleteMatchResponse()
