"""The multi-observer search (tree=multi, hzai/native/search/mo_ismcts.hpp): what each
seat observes of a move (checked against the rules' redaction, both games), no peeking,
reproducibility, ismcts-v1 as the old bot, and bad option values."""

from __future__ import annotations

import copy
import json

import pytest

from hzai import _native
from hzai.core import make_game
from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.rules import Game, Record, RecordError, deal, state_to_json
from hzai.games.hera_zeus.rules.actions import action_space
from hzai.games.hera_zeus.rules.observed import seen_move
from hzai.games.hera_zeus.rules.playout import random_step
from hzai.games.legends.native.twin import native_state
from hzai.games.hera_zeus.native.state import NativeState
from hzai.rng import SplitMix64
from hzai.search import BotError, Limits, analyze, make_bot
from hzai.search.ismcts import new_tree


def _hz_states(count: int):
    """Random Hera and Zeus positions (setup included), a seat to move in each."""
    game = Game.create()
    for seed in range(count):
        setup = deal(game, seed)
        state = Record(game, setup=setup).start()
        rng = SplitMix64(seed)
        for _ in range(seed * 3 % 40):
            if state.is_over or state.is_chance:
                break
            random_step(state, rng)
        if not state.is_over and not state.is_chance:
            yield game, setup, state


def test_hera_zeus_observation_follows_the_rules_redaction():
    """Each seat's observation of every legal move: the move itself exactly when the
    rules show it unredacted (the mover always), and one id for all moves whose
    redacted text is the same (a face-down card: only its slot; a setup: its columns)."""
    hidden_plays = hidden_setups = 0
    for game, _, state in _hz_states(60):
        space = action_space(game.deck)
        core = NativeState.from_state(state).core
        mover = state.to_move
        for seat in (0, 1):
            key_of_text: dict[str, int] = {}
            for move in state.legal_moves():
                action = space.encode(move)
                key = _native.observation(core, action, seat)
                seen = seen_move(state, move, seat)
                if seat == mover or not seen.redacted:
                    assert key == action, (str(move), seat)
                    continue
                assert not 0 <= key < space.size, "a hidden move's id is no action id"
                assert key_of_text.setdefault(seen.text, key) == key, "moves that look alike share one id"
                hidden_plays += move.kind == "play"
                hidden_setups += move.kind == "setup"
            assert len(set(key_of_text.values())) == len(key_of_text), "moves that look different keep apart"
    assert hidden_plays > 100 and hidden_setups > 10


def test_a_face_down_play_hides_the_card_but_not_the_slot():
    game, _, state = next((g, s, st) for g, s, st in _hz_states(40) if st.phase == "play"
                          and len({m.card for m in st.legal_moves() if m.kind == "play"}) > 1)
    space = action_space(game.deck)
    core = NativeState.from_state(state).core
    plays = [m for m in state.legal_moves() if m.kind == "play"]
    other = 1 - state.to_move
    by_slot: dict[tuple, set] = {}
    for m in plays:
        by_slot.setdefault((m.col, m.row), set()).add(_native.observation(core, space.encode(m), other))
    assert all(len(keys) == 1 for keys in by_slot.values()), "which card: not seen"
    assert len({next(iter(k)) for k in by_slot.values()}) == len(by_slot), "where: seen"
    draw = next(m for m in state.legal_moves() if str(m) == "draw") if any(
        str(m) == "draw" for m in state.legal_moves()) else None
    if draw is not None:
        assert _native.observation(core, space.encode(draw), other) == space.encode(draw), "a draw is public"


def test_legends_observation_follows_the_redaction():
    """Legends: every legal move of random missions against game.records.observed (L-INFO-1, -2)."""
    hidden = 0
    for seats in (2, 3):
        game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta", "Jason"][:seats])
        for seed in range(12):
            state, rng = game.new_state(seed), SplitMix64(seed)
            for _ in range(80):
                if state.is_terminal:
                    break
                if state.current_seat is None:
                    state.apply(game.search.draw_chance(state, rng))
                    continue
                core = native_state(state)
                for seat in range(seats):
                    key_of_text: dict[str, int] = {}
                    for move in state.legal_moves():
                        action = game.action_of(move)
                        key = _native.legends_observation(core, action, seat)
                        seen = game.records.observed(state, move, seat)
                        if not seen.redacted:
                            assert key == action, (str(move), seat)
                            continue
                        hidden += 1
                        assert not 0 <= key < game.num_actions
                        assert key_of_text.setdefault(seen.text, key) == key, (seen.text, str(move))
                    assert len(set(key_of_text.values())) == len(key_of_text)
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])
    assert hidden > 100


def _answer(view, seed=5, iterations=600, threads=1):
    answer = analyze(view, Limits(iterations=iterations, threads=threads), seed=seed, tree="multi").to_json()
    answer.pop("millis")
    return answer


def _hz_look_alike_pairs():
    """(state, other, observer): games that differ in the opponent's unseen cards only."""
    from tests.belief.test_no_peeking import _hidden_variant

    for game, setup, state in _hz_states(40):
        if state.phase != "play":
            continue
        observer = state.to_move
        view = view_of(state, observer).to_json()
        moves = [str(m) for m in state.history]
        for _, other_setup in zip(range(25), _hidden_variant(game, setup, state, observer, SplitMix64(7))):
            try:
                other = Record(game, setup=other_setup, moves=moves).replay()
            except RecordError:
                continue
            if state_to_json(other) != state_to_json(state) and view_of(other, observer).to_json() == view:
                yield state, other, observer
                break


def test_no_peeking_hera_zeus_look_alike_games_get_the_same_answer():
    pairs = 0
    for state, other, observer in _hz_look_alike_pairs():
        assert _answer(view_of(state, observer)) == _answer(view_of(other, observer))
        pairs += 1
        if pairs == 4:
            break
    assert pairs == 4


def test_no_peeking_legends_a_state_the_seat_cannot_tell_apart_gets_the_same_answer():
    game = make_game("legends", mission=1, heroes=["Perseus", "Atalanta", "Jason"])
    compared = 0
    for seed in range(6):
        state, rng = game.new_state(seed), SplitMix64(seed)
        for _ in range(25):
            if state.current_seat is None:
                state.apply(game.search.draw_chance(state, rng))
            else:
                moves = state.legal_moves()
                state.apply(moves[rng.below(len(moves))])
        if state.is_terminal or state.current_seat is None:
            continue
        seat = state.current_seat
        view = state.view(seat)
        other = view.sample(seed + 100)  # another full deal the seat cannot tell from this one
        assert other.view(seat).to_json() == view.to_json()
        if other.to_json() == state.to_json():
            continue
        assert _answer(view, iterations=400) == _answer(other.view(seat), iterations=400)
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("name,params", [("hera_zeus", {}), ("legends", {"mission": 6, "heroes": ["Perseus", "Jason"]})])
def test_same_seed_and_iterations_same_answer(name, params):
    game = make_game(name, **params)
    state = game.new_state(3)
    view = state.view(state.current_seat)
    assert _answer(view, seed=2) == _answer(view, seed=2)
    assert _answer(view, seed=2) != _answer(view, seed=3)
    assert _answer(view, seed=2, threads=2) == _answer(view, seed=2, threads=2)


def test_multi_observer_trees_merge_what_a_seat_cannot_tell_apart():
    """One tree per seat, the answer read from the searching seat's: every iteration
    is one root visit there, and the principal variation lists only replies that seat
    saw in full (action ids), never a merged face-down edge."""
    game = Game.create()
    state = next(st for _, _, st in _hz_states(40) if st.phase == "play" and st.turn >= 2)
    view = view_of(state, state.to_move)
    search = new_tree(view, seed=1, tree="multi")
    search.run(3000)
    me = state.to_move
    assert search.root_player == me and search.iterations == 3000
    assert sum(v for _, v, _, _ in search.root_stats()) == 3000
    sizes = [search.tree_size(0), search.tree_size(1)]
    assert min(sizes) > 1
    with pytest.raises(IndexError):
        search.tree_size(2)
    size = action_space(game.deck).size
    for action, _, _, _ in search.root_stats():
        line = search.principal_variation(action)
        assert line[0] == action and all(0 <= a < size for a in line), "only replies seen in full are listed"


def test_python_games_observe_through_the_core_hook():
    """A game written in Python: Game.observation's default follows `observed`."""
    from hzai.core import assemble
    from tests.toygame import ToyGame

    game = ToyGame()
    state = game.new_state(4)
    assert game.observation(state, 1, 1) == 1, "public moves are themselves"
    view = state.view(0)
    answer = analyze(view, Limits(iterations=300), seed=1, tree="multi")
    assert answer.iterations == 300 and answer.best in state.legal_moves()

    class Hidden(ToyGame):
        pass

    assemble(Hidden)  # its moves not public
    hidden = Hidden()
    before = hidden.new_state(4)
    keys = {hidden.observation(before, a, 1) for a in range(hidden.num_actions)}
    assert len(keys) == 1 and next(iter(keys)) < 0, "the default redaction shows only who moved"
    assert hidden.observation(before, 2, 0) == 2, "the mover sees its own move"


def test_ismcts_v1_plays_the_old_search_move_for_move():
    for _, _, state in _hz_states(8):
        view = view_of(state, state.to_move)
        limits = Limits(iterations=400, threads=1)
        old = make_bot("ismcts-v1").decide(view, limits, seed=4)
        single = make_bot("ismcts-v2:tree=single,infer=0").decide(view, limits, seed=4)
        assert old.move == single.move
        assert [(str(m.move), m.visits) for m in old.analysis.moves] == [
            (str(m.move), m.visits) for m in single.analysis.moves]


@pytest.mark.parametrize("spec,words", [("ismcts:tree=forest", "option tree must be one of single, multi"),
                                        ("ismcts-v1:tree=multi", "unknown option 'tree'"),
                                        ("ismcts:tree=", "option tree must be one of")])
def test_bad_tree_options_are_named(spec, words):
    with pytest.raises(BotError, match=words):
        make_bot(spec)


def test_analysis_rejects_an_unknown_tree():
    _, _, state = next(_hz_states(2))
    with pytest.raises(BotError, match="option tree"):
        analyze(view_of(state, state.to_move), Limits(iterations=10), tree="wide")


def test_the_prior_option_is_checked_and_changes_only_games_that_have_one():
    with pytest.raises(BotError, match="option prior must be a number within 0..100"):
        make_bot("ismcts:prior=500")
    with pytest.raises(BotError, match="option prior must be a number"):
        make_bot("ismcts:prior=lots")
    with pytest.raises(BotError, match="unknown option 'prior'"):
        make_bot("ismcts-v1:prior=1")
    _, _, state = next(st for st in _hz_states(30) if st[2].phase == "play")
    view = view_of(state, state.to_move)
    plain = analyze(view, Limits(iterations=600), seed=3, guide=None).to_json()  # the unguided search's bias
    biased = [analyze(view, Limits(iterations=600), seed=3, prior=1.0, tree=t, guide=None).to_json()
              for t in ("single", "single")]
    for answer in (plain, *biased):
        answer.pop("millis")
    assert biased[0] == biased[1], "reproducible"
    assert biased[0]["moves"] != plain["moves"], "the bias changes Hera and Zeus's search"
    legends = make_game("legends", mission=1, heroes=["Perseus", "Atalanta"]).new_state(2)
    lview = legends.view(legends.current_seat)
    a = analyze(lview, Limits(iterations=300), seed=3).to_json()
    b = analyze(lview, Limits(iterations=300), seed=3, prior=1.0).to_json()
    a.pop("millis"), b.pop("millis")
    assert a == b, "Legends has no prior: the weight is 0 there"


def test_a_time_budget_spent_before_the_first_iteration_still_gets_one():
    """On a loaded machine the clock can run out before the search's first chunk; the
    answer then still has one iteration behind it instead of no move at all."""
    from hzai.search.ismcts import run_budget

    class OutOfTime:
        def __init__(self):
            self.calls = []

        def run(self, iterations, millis):
            self.calls.append((iterations, millis))
            return 0 if millis >= 0 else iterations

    search = OutOfTime()
    done, _, _ = run_budget(search, Limits(millis=20))
    assert done == 1 and search.calls[-1] == (1, -1.0)


def test_the_arena_seats_an_all_seeing_bot_for_benchmarks_only_when_asked():
    from hzai.search.arena import play_game, run_arena

    with pytest.raises(ValueError, match="all_seeing is A, B or None"):
        run_arena("random", "random", 2, Limits(iterations=1), all_seeing="C")
    seen = []
    import hzai.search.arena as arena

    real = arena.AllSeeingView

    class Spy(real):
        def __init__(self, state, seat):
            seen.append(seat)
            super().__init__(state, seat)

    arena.AllSeeingView = Spy
    try:
        result = play_game("hera_zeus", None, "random", "ismcts-v1", 1, Limits(iterations=20), 3, "B")
    finally:
        arena.AllSeeingView = real
    b_seat = [seat for seat, label in result.seating.items() if label == "B"][0]
    assert seen and set(seen) == {("hera", "zeus").index(b_seat)}, "only B's decisions see the whole state"
