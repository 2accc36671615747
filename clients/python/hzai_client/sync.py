"""Blocking client."""

from __future__ import annotations

from typing import Iterator

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hzai_proto.v1 import bot_pb2, bot_pb2_grpc, game_pb2, match_pb2, match_pb2_grpc

from hzai_client import messages as m


class HzaiClient:
    """One channel to an hzai server; `timeout` (seconds) is the default deadline."""

    def __init__(self, target: str = m.DEFAULT_TARGET, *, timeout: float | None = None,
                 channel: grpc.Channel | None = None, options: list | None = None):
        self.target = target
        self.timeout = timeout
        self.channel = channel or grpc.insecure_channel(target, options=options or [])
        self.bots = bot_pb2_grpc.BotServiceStub(self.channel)
        self.matches = match_pb2_grpc.MatchServiceStub(self.channel)
        self._health = health_pb2_grpc.HealthStub(self.channel)

    def __enter__(self) -> "HzaiClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def _t(self, timeout):
        return self.timeout if timeout is None else timeout

    # ----- bot ---------------------------------------------------------------------------
    def suggest_move(self, record=None, *, match_id=None, iterations=None, millis=None, threads=None, seed=0,
                     bot="", token=None, timeout=None) -> bot_pb2.SuggestMoveResponse:
        request = m.suggest_request(record, match_id=match_id, iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, bot=bot)
        return self.bots.SuggestMove(request, timeout=self._t(timeout), metadata=m.auth(token))

    def analyze(self, record=None, *, match_id=None, iterations=None, millis=None, threads=None, seed=0,
                belief_samples=0, token=None, timeout=None) -> bot_pb2.Analysis:
        request = m.analyze_request(record, match_id=match_id, iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, belief_samples=belief_samples)
        return self.bots.Analyze(request, timeout=self._t(timeout), metadata=m.auth(token)).analysis

    def analyze_stream(self, record=None, *, match_id=None, iterations=None, millis=None, threads=None, seed=0,
                       belief_samples=0, progress_every=0, token=None, timeout=None) -> Iterator[bot_pb2.Analysis]:
        """Partial answers (finished=False) while the search runs, then the final one.
        Stop iterating (or call .cancel() on the underlying call) to stop the search."""
        request = m.analyze_request(record, match_id=match_id, iterations=iterations, millis=millis,
                                    threads=threads, seed=seed, belief_samples=belief_samples,
                                    progress_every=progress_every)
        call = self.bots.AnalyzeStream(request, timeout=self._t(timeout), metadata=m.auth(token))
        try:
            for reply in call:
                yield reply.analysis
        finally:
            call.cancel()

    # ----- matches -----------------------------------------------------------------------
    def create_match(self, *, seed=0, hera_bot=False, zeus_bot=True, bot="", iterations=None, millis=None,
                     threads=None, variants=None, open=False, timeout=None) -> match_pb2.CreateMatchResponse:
        """A new hosted match: its status, a secret token per human seat (`m.seat_token`)
        and a spectator token. A chosen `seed` needs `open=True`."""
        request = m.create_match_request(seed=seed, hera_bot=hera_bot, zeus_bot=zeus_bot, bot=bot,
                                         iterations=iterations, millis=millis, threads=threads, variants_=variants,
                                         open_=open)
        return self.matches.CreateMatch(request, timeout=self._t(timeout))

    def get_view(self, match_id: str, player=None, *, token=None, with_history=False,
                 timeout=None) -> match_pb2.GetViewResponse:
        request = match_pb2.GetViewRequest(match_id=match_id, player=m.optional_player(player),
                                           with_history=with_history)
        return self.matches.GetView(request, timeout=self._t(timeout), metadata=m.auth(token))

    def legal_moves(self, match_id: str, player=None, *, token=None, timeout=None) -> list[game_pb2.Move]:
        request = match_pb2.ListLegalMovesRequest(match_id=match_id, player=m.optional_player(player))
        return list((self.matches.ListLegalMoves(request, timeout=self._t(timeout), metadata=m.auth(token))).moves)

    def play_move(self, match_id: str, player, move, *, token=None, move_number=None,
                  timeout=None) -> match_pb2.PlayMoveResponse:
        """Play `move` for the token's seat; with `move_number` (the status's moves_played
        as last seen) a retry is answered without playing the move twice."""
        request = match_pb2.PlayMoveRequest(match_id=match_id, player=m.optional_player(player),
                                            move=m.move_message(move), move_number=move_number)
        return self.matches.PlayMove(request, timeout=self._t(timeout), metadata=m.auth(token))

    def bot_play_turn(self, match_id: str, seed: int = 0, *, token=None,
                      timeout=None) -> match_pb2.BotPlayTurnResponse:
        request = match_pb2.BotPlayTurnRequest(match_id=match_id, seed=seed)
        return self.matches.BotPlayTurn(request, timeout=self._t(timeout), metadata=m.auth(token))

    def delete_match(self, match_id: str, *, token=None, timeout=None) -> None:
        self.matches.DeleteMatch(match_pb2.DeleteMatchRequest(match_id=match_id), timeout=self._t(timeout),
                                  metadata=m.auth(token))

    # ----- health ------------------------------------------------------------------------
    def health(self, service: str = "", timeout=None) -> str:
        """SERVING, NOT_SERVING, ... of the whole server or one service."""
        reply = self._health.Check(health_pb2.HealthCheckRequest(service=service), timeout=self._t(timeout))
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    def wait_ready(self, timeout: float = 10.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)
