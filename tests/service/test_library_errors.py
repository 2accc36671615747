"""Library errors become statuses in one place (hzai_server.errors.from_library), for
every RPC (issue 34).

Before: a Hera and Zeus deal with a hand card that is null, 5, "Kraken" or a seat name,
or a hand of 8, raised RecordError from `game.records.start_of` inside AnalyzeGame, unconverted:
INTERNAL. SuggestMove and Analyze answered the same record with INVALID_ARGUMENT."""

from __future__ import annotations

import copy
import json

import grpc
import pytest

from hzai.core import NoDecision, RecordError, ReplayStopped
from hzai.core.bot import RootMovesError
from hzai.core.limits import LimitsError
from hzai.jsonread import JsonShapeError
from hzai_proto.v3 import bot_pb2, bot_pb2_grpc, common_pb2
from hzai_server import errors
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .conftest import played_record


def bad_deals() -> list[tuple[str, dict]]:
    base = played_record(12, 0).to_json()
    assert "setup" in base
    out = []
    for what, value in (("null", None), ("number", 5), ("unknown card", "Kraken"), ("seat name", "zeus")):
        record = copy.deepcopy(base)
        record["setup"]["hera"]["hand"][0] = value
        out.append((what, record))
    record = copy.deepcopy(base)
    record["setup"]["hera"]["hand"].append(record["setup"]["hera"]["deck"].pop())
    out.append(("hand of 8", record))
    return out


@pytest.fixture(scope="module")
def stub():
    server = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", max_searches=2,
                                     default_iterations=20))
    server.start()
    with grpc.insecure_channel(server.address) as channel:
        yield bot_pb2_grpc.BotServiceStub(channel)
    server.stop(0)


def status_of(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        result = call()
        if hasattr(result, "__next__"):
            list(result)
    return caught.value


@pytest.mark.parametrize("what,record", bad_deals(), ids=[w for w, _ in bad_deals()])
def test_a_malformed_deal_is_invalid_argument_from_every_rpc(stub, what, record):
    position = common_pb2.Position(game="hera_zeus", record_json=json.dumps(record))
    budget = common_pb2.Budget(iterations=10)
    calls = {
        "AnalyzeGame": lambda: stub.AnalyzeGame(bot_pb2.AnalyzeGameRequest(position=position, budget=budget),
                                                timeout=30),
        "SuggestMove": lambda: stub.SuggestMove(bot_pb2.SuggestMoveRequest(position=position, budget=budget),
                                                timeout=30),
        "Analyze": lambda: stub.Analyze(bot_pb2.AnalyzeRequest(position=position, budget=budget), timeout=30),
    }
    answers = {}
    for name, call in calls.items():
        error = status_of(call)
        answers[name] = (error.code(), error.details())
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (name, error.code(), error.details())
        assert error.details().startswith("position.record_json"), (name, error.details())
        assert "setup.hera" in error.details(), (name, error.details())
    # One conversion: the three answers say the same thing.
    assert len(set(answers.values())) == 1, answers


@pytest.mark.parametrize("exc,code,field", [
    (RecordError("move 3 'x': no", 3, "x"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json.moves[3]"),
    (RecordError("variant first_player: no"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json.variants"),
    (RecordError("deck: no such deck"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json.deck"),
    (RecordError("setup.hera.hand: no"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json"),
    (NoDecision("the game is over"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json"),
    (JsonShapeError("nested too deeply"), grpc.StatusCode.INVALID_ARGUMENT, "position.record_json"),
    (ReplayStopped(7), grpc.StatusCode.DEADLINE_EXCEEDED, None),
    (LimitsError("iterations must be positive"), grpc.StatusCode.INVALID_ARGUMENT, "budget"),
    (RootMovesError("'x' is not legal"), grpc.StatusCode.INVALID_ARGUMENT, "root_moves"),
])
def test_from_library_maps_each_library_error(exc, code, field):
    errors.reading("position.record_json")
    try:
        status = errors.from_library(exc)
    finally:
        errors.reading(None)
    assert status is not None and status.code == code
    assert status.field == field
    words = "after replaying 7 moves" if isinstance(exc, ReplayStopped) else str(exc)
    assert words in status.message


def test_anything_else_stays_a_defect():
    assert errors.from_library(KeyError("x")) is None
    assert errors.from_library(ZeroDivisionError()) is None


@pytest.mark.parametrize("message", ["deck: no such deck", "a message that names nothing", "variant x: no"])
def test_a_record_error_names_the_field_it_carries_whatever_its_message(message):
    """RecordError.field, not the message's words, names the record's key at fault."""
    status = errors.from_library(RecordError(message, field="deck"), "position.record_json")
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT and status.field == "position.record_json.deck"
    assert status.message == f"position.record_json.deck: {message}"


@pytest.mark.parametrize("change,key", [
    (lambda data: data.update(variants={"first_player": "poseidon"}), "variants"),
    (lambda data: data.update(variants={"kraken": 1}), "variants"),
])
def test_hera_and_zeus_records_carry_the_key_at_fault(change, key):
    from hzai.core import make_game

    data = played_record(12, 4).to_json()
    change(data)
    with pytest.raises(RecordError) as caught:
        make_game("hera_zeus").records.read(data)
    assert caught.value.field == key


def test_the_trusted_deck_check_carries_its_field():
    from hzai.games.hera_zeus.records import check_deck

    with pytest.raises(RecordError) as caught:
        check_deck("/tmp/a-deck.toml")
    assert caught.value.field == "deck"
