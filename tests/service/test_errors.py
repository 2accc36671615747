"""Bad input gets INVALID_ARGUMENT naming the field or move and why; load limits,
deadlines and cancellation behave as documented."""

from __future__ import annotations

import threading
import time

import grpc
import pytest

from google.protobuf import any_pb2
from hzai_proto.v3 import bot_pb2, common_pb2, hera_zeus_pb2, legends_pb2, match_pb2

from .conftest import played_record


def packed(message) -> any_pb2.Any:
    out = any_pb2.Any()
    out.Pack(message)
    return out


def rpc_error(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, **kwargs)
    return caught.value


def good_record() -> dict:
    return played_record(12, 6).to_json()


def with_moves(moves: list[str]) -> dict:
    record = good_record()
    record["moves"] = record["moves"][:2] + moves
    return record


BAD_SUGGESTIONS = [
    # (what, request builder, words the message must contain)
    ("malformed JSON", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json="{not json")),
     ["position.record_json", "not valid JSON", "line 1"]),
    ("not a record", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json="[1, 2]")),
     ["position.record_json", "JSON object"]),
    ("wrong format", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json='{"format": "chess/1", "seed": 1}')), ["position.record_json.format", "hzai-record/1", "chess/1"]),
    ("no game", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(record_json="{}")),
     ["position.game", "hera_zeus"]),
    ("unknown game", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="chess", record_json="{}")),
     ["position.game", "unknown game 'chess'"]),
    ("unknown field", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json='{"format": "hzai-record/1", "seed": 1, "colour": "red"}')), ["unknown record field", "colour"]),
    ("no position", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus")),
     ["position", "record_json, a game's record message or match_id"]),
    ("record without a deal", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(
        game="hera_zeus", record=packed(hera_zeus_pb2.HeraZeusRecord(moves=["draw"])))), ["position.record.start", "setup", "seed"]),
    ("deck path", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(
        game="hera_zeus", record=packed(hera_zeus_pb2.HeraZeusRecord(seed=1, deck="/etc/passwd")))), ["position.record.deck", "classic"]),
    ("unknown variant value", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(
        game="hera_zeus", record=packed(hera_zeus_pb2.HeraZeusRecord(seed=1, variants=hera_zeus_pb2.HeraZeusVariants(first_player="poseidon"))))),
     ["position.record.variants", "first_player", "poseidon"]),
    ("setup not the whole deck", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record=packed(hera_zeus_pb2.HeraZeusRecord(
        setup=hera_zeus_pb2.HeraZeusSetup(hera=hera_zeus_pb2.HeraZeusSideSetup(hand=["Hydra"]),
                                          zeus=hera_zeus_pb2.HeraZeusSideSetup()))))),
     ["position.record", "setup.hera"]),
    ("unknown card", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(with_moves(["play Kraken c1r2"])))),
     ["position.record_json.moves[2]", "move 2", "unknown card 'Kraken'"]),
    ("unreadable move", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(with_moves(["fly c1"])))),
     ["position.record_json.moves[2]", "'fly c1'", "unknown move"]),
    ("illegal move", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(with_moves(["recall"])))),
     ["position.record_json.moves[2]", "move 2 'recall'"]),
    ("game over", lambda: bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(played_record(11, 400).to_json()))),
     ["position.record_json", "the game is over"]),
    ("iterations over the limit", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())),
        budget=common_pb2.Budget(iterations=10_000_000)), ["budget.iterations", "10000000", "limit of 200000"]),
    ("millis over the limit", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())),
        budget=common_pb2.Budget(millis=60_000)), ["budget.millis", "limit of 20000"]),
    ("threads over the limit", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())),
        budget=common_pb2.Budget(iterations=100, threads=64)), ["budget.threads", "limit of 2"]),
    ("unknown bot", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())), bot="alphazero"),
     ["bot:", "unknown bot 'alphazero'"]),
    ("library bot the service does not offer", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())), bot="ismcts-v1"),
     ["bot:", "'ismcts-v1' is not offered by the service", "choose from ismcts, ismcts-v2, ismcts-v3, pimc"]),
    ("bad bot option", lambda: bot_pb2.SuggestMoveRequest(
        position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(good_record())), bot="ismcts:c"),
     ["bot:", "key=value"]),
]


@pytest.mark.parametrize("what, build, words", BAD_SUGGESTIONS, ids=[case[0] for case in BAD_SUGGESTIONS])
def test_bad_suggest_requests_name_the_field(client, what, build, words):
    error = rpc_error(client.bots.SuggestMove, build(), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    for word in words:
        assert word in error.details(), (word, error.details())
    # The same field, machine-readable, as google.rpc.BadRequest.
    from hzai_client import bad_request_fields

    fields = bad_request_fields(error)
    assert len(fields) == 1
    (field, why), = fields.items()
    assert error.details() == f"{field}: {why}"


def test_bad_analyze_requests_name_the_field(client):
    request = bot_pb2.AnalyzeRequest(position=common_pb2.Position(game="hera_zeus", record_json="{}"), belief_samples=10**5)
    error = rpc_error(client.bots.Analyze, request, timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "belief_samples" in error.details()
    stream = client.bots.AnalyzeStream(bot_pb2.AnalyzeRequest(
        position=common_pb2.Position(game="hera_zeus", record_json='{"format": "hzai-record/1", "seed": 1, "moves": ["draw"]}')), timeout=30)
    with pytest.raises(grpc.RpcError) as caught:
        list(stream)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "position.record_json.moves[0]" in caught.value.details()


def test_bad_match_requests(client):
    error = rpc_error(client.matches.CreateMatch, match_pb2.CreateMatchRequest(
        game="hera_zeus", params_json='{"figure_removal": "magic"}'), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("params_json:")
    assert "figure_removal" in error.details() and "magic" in error.details()
    for params, words in (('{"colour": "red"}', "colour"), ("[1]", "JSON object"),
                          ("{", "not valid JSON"), ('{"deck": "/etc/passwd"}', "classic")):
        error = rpc_error(client.matches.CreateMatch, match_pb2.CreateMatchRequest(
            game="hera_zeus", params_json=params), timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("params_json:")
        assert words in error.details(), (params, error.details())
    for request, words in ((match_pb2.CreateMatchRequest(), "game:"),
                           (match_pb2.CreateMatchRequest(game="chess"), "game: unknown game 'chess'"),
                           (match_pb2.CreateMatchRequest(game="hera_zeus", bot_seats=[2]), "bot_seats[0]:"),
                           (match_pb2.CreateMatchRequest(game="hera_zeus", bot_seats=[1, 1], bot_levels=[2, 5]),
                            "bot_seats[1]: seat 1 is given twice")):
        error = rpc_error(client.matches.CreateMatch, request, timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith(words), error.details()
    error = rpc_error(client.matches.CreateMatch, match_pb2.CreateMatchRequest(game="hera_zeus", bot="deep-blue"),
                      timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "bot:" in error.details()
    created = client.create_match(bot="random")
    match_id, auth = created.status.match_id, (("authorization", f"Bearer {created.seats[0].token}"),)
    error = rpc_error(client.matches.GetView, match_pb2.GetViewRequest(match_id=match_id, seat=7),
                      timeout=30, metadata=auth)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("seat:")
    error = rpc_error(client.matches.GetView, match_pb2.GetViewRequest(seat=0),
                      timeout=30, metadata=auth)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("match_id:")
    error = rpc_error(client.matches.PlayMove, match_pb2.PlayMoveRequest(
        match_id=match_id, seat=0), timeout=30, metadata=auth)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("move:")
    error = rpc_error(client.play_move, match_id, common_pb2.Move(action=10**6), token=created.seats[0].token)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("move.action:")
    error = rpc_error(client.create_match, seed=5)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and error.details().startswith("seed:")


def test_over_the_concurrency_limit_is_refused_at_once(tiny_server):
    """The one search slot is held by a streaming analysis (its first report proves the
    search is running); a second search is refused at once, not queued."""
    from hzai_client import HzaiClient

    record = played_record(12, 24).to_json()
    with HzaiClient(tiny_server.address, timeout=30) as client:
        stream = client.analyze_stream(record, millis=15_000, progress_every=64, seed=1)
        first = next(stream)
        assert not first.finished
        start = time.perf_counter()
        error = rpc_error(client.suggest_move, record, bot="random", timeout=10)
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "at most 1 searches" in error.details()
        assert time.perf_counter() - start < 5  # refused, not queued behind a 15 s search
        stream.close()  # cancels the call, which must stop its search and free the slot
        # The cancelled search had 15 s left; the slot must come free long before that.
        deadline = time.monotonic() + 8
        while True:
            try:
                reply = client.suggest_move(record, bot="random", timeout=10)
                break
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert time.monotonic() < deadline, "the cancelled search kept its slot"
                threading.Event().wait(0.05)
        assert reply.move.text


def test_a_deadline_shorter_than_the_budget_returns_the_best_move_in_time(client, midgame):
    start = time.perf_counter()
    reply = client.suggest_move(midgame.to_json(), millis=15_000, seed=1, timeout=1.5)
    elapsed = time.perf_counter() - start
    assert reply.stopped_early
    assert reply.move.text in {str(m) for m in midgame.replay().legal_moves()}
    assert elapsed < 1.5  # otherwise the client would have raised DEADLINE_EXCEEDED
    analysis = client.analyze(midgame.to_json(), iterations=200_000, seed=1, timeout=1.5)
    assert analysis.iterations < 200_000 and analysis.best.text


def test_a_deadline_too_short_to_search_is_deadline_exceeded(client, midgame):
    error = rpc_error(client.suggest_move, midgame.to_json(), millis=5000, timeout=0.02)
    assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def wait_for(condition, seconds: float, what: str) -> None:
    """Poll a condition that no event announces (a slot taken or freed on the server)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        threading.Event().wait(0.02)


def test_a_cancelled_suggest_call_stops_its_search(tiny_server):
    from hzai_client import HzaiClient

    record = played_record(12, 24).to_json()
    with HzaiClient(tiny_server.address, timeout=30) as client:
        request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=__import__("json").dumps(record)),
                                             budget=common_pb2.Budget(millis=15_000), seed=1)
        call = client.bots.SuggestMove.future(request, timeout=30)

        def refused() -> bool:
            nonlocal call
            if call.done():  # the probe below held the slot when the long call came: resend it
                assert call.exception().code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                call = client.bots.SuggestMove.future(request, timeout=30)
                return False
            try:
                client.suggest_move(record, bot="random", timeout=10)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                return not call.done()
            return False

        wait_for(refused, 10, "the 15 s search never took the only slot")
        assert call.cancel()

        def admitted() -> bool:
            try:
                client.suggest_move(record, bot="random", timeout=10)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                return False
            return True

        # Without the stop the slot would stay taken for the rest of the 15 s budget.
        wait_for(admitted, 8, "the cancelled search kept its slot")


def test_a_message_over_the_size_limit_is_refused(tiny_server):
    from hzai_client import HzaiClient

    with HzaiClient(tiny_server.address, timeout=30) as client:
        huge = __import__("json").dumps({"format": "hzai-record/1", "seed": 1, "moves": ["draw"] * 20_000})
        error = rpc_error(client.suggest_move, huge, bot="random")
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_level_with_an_option_it_does_not_take_names_the_option():
    """level=N plays the level bot, which takes c and playout only: another ismcts option
    (reuse, tree, ...) is INVALID_ARGUMENT on the bot field naming it and the level, not
    an error about a bot 'level' the request never named."""
    from hzai.core import make_game
    from hzai_server.errors import ApiError
    from hzai_server.convert import make_checked_bot

    game = make_game("hera_zeus")
    for spec, words in (("ismcts:reuse=1", "'reuse'"), ("ismcts:c=1,tree=multi,credit=1", "options 'tree', 'credit'")):
        with pytest.raises(ApiError) as caught:
            make_checked_bot(spec, game, level=3)
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        message = caught.value.message
        assert message.startswith("bot: unknown option") and words in message
        assert "at a strength level (level 3): there the ismcts bot takes only c, playout" in message
    assert make_checked_bot("ismcts:c=1,playout=light", game, level=3).level.number == 3
