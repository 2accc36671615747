"""Issue 46 item 2 / issue 45 item 3: a SuggestMove read once and answered once.

The move the search chose carries its action id to the answer (never encoded back from
the move); the same position sent again is found by the text it was sent as; library
errors reach the answer through errors.from_library alone."""

from __future__ import annotations

import json
import sys

import grpc
import pytest

from hzai.core import RecordError
from hzai.games.hera_zeus.rules.game import Game as HeraZeus
from hzai.search import Limits, make_bot
from hzai_proto.v3 import common_pb2
from hzai_server import convert, decision, errors
from hzai_server.app import HzaiServer
from hzai_server.config import ServerConfig

from .conftest import played_record


@pytest.fixture()
def local_server():
    server = HzaiServer(ServerConfig(address="127.0.0.1:0", data_dir=":memory:", max_searches=2))
    server.start()
    try:
        yield server
    finally:
        server.stop(0)


def test_the_search_s_move_carries_its_action_id_to_the_answer(local_server, monkeypatch):
    from hzai_client import HzaiClient

    data = played_record(41, 22).to_json()
    encoded, written = [], []  # every move encoded; those encoded to write an answer (convert)
    plain = HeraZeus.action_of

    def spy(game, move):
        encoded.append(move)
        if sys._getframe(1).f_code.co_filename.endswith("convert.py"):
            written.append(move)
        return plain(game, move)

    with HzaiClient(local_server.address, timeout=30) as client:
        client.suggest_move(json.dumps(data), iterations=20, seed=1)  # the position read and remembered
        monkeypatch.setattr(HeraZeus, "action_of", spy)
        answer = client.suggest_move(json.dumps(data), iterations=40, seed=2)
        assert encoded == [], f"SuggestMove encoded moves back into action ids: {encoded}"
        # (an analysis' variations told in words read the legal moves' ids: hzai.explain)
        analysis = client.analyze(json.dumps(data), iterations=40, seed=2)
    assert written == [], f"the analysis' moves encoded back into action ids: {written}"
    game = HeraZeus.create()
    move = game.parse_move(answer.move.text)
    assert answer.move.action == plain(game, move)
    # A strength level plays a move other than the search's best at times: its own id.
    with HzaiClient(local_server.address, timeout=30) as client:
        for seed in range(6):
            weak = client.suggest_move(json.dumps(data), iterations=40, seed=seed, level=1).move
            assert weak.action == plain(game, game.parse_move(weak.text)), (seed, weak)
    for info in analysis.moves:
        assert info.move.action == plain(game, game.parse_move(info.move.text))
        assert [m.action for m in info.pv] == [plain(game, game.parse_move(m.text)) for m in info.pv]


def test_a_play_result_knows_its_action_and_a_bot_that_gives_none_is_encoded():
    data = played_record(42, 20)
    record, field = convert.record_from_position(common_pb2.Position(game="hera_zeus",
                                                                     record_json=json.dumps(data.to_json())))
    view = convert.view_to_decide(record, field)
    result = make_bot("ismcts").decide(view, Limits(iterations=30), 5)
    assert result.action is not None and result.action == record.game.action_of(result.move)
    random = make_bot("random").decide(view, Limits(iterations=1), 5)
    assert random.action is None
    assert convert.move_to_proto(record.game, random.move).action == record.game.action_of(random.move)


def test_the_sent_key_is_the_position_as_sent():
    text = json.dumps(played_record(43, 10).to_json())
    first = decision.sent_key(common_pb2.Position(game="hera_zeus", record_json=text))
    assert first == decision.sent_key(common_pb2.Position(game="hera_zeus", record_json=text))
    assert first != decision.sent_key(common_pb2.Position(game="hera_zeus", record_json=text + " "))
    assert first != decision.sent_key(common_pb2.Position(game="legends", record_json=text))
    assert decision.sent_key(common_pb2.Position(match_id="m")) is None


def test_a_replay_stopped_names_the_moves_of_the_record(monkeypatch):
    """view_to_decide's errors go through from_library, which says how far the replay got."""
    from hzai.core import ReplayStopped

    data = played_record(44, 12)
    record, field = convert.record_from_position(common_pb2.Position(game="hera_zeus",
                                                                     record_json=json.dumps(data.to_json())))

    def stopped(self, rec, should_stop=None):
        raise ReplayStopped(3)

    monkeypatch.setattr(type(record.game.records), "view_to_decide", stopped)
    with pytest.raises(errors.ApiError) as caught:
        convert.view_to_decide(record, field)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert caught.value.message == f"{field}: the call ended after replaying 3 of {len(record.moves)} moves"


def test_a_bad_variant_is_named_through_the_error_s_field(local_server):
    from hzai_client import HzaiClient

    data = played_record(45, 4).to_json()
    data["variants"] = {"first_player": "poseidon"}
    with HzaiClient(local_server.address, timeout=30) as client, pytest.raises(grpc.RpcError) as caught:
        client.suggest_move(json.dumps(data), iterations=10, seed=1)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith("position.record_json.variants: ")
    assert RecordError("x", field="variants").field == "variants"


def test_a_suggest_move_goes_through_the_server_s_modules_in_one_direction(tmp_path):
    """Issue 45 item 3's count (benchmarks.request_profile): the server's modules less the
    plumbing every call passes, at most 12 places and 3 returns, cold and when the
    decision cache misses; the request read (decision, convert) before the search, the
    search in one stay, the answer written after it."""
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    out = tmp_path / "path.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.request_profile", "--only-path", "--positions", "3",
                           "--out", str(out)], cwd=repo, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    for key in ("path", "path_cache_miss"):
        path = report[key]["server_data_path"]
        order = [m.removeprefix("hzai_server.") for m in path["module_order"]]
        assert path["places"] <= 12 and path["returns"] <= 3, (key, order)
        assert order[0] == "bot_service" and order.count("searches") == 1, (key, order)
        search = order.index("searches")
        assert "decision" not in order[search:] and order[search + 1] == "convert", (key, order)
        assert order[-1] == "games.hera_zeus", (key, order)
