"""MatchService: hosted games a player can trust.

Every call but CreateMatch presents a match token (hzai_server.seats); a seat token acts
for its seat and sees what that seat may see, nothing more: views, boards and every move
shown (hzai_server.seen) are that seat's. Moves are tried on a copy, written to the
store (hzai_server.hosting) and only then answered, so a rejected move never changes a
match and an acknowledged one survives a crash. The deal comes from a secret seed the
status commits to (hzai_server.fairness).
"""

from __future__ import annotations

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.cards import PLAYERS
from hzai.games.hera_zeus.render import render
from hzai.rng import MASK64
from hzai.games.hera_zeus.rules import Game, IllegalMoveError
from hzai_proto.v1 import game_pb2, match_pb2, match_pb2_grpc

from hzai_server import convert, fairness, seen
from hzai_server.errors import ApiError, invalid, precondition
from hzai_server.hosting import HostedMatches, Match, client_of, resolve_chance
from hzai_server.rpc import handler
from hzai_server.searches import CallStop, Searches, decide, make_checked_bot, within_deadline
from hzai_server.seats import Grant, acting_seat, denied
from hzai_server.store import LoggedMove

# A turn has at most a handful of actions; this only guards against a bot that never
# passes the turn.
MAX_BOT_MOVES_PER_CALL = 64


def status_message(match: Match, grant: Grant | None) -> match_pb2.MatchStatus:
    """The public status, with the commitment; seed and salt when they may be shown."""
    out = convert.match_status_to_proto(match)
    out.seed_commitment = fairness.commitment(match.seed, match.salt)
    out.open = match.open
    if match.open or match.state.is_over:
        out.seed = match.seed
    if match.state.is_over:
        out.salt = match.salt
    if grant is not None and not grant.spectator:
        out.seat = convert.player_to_proto(grant.seat)
    return out


def _requested(value: int, field: str) -> int | None:
    return None if value == game_pb2.PLAYER_UNSPECIFIED else convert.player_from_proto(value, field)


def _manager(match: Match, grant: Grant) -> None:
    """BotPlayTurn and DeleteMatch: a human seat's token, or the spectator token of a
    match with no human seat (nobody else could run it)."""
    if grant.spectator and match.human_seats:
        raise denied("a spectator token only watches; use a seat token of this match")


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
        variants = convert.variants_from_proto(request.variants)
        try:
            game = Game.create(variants)
        except ValueError as exc:
            raise invalid("variants", str(exc)) from None
        bot_spec = request.bot or "ismcts"
        make_checked_bot(bot_spec)
        limits = convert.limits_from_proto(request.budget if request.HasField("budget") else None, self.config)
        match, tokens = self.hosted.create(
            game=game, seed=request.seed if request.open else None, bots=(request.hera_bot, request.zeus_bot),
            bot_spec=bot_spec, limits=limits, client=client_of(context))
        return match_pb2.CreateMatchResponse(
            status=status_message(match, None),
            seats=[match_pb2.SeatToken(player=convert.player_to_proto(seat), token=tokens[PLAYERS[seat]])
                   for seat in match.human_seats],
            spectator_token=tokens["spectator"],
        )

    @handler
    def GetView(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        requested = _requested(request.player, "player")
        if not grant.spectator or requested is not None:
            acting_seat(grant, requested)
        with self.hosted.locked(match, context):
            out = match_pb2.GetViewResponse(status=status_message(match, grant))
            if not grant.spectator:
                out.view.CopyFrom(convert.view_to_proto(view_of(match.state, grant.seat)))
                out.board = render(match.state, grant.seat)
            if request.with_history:
                out.history.extend(seen.history(match.record.start(), match.record.moves, grant.seat))
            return out

    @handler
    def ListLegalMoves(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        seat = acting_seat(grant, _requested(request.player, "player"))
        with self.hosted.locked(match, context):
            moves = match.state.legal_moves() if match.state.to_move == seat else []
            return match_pb2.ListLegalMovesResponse(
                moves=[convert.move_to_proto(m) for m in sorted(moves, key=str)],
                status=status_message(match, grant),
            )

    @handler
    def PlayMove(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        seat = acting_seat(grant, _requested(request.player, "player"))
        if not request.HasField("move"):
            raise invalid("move", "give the move as text (or its fields)")
        with self.hosted.locked(match, context):
            move = convert.move_from_proto(request.move, match.state.deck, "move")
            number = len(match.record.moves)
            if request.HasField("move_number") and request.move_number != number:
                return self._retried(match, seat, str(move), request.move_number, number)
            state = match.state
            if state.is_over:
                raise precondition("the match is over")
            if state.to_move != seat:
                raise precondition(f"it is not {PLAYERS[seat]}'s decision now (to move: {state.player_to_move})")
            if move.is_chance:
                raise invalid("move", "chance results are drawn by the server")
            observer = seen.Observer(state.copy(), seat, number)
            try:
                observer.push(move)
            except IllegalMoveError as exc:
                raise invalid("move", f"move {number} {str(move)!r}: {exc}") from None
            chance = resolve_chance(observer.state.copy(), fairness.chance_rng(match.seed, match.salt, number + 1))
            for drawn in chance:
                observer.push(drawn)
            entries = [LoggedMove(number, seat, str(move)),
                       *(LoggedMove(number + 1 + i, None, str(c)) for i, c in enumerate(chance))]
            return self._answer_played(match, grant, observer, entries)

    def _answer_played(self, match, grant, observer, entries) -> match_pb2.PlayMoveResponse:
        # The status the answer carries is the one after the move: build it on a
        # stand-in with the new record, store the answer with the move, then adopt it.
        response = match_pb2.PlayMoveResponse(
            played=observer.moves[0], chance=observer.moves[1:], events=observer.events,
            status=self._status_after(match, grant, observer.state, [e.text for e in entries]))
        entries[0].response = response.SerializeToString()
        self.hosted.commit(match, entries, observer.state)
        return response

    @staticmethod
    def _status_after(match: Match, grant: Grant, state, added: list[str]) -> match_pb2.MatchStatus:
        record = type(match.record)(match.record.game, setup=match.record.setup, moves=[*match.record.moves, *added])
        after = Match(**{**match.__dict__, "record": record, "state": state})
        return status_message(after, grant)

    def _retried(self, match: Match, seat: int, text: str, asked: int, number: int) -> match_pb2.PlayMoveResponse:
        if asked < number:
            logged = self.hosted.logged_move(match, asked)
            if logged is not None and logged.seat == seat and logged.text == text and logged.response:
                return match_pb2.PlayMoveResponse.FromString(logged.response)
        raise precondition(f"move_number: the match is at move {number}, not {asked}; "
                           "read the status again before playing")

    @handler
    def BotPlayTurn(self, request, context):
        match, grant = self.hosted.open(request.match_id, context)
        _manager(match, grant)
        bot = make_checked_bot(match.bot_spec)
        with self.hosted.locked(match, context), self.searches.admitted():
            if match.state.is_over:
                raise precondition("the match is over")
            seat = match.state.to_move
            if seat is None or not match.bots[seat]:
                raise precondition(f"{match.state.player_to_move} is not a bot seat in this match")
            number = len(match.record.moves)
            observer = seen.Observer(match.state.copy(), grant.seat, number)
            state = observer.state
            turn = state.turn
            stop = CallStop(context)
            entries: list[LoggedMove] = []
            while not state.is_over and state.to_move == seat and state.turn == turn and not stop():
                if len(entries) >= MAX_BOT_MOVES_PER_CALL:
                    break
                try:
                    budgeted = within_deadline(match.limits, context)
                except ApiError:
                    if entries:
                        break  # what was played stands; the caller calls again
                    raise
                index = number + len(entries)
                seed = (request.seed + index) & MASK64 if request.seed else fairness.bot_seed(match.seed, match.salt, index)
                move, _ = decide(bot, view_of(state, seat), budgeted.limits, seed, stop, state.deck)
                observer.push(move)  # a bot move the rules reject is a server bug: INTERNAL
                entries.append(LoggedMove(index, seat, str(move)))
                for drawn in resolve_chance(state.copy(), fairness.chance_rng(match.seed, match.salt, index + 1)):
                    observer.push(drawn)
                    entries.append(LoggedMove(number + len(entries), None, str(drawn)))
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
