"""Each defence against hostile input on its own: record length bound, linear and
stoppable replay, bot options, seed mixing, bounded streams and caches, short quotes,
`finished` only for a budget spent in full, undecodable and malformed requests."""

from __future__ import annotations

import json

import grpc
import pytest

from hzai.bounded_cache import BoundedCache
from hzai.rng import MASK64, SplitMix64, mix_seed
from hzai.games.hera_zeus.rules import Game, Record, RecordError
from hzai.games.hera_zeus.rules.record import max_record_moves
from hzai.games.hera_zeus.rules.replay_cache import ReplayCache, ReplayStopped, record_digest
from hzai.search import BotError, Limits, make_bot
from hzai.text import QUOTE_LIMIT, quoted
from hzai_client.messages import position
from hzai_proto.v3 import bot_pb2, common_pb2, hera_zeus_pb2, match_pb2

from .conftest import played_record

DRAWS = {"format": "hzai-record/1", "seed": 1}


def rpc_error(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, **kwargs)
    return caught.value


def suggest_json(text: str, **fields) -> bot_pb2.SuggestMoveRequest:
    return bot_pb2.SuggestMoveRequest(position=common_pb2.Position(game="hera_zeus", record_json=text), **fields)


# ----- record length ---------------------------------------------------------------------
@pytest.mark.parametrize("turn_limit", [3, 8, 20, 200])
def test_no_game_reaches_the_record_bound(turn_limit):
    """The bound is sound: random games played to their end stay under it."""
    game = Game.create({"turn_limit": turn_limit})
    for seed in range(25):
        state = Record(game, seed=seed).start()
        rng = SplitMix64(seed)
        from hzai.games.hera_zeus.rules.playout import random_step

        while not state.is_over:
            random_step(state, rng)
        assert len(state.history) <= max_record_moves(turn_limit)
        assert state.turn <= turn_limit


def test_a_record_longer_than_any_game_is_refused_before_its_moves_are_read():
    most = max_record_moves(200)
    with pytest.raises(RecordError, match=f"at most {most}"):
        Record.from_json({**DRAWS, "moves": [None] * (most + 1)})  # not even strings: never looked at
    Record.from_json({**DRAWS, "moves": ["draw"] * most})  # at the bound: read


def test_a_long_hostile_record_is_invalid_argument(client):
    text = json.dumps({**DRAWS, "moves": ["draw"] * 60_000})
    error = rpc_error(client.bots.SuggestMove, suggest_json(text), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "60000 moves" in error.details() and "at most" in error.details()


def test_turn_limit_and_seed_out_of_range_are_named(client):
    for variants, words in (({"turn_limit": 2**31}, "turn_limit"), ({"turn_limit": 10**40}, "turn_limit"),
                            ({"turn_limit": 0}, "turn_limit")):
        error = rpc_error(client.bots.SuggestMove, suggest_json(json.dumps({**DRAWS, "variants": variants})), timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and words in error.details(), error.details()
    error = rpc_error(client.bots.SuggestMove, bot_pb2.SuggestMoveRequest(position=position(
        hera_zeus_pb2.HeraZeusRecord(seed=1, variants=hera_zeus_pb2.HeraZeusVariants(turn_limit=2**32 - 1)))), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "turn_limit" in error.details()
    error = rpc_error(client.bots.SuggestMove, suggest_json('{"format": "hzai-record/1", "seed": 18446744073709551616}'),
                      timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "seed must be" in error.details()
    error = rpc_error(client.matches.CreateMatch, match_pb2.CreateMatchRequest(
        game="hera_zeus", params_json=json.dumps({"turn_limit": 2**31})), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "turn_limit" in error.details()


# ----- replay ---------------------------------------------------------------------------
def test_replay_plays_only_the_moves_past_the_longest_cached_prefix(monkeypatch):
    import hzai.games.hera_zeus.rules.replay_cache as rc

    record = played_record(12, 40)
    played = []
    real = rc.push_recorded
    monkeypatch.setattr(rc, "push_recorded", lambda state, index, text: (played.append(index), real(state, index, text)))
    cache = ReplayCache(size=8)
    for n in (10, 30):
        cache.replay(Record(record.game, record.setup, None, record.moves[:n]))
    assert played == list(range(10)) + list(range(10, 30))
    played.clear()
    cache.replay(Record(record.game, record.setup, None, record.moves[:35]))
    assert played == list(range(30, 35))
    played.clear()
    cache.replay(Record(record.game, record.setup, None, record.moves[:20]))  # shorter: from the 10-move entry
    assert played == list(range(10, 20))


def test_a_replay_stops_when_asked():
    record = played_record(12, 300)
    polls = []

    def should_stop() -> bool:
        polls.append(1)
        return len(polls) > 1

    with pytest.raises(ReplayStopped) as stopped:
        ReplayCache(size=4).replay(record, should_stop)
    assert 0 < stopped.value.played < len(record.moves)


def test_records_written_differently_share_one_digest():
    from hzai.core import make_game
    from hzai_server.bot_service import record_key
    from hzai_server.convert import parse_json, record_from_data

    game = make_game("hera_zeus")

    def read(text):
        return record_from_data(game, parse_json(text, "r"), "r")

    record = played_record(12, 10).to_json()
    plain = read(json.dumps(record))
    padded = read(" " * 5000 + json.dumps(record, indent=4, sort_keys=True) + "\n" * 100)
    assert record_digest(plain) == record_digest(padded)
    assert record_key(plain) == record_key(padded)  # the server's decision cache: one entry
    other = read(json.dumps({**record, "moves": record["moves"][:-1]}))
    assert record_digest(other) != record_digest(plain) and record_key(other) != record_key(plain)
    # Each move is framed: splitting one move's text differently is another record.
    a = Record.from_json({**DRAWS, "moves": ["ab", "c"]})
    b = Record.from_json({**DRAWS, "moves": ["a", "bc"]})
    assert record_digest(a) != record_digest(b)


# ----- caches ---------------------------------------------------------------------------
def test_caches_are_bounded_in_bytes():
    cache = BoundedCache(max_entries=100, max_bytes=1000)
    for key in range(50):
        cache.put(key, object(), 300)
        assert cache.bytes <= 1000
    assert len(cache) == 3 and cache.get(49) is not None and cache.get(0) is None
    assert not cache.put("huge", object(), 1001) and cache.get("huge") is None
    replays = ReplayCache(size=100, max_bytes=40_000)
    record = played_record(12, 60)
    for n in range(0, 60, 5):
        replays.replay(Record(record.game, record.setup, None, record.moves[:n]))
        assert replays.bytes <= 40_000
    assert 0 < len(replays) < 12


# ----- bot options and seeds ------------------------------------------------------------
BAD_OPTIONS = [("ismcts:c=abc", "option c"), ("ismcts:c=nan", "option c"), ("ismcts:c=inf", "option c"),
               ("ismcts:c=-0.5", "option c"), ("ismcts:c=11", "option c"), ("pimc:worlds=x", "option worlds"),
               ("pimc:worlds=0", "option worlds"), ("pimc:worlds=-2", "option worlds"),
               ("pimc:worlds=200000", "option worlds"), ("pimc:worlds=2.5", "option worlds"),
               ("pimc:c=nan", "option c"), ("ismcts:playout=smart", "option playout"),
               ("ismcts:depth=3", "unknown option 'depth'"), ("heuristic:c=1", "unknown option 'c'"),
               # the options of the stronger searches: the tree shape, the prior, inference
               ("ismcts:tree=forest", "option tree"), ("ismcts:tree=", "option tree"),
               ("ismcts:prior=-1", "option prior"), ("ismcts:prior=101", "option prior"),
               ("ismcts:prior=lots", "option prior"), ("ismcts:prior=nan", "option prior"),
               ("ismcts:infer=2", "option infer"), ("ismcts:infer=yes", "option infer"),
               ("ismcts:infer=-1", "option infer"), ("ismcts:temp=0", "option temp"),
               ("ismcts:temp=warm", "option temp"), ("ismcts:infer=1,temp=1e9", "option temp"),
               ("ismcts:infer=0,temp=2", "option temp is the temperature of the opponent model: it cannot go with infer=0"),
               ("ismcts:tree=multi,prior=-2", "option prior"),
               # tree reuse and its budget credit
               ("ismcts:reuse=2", "option reuse"), ("ismcts:reuse=on", "option reuse"),
               ("ismcts:reuse=1,credit=5", "option credit"),
               ("ismcts:credit=1", "option credit counts a reused tree's visits toward the budget: it needs reuse=1"),
               # the tree of the searching seat's own decisions
               ("ismcts:own_only=2", "option own_only"), ("ismcts:own_only=yes", "option own_only"),
               ("ismcts:own_only=-1", "option own_only"), ("ismcts:own_only=", "option own_only"),
               ("ismcts:own_only=1,tree=multi", "option own_only=1 keeps one tree"),
               ("ismcts:tree=multi,own_only=1", "needs tree=single"),
               ("ismcts:root_widen=-1", "option root_widen"), ("ismcts:root_widen=5", "option root_widen"),
               ("ismcts:root_widen=wide", "option root_widen"), ("ismcts:root_widen=nan", "option root_widen")]


@pytest.mark.parametrize("spec, words", BAD_OPTIONS, ids=[s for s, _ in BAD_OPTIONS])
def test_every_bad_bot_option_is_named(spec, words):
    with pytest.raises(BotError) as caught:
        make_bot(spec)
    assert words in str(caught.value)


def test_bad_bot_options_are_invalid_argument_at_the_service(client):
    record = json.dumps(played_record(12, 6).to_json())
    for spec, words in BAD_OPTIONS:
        error = rpc_error(client.bots.SuggestMove, suggest_json(record, bot=spec), timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (spec, error.details())
        assert error.details().startswith("bot: ") and words in error.details()


def test_sub_seeds_stay_within_64_bits():
    for seed in (0, 1, 879_000, 2**63, MASK64):
        for salt in (0, 1, 2**64 - 1, 10**30):
            assert 0 <= mix_seed(seed, salt) <= MASK64
    assert len({mix_seed(MASK64, w) for w in range(100)}) == 100
    assert mix_seed(5, 1) == mix_seed(5, 1) != mix_seed(5, 2)


def test_pimc_and_ismcts_take_the_largest_seed(client, midgame):
    from hzai.games.hera_zeus.belief import view_of

    state = midgame.replay()
    view = view_of(state, state.to_move)
    legal = {str(m) for m in state.legal_moves()}
    assert str(make_bot("pimc:worlds=4").decide(view, Limits(iterations=200), seed=MASK64).move) in legal
    for bot in ("pimc:worlds=4", "ismcts", "random", "heuristic"):
        reply = client.suggest_move(midgame.to_json(), iterations=200, seed=MASK64, bot=bot)
        assert reply.move.text in legal


def test_pimc_keeps_to_the_wall_time_cap(midgame):
    """256 worlds at 1 ms each would be 256 ms of search; a 40 ms cap stops it with the
    worlds searched so far (counted: fewer than all)."""
    from hzai.games.hera_zeus.belief import view_of
    from hzai.search import ismcts

    state = midgame.replay()
    view = view_of(state, state.to_move)
    made = []
    real = ismcts.new_pimc
    ismcts.new_pimc = lambda *a, **k: (made.append(real(*a, **k)), made[-1])[1]
    try:
        result = make_bot("pimc:worlds=256").decide(view, Limits(millis=40), seed=1)
        move, finished = result.move, not result.stopped_early
    finally:
        ismcts.new_pimc = real
    assert str(move) in {str(m) for m in state.legal_moves()}
    assert not finished and 0 < made[0].voted < 256


# ----- streams --------------------------------------------------------------------------
def test_a_slow_reader_gets_the_latest_report_not_a_backlog():
    from hzai_server.searches import ProgressSlot

    slot = ProgressSlot()
    for n in range(1000):
        slot.progress(n)
    assert slot.take() == ("progress", 999) and slot.replaced == 999
    slot.progress(1000)
    slot.finish("final", "answer")
    assert slot.take() == ("final", "answer"), "the final answer makes a waiting report stale"


def test_a_stream_with_progress_every_iteration_sends_few_reports_to_a_slow_reader(client, midgame):
    stream = client.analyze_stream(midgame.to_json(), iterations=3000, progress_every=1, seed=1)
    first = next(stream)
    assert not first.finished
    threading_event().wait(0.5)  # the search runs on meanwhile; its reports replace each other
    rest = list(stream)
    assert rest[-1].finished and rest[-1].iterations == 3000
    assert len(rest) < 3000  # one per iteration would be 3000


def threading_event():
    import threading

    return threading.Event()


# ----- quoting --------------------------------------------------------------------------
def test_quotes_are_short():
    assert quoted("abc") == "'abc'"
    long = quoted("x" * 100_000)
    assert len(long) < QUOTE_LIMIT + 40 and "99800 more characters" in long
    assert "\\udc80" in quoted("\udc80")


def test_error_messages_quote_at_most_a_little_of_the_input(client):
    big = "y" * 100_000
    error = rpc_error(client.bots.SuggestMove, bot_pb2.SuggestMoveRequest(position=common_pb2.Position(match_id=big)),
                      timeout=30)
    # Without a seat token nothing of the match is looked up, and the id is not echoed.
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED and len(error.details()) < 400
    assert "y" * (QUOTE_LIMIT + 1) not in error.details()
    record = played_record(12, 6).to_json()
    for request in (suggest_json(json.dumps({**record, "moves": record["moves"] + ["play " + big]})),
                    suggest_json(json.dumps({**record, "moves": record["moves"] + [big]})),
                    suggest_json(json.dumps({**record, "deck": big})),
                    suggest_json(json.dumps({**record, "variants": {"first_player": big}})),
                    suggest_json(json.dumps(record), bot="ismcts:c=" + big),
                    suggest_json(json.dumps(record), bot=big)):
        error = rpc_error(client.bots.SuggestMove, request, timeout=30)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        details = error.details()
        assert "y" * 100 in details, details  # the input is quoted, enough to recognise it
        assert "y" * (QUOTE_LIMIT + 1) not in details and len(details) < 600, len(details)


# ----- malformed requests ---------------------------------------------------------------
MALFORMED = [("[" * 1000 + "]" * 1000, "nested too deeply"), ("[" * 100_000, "nested too deeply"),
             ('{"format": "hzai-record/1", "seed": ' + "9" * 5000 + "}", "position.record_json"),
             ('{"format": "hzai-record/1", "seed": 1.5}', "seed must be"),
             ('{"format": "hzai-record/1", "seed": NaN}', "seed must be"),
             ('{"format": "hzai-record/1", "seed": 1, "moves": {"a": 1}}', "moves must be"),
             ('{"format": "hzai-record/1", "seed": 1, "deck": ["classic"]}', "deck"),
             ('{"format": "hzai-record/1", "seed": 1, "variants": {"turn_limit": 1e9}}', "turn_limit"),
             ('{"format": "hzai-record/1", "seed": 1, "moves": ["\\udc80"]}', "moves[0]"),
             ('{"format": "hzai-record/1", "seed": 1, "setup": {"hera": 1}}', "exactly one of"),
             ('{"format": "hzai-record/1", "setup": null}', "setup must be an object")]


@pytest.mark.parametrize("text, words", MALFORMED, ids=[f"case{i}" for i in range(len(MALFORMED))])
def test_malformed_json_is_invalid_argument_with_one_log_line(server, client, text, words):
    before = len(server.logs)
    error = rpc_error(client.bots.SuggestMove, suggest_json(text), timeout=30)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and words in error.details(), error.details()
    threading_event().wait(0.2)  # the log line is written after the answer
    new = server.logs[before:]
    assert [e["event"] for e in new] == ["rpc"] and new[0]["code"] == "INVALID_ARGUMENT"


def raw(channel, method: str, data: bytes, streaming: bool = False):
    if streaming:
        return list(channel.unary_stream(method, request_serializer=None, response_deserializer=None)(data, timeout=30))
    return channel.unary_unary(method, request_serializer=None, response_deserializer=None)(data, timeout=30)


BAD_UTF8 = b"\xff\xfe\xc3\x28"
# A string field of each request holding bytes that are not UTF-8: SuggestMoveRequest.bot
# (4), AnalyzeRequest.position (1) .record_json (2), CreateMatchRequest.bot (4),
# PlayMoveRequest.match_id (1).
NOT_UTF8 = {"/hzai.v3.BotService/SuggestMove": bytes([0x22, 4]) + BAD_UTF8,
            "/hzai.v3.BotService/AnalyzeStream": bytes([0x0A, 6, 0x12, 4]) + BAD_UTF8,
            "/hzai.v3.MatchService/CreateMatch": bytes([0x22, 4]) + BAD_UTF8,
            "/hzai.v3.MatchService/PlayMove": bytes([0x0A, 4]) + BAD_UTF8}


@pytest.mark.parametrize("method", sorted(NOT_UTF8))
def test_undecodable_requests_are_invalid_argument_with_one_log_line(server, method):
    with grpc.insecure_channel(server.address) as channel:
        # a tag cut short, field number 0, a length past the end, a string that is not UTF-8
        for data in (b"\xff\xff\xff\xff\xff", b"\x00\x01", b"\x0a\x80", NOT_UTF8[method]):
            before = len(server.logs)
            error = rpc_error(raw, channel, method, data, streaming=method.endswith("Stream"))
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (data, error.details())
            assert error.details().startswith("request: not a valid hzai.v3.")
            threading_event().wait(0.2)
            new = server.logs[before:]
            assert [(e["event"], e.get("code")) for e in new] == [("rpc", "INVALID_ARGUMENT")]


# ----- finished only when the budget was spent ------------------------------------------
def test_finished_is_false_when_the_deadline_cut_the_search(client, midgame):
    record = midgame.to_json()
    cut = client.analyze(record, iterations=200_000, seed=1, timeout=1.0)
    assert not cut.finished and cut.iterations < 200_000
    timed = client.analyze(record, millis=2000, seed=1, timeout=1.0)
    assert not timed.finished, "a time budget the deadline cut was not spent in full"
    whole = client.analyze(record, iterations=300, seed=1)
    assert whole.finished and whole.iterations == 300
    by_time = client.analyze(record, millis=100, seed=1)
    assert by_time.finished, "a time budget spent in full"
    assert client.suggest_move(record, iterations=200_000, seed=1, timeout=1.0).stopped_early
    assert not client.suggest_move(record, iterations=300, seed=1).stopped_early
    assert client.suggest_move(record, iterations=200_000, seed=1, bot="pimc:worlds=4", timeout=1.0).stopped_early
    assert not client.suggest_move(record, iterations=300, seed=1, bot="pimc:worlds=4").stopped_early


def test_an_iteration_budget_cut_by_the_wall_time_cap_is_not_finished(midgame):
    from hzai.games.hera_zeus.belief import view_of
    from hzai.search import analyze

    state = midgame.replay()
    answer = analyze(view_of(state, state.to_move), Limits(iterations=10**9, millis=30), seed=1)
    assert not answer.finished and answer.iterations < 10**9


def test_a_replay_past_the_deadline_is_deadline_exceeded():
    from hzai_server.convert import view_to_decide
    from hzai_server.errors import ApiError

    record = played_record(12, 200)
    with pytest.raises(ApiError) as caught:
        view_to_decide(record, "position.record_json", should_stop=lambda: True)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert f"position.record_json: the call ended after replaying 0 of {len(record.moves)} moves" in caught.value.message
    with pytest.raises(ReplayStopped) as stopped:  # the library's own prefix cache stops alike
        ReplayCache(size=4).replay(record, should_stop=lambda: True)
    assert stopped.value.played == 0


def test_the_cache_byte_budget_is_a_setting():
    from hzai_server.config import parse_config

    assert parse_config(["--cache-bytes", "1000"], env={}).cache_bytes == 1000
    assert parse_config([], env={"HZAI_CACHE_BYTES": "2048"}).cache_bytes == 2048
    with pytest.raises(SystemExit):
        parse_config(["--cache-bytes", "0"], env={})
