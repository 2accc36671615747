"""The wire: the shared messages name no game (a game's typed message travels in a
google.protobuf.Any), Legends' typed messages agree with its text and JSON, a typed
record is read like its JSON, and a typed record of another game is refused naming
position.record."""

from __future__ import annotations

import json
import re
from pathlib import Path

import grpc
import pytest

from hzai.core import make_game
from hzai.games.legends import Record
from hzai_client.messages import detail, position, record_game
from hzai_proto.v3 import bot_pb2, common_pb2, hera_zeus_pb2, legends_pb2, match_pb2

from .legends_typed import checked_move, view_json
from .test_errors import rpc_error

PROTO = Path(__file__).resolve().parents[2] / "proto" / "hzai" / "v3"
SHARED = {"common": common_pb2, "bot": bot_pb2, "match": match_pb2}
GAME_PROTOS = ("hera_zeus.proto", "legends.proto")
HEROES = ["Perseus", "Atalanta", "Hercules"]


@pytest.mark.parametrize("name", sorted(SHARED))
def test_the_shared_protos_import_and_name_no_game(name):
    text = (PROTO / f"{name}.proto").read_text(encoding="utf-8")
    imports = re.findall(r'^import "([^"]+)";', text, re.MULTILINE)
    assert not [i for i in imports if i.rsplit("/", 1)[-1] in GAME_PROTOS], imports
    module = SHARED[name]
    assert {d.name for d in module.DESCRIPTOR.dependencies} <= {"hzai/v3/common.proto", "google/protobuf/any.proto"}
    for message in module.DESCRIPTOR.message_types_by_name.values():
        for field in message.fields:
            assert not field.name.startswith(("hera_zeus", "legends")), f"{message.name}.{field.name}"
            if field.message_type is not None:
                assert field.message_type.file.name not in [f"hzai/v3/{p}" for p in GAME_PROTOS], \
                    f"{message.name}.{field.name} is a {field.message_type.full_name}"


@pytest.mark.parametrize("message, field", [(common_pb2.Move, "detail"), (common_pb2.View, "detail"),
                                            (bot_pb2.Belief, "detail"), (match_pb2.MatchStatus, "detail"),
                                            (common_pb2.Position, "record")])
def test_game_detail_travels_as_any(message, field):
    assert message.DESCRIPTOR.fields_by_name[field].message_type.full_name == "google.protobuf.Any"


def legends_record() -> Record:
    return Record(make_game("legends", heroes=HEROES), seed=8, moves=["place m1", "place m2", "place m3"])


def typed_record(data: dict) -> legends_pb2.LegendsRecord:
    """A legends-record/1 JSON as a LegendsRecord, field by field."""
    out = legends_pb2.LegendsRecord(mission=data["mission"], heroes=data["heroes"], difficulty=data["difficulty"],
                                    first_player=data["first_player"], data=data["data"], moves=data["moves"],
                                    variants=legends_pb2.LegendsVariants(**data["variants"]))
    if "seed" in data:
        out.seed = data["seed"]
    else:
        setup = data["setup"]
        out.setup.monster_deck.extend(setup["monster_deck"])
        for seat in sorted(setup["hands"]):
            out.setup.hands.add(cards=setup["hands"][seat])
        out.setup.draw_pile.extend(setup["draw_pile"])
    return out


def test_legends_suggest_and_analyze_answer_typed_moves_that_agree_with_their_text(client):
    data = legends_record().to_json()
    analysis = client.analyze(data, game="legends", iterations=120, seed=3)
    assert analysis.moves and not analysis.belief.json
    checked_move(analysis.best)
    for row in analysis.moves:
        checked_move(row.move)
        for move in row.pv:
            checked_move(move)
    suggested = client.suggest_move(data, game="legends", iterations=120, seed=3)
    assert checked_move(suggested.move).kind == suggested.move.text.split()[0]
    assert suggested.move.action == make_game("legends", heroes=HEROES).action_of(
        make_game("legends", heroes=HEROES).parse_move(suggested.move.text))


@pytest.mark.parametrize("start", ["seed", "setup"])
def test_a_typed_legends_record_is_read_like_its_json(client, start):
    record = legends_record()
    if start == "setup":  # the same deal written out, chance orders as moves
        record = Record.of_state(record.replay())
    data = record.to_json()
    assert start in data
    message = typed_record(data)
    by_json = client.suggest_move(data, game="legends", iterations=60, seed=5)
    by_message = client.suggest_move(message, iterations=60, seed=5)  # the message names its game
    assert by_message.move.text == by_json.move.text and by_message.seat == by_json.seat
    a, b = (client.analyze(r, game="legends", iterations=60, seed=5) for r in (data, message))
    assert [m.move.text for m in a.moves] == [m.move.text for m in b.moves]
    assert [m.visits for m in a.moves] == [m.visits for m in b.moves]


def test_a_typed_record_of_another_game_is_invalid_argument_naming_position_record(client):
    wrong = [("legends", hera_zeus_pb2.HeraZeusRecord(seed=1)),
             ("hera_zeus", typed_record(legends_record().to_json()))]
    for game, message in wrong:
        request = bot_pb2.SuggestMoveRequest(position=position(message, game=game))
        error = rpc_error(client.bots.SuggestMove, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details().startswith("position.record: ") and game in error.details(), error.details()
        assert message.DESCRIPTOR.full_name in error.details()
    request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="legends"))
    request.position.record.Pack(common_pb2.Budget(iterations=3))  # not a record at all
    error = rpc_error(client.bots.SuggestMove, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "position.record" in error.details()
    assert "hzai.v3.Budget" in error.details()


@pytest.mark.parametrize("message, words", [
    (legends_pb2.LegendsRecord(mission=1, heroes=HEROES), ["position.record.start", "setup", "seed"]),
    (legends_pb2.LegendsRecord(mission=13, heroes=HEROES, seed=1), ["position.record", "mission"]),
    (legends_pb2.LegendsRecord(mission=1, heroes=HEROES, seed=1, moves=["place m1", "fight arms"]),
     ["position.record", "move 1", "fight arms"]),
    (legends_pb2.LegendsRecord(mission=1, heroes=HEROES, seed=1, data="../../etc/passwd"), ["position.record", "built-in"]),
])
def test_a_bad_typed_legends_record_names_position_record(client, message, words):
    error = rpc_error(client.suggest_move, message, iterations=10)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert all(w in error.details() for w in words), error.details()


def test_a_hosted_legends_match_answers_typed_views_and_statuses(client):
    created = client.create_match("legends", params={"heroes": HEROES}, bot_seats=[], seed=4, open=True)
    match_id, tokens = created.status.match_id, {s.seat_name: s.token for s in created.seats}
    assert created.status.detail.TypeName() == "hzai.v3.LegendsStatus" and detail(created.status).mission == 1
    for name, token in tokens.items():
        reply = client.get_view(match_id, token=token)
        assert view_json(reply.view) == json.loads(reply.view.json)
        mine = detail(reply.view).seats[reply.view.seat]
        assert sorted(mine.hand) == json.loads(reply.view.json)["seats"][name]["hand"] and len(mine.hand) == 4
    spectator = client.get_view(match_id, token=created.spectator_token)
    assert spectator.status.detail.TypeName() == "hzai.v3.LegendsStatus"


def test_the_client_unpacks_a_detail_and_finds_a_typed_records_game():
    move = common_pb2.Move(text="fight arms")
    assert detail(move) is None  # no detail: a game without typed messages
    move.detail.Pack(legends_pb2.LegendsMove(kind="fight", card="arms"))
    assert detail(move) == legends_pb2.LegendsMove(kind="fight", card="arms")
    move.detail.type_url = "type.googleapis.com/hzai.v3.ChessMove"  # a type this client does not know
    assert detail(move) is None
    assert record_game(legends_pb2.LegendsRecord()) == "legends"
    assert record_game(hera_zeus_pb2.HeraZeusRecord()) == "hera_zeus"
    assert record_game(common_pb2.Move()) is None and record_game({"format": "legends-record/1"}) is None
    assert position(legends_pb2.LegendsRecord(seed=1)).game == "legends"


def test_a_typed_record_that_does_not_decode_is_invalid_argument_naming_position_record(client):
    request = bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="legends"))
    request.position.record.type_url = "type.googleapis.com/hzai.v3.LegendsRecord"
    request.position.record.value = b"\x12\x02\xff\xfe"  # heroes: bytes that are not UTF-8
    error = rpc_error(client.bots.SuggestMove, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("position.record: not a valid hzai.v3.LegendsRecord"), error.details()
