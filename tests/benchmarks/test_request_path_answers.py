"""`python -m benchmarks.request_path_answers`: two servers' answers compared, times left
out, details by content; in miniature, this tree's commit's server against this tree's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc

from benchmarks.request_path_answers import as_text, outcome
from hzai_proto.v3 import bot_pb2, common_pb2

REPO = Path(__file__).resolve().parents[2]


def test_times_are_left_out_and_everything_else_compared():
    def answer(millis, seat, text="play Centaur c1r2"):
        return bot_pb2.SuggestMoveResponse(move=common_pb2.Move(text=text, action=218), seat=seat, millis=millis)

    assert as_text(answer(5.0, 1)) == as_text(answer(7.5, 1))
    assert as_text(answer(5.0, 1)) != as_text(answer(5.0, 0))
    assert as_text(answer(5.0, 1)) != as_text(answer(5.0, 1, "play Satyr c1r2"))
    nested = bot_pb2.AnalyzeResponse(analysis=bot_pb2.Analysis(millis=3.0, iterations=10))
    assert '"millis"' not in as_text(nested) and '"iterations": "10"' in as_text(nested)  # uint64: a string in JSON


def test_a_details_maps_are_compared_by_content_not_by_the_bytes_packed():
    from hzai_proto.v3 import hera_zeus_pb2

    def analysis(cards: dict, moves: list[str]):
        belief = hera_zeus_pb2.HeraZeusBelief(slots=[hera_zeus_pb2.HeraZeusSlotBelief(slot="c1r1", cards=cards)])
        out = bot_pb2.Analysis(moves=[bot_pb2.MoveInfo(move=common_pb2.Move(text=t)) for t in moves])
        out.belief.detail.Pack(belief)
        return out

    one, other = analysis({"Satyr": 0.25, "Pythia": 0.75}, ["a", "b"]), analysis({"Pythia": 0.75, "Satyr": 0.25}, ["a", "b"])
    assert as_text(one) == as_text(other) and "Pythia" in as_text(one)
    assert as_text(one) != as_text(analysis({"Satyr": 0.5, "Pythia": 0.5}, ["a", "b"]))
    assert as_text(one) != as_text(analysis({"Satyr": 0.25, "Pythia": 0.75}, ["b", "a"]))


def test_an_error_is_its_code_message_and_details():
    class Refused(grpc.RpcError):
        def code(self):
            return grpc.StatusCode.INVALID_ARGUMENT

        def details(self):
            return "budget.iterations: over"

        def trailing_metadata(self):
            return (("hzai-worker", "1"), ("grpc-status-details-bin", b"x"))

    def refuse():
        raise Refused()

    assert outcome(refuse) == ("error", "INVALID_ARGUMENT", "budget.iterations: over",
                               (("grpc-status-details-bin", b"x"),))
    assert outcome(lambda: "record") == ("ok", "record")


def test_this_trees_server_against_its_own_commit_answers_alike(tmp_path):
    out = tmp_path / "answers.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.request_path_answers", "--old", "HEAD", "--positions", "4",
                           "--seeds", "1", "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["differ"] == 0 and report["calls"] == sum(k["calls"] for k in report["kinds"].values())
    kinds = report["kinds"]
    assert kinds["bad SuggestMove"]["errors"] == kinds["bad SuggestMove"]["calls"] >= 10
    assert kinds["SuggestMove"]["calls"] > 10 and kinds["SuggestMove"]["errors"] == 0
    assert "| SuggestMove |" in out.with_suffix(".md").read_text()
