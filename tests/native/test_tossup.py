"""Toss-up (hzai/games/tossup), the smallest game with a C++ twin: the twin against the
reference rules over random games (legal ids, chance outcomes, returns, the sampler), the
native searches on its handle, the native arena against the Python loop, `hzai selfplay`
and a real server playing it. None of it is special to the game: it is found through the
registry and its parts like every other game."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from hzai.core import Limits, make_game
from hzai.rng import SplitMix64
from hzai.search.arena import native_arena, native_results, play_game, run_arena

_native = pytest.importorskip("hzai._native")

GAME = make_game("tossup")


def _random_game(seed: int):
    """A random game of the reference and the twin, step by step: what both say at each."""
    state = GAME.new_state(seed)
    twin = GAME.search.native_start(seed)
    rng = SplitMix64(seed ^ 0x7055)
    while True:
        yield state, twin
        if state.is_terminal:
            return
        if state.is_chance:
            outcomes = state.chance_outcomes_actions()
            action = outcomes[rng.below(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
        state.apply_action(action)
        twin.apply(action)


def test_the_twin_plays_every_game_as_the_reference_does():
    ends, chances, seats = set(), 0, set()
    for seed in range(400):
        for state, twin in _random_game(seed):
            assert twin.cards == list(state.cards)
            assert twin.history == [GAME.action_of(m) for m in state.history]
            want_player = -2 if state.is_terminal else -1 if state.is_chance else state.current_seat
            assert twin.current_player == want_player
            assert twin.legal_actions() == state.legal_actions()
            assert twin.chance_outcomes() == sorted(state.chance_outcomes_actions())
            assert twin.returns() == list(state.returns())
            chances += state.is_chance
            if state.current_seat is not None:
                seats.add(state.current_seat)
                view = state.view(state.current_seat)
                native = GAME.search.native_view(view)
                assert native.current_player == state.current_seat
                for s in (seed, seed + 1, seed * 7):
                    want, got = view.sample(s), native.sample(s)
                    assert (got.cards, got.history) == (list(want.cards), [GAME.action_of(m) for m in want.history])
        ends.add(state.history[-1])
    assert chances > 0 and seats == {0, 1}
    assert ends == {"fold", "call", "guess 1", "guess 2", "guess 3", "heads", "tails"}  # every way a game ends


def test_the_twin_refuses_what_is_not_a_position():
    native = GAME.search.native
    for call, words in ((lambda: native.state([1, 4]), "cards[1]"), (lambda: native.state([1, 2], [2]), "history[0]"),
                        (lambda: native.state([1, 2], [1, 2, 6]), "history[2]"), (lambda: native.view(2, 1), "seat"),
                        (lambda: native.view(0, 0), "card"), (lambda: native.state([1], []), "cards"),
                        (lambda: _native.TossupGame(["fold", "bet"]), "call")):
        with pytest.raises(ValueError, match=re.escape(words)):
            call()
    state = native.state([2, 2], [1, 2])
    with pytest.raises(ValueError, match="not legal"):
        state.apply(0)  # a chance node: heads or tails only


def test_the_native_searches_run_on_the_handle_and_are_deterministic():
    view = GAME.new_state(3).view(0)
    options = _native.SearchOptions(seed=5)
    answers = []
    for _ in range(2):
        search = GAME.search.native.search(GAME.search.native_view(view), options)
        search.run(iterations=300)
        answers.append(search.root_stats())
    assert answers[0] == answers[1] and {a for a, *_ in answers[0]} == set(view.legal_actions())
    assert sum(visits for _, visits, *_ in answers[0]) == 300
    mo = GAME.search.native.mo_search(GAME.search.native_view(view), options)
    assert mo.run(iterations=100) == 100
    pimc = GAME.search.native.pimc(GAME.search.native_view(view), options, 4)
    for w in range(pimc.worlds):
        world = pimc.world(w)
        world.run(50)
        pimc.vote(world)
    assert pimc.choice() in view.legal_actions()
    assert GAME.search.native.light_move(GAME.search.native_view(view), 1) in view.legal_actions()


@pytest.mark.parametrize("spec_a,spec_b,iterations", [("random", "light", 1), ("ismcts", "random", 30),
                                                      ("pimc:worlds=3", "ismcts", 24)])
def test_the_native_arena_plays_the_python_loops_games(spec_a, spec_b, iterations):
    limits = Limits(iterations=iterations)
    bots = native_arena(GAME, [spec_a, spec_b], limits)
    assert bots is not None, "every bot here is a native bot of the twin"
    native = native_results(GAME, bots, list(range(12)), 40, threads=2, keep_actions=True)
    for i, got in enumerate(native):
        want = play_game("tossup", None, spec_a, spec_b, i, limits, 40, keep_actions=True)
        assert got is not None and got.actions == want.actions, f"game {i}: the actions differ"
        assert (got.winner, got.moves, got.seating, got.decisions) == (want.winner, want.moves, want.seating,
                                                                      want.decisions)


def test_run_arena_plays_it_natively_as_the_python_loop_does():
    limits = Limits(iterations=200)
    fast = run_arena("ismcts", "random", 8, limits, seed=1, jobs=1, game="tossup")
    slow = run_arena("ismcts", "random", 8, limits, seed=1, jobs=1, game="tossup", native=False)
    assert [(r.winner, r.moves) for r in fast.results] == [(r.winner, r.moves) for r in slow.results]
    assert {r.winner for r in fast.results} <= {"first", "second"} and fast.a_wins + fast.b_wins == 8


def test_hzai_selfplay_writes_records_of_the_game(tmp_path):
    from hzai.cli import main
    from hzai.learn.selfplay import load

    assert main(["selfplay", "--game", "tossup", "--games", "8", "--budget", "20", "--shard", "4", "--threads", "1",
                 "--seed", "3", "--out", str(tmp_path), "--quiet"]) == 0
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["game"] == "tossup" and meta["features"] == "tossup-1"
    data = load([tmp_path])
    seats = np.asarray(data["seat"])
    assert len(seats) >= 8 and set(seats.tolist()) <= {0, 1} and 0 in seats  # the first seat decides every game
    assert set(np.asarray(data["labels"]).ravel().tolist()) <= {1, 2, 3}  # the other seat's card
    assert np.all(np.asarray(data["policy_action"]) < GAME.num_actions)


@pytest.fixture(scope="module")
def client():
    from hzai_client import HzaiClient
    from tests.service.conftest import ServerProcess

    server = ServerProcess("--max-searches", "2", "--default-iterations", "100")
    try:
        with HzaiClient(server.address, timeout=30) as c:
            yield c
    finally:
        server.stop()


def test_a_server_lists_suggests_and_hosts_the_game(client):
    game = {g.name: g for g in client.list_games()}["tossup"]
    assert list(game.seats) == ["first", "second"] and game.num_actions == GAME.num_actions
    record = {"format": "tossup-record/1", "seed": 4, "moves": ["bet"]}
    reply = client.suggest_move(record, bot="ismcts", iterations=200, seed=1)
    assert reply.seat_name == "second" and reply.move.text in ("fold", "call", "guess 1", "guess 2", "guess 3")
    assert reply.move.action == GAME.action_of(reply.move.text)
    from hzai_client import seat_token

    created = client.create_match("tossup", bot_seats=[1], bot="ismcts", iterations=50)
    token, status = seat_token(created, "first"), created.status
    status = client.play_move(status.match_id, "bet", token=token, move_number=status.moves_played).status
    for _ in range(3):  # the bot's answer, and the coin when it calls equal cards
        if status.over:
            break
        status = client.bot_play_turn(status.match_id, token=token, move_number=status.moves_played).status
    assert status.over and sorted(status.returns) == [0.0, 1.0]
    record = json.loads(status.record_json)
    assert record["format"] == "tossup-record/1" and record["moves"][0] == "bet"


def test_the_twin_is_clean_under_asan_and_ubsan(tmp_path):
    """native/tossup_selftest.cpp (random games with every state checked, the arena's four
    bot kinds on two threads, the searches, self-play) built with the sanitizers; -O0 keeps
    the build to a few seconds."""
    import shutil
    import subprocess
    from pathlib import Path

    from hzai.games.tossup.game import MOVES

    root = Path(__file__).resolve().parents[2]
    compiler = shutil.which("g++") or shutil.which("c++")
    assert compiler, "a C++ compiler is needed to build the twin"
    exe = tmp_path / "tossup_selftest"
    build = subprocess.run([compiler, "-std=c++17", "-O0", "-g", "-fsanitize=address,undefined",
                            "-fno-sanitize-recover=all", "-I", str(root / "hzai" / "native"), "-o", str(exe),
                            str(root / "hzai" / "games" / "tossup" / "native" / "tossup_selftest.cpp"), "-lpthread"],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe), "300", "7", *MOVES], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "300 games, 0 failed", run.stdout + run.stderr
    bad = subprocess.run([str(exe), "3", "7", "fold", "bet"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "the moves lack 'call'" in bad.stderr



def test_a_core_built_before_the_twin_leaves_the_game_to_the_python_search():
    """An installed core without this folder's twin (built before the game came: an
    editable install not rebuilt) is no twin: the game is not native and a bot still
    decides, by the Python search, never an AttributeError (INTERNAL from the server)."""
    import subprocess
    import sys

    program = """
import importlib, sys, types
real = importlib.import_module("hzai._native")
old = types.ModuleType("hzai._native")
old.__dict__.update({k: v for k, v in vars(real).items() if k != "TossupGame"})
sys.modules["hzai._native"] = old
import hzai
hzai._native = old
from hzai.core import Limits, make_game
from hzai.search.bot import make_bot
game = make_game("tossup")
state = game.new_state(seed=5)
move = make_bot("ismcts").decide(state.view(state.current_seat), Limits(iterations=50), seed=1).move
print(game.capabilities.native, move in state.legal_moves())
"""
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True"]
