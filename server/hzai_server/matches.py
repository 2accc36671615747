"""MatchService: hosted games a player can trust, for every game the server plays.

Every call but CreateMatch presents a match token (hzai_server.seats); a seat token acts
for its seat and sees what that seat may see, nothing more: views, boards and every move
shown (hzai_server.seen) are that seat's. Moves are tried on a copy, written to the
store (hzai_server.hosting) and only then answered, so a rejected move never changes a
match and an acknowledged one survives a crash. The deal comes from a secret seed the
status commits to (hzai_server.fairness).
"""

from __future__ import annotations

import copy

from hzai.rng import MASK64
from hzai_proto.v3 import match_pb2, match_pb2_grpc

from hzai_server import convert, fairness, seen
from hzai_server.errors import ApiError, invalid, precondition
from hzai_server.hosting import HostedMatches, Match, client_of, resolve_chance
from hzai_server.rpc import CallStop, handler
from hzai_server.admission import priority_of
from hzai_server.decision import DecisionRequest
from hzai_server.convert import check_level, make_checked_bot
from hzai_server.searches import Searches, decide, within_deadline
from hzai_server.seats import Grant, acting_seat, denied
from hzai_server.store import LoggedMove

# A bot call plays at most this many record entries; the caller calls again for more
# (a bot-only match, or a game whose bot seats decide many times in a row).
MAX_BOT_MOVES_PER_CALL = 64


def status_message(match: Match, grant: Grant | None) -> match_pb2.MatchStatus:
    """The public status, with the commitment; seed and salt when they may be shown."""
    out = convert.match_status_to_proto(match)
    out.seed_commitment = fairness.commitment(match.seed, match.salt)
    out.open = match.open
    if match.open or match.state.is_terminal:
        out.seed = match.seed
    if match.state.is_terminal:
        out.salt = match.salt
    if grant is not None and not grant.spectator:
        out.seat = grant.seat
    return out


def _requested(match: Match, request) -> int | None:
    """The seat a request names (optional `seat`), checked against the game's seats."""
    if not request.HasField("seat"):
        return None
    return convert.seat_from_request(match.game, request.seat, "seat")


def _manager(match: Match, grant: Grant) -> None:
    """BotPlayTurn and DeleteMatch: a human seat's token, or the spectator token of a
    match with no human seat (nobody else could run it)."""
    if grant.spectator and match.human_seats:
        raise denied("a spectator token only watches; use a seat token of this match")


def _bot_seats(game, values) -> frozenset:
    for index, seat in enumerate(values):
        if seat >= len(game.seats):
            raise invalid(f"bot_seats[{index}]", f"{seat} is not a seat of {game.name}: give 0..{len(game.seats) - 1} "
                                                 f"({', '.join(game.seats)})")
        if seat in values[:index]:
            raise invalid(f"bot_seats[{index}]", f"seat {seat} is given twice: name each bot seat once")
    return frozenset(values)


def _bot_levels(game, bot_spec: str, bot_seats, levels) -> dict:
    """Seat -> level (1..MAX_LEVEL) of CreateMatchRequest.bot_levels, one per bot seat in
    bot_seats' order; 0 (full strength) is left out."""
    if not levels:
        return {}
    if len(levels) != len(bot_seats):
        raise invalid("bot_levels", f"gives {len(levels)} levels for {len(bot_seats)} bot seats: "
                                    "give one per seat of bot_seats, in its order, or none")
    chosen = {}
    for index, (seat, level) in enumerate(zip(bot_seats, levels)):
        if check_level(level, f"bot_levels[{index}]"):
            if not chosen:  # the bot takes levels at all: checked once, not once a seat
                make_checked_bot(bot_spec, game, level=level, level_field=f"bot_levels[{index}]")
            chosen[seat] = level
    return chosen


class MatchServicer(match_pb2_grpc.MatchServiceServicer):
    def __init__(self, config, searches: Searches, hosted: HostedMatches):
        self.config = config
        self.searches = searches
        self.hosted = hosted

    @handler
    def CreateMatch(self, request, context):
        if request.seed and not request.open:
            raise invalid("seed", "a chosen seed needs open: true (an open match shows its seed to everyone); "
                                  "leave it 0 and the server deals from a secret seed")
        game = convert.params_from_json(convert.game_named(request.game, "game"), request.params_json)
        bot_seats = _bot_seats(game, request.bot_seats)
        bot_spec = request.bot or "ismcts"
        make_checked_bot(bot_spec, game)
        bot_levels = _bot_levels(game, bot_spec, request.bot_seats, request.bot_levels)
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        match, tokens = self.hosted.create(
            game=game, seed=request.seed if request.open else None, bot_seats=bot_seats,
            bot_spec=bot_spec, limits=limits, client=client_of(context), bot_levels=bot_levels)
        return match_pb2.CreateMatchResponse(
            status=status_message(match, None),
            seats=[match_pb2.SeatToken(seat=seat, seat_name=game.seats[seat], token=tokens[seat])
                   for seat in match.human_seats],
            spectator_token=tokens["spectator"],
        )

    @handler
    def GetView(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        requested = _requested(match, request)
        if not grant.spectator or requested is not None:
            acting_seat(grant, requested)
        with self.hosted.locked(match, context):
            game, state = match.game, match.state
            out = match_pb2.GetViewResponse(status=status_message(match, grant))
            if not grant.spectator:
                out.view.CopyFrom(convert.view_to_proto(game, state.view(grant.seat), state))
                # once over, the record is public: the board shows everything
                shown = game.presentation
                out.board = shown.referee_text(state) if state.is_terminal else shown.board_text(state, grant.seat)
            if request.with_history:
                start = game.records.start_of(match.record)
                out.history.extend(seen.history(game, start, match.record.moves, grant.seat))
            return out

    @handler
    def ListLegalMoves(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        seat = acting_seat(grant, _requested(match, request))
        with self.hosted.locked(match, context):
            game, state = match.game, match.state
            moves = state.legal_moves() if state.current_seat == seat else []
            return match_pb2.ListLegalMovesResponse(
                moves=sorted((convert.move_to_proto(game, m) for m in moves), key=lambda m: m.text),
                status=status_message(match, grant),
            )

    @handler
    def PlayMove(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        seat = acting_seat(grant, _requested(match, request))
        if not request.HasField("move"):
            raise invalid("move", "give the move as text (or its action id)")
        with self.hosted.locked(match, context):
            game = match.game
            move = convert.move_from_proto(game, request.move, "move")
            text = game.move_text(move)
            number = len(match.record.moves)
            if request.HasField("move_number") and request.move_number != number:
                return self._retried(match, grant, match_pb2.PlayMoveResponse, {seat}, text, request.move_number, number)
            state = match.state
            if state.is_terminal:
                raise precondition("the match is over")
            if state.current_seat != seat:
                to_move = "chance" if state.current_seat is None else game.seats[state.current_seat]
                raise precondition(f"it is not {game.seats[seat]}'s decision now (to move: {to_move})")
            observer = seen.Observer(game, state.clone(), seat, number)
            try:
                observer.push(move)
            except ValueError as exc:
                raise invalid("move", f"move {number} {text!r}: {str(exc)[:300]}") from None
            chance = resolve_chance(game, observer.state.clone(), fairness.chance_rng(match.seed, match.salt, number + 1))
            for drawn in chance:
                observer.push(drawn)
            entries = [LoggedMove(number, seat, text),
                       *(LoggedMove(number + 1 + i, None, game.move_text(c)) for i, c in enumerate(chance))]
            response = match_pb2.PlayMoveResponse(
                played=observer.moves[0], chance=observer.moves[1:], events=observer.events,
                status=self._status_after(match, grant, observer.state, [e.text for e in entries]))
            entries[0].response = response.SerializeToString()
            self.hosted.commit(match, entries, observer.state)
            return response

    @staticmethod
    def _status_after(match: Match, grant: Grant, state, added: list[str]) -> match_pb2.MatchStatus:
        """The status once `added` is played: built on a stand-in with the new record, so
        the answer can be stored with the move before the match adopts it."""
        record = copy.copy(match.record)
        record.moves = [*match.record.moves, *added]
        after = Match(**{**match.__dict__, "record": record, "state": state})
        return status_message(after, grant)

    def _retried(self, match: Match, grant: Grant, answer, movers, text: str | None, asked: int, number: int):
        """The stored answer of the call that played entry `asked` (by one of `movers`, and
        `text` unless None), for a retry by the same seat (the answer shows what that seat
        saw); FAILED_PRECONDITION naming the current number otherwise."""
        if asked < number:
            logged = self.hosted.logged_move(match, asked)
            if (logged is not None and logged.seat in movers and (text is None or logged.text == text)
                    and logged.response):
                stored = answer.FromString(logged.response)
                caller = None if grant.spectator else grant.seat
                if (stored.status.seat if stored.status.HasField("seat") else None) == caller:
                    return stored
        raise precondition(f"move_number: the match is at move {number}, not {asked}; "
                           "read the status again before playing")

    @handler
    def BotPlayTurn(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        _manager(match, grant)
        if request.seed and not match.open:
            raise invalid("seed", "a chosen bot seed is for open matches only; leave it 0 (the server derives it)")
        bots = {seat: make_checked_bot(match.bot_spec, match.game, level=match.bot_levels.get(seat, 0))
                for seat in match.bot_seats}
        with self.hosted.locked(match, context):
            game = match.game
            number = len(match.record.moves)
            if request.HasField("move_number") and request.move_number != number:
                return self._retried(match, grant, match_pb2.BotPlayTurnResponse, match.bot_seats, None,
                                     request.move_number, number)
            if match.state.is_terminal:
                raise precondition("the match is over")
            seat = match.state.current_seat
            if seat is None or seat not in match.bot_seats:
                raise precondition(f"{'chance' if seat is None else game.seats[seat]} is not a bot seat in this match")
            with self.searches.admitted(priority_of("BotPlayTurn"), client_of(context), CallStop(context)):
                return self._bot_turn(match, grant, bots, request.seed, number, context)

    def _bot_turn(self, match: Match, grant: Grant, bots: dict, seed: int, number: int, context):
        game = match.game
        observer = seen.Observer(game, match.state.clone(), grant.seat, number)
        state = observer.state
        stop = CallStop(context)
        entries: list[LoggedMove] = []
        while not state.is_terminal and state.current_seat in match.bot_seats and not stop():
            if len(entries) >= MAX_BOT_MOVES_PER_CALL:
                break
            try:
                budgeted = within_deadline(match.limits, context)
            except ApiError:
                if entries:
                    break  # what was played stands; the caller calls again
                raise
            index = number + len(entries)
            seat = state.current_seat
            bot_seed = (seed + index) & MASK64 if seed else fairness.bot_seed(match.seed, match.salt, index)
            asked = DecisionRequest(game, state.view(seat), bots[seat], bots[seat].name, match.limits, bot_seed,
                                    priority_of("BotPlayTurn"))
            move = decide(asked, budgeted.limits, stop)[0].move
            observer.push(move)  # a bot move the rules reject is a server bug: INTERNAL
            entries.append(LoggedMove(index, seat, game.move_text(move)))
            for drawn in resolve_chance(game, state.clone(), fairness.chance_rng(match.seed, match.salt, index + 1)):
                observer.push(drawn)
                entries.append(LoggedMove(number + len(entries), None, game.move_text(drawn)))
        response = match_pb2.BotPlayTurnResponse(
            moves=observer.moves, events=observer.events,
            status=self._status_after(match, grant, state, [e.text for e in entries]))
        if entries:
            entries[0].response = response.SerializeToString()
            self.hosted.commit(match, entries, state)
        return response

    @handler
    def DeleteMatch(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        _manager(match, grant)
        with self.hosted.locked(match, context):
            self.hosted.delete(match)
        return match_pb2.DeleteMatchResponse()
