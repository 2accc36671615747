"""MatchService: hosted games from creation to the end; rejected moves change nothing."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.rules import Record
from hzai_client import player_name
from hzai_proto.v1 import game_pb2
from hzai_server.matches import Match, MatchStore

from .test_errors import rpc_error


def record_of(status) -> Record:
    message = status.record
    data = {"format": "hzai-record/1", "deck": message.deck, "moves": list(message.moves),
            "variants": {"first_player": message.variants.first_player,
                         "figure_removal": message.variants.figure_removal,
                         "pythia_defence": message.variants.pythia_defence,
                         "turn_limit": message.variants.turn_limit}}
    data["setup"] = {p: {"hand": list(getattr(message.setup, p).hand), "deck": list(getattr(message.setup, p).deck)}
                     for p in ("hera", "zeus")}
    return Record.from_json(data)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_against_bot_match_runs_to_the_end(client, bot):
    status = client.create_match(seed=8, hera_bot=True, zeus_bot=True, bot=bot)
    assert not status.over and status.phase == "setup" and not status.HasField("record")
    calls = 0
    while not status.over:
        reply = client.bot_play_turn(status.match_id)
        assert reply.moves, "a bot turn plays at least one move"
        assert reply.status.moves_played == status.moves_played + len(reply.moves)
        status = reply.status
        calls += 1
        assert calls < 500
    assert status.winner in ("hera", "zeus", "draw") and status.reason
    final = record_of(status).replay()  # the record the server kept replays to the same end
    assert final.is_over and final.reason == status.reason
    assert len(status.record.moves) == status.moves_played
    end = json.loads(status.final_state.json)
    assert end["winner"] == status.winner and end["reason"] == status.reason
    error = rpc_error(client.bot_play_turn, status.match_id)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "over" in error.details()


def test_a_default_ismcts_bot_plays_its_turn(client):
    status = client.create_match(seed=3, hera_bot=False, zeus_bot=True, iterations=200)
    first = client.legal_moves(status.match_id, "hera")[0]
    client.play_move(status.match_id, "hera", first.text)
    reply = client.bot_play_turn(status.match_id)
    assert [m.kind for m in reply.moves] == ["setup"]
    assert player_name(reply.status.to_move) == "hera" and reply.status.turn == 1


def test_a_human_sees_only_their_own_view(client):
    status = client.create_match(seed=4, hera_bot=False, zeus_bot=True, bot="random")
    moves = client.legal_moves(status.match_id, "hera")
    assert moves and all(m.kind == "setup" for m in moves)
    assert client.legal_moves(status.match_id, "zeus") == []  # not Zeus's decision
    client.play_move(status.match_id, "hera", moves[0].text)
    client.bot_play_turn(status.match_id)
    reply = client.get_view(status.match_id, "hera")
    view = reply.view
    assert player_name(view.observer) == "hera" and view.phase == "play"
    assert all(s.WhichOneof("content") == "card" for s in view.hera.hand)
    assert all(s.WhichOneof("content") == "group" for s in view.zeus.hand)  # Zeus's hand is hidden
    assert all(s.WhichOneof("content") == "group" for c in view.zeus.columns for s in c.slots)
    assert json.loads(view.json)["observer"] == "hera"
    assert "HERA" in reply.board and "?" in reply.board  # Zeus's face-down cards are drawn as '?'


def test_a_rejected_move_leaves_the_match_unchanged(client):
    status = client.create_match(seed=6, hera_bot=False, zeus_bot=False)
    match_id = status.match_id
    client.play_move(match_id, "hera", client.legal_moves(match_id, "hera")[0].text)
    client.play_move(match_id, "zeus", client.legal_moves(match_id, "zeus")[0].text)
    before = [client.get_view(match_id, p) for p in ("hera", "zeus")]
    legal_before = client.legal_moves(match_id, "hera")
    attempts = [
        ("hera", "challenge c1", grpc.StatusCode.INVALID_ARGUMENT, "move 2 'challenge c1'"),  # front cards face down: may be legal, see below
        ("hera", "play Kraken c1r2", grpc.StatusCode.INVALID_ARGUMENT, "unknown card 'Kraken'"),
        ("hera", "hades Hydra", grpc.StatusCode.INVALID_ARGUMENT, "move 2 'hades Hydra'"),
        ("hera", "chance Hydra", grpc.StatusCode.INVALID_ARGUMENT, "chance results are drawn by the server"),
        ("zeus", "draw", grpc.StatusCode.FAILED_PRECONDITION, "not zeus's decision"),
        ("hera", "", grpc.StatusCode.INVALID_ARGUMENT, "move"),
    ]
    legal_texts = {m.text for m in legal_before}
    for player, text, code, words in attempts:
        if text in legal_texts:
            continue
        error = rpc_error(client.play_move, match_id, player, text)
        assert error.code() == code, (text, error.details())
        assert words in error.details(), (text, error.details())
    after = [client.get_view(match_id, p) for p in ("hera", "zeus")]
    assert [a.SerializeToString() for a in after] == [b.SerializeToString() for b in before]
    assert client.legal_moves(match_id, "hera") == legal_before


def test_structured_moves_are_accepted(client):
    status = client.create_match(seed=7, hera_bot=False, zeus_bot=True, bot="random")
    setup = client.legal_moves(status.match_id, "hera")[0]
    structured = game_pb2.Move(kind="setup", setup=list(setup.setup))
    reply = client.play_move(status.match_id, "hera", structured)
    assert reply.played.text == setup.text


def test_a_human_seat_cannot_be_played_by_the_bot_and_vice_versa(client):
    status = client.create_match(seed=9, hera_bot=False, zeus_bot=True, bot="random")
    error = rpc_error(client.bot_play_turn, status.match_id)
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "not a bot seat" in error.details()
    client.play_move(status.match_id, "hera", client.legal_moves(status.match_id, "hera")[0].text)
    error = rpc_error(client.play_move, status.match_id, "zeus", "setup Hydra Hydra Hydra")
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and "bot seat" in error.details()


def test_deleted_matches_are_gone(client):
    status = client.create_match(seed=1, bot="random")
    client.delete_match(status.match_id)
    error = rpc_error(client.get_view, status.match_id, "hera")
    assert error.code() == grpc.StatusCode.NOT_FOUND


def test_the_number_of_matches_is_bounded(tiny_server):
    from hzai_client import HzaiClient

    with HzaiClient(tiny_server.address, timeout=30) as client:
        kept = [client.create_match(seed=s, bot="random").match_id for s in range(2)]
        error = rpc_error(client.create_match, seed=3, bot="random")
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "at most 2 matches" in error.details()
        client.delete_match(kept[0])
        client.create_match(seed=3, bot="random")


def test_idle_matches_expire():
    now = [1000.0]
    store = MatchStore(max_matches=2, ttl=60, clock=lambda: now[0])

    def match(name):
        return Match(id=name, seed=0, record=None, state=None, bots=(False, False), bot_spec="random",
                     limits=None, chance_rng=None, last_used=now[0])

    store.add(match("a"))
    store.add(match("b"))
    now[0] += 30
    store.get("a")  # a call keeps a match alive
    now[0] += 45
    assert store.get("a").id == "a"
    with pytest.raises(Exception) as caught:
        store.get("b")
    assert "idle" in str(caught.value)
    store.add(match("c"))  # the expired one no longer counts against the bound
    assert len(store) == 2


def test_a_bot_turn_under_a_short_deadline_plays_in_time(client):
    status = client.create_match(seed=5, hera_bot=True, zeus_bot=False, millis=15_000)
    reply = client.bot_play_turn(status.match_id, timeout=1.5)  # DEADLINE_EXCEEDED if late
    assert [m.kind for m in reply.moves] == ["setup"]
    assert player_name(reply.status.to_move) == "zeus"
