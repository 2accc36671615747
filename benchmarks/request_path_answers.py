"""The same answers from this tree's server and another commit's (issue 45 item 3: the
request path restructured, behaviour unchanged).

    python -m benchmarks.request_path_answers --old c606426

The other commit's `server/hzai_server` runs beside this tree's, as in
benchmarks.request_path_ab (the library, hzai, is this tree's for both; `--processes 1`,
defaults). One client sends each server the same calls and the answers are compared
(as JSON, the Any details unpacked: as_text says why), with every `millis` field (time
spent) cleared:

- SuggestMove on the load check's positions, at several seeds and budgets (iterations,
  so the searches are repeatable), with a bot spec and at strength levels, and on two
  Legends deals;
- Analyze (one position, with belief samples and with chosen root moves), a batch of
  positions, and AnalyzeStream's final answer;
- AnalyzeGame of one short game;
- a hosted match: an open match with a seed, its bot seat playing (BotPlayTurn), the
  finished record compared;
- bad requests (budget, game, record, bot, level, priority, root moves, belief samples;
  two faults in one request): the status code, message and details.

Prints each kind's count of calls and of differences; writes
benchmarks/results/request_path_answers.json and .md (--out). Exit status 1 when any
answer differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc
from google.protobuf.json_format import MessageToDict

from benchmarks import harness
from benchmarks.harness import machine
from benchmarks.request_path_ab import LAUNCHER, snapshot
from benchmarks.service import LocalServer, positions
from hzai_proto.v3 import bot_pb2, common_pb2

CONCERN = "service"  # its group in `python -m benchmarks list`

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parents[1]


def scrubbed(message):
    """A copy of `message` with every `millis` field cleared, in nested messages too."""
    out = type(message)()
    out.CopyFrom(message)
    _scrub(out)
    return out


def _scrub(message) -> None:
    for field, value in message.ListFields():
        if field.name == "millis":
            message.ClearField(field.name)
        elif field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                continue  # no map of this API holds a time
            if hasattr(value, "add"):  # a repeated field
                for item in value:
                    _scrub(item)
            else:
                _scrub(value)


def outcome(call):
    """What `call()` answered: ("ok", the answer as text: as_text, or a str as it is),
    ("error", code, message, trailing details) or ("client", the error the client raised
    before sending)."""
    try:
        answer = call()
    except grpc.RpcError as exc:
        trailing = tuple((k, v) for k, v in (exc.trailing_metadata() or ()) if k != "hzai-worker")
        return ("error", exc.code().name, exc.details(), trailing)
    except Exception as exc:  # noqa: BLE001 - refused by the client before it was sent: the same either way
        return ("client", type(exc).__name__, str(exc))
    if isinstance(answer, str):
        return ("ok", answer)
    if isinstance(answer, list):
        return ("ok", "\n".join(as_text(a) for a in answer))
    return ("ok", as_text(answer))


def as_text(message) -> str:
    """`message` scrubbed, as JSON with its keys sorted and its Any details unpacked: a
    server packs a detail's maps in an order of its own (a belief report's card
    probabilities came in another order from two runs of one commit's server), so their
    bytes are not compared, their contents are."""
    return json.dumps(MessageToDict(scrubbed(message), preserving_proto_field_name=True), indent=1, sort_keys=True)


def calls(records: list[str], seeds: int) -> list[tuple[str, object]]:
    """(kind, function of a client) for every call compared."""
    out = []
    for i, record in enumerate(records):
        for seed in range(seeds):
            for iterations in (1, 50, 300):
                out.append(("SuggestMove", lambda c, r=record, s=seed, n=iterations:
                            c.suggest_move(r, iterations=n, seed=s)))
        out.append(("SuggestMove", lambda c, r=record, s=i: c.suggest_move(r, iterations=200, seed=s,
                                                                          bot="ismcts:c=1.2")))
        for level in (1, 5):
            out.append(("SuggestMove", lambda c, r=record, s=i, lv=level: c.suggest_move(r, iterations=100, seed=s,
                                                                                      level=lv)))
        out.append(("Analyze", lambda c, r=record, s=i: c.analyze(r, iterations=200, seed=s)))
        out.append(("Analyze", lambda c, r=record, s=i: c.analyze(r, iterations=100, seed=s, belief_samples=20)))
        out.append(("AnalyzeStream", lambda c, r=record, s=i: list(c.analyze_stream(r, iterations=150, seed=s))[-1]))
    for seed in (3, 4):  # a Legends deal at its first decision: another game's records, converter and search
        out.append(("SuggestMove", lambda c, s=seed: c.suggest_move(legends_record(s), game="legends", iterations=60,
                                                                      seed=s)))
        out.append(("Analyze", lambda c, s=seed: c.analyze(legends_record(s), game="legends", iterations=60, seed=s)))
    out.append(("Analyze", lambda c, r=records[0]: c.analyze(r, iterations=100, seed=3,  # chosen root moves
                                                             allow=[m.text for m in c.analyze(r, iterations=30).moves[:2]])))
    out.append(("Analyze batch", lambda c: c.analyze_batch(records[:4], iterations=80, seed=2)))
    out.append(("AnalyzeGame", lambda c: [r for r in c.analyze_game(records[0], iterations=30, seed=1)]))
    out.append(("BotPlayTurn", match_moves))
    for fields in bad_requests(records[0]):  # sent as built: the client checks nothing of them
        out.append(("bad SuggestMove", lambda c, f=fields: c.bots.SuggestMove(bot_pb2.SuggestMoveRequest(**f),
                                                                               timeout=60)))
    out.append(("bad Analyze", lambda c: c.analyze(records[0], iterations=10, allow=["no such move"])))
    out.append(("bad Analyze", lambda c: c.analyze(records[0], iterations=10, belief_samples=10**7)))
    return out


def legends_record(seed: int) -> str:
    """A new Legends deal's record, as JSON."""
    from hzai.core import make_game

    game = make_game("legends")
    return json.dumps(game.records.write(game.records.new(seed)))


def bad_requests(record: str) -> list[dict]:
    """SuggestMoveRequest fields, each request wrong in one or two ways."""
    def at(text=record, game="hera_zeus"):
        return common_pb2.Position(game=game, record_json=text)

    budget = common_pb2.Budget(iterations=10)
    wrong = [dict(position=at(), budget=common_pb2.Budget(iterations=10**9)),
             dict(position=at(), budget=common_pb2.Budget(millis=10**9)),
             dict(position=at(), budget=common_pb2.Budget(iterations=10, threads=10**6)),
             dict(position=at(game="no_such_game"), budget=budget),
             dict(position=at(game=""), budget=budget),
             dict(position=at("{not json"), budget=budget),
             dict(position=at(json.dumps({"format": "x"})), budget=budget),
             dict(position=at(json.dumps({"moves": ["no such move"]})), budget=budget),
             dict(position=common_pb2.Position(game="hera_zeus"), budget=budget),
             dict(position=at(), budget=budget, bot="no_such_bot"),
             dict(position=at(), budget=budget, bot="ismcts:no_such_option=1"),
             dict(position=at(), budget=budget, level=99),
             dict(position=at(), budget=budget, bot="pimc", level=3),
             dict(position=at(), budget=budget, priority=7),
             dict(position=at("{not json"), budget=common_pb2.Budget(iterations=10**9)),  # two faults: which is told
             dict(position=at(game="no_such_game"), budget=budget, bot="no_such_bot")]
    return wrong


def match_moves(client) -> str:
    """An open match with a chosen seed, its bot seat playing (BotPlayTurn, seeded) and
    the human seat its first legal move, to the end: the finished match's record."""
    created = client.create_match("hera_zeus", bot_seats=[1], iterations=40, seed=11, open=True)
    match_id, token = created.status.match_id, created.seats[0].token
    status = created.status
    for turn in range(200):
        if status.over:
            break
        if status.HasField("to_move") and status.to_move in status.bot_seats:
            status = client.bot_play_turn(match_id, seed=turn + 1, token=token).status
        else:
            legal = client.legal_moves(match_id, token=token)
            status = client.play_move(match_id, legal[0], token=token).status
    client.delete_match(match_id, token=token)
    return status.record_json


def first_lines_apart(old: tuple, new: tuple) -> list[str]:
    """The first lines where two outcomes differ (a unified diff's first 20 lines)."""
    a, b = (("\n".join(map(str, o[1:]))).splitlines() for o in (old, new))
    return list(difflib.unified_diff(a, b, "old", "new", lineterm="", n=2))[:20]


def compare(old: str, records: list[str], seeds: int) -> dict:
    from hzai_client import HzaiClient
    from hzai_proto import load_all

    load_all()  # every game's messages known, so that the Any details are unpacked
    kinds: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="hzai-answers-") as tmp:
        old_root = snapshot(old, Path(tmp))
        with LocalServer(start_timeout=120, launcher=[sys.executable, "-c", LAUNCHER, str(old_root)]) as before, \
                LocalServer(start_timeout=120) as after:
            clients = [HzaiClient(before.target, timeout=120), HzaiClient(after.target, timeout=120)]
            for n, (kind, call) in enumerate(calls(records, seeds)):
                got = [outcome(lambda c=c: call(c)) for c in clients]
                row = kinds.setdefault(kind, {"calls": 0, "differ": 0, "errors": 0, "first_difference": None})
                row["calls"] += 1
                row["errors"] += got[1][0] == "error"
                if got[0] != got[1]:
                    row["differ"] += 1
                    if row["first_difference"] is None:
                        row["first_difference"] = {"call": n, "diff": first_lines_apart(got[0], got[1])}
            for client in clients:
                client.close()
    return kinds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="the commit whose server/hzai_server answers first")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=3, help="seeds of each SuggestMove position and budget")
    parser.add_argument("--out", default=str(RESULTS / "request_path_answers.json"), help="the JSON; the .md beside it")
    args = parser.parse_args(argv)
    if args.positions < 4 or args.seeds < 1:
        parser.error("--positions >= 4, --seeds >= 1")
    new = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    kinds = compare(args.old, positions(args.positions), args.seeds)
    report = {"command": harness.command("request_path_answers", argv), "machine": machine(), "old": args.old,
              "new": f"{new} (this tree)", "kinds": kinds,
              "calls": sum(k["calls"] for k in kinds.values()), "differ": sum(k["differ"] for k in kinds.values())}
    for kind, row in kinds.items():
        print(f"{kind}: {row['calls']} calls ({row['errors']} answered with an error), {row['differ']} differ", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    lines = ["# The same answers from two servers", "", f"Command: `{report['command']}`", "",
             f"Old: `{args.old}`'s server/hzai_server; new: {report['new']}; the library is this tree's for both. "
             "Every `millis` field cleared before comparing.", "",
             "| calls | count | answered with an error | differ |", "|---|---|---|---|"]
    lines += [f"| {kind} | {row['calls']} | {row['errors']} | {row['differ']} |" for kind, row in kinds.items()]
    lines += ["", f"All: {report['calls']} calls, {report['differ']} differ.", ""]
    out.with_suffix(".md").write_text("\n".join(lines))
    print(f"all: {report['calls']} calls, {report['differ']} differ; wrote {out} and {out.with_suffix('.md')}")
    return 1 if report["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
