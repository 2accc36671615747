"""ISMCTS: finds wins, avoids immediate losses, never peeks, reproducible, coherent."""

from __future__ import annotations

import copy

import pytest

from hzai.games.hera_zeus.belief import View, view_of
from hzai.games.hera_zeus.rules import Game, Record, deal, state_to_json
from hzai.games.hera_zeus.rules.position import Side, position
from hzai.search import IsmctsBot, Limits, PimcBot, analyze, make_bot

HERA = 0


def test_challenges_a_face_up_hostage_in_front():
    """R-END-3: Argus lies face up at Zeus's c2r1; Hera's c2 front card can take it, and so
    can the Pegasus in her hand (R-PEG-F1): either wins at once, and the bot plays one."""
    state = position(
        hera=Side(columns=[["Satyr"], ["Hydra"], ["Centaur"]], hand=["Cyclops", "Pegasus"]),
        zeus=Side(columns=[["Cyclops*"], ["Argus*", "Hydra"], ["Satyr"]], hand=["Hydra", "Centaur"]),
        turn=5, ap=3,
    )
    move = IsmctsBot().decide(view_of(state, HERA), Limits(iterations=400), seed=1).move
    assert str(move) in ("challenge c2", "pegasus c2")
    after = state.copy()
    after.apply(move)
    assert after.is_over and after.winner == HERA


def test_pegasus_the_hand_when_it_is_only_the_hostage():
    """R-PEG-H2: Hera knows (as after a spy) that Zeus's one hand card is Argus."""
    state = position(
        hera=Side(columns=[["Satyr"], ["Hydra"], ["Centaur"]], hand=["Pegasus", "Cyclops"]),
        zeus=Side(columns=[["Cyclops"], ["Hydra"], ["Satyr"]], hand=["Argus"]),
        turn=5, ap=3,
    )
    data = view_of(state, HERA).to_json()
    (group,) = {s["group"] for s in data["sides"]["zeus"]["hand"]}
    data["groups"][group] = {"owner": "zeus", "known": {"Argus": 1}, "wildcards": []}
    view = View.from_json(data, state.game)
    analysis = analyze(view, Limits(iterations=600), seed=2)
    assert str(analysis.best) == "pegasus hand"
    assert analysis.moves[0].value > 0.98  # four replicas of 150 iterations each (hzai.search.replicas)


def test_avoids_a_challenge_that_loses_at_once():
    """R-PAN-1: challenging the face-up Pandora wipes c1, Hera's own Io with it."""
    state = position(
        hera=Side(columns=[["Satyr", "Io"], ["Hydra"], ["Centaur"]], hand=["Cyclops", "Hero"]),
        zeus=Side(columns=[["Pandora*"], ["Satyr"], ["Satyr"]], hand=["Hydra", "Centaur"]),
        turn=5, ap=3,
    )
    analysis = analyze(view_of(state, HERA), Limits(iterations=1500), seed=3)
    assert str(analysis.best) != "challenge c1"
    (pandora,) = [m for m in analysis.moves if str(m.move) == "challenge c1"]
    assert pandora.value == 0.0, "every sampled world loses at once"


def _game(seed: int, moves: int):
    from hzai.rng import SplitMix64
    from hzai.games.hera_zeus.rules.playout import random_step

    game = Game.create()
    state = Record(game, setup=deal(game, seed)).start()
    rng = SplitMix64(seed)
    for _ in range(moves):
        random_step(state, rng)
    return game, state


def test_same_seed_and_iterations_give_the_same_answer():
    _, state = _game(4, 25)
    view = view_of(state, state.to_move)
    a = analyze(view, Limits(iterations=800), seed=9).to_json()
    b = analyze(view, Limits(iterations=800), seed=9).to_json()
    for answer in (a, b):
        answer.pop("millis")
    assert a == b
    two = [analyze(view, Limits(iterations=800, threads=2), seed=9).to_json() for _ in range(2)]
    for answer in two:
        answer.pop("millis")
    assert two[0] == two[1], "with an iteration budget, threads do not change the answer"


def test_no_peeking_states_that_look_alike_get_the_same_move():
    """R-INFO-4: change only Zeus's cards deep in his deck; Hera's answer stays."""
    game, state = _game(6, 20)
    assert state.to_move is not None
    record = Record(game, setup=deal(game, 6), moves=[str(m) for m in state.history])
    hera = state.to_move
    other = copy.deepcopy(record.setup)
    owner = ("hera", "zeus")[1 - hera]
    deck = other[owner]["deck"]
    undrawn = len(state.decks[1 - hera])
    tail = deck[len(deck) - undrawn :]
    other[owner]["deck"] = deck[: len(deck) - undrawn] + tail[::-1]
    twin = Record(game, setup=other, moves=record.moves).replay()
    assert [state.card(x).name for x in state.decks[1 - hera]] != [twin.card(x).name for x in twin.decks[1 - hera]]
    first = analyze(view_of(state, hera), Limits(iterations=700), seed=5).to_json()
    second = analyze(view_of(twin, hera), Limits(iterations=700), seed=5).to_json()
    first.pop("millis"), second.pop("millis")
    assert first == second


def test_analysis_numbers_are_coherent():
    _, state = _game(8, 30)
    view = view_of(state, state.to_move)
    analysis = analyze(view, Limits(iterations=1200), seed=1)
    legal = sorted(str(m) for m in state.legal_moves())
    assert sorted(str(m.move) for m in analysis.moves) == legal, "every legal move is analysed"
    assert sum(m.visits for m in analysis.moves) == analysis.iterations == 1200
    for m in analysis.moves:
        assert 0.0 <= m.ci_low <= m.value <= m.ci_high <= 1.0
        assert m.availability >= m.visits and m.pv[0] == m.move
    assert analysis.best == analysis.moves[0].move == max(analysis.moves, key=lambda m: m.visits).move
    assert analysis.perspective == ("hera", "zeus")[state.to_move]


def test_progress_reports_and_stopping():
    _, state = _game(10, 15)
    view = view_of(state, state.to_move)
    seen = []
    final = analyze(view, Limits(iterations=2000), seed=1, progress=seen.append, every=500)
    assert [p.iterations for p in seen] == [500, 1000, 1500, 2000]
    assert all(not p.finished for p in seen) and final.finished
    calls = []

    def stop_after_two():
        calls.append(1)
        return len(calls) > 2

    stopped = analyze(view, Limits(iterations=100000), seed=1, should_stop=stop_after_two, every=300)
    assert not stopped.finished and stopped.iterations == 600 and stopped.best


def test_time_budget_returns_a_legal_move():
    _, state = _game(12, 18)
    view = view_of(state, state.to_move)
    move = IsmctsBot().decide(view, Limits(millis=60), seed=3).move
    assert str(move) in {str(m) for m in state.legal_moves()}


@pytest.mark.parametrize("spec", ["ismcts", "ismcts:c=1.2,playout=light", "pimc:worlds=4", "heuristic", "random"])
def test_every_bot_plays_a_legal_move(spec):
    _, state = _game(14, 22)
    move = make_bot(spec).decide(view_of(state, state.to_move), Limits(iterations=300), seed=7).move
    assert str(move) in {str(m) for m in state.legal_moves()}


def test_bad_bot_specs_are_named():
    from hzai.search import BotError

    with pytest.raises(BotError, match="unknown bot 'alphazero'"):
        make_bot("alphazero")
    with pytest.raises((BotError, ValueError), match="playout must be one of"):
        make_bot("ismcts:playout=smart")
    with pytest.raises(BotError, match="write key=value"):
        make_bot("ismcts:c")


def test_pimc_finds_the_visible_win_too():
    state = position(
        hera=Side(columns=[["Satyr"], ["Hydra"], ["Centaur"]], hand=["Cyclops"]),
        zeus=Side(columns=[["Cyclops*"], ["Argus*"], ["Satyr"]], hand=["Hydra"]),
        turn=5, ap=3,
    )
    assert str(PimcBot(worlds=4).decide(view_of(state, HERA), Limits(iterations=2000), seed=1).move) == "challenge c2"


def test_a_stop_before_the_start_still_answers_with_a_legal_move():
    _, state = _game(16, 20)
    view = view_of(state, state.to_move)
    legal = {str(m) for m in state.legal_moves()}
    assert str(IsmctsBot().decide(view, Limits(iterations=10_000), 1, stop=lambda: True).move) in legal
    assert str(PimcBot(worlds=3).decide(view, Limits(iterations=3_000), 1, stop=lambda: True).move) in legal


def test_a_time_budget_spent_before_the_first_chunk_still_answers(monkeypatch):
    """Building a search (an inferred pool, a slow start) can use up a small time budget
    before the first chunk: one iteration is still run, so there is a move to answer."""
    import hzai.search.ismcts as ismcts

    clock = iter(range(0, 10**6, 10))  # every reading of the clock is 10 s later
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: next(clock) / 1000)

    class Recorder:
        def __init__(self):
            self.calls = []

        def run(self, n, millis):
            self.calls.append((n, millis))
            return n

    search = Recorder()
    done, _, finished = ismcts.run_budget(search, Limits(millis=1))
    assert done == 1 and search.calls == [(1, -1.0)] and finished

    class Idle(Recorder):  # a chunk given a little time may come back with nothing done
        def run(self, n, millis):
            self.calls.append((n, millis))
            return 0 if millis > 0 else n

    clock = iter(range(0, 10**6))  # now 1 ms a reading: the first chunk gets time
    search = Idle()
    done, _, _ = ismcts.run_budget(search, Limits(millis=3))
    assert done == 1 and search.calls[-1] == (1, -1.0) and len(search.calls) == 2
    assert ismcts.time_left(Limits(millis=5), -1000.0).millis == 1, "at least 1 ms is left"
    assert ismcts.time_left(Limits(iterations=9), 0) == Limits(iterations=9)
