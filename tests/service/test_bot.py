"""BotService end to end: suggest and analyze over a real server."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.core import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Record
from hzai_client.messages import detail
from hzai_proto.v3 import hera_zeus_pb2

from .conftest import played_record


def state_json_differs(a, b) -> bool:
    from hzai.games.hera_zeus.rules import state_to_json

    return state_to_json(a) != state_to_json(b) or a.decks != b.decks


def legal_texts(record: Record) -> set[str]:
    return {str(m) for m in record.replay().legal_moves()}


@pytest.mark.parametrize("bot", ["random", "heuristic", "pimc"])
def test_suggest_gives_a_legal_move_for_the_player_to_move(client, midgame, bot):
    reply = client.suggest_move(midgame.to_json(), bot=bot, iterations=200, seed=3)
    state = midgame.replay()
    assert reply.move.text in legal_texts(midgame)
    assert reply.seat_name == state.player_to_move and reply.seat == state.to_move
    assert reply.bot == bot


def test_suggest_with_inference_is_legal_reproducible_and_checked(client, midgame):
    """ismcts:infer=1 through the service: the native decision view's worlds weighted
    by the opponent model; the same seed the same move; a bad option named."""
    replies = [client.suggest_move(midgame.to_json(), bot="ismcts:infer=1,temp=2", iterations=400, seed=6)
               for _ in range(2)]
    assert replies[0].move.text in legal_texts(midgame) and replies[0].bot == "ismcts"
    assert replies[0].move.text == replies[1].move.text
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(midgame.to_json(), bot="ismcts:infer=3", iterations=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "infer" in caught.value.details()


def test_suggest_with_the_default_ismcts_bot(client, midgame):
    reply = client.suggest_move(midgame.to_json(), iterations=500, seed=1)
    assert reply.bot == "ismcts"
    assert reply.move.text in legal_texts(midgame)
    assert not reply.stopped_early
    again = client.suggest_move(midgame.to_json(), iterations=500, seed=1)
    assert again.move.text == reply.move.text  # one thread, an iteration budget: reproducible


def test_suggest_fills_the_structured_move(client, midgame):
    reply = client.suggest_move(midgame.to_json(), bot="heuristic", seed=2)
    move = reply.move
    typed = detail(move)
    assert move.detail.TypeName() == "hzai.v3.HeraZeusMove"
    assert typed.kind and move.text.startswith(typed.kind)
    assert move.action == make_game("hera_zeus").action_of(make_game("hera_zeus").parse_move(move.text))
    if typed.kind == "play":
        assert move.text == f"play {typed.card.name} c{typed.col}r{typed.row}"


def test_suggest_from_a_record_message_and_from_setup(client):
    record = played_record(5, 0)
    message = hera_zeus_pb2.HeraZeusRecord(seed=0)
    message.ClearField("seed")
    for player in ("hera", "zeus"):
        side = getattr(message.setup, player)
        side.hand.extend(record.setup[player]["hand"])
        side.deck.extend(record.setup[player]["deck"])
    reply = client.suggest_move(message, bot="random", seed=1)
    assert detail(reply.move).kind == "setup"
    assert reply.move.text in legal_texts(record)
    by_seed = client.suggest_move({"format": "hzai-record/1", "seed": 5, "moves": []}, bot="random", seed=1)
    assert detail(by_seed.move).kind == "setup"


@pytest.mark.parametrize("bot", ["heuristic", "ismcts"])
def test_no_peeking_records_that_look_the_same_get_the_same_move(client, bot):
    """Zeus's deck order is hidden from Hera: two records that differ only there give
    Hera the same view, so the same seed must give the same suggestion."""
    first = played_record(21, 10)
    other_setup = json.loads(json.dumps(first.setup))
    deck = other_setup["zeus"]["deck"]
    other_setup["zeus"]["deck"] = deck[:5] + deck[:4:-1]  # cards Zeus may have drawn stay on top
    second = Record(first.game, setup=other_setup, moves=list(first.moves))
    a, b = first.replay(), second.replay()
    assert a.to_move == b.to_move
    me = a.to_move
    assert view_of(a, me).to_json() == view_of(b, me).to_json()
    assert first.setup["zeus"]["deck"] != other_setup["zeus"]["deck"]
    assert state_json_differs(a, b)
    replies = [client.suggest_move(r.to_json(), bot=bot, iterations=400, seed=9).move.text for r in (first, second)]
    assert replies[0] == replies[1]


def test_suggest_for_a_hosted_match(client):
    created = client.create_match("hera_zeus", bot_seats=["zeus"], bot="random")
    match_id, token = created.status.match_id, created.seats[0].token
    reply = client.suggest_move(match_id=match_id, bot="heuristic", seed=1, token=token)
    legal = {m.text for m in client.legal_moves(match_id, "hera", token=token)}
    assert reply.move.text in legal


def test_analyze_lists_every_legal_move_from_the_movers_view(client, midgame):
    analysis = client.analyze(midgame.to_json(), iterations=600, seed=4, belief_samples=200)
    state = midgame.replay()
    assert analysis.finished
    assert analysis.iterations == 600
    assert analysis.perspective_name == state.player_to_move and analysis.perspective == state.to_move
    assert analysis.game == "hera_zeus"
    assert {m.move.text for m in analysis.moves} <= legal_texts(midgame)
    assert analysis.moves[0].move.text == analysis.best.text
    assert [m.order for m in analysis.moves] == list(range(len(analysis.moves)))
    assert sum(m.visits for m in analysis.moves) > 0
    for m in analysis.moves:
        assert 0.0 <= m.ci_low <= m.value <= m.ci_high <= 1.0 or m.visits == 0
    belief = analysis.belief
    assert belief.samples == 200 and belief.observer == state.to_move and json.loads(belief.json)["samples"] == 200
    assert belief.detail.TypeName() == "hzai.v3.HeraZeusBelief"
    belief = detail(belief)
    assert abs(sum(loc.probability for loc in belief.hostage_locations) - 1.0) < 1e-9
    # the inferred probabilities beside the uniform ones, with how they were weighed
    assert all(loc.HasField("inferred") for loc in belief.hostage_locations)
    assert abs(sum(loc.inferred for loc in belief.hostage_locations) - 1.0) < 1e-9
    assert belief.inference.temperature > 0 and 0 < belief.inference.effective_samples <= 200
    assert all(set(slot.inferred_cards) == set(slot.cards) for slot in belief.slots)


def test_analyze_stream_sends_progress_then_the_answer(client, midgame):
    # a budget long enough that reports go out faster than the search replaces them
    reports = list(client.analyze_stream(midgame.to_json(), iterations=12000, progress_every=1500, seed=4))
    assert len(reports) >= 3
    *progress, final = reports
    assert all(not r.finished for r in progress)
    assert final.finished and final.iterations == 12000
    counts = [r.iterations for r in reports]
    assert counts == sorted(counts) and counts[0] < 12000
    assert final.best.text in legal_texts(midgame)


def test_a_growing_record_is_answered_for_its_own_last_position(client):
    """The server keeps replayed records to replay only new moves; each answer must
    still be for the record as sent, and a bad new move still named by its index."""
    full = played_record(31, 30)
    for n in range(2, len(full.moves) + 1, 4):
        record = Record(full.game, setup=full.setup, moves=full.moves[:n])
        state = record.replay()
        if state.is_chance or state.is_over:
            continue
        reply = client.suggest_move(record.to_json(), bot="random", seed=n)
        assert reply.seat_name == state.player_to_move and reply.seat == state.to_move
        assert reply.move.text in legal_texts(record)
    bad = dict(full.to_json(), moves=full.moves + ["recall", "recall"])
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(bad, bot="random")
    assert f"moves[{len(full.moves)}]" in caught.value.details()


def test_the_same_record_again_gets_the_same_answer_and_a_bad_one_the_same_error(client):
    """Repeated records are served from the server's decision cache: the answer for a
    record sent twice is the one it got the first time; errors are never cached."""
    full = played_record(33, 24)
    state = full.replay()
    assert not state.is_over and not state.is_chance
    first = client.suggest_move(full.to_json(), seed=5, iterations=400)
    again = client.suggest_move(full.to_json(), seed=5, iterations=400)
    assert first.move.text == again.move.text and first.move.text in legal_texts(full)
    bad = dict(full.to_json(), moves=full.moves + ["fly"])
    for _ in range(2):
        with pytest.raises(grpc.RpcError) as caught:
            client.suggest_move(bad)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and f"moves[{len(full.moves)}]" in caught.value.details()


def test_list_games_names_seats_bots_and_record_format(client):
    games = {g.name: g for g in client.list_games()}
    hz = games["hera_zeus"]
    assert list(hz.seats) == ["hera", "zeus"] and hz.record_format == "hzai-record/1" and not hz.cooperative
    assert set(hz.bots) == {"ismcts", "ismcts-v2", "ismcts-v3", "pimc", "heuristic", "random"}
    assert hz.num_actions == make_game("hera_zeus").num_actions and "turn_limit" in hz.params_help


def test_a_move_by_action_id_and_a_bot_the_game_lacks_are_checked(client, midgame):
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(midgame.to_json(), bot="alphazero")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "ismcts" in caught.value.details()
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(midgame.to_json(), game="toy_guess")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "position.game" in caught.value.details()


def test_a_record_of_another_format_for_the_named_game_is_refused(client):
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move({"format": "chess/1", "seed": 1, "moves": []}, game="hera_zeus")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "position.record_json.format" in caught.value.details()


def test_the_asyncio_client_makes_the_same_calls(server, midgame):
    import asyncio

    from hzai_client import AsyncHzaiClient, HzaiClient, seat_token

    async def run():
        async with AsyncHzaiClient(server.address, timeout=30) as client:
            await client.wait_ready()
            games = [g.name for g in await client.list_games()]
            reply = await client.suggest_move(midgame.to_json(), bot="random", seed=4)
            reports = [a async for a in client.analyze_stream(midgame.to_json(), iterations=400, progress_every=200)]
            created = await client.create_match("hera_zeus", bot_seats=["zeus"], bot="random")
            token = seat_token(created, "hera")
            moves = await client.legal_moves(created.status.match_id, "hera", token=token)
            played = await client.play_move(created.status.match_id, moves[0].action, token=token, move_number=0)
            bot = await client.bot_play_turn(created.status.match_id, token=token, move_number=1)
            await client.delete_match(created.status.match_id, token=token)
            return games, reply, reports, moves, played, bot

    games, reply, reports, moves, played, bot = asyncio.run(run())
    with HzaiClient(server.address, timeout=30) as sync:
        same = sync.suggest_move(midgame.to_json(), bot="random", seed=4)
    assert "hera_zeus" in games and reply.move.text == same.move.text
    assert reports[-1].finished and all(not r.finished for r in reports[:-1])
    assert played.played.text == moves[0].text and bot.status.moves_played == 2
    assert [m.text for m in bot.moves] == ["setup ? ? ?"]


def test_tree_reuse_through_the_service_is_checked_and_reproducible(client, midgame):
    """ismcts:reuse=1 is accepted (SuggestMove builds a bot a call: nothing is kept, the
    same seed the same move); a bad reuse or credit value is INVALID_ARGUMENT naming it."""
    replies = [client.suggest_move(midgame.to_json(), bot="ismcts:reuse=1,credit=1", iterations=300, seed=4)
               for _ in range(2)]
    plain = client.suggest_move(midgame.to_json(), bot="ismcts", iterations=300, seed=4)
    assert replies[0].move.text in legal_texts(midgame)
    assert replies[0].move.text == replies[1].move.text == plain.move.text
    for spec, option in (("ismcts:reuse=2", "reuse"), ("ismcts:credit=1", "credit")):
        with pytest.raises(grpc.RpcError) as caught:
            client.suggest_move(midgame.to_json(), bot=spec, iterations=10)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and option in caught.value.details()


def test_a_split_budget_through_the_service_is_checked_and_reproducible(client, midgame):
    """ismcts:split=S reads the turn's progress from the position the request sends
    (public AP counts): accepted, reproducible, and a value out of range is
    INVALID_ARGUMENT naming the option."""
    replies = [client.suggest_move(midgame.to_json(), bot="ismcts:split=0.5", iterations=300, seed=4) for _ in range(2)]
    assert replies[0].move.text in legal_texts(midgame) and replies[0].move.text == replies[1].move.text
    with pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(midgame.to_json(), bot="ismcts:split=2", iterations=10)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "split" in caught.value.details()


def test_a_hosted_bot_turn_with_tree_reuse_is_reproducible(client):
    """BotPlayTurn plays a call's bot decisions with one bot object a seat, so reuse=1
    keeps its tree between a seat's consecutive decisions there (with every seat a
    bot seat, a call plays up to MAX_BOT_MOVES_PER_CALL moves of the game); an open
    match's chosen seed gives the same game twice."""
    from .matchkit import create

    records = []
    for _ in range(2):
        seats = create(client, bot_seats=[0, 1], bot="ismcts:reuse=1", iterations=40, seed=12, open=True)
        moves = 0
        for _ in range(10):
            status = client.bot_play_turn(seats.id, token=seats.any_token, move_number=moves).status
            moves = status.moves_played
            if status.over:
                break
        assert status.over
        records.append(json.loads(status.record_json)["moves"])
    assert records[0] == records[1] and len(records[0]) > 20
