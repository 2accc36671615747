"""Seat tokens: every seat-scoped call without a token, with a wrong one, another
match's or another seat's is refused and changes nothing; what a spectator gets."""

from __future__ import annotations

import grpc
import pytest

from hzai_client import messages as m
from hzai_proto.v3 import bot_pb2, common_pb2, match_pb2

from .matchkit import seat_name
from .matchkit import create
from .test_errors import rpc_error

NO_TOKEN, WRONG, OTHER_MATCH, OTHER_SEAT = "none", "wrong", "other match", "other seat"


def calls(client, match_id: str):
    """Every seat-scoped RPC, as (name, function(metadata, player))."""
    def player(p):
        return None if p is None else ("hera", "zeus").index(p)

    position = common_pb2.Position(match_id=match_id)
    return [
        ("GetView", lambda md, p: client.matches.GetView(
            match_pb2.GetViewRequest(match_id=match_id, seat=player(p), with_history=True), metadata=md)),
        ("ListLegalMoves", lambda md, p: client.matches.ListLegalMoves(
            match_pb2.ListLegalMovesRequest(match_id=match_id, seat=player(p)), metadata=md)),
        ("PlayMove", lambda md, p: client.matches.PlayMove(
            match_pb2.PlayMoveRequest(match_id=match_id, seat=player(p), move=common_pb2.Move(text="draw")),
            metadata=md)),
        ("BotPlayTurn", lambda md, p: client.matches.BotPlayTurn(
            match_pb2.BotPlayTurnRequest(match_id=match_id), metadata=md)),
        ("DeleteMatch", lambda md, p: client.matches.DeleteMatch(
            match_pb2.DeleteMatchRequest(match_id=match_id), metadata=md)),
        ("SuggestMove", lambda md, p: client.bots.SuggestMove(
            bot_pb2.SuggestMoveRequest(position=position, bot="random"), metadata=md)),
        ("Analyze", lambda md, p: client.bots.Analyze(
            bot_pb2.AnalyzeRequest(position=position, budget=common_pb2.Budget(iterations=50)), metadata=md)),
        ("AnalyzeStream", lambda md, p: list(client.bots.AnalyzeStream(
            bot_pb2.AnalyzeRequest(position=position, budget=common_pb2.Budget(iterations=50)), metadata=md))),
    ]


@pytest.fixture
def two_matches(client):
    """A human-vs-human match a few moves in (Hera to move) and another match."""
    seats = create(client, bot_seats=[])
    for seat in ("hera", "zeus"):
        setup = client.legal_moves(seats.id, token=seats[seat])[0]
        client.play_move(seats.id, setup.text, token=seats[seat])
    return seats, create(client, bot_seats=[1], bot="random")


def snapshot(client, seats) -> list[bytes]:
    return [client.get_view(seats.id, token=seats[s], with_history=True).SerializeToString() for s in ("hera", "zeus")]


@pytest.mark.parametrize("attempt", [NO_TOKEN, WRONG, OTHER_MATCH, OTHER_SEAT])
def test_every_seat_scoped_call_refuses_a_bad_token(client, two_matches, attempt):
    seats, other = two_matches
    before = snapshot(client, seats)
    token, player = {
        NO_TOKEN: (None, None),
        WRONG: ("x" * 32, None),
        OTHER_MATCH: (other["hera"], None),
        OTHER_SEAT: (seats["zeus"], "hera"),  # Zeus's token, the request naming Hera
    }[attempt]
    messages = set()
    for name, call in calls(client, seats.id):
        if attempt == OTHER_SEAT and name in ("BotPlayTurn", "DeleteMatch"):
            continue  # these name no player; either seat may run them (below: a spectator may not)
        # SuggestMove/Analyze name no player: Zeus's token asks about Hera's decision.
        error = rpc_error(call, m.auth(token), player)
        expected = grpc.StatusCode.UNAUTHENTICATED if attempt == NO_TOKEN else grpc.StatusCode.PERMISSION_DENIED
        assert error.code() == expected, (name, error.code(), error.details())
        assert seats.id not in error.details() and seats["hera"] not in error.details()
        messages.add(error.details())
    if attempt in (WRONG, OTHER_MATCH):
        assert len(messages) == 1  # one message for every refusal: it tells nothing about the match
    assert snapshot(client, seats) == before


def test_a_refusal_never_says_whether_a_match_exists(client, two_matches):
    seats, _ = two_matches
    wrong_token = rpc_error(client.get_view, seats.id, token="x" * 32)
    no_match = rpc_error(client.get_view, "0" * 32, token=seats["hera"])
    deleted = create(client, bot="random")
    client.delete_match(deleted.id, token=deleted["hera"])
    gone = rpc_error(client.get_view, deleted.id, token=deleted["hera"])
    assert {e.code() for e in (wrong_token, no_match, gone)} == {grpc.StatusCode.PERMISSION_DENIED}
    assert wrong_token.details() == no_match.details() == gone.details()
    assert rpc_error(client.get_view, "0" * 32).code() == grpc.StatusCode.UNAUTHENTICATED


def test_only_the_seat_to_move_may_ask_the_bot_about_a_match(client, two_matches):
    seats, _ = two_matches  # Hera to move
    assert client.suggest_move(match_id=seats.id, bot="random", token=seats["hera"]).move.text
    for call in (lambda: client.suggest_move(match_id=seats.id, bot="random", token=seats["zeus"]),
                 lambda: client.analyze(match_id=seats.id, iterations=50, token=seats["zeus"]),
                 lambda: client.analyze(match_id=seats.id, iterations=50, token=seats.spectator)):
        error = rpc_error(call)
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED and "not your seat's decision" in error.details()
    analysis = client.analyze(match_id=seats.id, iterations=50, token=seats["hera"])
    assert analysis.perspective_name == "hera" and analysis.perspective == 0


def test_a_spectator_watches_public_information_only(client, two_matches):
    seats, _ = two_matches
    before = snapshot(client, seats)
    reply = client.get_view(seats.id, token=seats.spectator, with_history=True)
    assert not reply.HasField("view") and reply.board == ""
    assert not reply.status.HasField("seat") and reply.status.moves_played == 2
    assert [h.move.text for h in reply.history] == ["setup ? ? ?", "setup ? ? ?"]
    assert all(h.move.redacted for h in reply.history)
    for name, call in calls(client, seats.id):
        if name == "GetView":
            continue
        error = rpc_error(call, m.auth(seats.spectator), None)
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED, name
    error = rpc_error(client.get_view, seats.id, "hera", token=seats.spectator)
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    assert snapshot(client, seats) == before


def test_tokens_and_ids_are_long_random_and_distinct(client):
    made = [create(client, bot_seats=[]) for _ in range(3)]
    values = [s.id for s in made] + [t for s in made for t in (s["hera"], s["zeus"], s.spectator)]
    assert len(set(values)) == len(values)
    assert all(len(s.id) >= 32 for s in made)  # 128 bits as hex
    assert all(len(t) >= 32 for s in made for t in (s["hera"], s["zeus"], s.spectator))  # ≥ 192 bits base64
    for s in made:
        client.delete_match(s.id, token=s["zeus"])


def test_the_logs_never_hold_a_token_the_secret_seed_or_the_salt(tmp_path):
    # A whole secret match on a server logging at debug level, with refusals on the way
    # (wrong token, illegal move, stale move number): no log line may hold a token, and
    # the seed and salt the final status shows were never logged either.
    from hzai.rng import SplitMix64
    from hzai_client import HzaiClient

    from .conftest import ServerProcess
    from .matchkit import play_out

    srv = ServerProcess("--data-dir", str(tmp_path / "data"), "--log-level", "debug")
    try:
        with HzaiClient(srv.address, timeout=60) as c:
            seats = create(c, bot_seats=[1], bot="random")
            for call in (lambda: c.get_view(seats.id, token=seats.spectator[::-1]),
                         lambda: c.play_move(seats.id, "draw", token=seats["hera"]),
                         lambda: c.play_move(seats.id, "setup ? ? ?", token=seats["hera"]),
                         lambda: c.play_move(seats.id, "draw", token=seats["hera"], move_number=5)):
                assert rpc_error(call).code() != grpc.StatusCode.INTERNAL
            final = play_out(c, seats, SplitMix64(3))
    finally:
        srv.stop()
    assert final.over and final.seed and final.salt and not final.open
    secrets = [*seats.tokens.values(), seats.spectator, seats.spectator[::-1], str(final.seed), final.salt]
    lines = [str(entry) for entry in srv.logs]
    assert any("PlayMove" in line and "INVALID_ARGUMENT" in line for line in lines)  # refusals were logged
    assert not [s for s in secrets if any(s in line for line in lines)]
