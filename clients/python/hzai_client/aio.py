"""asyncio client (grpc.aio) of the hzai.v3 service: the calls of HzaiClient, awaited.

    async with AsyncHzaiClient("127.0.0.1:50051", timeout=30) as client:
        await client.list_games()                                   # GameInfo: name, seats, bots, ...
        reply = await client.suggest_move(Path("game.json"), iterations=1000, seed=1)
        reply.move.text, reply.seat_name
        created = await client.create_match(game="hera_zeus", params={"turn_limit": 120}, bot_seats=["zeus"])
        token = seat_token(created, "hera")
        await client.play_move(created.status.match_id, "draw", token=token, move_number=0)

Records are a file path, a dict, JSON text or a game's record message; the game follows
from a JSON record's `format` (looked up once in the server's ListGames) unless `game`
names it. Seats are indices or seat names. Moves are their text, an action id or a Move.
Replies are the generated protobuf messages; errors are `grpc.RpcError`.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterator, Iterable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2, match_pb2, match_pb2_grpc

from hzai_client import messages as m


class AsyncHzaiClient:
    """One grpc.aio channel to an hzai server; `timeout` (seconds) is the default deadline."""

    def __init__(self, target: str = m.DEFAULT_TARGET, *, timeout: float | None = None,
                 channel: grpc.aio.Channel | None = None, options: list | None = None,
                 tls: bool = False, ca: str | None = None, cert: str | None = None, key: str | None = None):
        """`tls` (implied by `ca` or `cert`): a TLS channel, the server checked against the
        CA file `ca` (default: the system's roots), with the client certificate
        `cert`/`key` for a server that asks for one (mutual TLS)."""
        self.target = target
        self.timeout = timeout
        if channel is None and (tls or ca or cert):
            channel = grpc.aio.secure_channel(target, m.channel_credentials(ca, cert, key),
                                       options=m.channel_options(options))
        self.channel = channel or grpc.aio.insecure_channel(target, options=m.channel_options(options))
        self.bots = bot_pb2_grpc.BotServiceStub(self.channel)
        self.matches = match_pb2_grpc.MatchServiceStub(self.channel)
        self._health = health_pb2_grpc.HealthStub(self.channel)
        self._book: m.GameBook | None = None
        self._match_seats: dict[str, list[str]] = {}  # match id -> seat names, of matches created here

    async def __aenter__(self) -> "AsyncHzaiClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def close(self) -> None:
        await self.channel.close()

    def _t(self, timeout):
        return self.timeout if timeout is None else timeout

    async def _once_or_retried(self, method, request, timeout, token, retry: bool):
        """`method(request)`; with `retry` (a call that is safe to repeat: a move_number)
        tried again on UNAVAILABLE after m.retry_pauses(), within the one deadline."""
        tries = m.Retries(self._t(timeout), retry)
        for pause in tries.pauses:
            try:
                return await method(request, timeout=tries.left(), metadata=m.auth(token))
            except grpc.RpcError as exc:
                if not tries.again(exc, pause):
                    raise
            await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    # ----- games -------------------------------------------------------------------------
    async def list_games(self, timeout=None) -> list[common_pb2.GameInfo]:
        """The games the server plays; remembered for finding games and seats by name."""
        reply = await self.bots.ListGames(bot_pb2.ListGamesRequest(), timeout=self._t(timeout))
        self._book = m.GameBook(reply.games)
        return list(reply.games)

    async def book(self) -> m.GameBook:
        if self._book is None:
            await self.list_games()
        return self._book

    async def _position(self, record, game, match_id) -> common_pb2.Position:
        book = await self.book() if record is not None and m.needs_book(record, game) else None
        return m.position(record, game=game, match_id=match_id, book=book)

    async def _seat(self, match_id: str, seat) -> int | None:
        if seat is None or isinstance(seat, int):
            return seat
        if match_id in self._match_seats:
            return m.seat_index(self._match_seats[match_id], seat)
        return (await self.book()).seat(None, seat)

    # ----- bot ---------------------------------------------------------------------------
    async def suggest_move(self, record=None, *, game=None, match_id=None, iterations=None, millis=None, threads=None,
                     seed=0, bot="", priority=None, token=None, timeout=None,
                     level=0) -> bot_pb2.SuggestMoveResponse:
        """The bot's move for the seat to decide after `record` (or in match `match_id`,
        with that seat's token); `level` a strength level (GameInfo.max_level; 0: full)."""
        request = m.suggest_request(await self._position(record, game, match_id), iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, bot=bot, priority=priority, level=level)
        return await self.bots.SuggestMove(request, timeout=self._t(timeout), metadata=m.auth(token))

    async def analyze(self, record=None, *, game=None, match_id=None, iterations=None, millis=None, threads=None,
                seed=0, belief_samples=0, allow=None, avoid=None, priority=None, token=None,
                timeout=None, bot="") -> bot_pb2.Analysis:
        """Every searched move of the seat to decide; `allow` / `avoid`: chosen root moves
        in notation (only `allow`, minus `avoid`, are searched)."""
        request = m.analyze_request(await self._position(record, game, match_id), iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, belief_samples=belief_samples, allow=allow, avoid=avoid,
                                    priority=priority, bot=bot)
        return (await self.bots.Analyze(request, timeout=self._t(timeout), metadata=m.auth(token))).analysis

    async def analyze_stream(self, record=None, *, game=None, match_id=None, iterations=None, millis=None, threads=None,
                       seed=0, belief_samples=0, progress_every=0, allow=None, avoid=None, priority=None, token=None,
                       timeout=None, bot="") -> AsyncIterator[bot_pb2.Analysis]:
        """Partial answers (finished=False) while the search runs, then the final one.
        Stop iterating to stop the search."""
        request = m.analyze_request(await self._position(record, game, match_id), iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, belief_samples=belief_samples,
                                    progress_every=progress_every, allow=allow, avoid=avoid, priority=priority,
                                    bot=bot)
        call = self.bots.AnalyzeStream(request, timeout=self._t(timeout), metadata=m.auth(token))
        try:
            async for reply in call:
                yield reply.analysis
        finally:
            call.cancel()

    async def analyze_batch(self, positions, *, game=None, iterations=None, millis=None, threads=None, seed=0,
                      belief_samples=0, priority=None, token=None, timeout=None, bot="") -> list[bot_pb2.PositionResult]:
        """Many positions in one call, one PositionResult each in order (`code` 0 with an
        `analysis`, else `error` naming the position). A position is a record, or a dict
        {"record": ..., "allow": [...], "avoid": [...]}."""
        positions = list(positions)
        book = await self.book() if m.batch_needs_book(positions, game) else None
        request = m.batch_request(positions, book=book, game=game, iterations=iterations, millis=millis,
                                  threads=threads, seed=seed, belief_samples=belief_samples, priority=priority,
                                  bot=bot)
        return list((await self.bots.Analyze(request, timeout=self._t(timeout), metadata=m.auth(token))).results)

    async def analyze_game(self, record=None, *, game=None, match_id=None, iterations=None, millis=None, threads=None,
                     seed=0, seats=(), belief=False, root_moves=None, priority=None, token=None,
                     timeout=None, bot="") -> AsyncIterator[bot_pb2.AnalyzeGameResponse]:
        """Every decision of the game (of `seats`, indices or names), one response as each
        is analysed (`decision`), then one `summary`. Stop iterating to cancel; what was
        received stays. By `match_id` (with the seat's token): that seat's decisions only."""
        position = await self._position(record, game, match_id)
        indices = [await self._seat(match_id, s) if match_id else m.seat_index(
            list((await self.book()).info(position.game).seats), s) for s in seats]
        request = m.analyze_game_request(position, iterations=iterations, millis=millis, threads=threads, seed=seed,
                                         seats=indices, belief=belief, root_moves=root_moves, priority=priority,
                                         bot=bot)
        call = self.bots.AnalyzeGame(request, timeout=self._t(timeout), metadata=m.auth(token))
        try:
            async for reply in call:
                yield reply
        finally:
            call.cancel()

    # ----- matches -----------------------------------------------------------------------
    async def create_match(self, game: str = "hera_zeus", *, params: dict | str | None = None,
                     bot_seats: Iterable | None = None, bot="", iterations=None, millis=None, threads=None, seed=0,
                     open=False, timeout=None, level=0, bot_levels=None) -> match_pb2.CreateMatchResponse:
        """A new hosted match of `game` with its `params` (a dict or JSON text): its status,
        a secret token per human seat (`seat_token`) and a spectator token. `bot_seats`
        (indices or names) are played by the server's bot; by default every seat but the
        first. A chosen `seed` needs `open=True`. `level`: every bot seat at that strength
        level (0: full strength); `bot_levels`: one level per bot seat instead."""
        seats = list((await self.book()).info(game).seats) if m.names_needed(bot_seats) else None
        chosen = m.bot_seat_indices(bot_seats, seats)
        request = m.create_match_request(game=game, params=params, bot_seats=chosen, bot=bot, iterations=iterations,
                                         millis=millis, threads=threads, seed=seed, open_=open, level=level,
                                         bot_levels=bot_levels)
        created = await self.matches.CreateMatch(request, timeout=self._t(timeout))
        self._match_seats[created.status.match_id] = list(created.status.seats)
        return created

    async def get_view(self, match_id: str, seat=None, *, token=None, with_history=False,
                 timeout=None) -> match_pb2.GetViewResponse:
        request = match_pb2.GetViewRequest(match_id=match_id, seat=await self._seat(match_id, seat),
                                           with_history=with_history)
        return await self.matches.GetView(request, timeout=self._t(timeout), metadata=m.auth(token))

    async def legal_moves(self, match_id: str, seat=None, *, token=None, timeout=None) -> list[common_pb2.Move]:
        request = match_pb2.ListLegalMovesRequest(match_id=match_id, seat=await self._seat(match_id, seat))
        reply = await self.matches.ListLegalMoves(request, timeout=self._t(timeout), metadata=m.auth(token))
        return list(reply.moves)

    async def play_move(self, match_id: str, move, seat=None, *, token=None, move_number=None,
                  timeout=None) -> match_pb2.PlayMoveResponse:
        """Play `move` (text, action id or Move) for the token's seat; with `move_number`
        (the status's moves_played as last seen) a retry is answered without playing twice."""
        request = match_pb2.PlayMoveRequest(match_id=match_id, seat=await self._seat(match_id, seat),
                                            move=m.move_message(move), move_number=move_number)
        return await self._once_or_retried(self.matches.PlayMove, request, timeout, token, move_number is not None)

    async def bot_play_turn(self, match_id: str, seed: int = 0, *, token=None, move_number=None,
                      timeout=None) -> match_pb2.BotPlayTurnResponse:
        """The bot plays until a human seat decides or the game ends. `seed` only in open
        matches; `move_number` makes a retry safe as in play_move."""
        request = match_pb2.BotPlayTurnRequest(match_id=match_id, seed=seed, move_number=move_number)
        return await self._once_or_retried(self.matches.BotPlayTurn, request, timeout, token, move_number is not None)

    async def delete_match(self, match_id: str, *, token=None, timeout=None) -> None:
        await self.matches.DeleteMatch(match_pb2.DeleteMatchRequest(match_id=match_id), timeout=self._t(timeout),
                                  metadata=m.auth(token))
        self._match_seats.pop(match_id, None)

    # ----- health ------------------------------------------------------------------------
    async def health(self, service: str = "", timeout=None) -> str:
        """SERVING, NOT_SERVING, ... of the whole server or one service."""
        reply = await self._health.Check(health_pb2.HealthCheckRequest(service=service), timeout=self._t(timeout))
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    async def wait_ready(self, timeout: float = 10.0) -> None:
        import asyncio

        await asyncio.wait_for(self.channel.channel_ready(), timeout)
