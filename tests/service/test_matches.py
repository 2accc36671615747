"""MatchService: hosted games from creation to the end; rejected moves change nothing."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai_client.messages import detail

from .matchkit import seat_name
from hzai_proto.v3 import common_pb2

from .matchkit import create, record_of
from .test_errors import rpc_error


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_against_bot_match_runs_to_the_end(client, bot):
    seats = create(client, bot_seats=[0, 1], bot=bot)
    assert seats.tokens == {} and seats.spectator  # no human seat: the spectator token runs it
    status = seats.created.status
    assert not status.over and detail(status).phase == "setup" and not status.record_json
    calls = 0
    while not status.over:
        reply = client.bot_play_turn(seats.id, token=seats.spectator)
        assert reply.moves, "a bot turn plays at least one move"
        assert len(reply.events) == len(reply.moves)
        assert reply.status.moves_played == status.moves_played + len(reply.moves)
        status = reply.status
        calls += 1
        assert calls < 500
    assert status.result in ("hera wins", "zeus wins", "draw") and status.reason
    assert list(status.returns) in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
    final = record_of(status).replay()  # the record the server kept replays to the same end
    assert final.is_over and final.reason == status.reason
    assert len(json.loads(status.record_json)["moves"]) == status.moves_played
    end = json.loads(status.final_state_json)
    assert (end["winner"] or "draw") == status.result.removesuffix(" wins") and end["reason"] == status.reason
    error = rpc_error(client.bot_play_turn, seats.id, token=seats.spectator)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "over" in error.details()


def test_a_default_ismcts_bot_plays_its_turn(client):
    seats = create(client, bot_seats=[1], iterations=200)
    first = client.legal_moves(seats.id, "hera", token=seats["hera"])[0]
    client.play_move(seats.id, first.text, token=seats["hera"])
    reply = client.bot_play_turn(seats.id, token=seats["hera"])
    assert [detail(m).kind for m in reply.moves] == ["setup"]
    assert reply.moves[0].redacted and reply.moves[0].text == "setup ? ? ?"
    assert seat_name(reply.status.to_move) == "hera" and detail(reply.status).turn == 1


def test_a_human_sees_only_their_own_view(client):
    seats = create(client, bot_seats=[1], bot="random")
    hera = seats["hera"]
    moves = client.legal_moves(seats.id, token=hera)
    assert moves and all(detail(m).kind == "setup" for m in moves)
    client.play_move(seats.id, moves[0].text, token=hera)
    client.bot_play_turn(seats.id, token=hera)
    reply = client.get_view(seats.id, token=hera)
    view = reply.view
    assert seat_name(reply.status.seat) == "hera"
    assert view.seat == 0 and detail(view).phase == "play" and view.game == "hera_zeus"
    hz = detail(view)
    assert all(s.WhichOneof("content") == "card" for s in hz.sides[0].hand)
    assert all(s.WhichOneof("content") == "group" for s in hz.sides[1].hand)  # Zeus's hand is hidden
    assert all(s.WhichOneof("content") == "group" for c in hz.sides[1].columns for s in c.slots)
    assert json.loads(view.json)["observer"] == "hera"
    assert "HERA" in reply.board and "?" in reply.board  # Zeus's face-down cards are drawn as '?'


def test_a_rejected_move_leaves_the_match_unchanged(client):
    seats = create(client, bot_seats=[])
    match_id, hera, zeus = seats.id, seats["hera"], seats["zeus"]
    client.play_move(match_id, client.legal_moves(match_id, token=hera)[0].text, token=hera)
    client.play_move(match_id, client.legal_moves(match_id, token=zeus)[0].text, token=zeus)
    before = [client.get_view(match_id, token=t).SerializeToString() for t in (hera, zeus)]
    legal_before = client.legal_moves(match_id, token=hera)
    attempts = [
        (hera, "challenge c1", grpc.StatusCode.INVALID_ARGUMENT, "move 2 'challenge c1'"),
        (hera, "play Kraken c1r2", grpc.StatusCode.INVALID_ARGUMENT, "unknown card 'Kraken'"),
        (hera, "hades Hydra", grpc.StatusCode.INVALID_ARGUMENT, "move 2 'hades Hydra'"),
        (hera, "chance Hydra", grpc.StatusCode.INVALID_ARGUMENT, "move 2 'chance Hydra'"),
        (zeus, "draw", grpc.StatusCode.FAILED_PRECONDITION, "not zeus's decision"),
        (hera, "", grpc.StatusCode.INVALID_ARGUMENT, "move"),
    ]
    legal_texts = {m.text for m in legal_before}
    for token, text, code, words in attempts:
        if text in legal_texts:
            continue
        error = rpc_error(client.play_move, match_id, text, token=token)
        assert error.code() == code, (text, error.details())
        assert words in error.details(), (text, error.details())
    after = [client.get_view(match_id, token=t).SerializeToString() for t in (hera, zeus)]
    assert after == before
    assert client.legal_moves(match_id, token=hera) == legal_before


def test_a_move_by_its_action_id_is_accepted(client):
    seats = create(client, bot_seats=[1], bot="random")
    setup = client.legal_moves(seats.id, token=seats["hera"])[0]
    reply = client.play_move(seats.id, common_pb2.Move(action=setup.action), token=seats["hera"])
    assert reply.played.text == setup.text and reply.played.action == setup.action


def test_a_human_seat_cannot_run_the_bot_out_of_turn(client):
    seats = create(client, bot_seats=[1], bot="random")
    error = rpc_error(client.bot_play_turn, seats.id, token=seats["hera"])
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "not a bot seat" in error.details()
    client.play_move(seats.id, client.legal_moves(seats.id, token=seats["hera"])[0].text,
                     token=seats["hera"])
    # Zeus is the bot: no token plays for it; Hera's token naming Zeus is refused.
    error = rpc_error(client.play_move, seats.id, "setup Hydra Hydra Hydra", "zeus", token=seats["hera"])
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def test_deleted_matches_are_gone(client):
    seats = create(client, bot="random")
    client.delete_match(seats.id, token=seats["hera"])
    error = rpc_error(client.get_view, seats.id, token=seats["hera"])
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def test_the_number_of_matches_is_bounded(tiny_server):
    from hzai_client import HzaiClient

    with HzaiClient(tiny_server.address, timeout=30) as client:
        kept = [create(client, bot="random") for _ in range(2)]
        error = rpc_error(client.create_match, bot="random")
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "at most 2 matches" in error.details()
        client.delete_match(kept[0].id, token=kept[0]["hera"])
        create(client, bot="random")


def test_a_bot_turn_under_a_short_deadline_plays_in_time(client):
    seats = create(client, bot_seats=[0], millis=15_000)
    reply = client.bot_play_turn(seats.id, token=seats["zeus"], timeout=1.5)  # DEADLINE_EXCEEDED if late
    assert [detail(m).kind for m in reply.moves] == ["setup"]
    assert seat_name(reply.status.to_move) == "zeus"


def test_a_bot_seed_only_in_open_matches_and_bot_turns_retried_by_number(client):
    secret = create(client, bot_seats=[0], bot="random")  # Hera is the bot: she moves first
    error = rpc_error(client.bot_play_turn, secret.id, seed=7, token=secret["zeus"])
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("seed:")
    first = client.bot_play_turn(secret.id, token=secret["zeus"], move_number=0)
    assert first.status.moves_played == 1 and first.moves[0].text == "setup ? ? ?"  # Zeus sees no card
    again = client.bot_play_turn(secret.id, token=secret["zeus"], move_number=0)  # a retry: not played twice
    assert again == first
    assert client.get_view(secret.id, token=secret["zeus"]).status.moves_played == 1
    error = rpc_error(client.bot_play_turn, secret.id, token=secret["zeus"], move_number=5)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "at move 1" in error.details()
    opened = [create(client, bot_seats=[0], bot="random", seed=4, open=True) for _ in range(2)]
    played = [client.bot_play_turn(s.id, seed=7, token=s["zeus"]).status for s in opened]
    views = [client.get_view(s.id, token=s["zeus"], with_history=True).history for s in opened]
    assert played[0].moves_played == played[1].moves_played == 1 and views[0] == views[1]


def test_a_match_position_must_be_of_the_match_game(client):
    seats = create(client, bot_seats=[1], bot="random")
    from hzai_proto.v3 import bot_pb2

    request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="chess", match_id=seats.id), bot="random")
    error = rpc_error(client.bots.SuggestMove, request, timeout=30,
                      metadata=(("authorization", f"Bearer {seats['hera']}"),))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "position.game" in error.details()
