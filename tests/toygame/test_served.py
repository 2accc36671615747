"""The toy game served over gRPC by a server that only loaded tests/toygame/plugin.py:
listed, suggested, analysed and hosted human against bot to the end, with no change to
the server for it."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.rng import SplitMix64
from tests.service.conftest import ServerProcess
from tests.toygame import ToyGame

RECORD = {"format": "toy_guess-record/1", "seed": 3, "moves": []}


@pytest.fixture(scope="module")
def toy_client():
    from hzai_client import HzaiClient

    server = ServerProcess("--load-games", "tests.toygame.plugin", "--max-searches", "2",
                           "--default-iterations", "200")
    try:
        with HzaiClient(server.address, timeout=30) as client:
            yield client
    finally:
        server.stop()


def test_the_toy_game_is_listed_with_its_seats_and_bots(toy_client):
    games = {g.name: g for g in toy_client.list_games()}
    toy = games["toy_guess"]
    assert list(toy.seats) == ["first", "second"] and toy.record_format == "toy_guess-record/1"
    assert toy.num_actions == ToyGame.num_actions and "heuristic" not in toy.bots and "ismcts" in toy.bots
    assert "hera_zeus" in games


@pytest.mark.parametrize("bot", ["ismcts", "pimc", "random"])
def test_a_toy_record_gets_a_legal_suggestion(toy_client, bot):
    reply = toy_client.suggest_move(RECORD, bot=bot, iterations=200, seed=1)  # the game from the format
    assert reply.move.text in ("fold", "bet", "guess 1", "guess 2", "guess 3")
    assert reply.move.action == ToyGame().action_of(reply.move.text)
    assert reply.seat == 0 and reply.seat_name == "first" and reply.bot == bot
    after_bet = toy_client.suggest_move({**RECORD, "moves": ["bet"]}, iterations=200, seed=1)
    assert after_bet.seat_name == "second" and after_bet.move.text in ("fold", "call", "guess 1", "guess 2", "guess 3")


def test_a_toy_record_is_analysed_from_the_seat_to_move(toy_client):
    analysis = toy_client.analyze({**RECORD, "moves": ["bet"]}, iterations=300, seed=2)
    assert analysis.game == "toy_guess" and analysis.perspective_name == "second" and analysis.finished
    assert {m.move.text for m in analysis.moves} <= {"fold", "call", "guess 1", "guess 2", "guess 3"}
    assert analysis.best.text == analysis.moves[0].move.text and sum(m.visits for m in analysis.moves) > 0
    error = _error(toy_client.analyze, RECORD, iterations=50, belief_samples=10)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "belief" in error.details()


def test_bad_toy_requests_are_named(toy_client):
    for record, words in (({**RECORD, "moves": ["raise"]}, "moves[0]"), ({**RECORD, "moves": ["fold"]}, "over"),
                          ({**RECORD, "params": {"size": 3}}, "size")):
        error = _error(toy_client.suggest_move, record)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and words in error.details(), error.details()
    error = _error(toy_client.suggest_move, RECORD, bot="heuristic")
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "heuristic" in error.details()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_toy_match_human_against_the_bot_is_played_to_the_end(toy_client, seed):
    human = seed % 2
    created = toy_client.create_match("toy_guess", bot_seats=[1 - human], bot="ismcts", iterations=100)
    from hzai_client import seat_token

    token = seat_token(created, ("first", "second")[human])
    match_id, status = created.status.match_id, created.status
    assert list(status.seats) == ["first", "second"] and list(status.bot_seats) == [1 - human]
    rng = SplitMix64(seed)
    for _ in range(10):
        if status.over:
            break
        view = toy_client.get_view(match_id, token=token)
        assert view.view.seat == human and "card" in json.loads(view.view.json)
        if status.to_move == human:
            moves = toy_client.legal_moves(match_id, token=token)
            reply = toy_client.play_move(match_id, moves[rng.below(len(moves))].text, token=token,
                                         move_number=status.moves_played)
        else:
            reply = toy_client.bot_play_turn(match_id, token=token, move_number=status.moves_played)
        assert reply.status.moves_played > status.moves_played
        status = reply.status
    assert status.over and status.result and sorted(status.returns) in ([0.0, 1.0], [0.5, 0.5])
    record = json.loads(status.record_json)
    assert record["format"] == "toy_guess-record/1" and len(record["moves"]) == status.moves_played
    final = json.loads(status.final_state_json)
    assert [v["card"] for v in final["views"]] == list(ToyGame().new_state(record["seed"]).cards)
    assert status.seed == record["seed"]  # the secret seed is shown once the game is over
    history = toy_client.get_view(match_id, token=token, with_history=True).history
    assert [h.move.text for h in history] == record["moves"]


def _error(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_the_cooperative_three_seat_toy_is_listed_as_a_team_game(toy_client):
    team = {g.name: g for g in toy_client.list_games()}["toy_team"]
    assert team.cooperative and list(team.seats) == ["a", "b", "c"] and team.record_format == "toy_team-record/1"


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_a_team_match_with_two_humans_and_a_bot_ends_with_one_result_for_all(toy_client, seed):
    from hzai_client import seat_token

    created = toy_client.create_match("toy_team", bot_seats=["b"], bot="ismcts", iterations=200)
    assert [(s.seat, s.seat_name) for s in created.seats] == [(0, "a"), (2, "c")]
    match_id, status = created.status.match_id, created.status
    tokens = {name: seat_token(created, name) for name in ("a", "c")}
    # A seat's token opens its own seat only: a cannot look at c's card.
    error = _error(toy_client.get_view, match_id, "c", token=tokens["a"])
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    rng = SplitMix64(seed)
    while not status.over:
        mover = status.seats[status.to_move]
        if mover == "b":
            reply = toy_client.bot_play_turn(match_id, token=tokens["a"], move_number=status.moves_played)
        else:
            view = json.loads(toy_client.get_view(match_id, token=tokens[mover]).view.json)
            assert set(view["known"]) <= {mover, "a", "b"} and mover in view["known"]
            moves = toy_client.legal_moves(match_id, token=tokens[mover])
            reply = toy_client.play_move(match_id, moves[rng.below(len(moves))].text, token=tokens[mover],
                                         move_number=status.moves_played)
        status = reply.status
    assert status.moves_played == 3 and status.result in ("won", "lost")
    assert list(status.returns) in ([1.0] * 3, [0.0] * 3)
    assert json.loads(status.record_json)["moves"][2].startswith("guess ")
