"""Chosen root moves (allow / avoid) for every bot, on Hera and Zeus (native twin) and
on the toy game (searched through the Python game): only the kept moves are searched
or chosen, and a bad move is a RootMovesError naming it."""

from __future__ import annotations

import pytest

from hzai.core import Limits, make_game
from hzai.games.hera_zeus.rules import Game
from hzai.rng import SplitMix64
from hzai.search import RootMoves, RootMovesError, analyze, make_bot
from tests.toygame import ToyState

BOTS = ("ismcts", "pimc:worlds=4", "heuristic", "random")
# The toy game has no rule-of-thumb policy: the heuristic bot plays Hera and Zeus only.
CASES = [(game, spec) for game in ("hera_zeus", "toy") for spec in BOTS if (game, spec) != ("toy", "heuristic")]


def hera_view():
    """A decision with some choice, a few turns into a game."""
    state = Game.create().new_state(3)
    rng = SplitMix64(7)
    played = 0
    while state.is_chance or played < 12 or len(state.legal_moves()) < 4:
        options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
        state.apply(options[rng.below(len(options))])
        played += 1
    return state.view(state.current_seat)


def toy_view():
    state = ToyState(make_game("toy_guess"), (2, 3))
    state.apply("bet")
    return state.view(1)


def view_of(name: str):
    return hera_view() if name == "hera_zeus" else toy_view()


@pytest.fixture(params=["hera_zeus", "toy"])
def view(request):
    return view_of(request.param)


def texts(view, moves):
    return {view.game.move_text(m) for m in moves}


def test_allow_gives_visits_only_to_the_allowed_moves(view):
    legal = view.legal_moves()
    allowed = legal[-2:]  # not the first moves the view lists
    answer = analyze(view, Limits(iterations=400), seed=5, root_moves=RootMoves(allow=allowed))
    assert texts(view, [m.move for m in answer.moves]) == texts(view, allowed)
    assert sum(m.visits for m in answer.moves) == answer.iterations == 400
    assert answer.best in allowed


def test_avoid_gives_the_avoided_moves_no_visits(view):
    free = analyze(view, Limits(iterations=400), seed=5)
    avoided = [free.best]  # the move the free search likes most
    answer = analyze(view, Limits(iterations=400), seed=5, root_moves=RootMoves(avoid=avoided))
    assert texts(view, [m.move for m in answer.moves]) == texts(view, view.legal_moves()) - texts(view, avoided)
    assert answer.best != free.best


def test_no_restriction_is_the_search_as_before(view):
    plain = analyze(view, Limits(iterations=300), seed=2).to_json(view.game.move_text)
    empty = analyze(view, Limits(iterations=300), seed=2, root_moves=RootMoves()).to_json(view.game.move_text)
    plain.pop("millis"), empty.pop("millis")
    assert plain == empty


@pytest.mark.parametrize("game, spec", CASES)
def test_every_bot_keeps_to_the_allowed_moves(game, spec):
    view = view_of(game)
    legal = view.legal_moves()
    for seed in range(4):
        allowed = [legal[(seed + 1) % len(legal)]]
        result = make_bot(spec).decide(view, Limits(iterations=64), seed=seed, root_moves=RootMoves(allow=allowed))
        assert result.move == allowed[0]
        two = legal[1:3]
        result = make_bot(spec).decide(view, Limits(iterations=64), seed=seed, root_moves=RootMoves(allow=two))
        assert result.move in two


@pytest.mark.parametrize("game, spec", CASES)
def test_every_bot_leaves_the_avoided_moves_alone(game, spec):
    view = view_of(game)
    legal = view.legal_moves()
    avoided = legal[:-1]  # everything but the last move
    for seed in range(3):
        result = make_bot(spec).decide(view, Limits(iterations=64), seed=seed, root_moves=RootMoves(avoid=avoided))
        assert result.move == legal[-1]


@pytest.mark.parametrize("spec", ("ismcts", "pimc:worlds=4", "random"))
def test_an_illegal_chosen_move_is_an_error_naming_it(spec):
    view = toy_view()  # after a bet: "bet" itself is not legal
    with pytest.raises(RootMovesError, match="allow move 'bet' is not legal here"):
        make_bot(spec).decide(view, Limits(iterations=16), root_moves=RootMoves(allow=["call", "bet"]))
    with pytest.raises(RootMovesError, match="avoid move 'bet' is not legal here"):
        make_bot(spec).decide(view, Limits(iterations=16), root_moves=RootMoves(avoid=["bet"]))
    everything = view.legal_moves()
    with pytest.raises(RootMovesError, match="no legal move"):
        make_bot(spec).decide(view, Limits(iterations=16), root_moves=RootMoves(avoid=everything))


@pytest.mark.parametrize("spec", BOTS)
def test_a_move_of_another_position_is_an_error_naming_it(spec):
    view = hera_view()  # mid-game: a setup move is no longer legal
    setup = view.game.parse_move("setup Cyclops Cyclops Harpy")
    with pytest.raises(RootMovesError, match="allow move 'setup Cyclops Cyclops Harpy' is not legal here"):
        make_bot(spec).decide(view, Limits(iterations=16), root_moves=RootMoves(allow=[setup]))


def test_parse_names_the_text_it_cannot_read():
    game = Game.create()
    with pytest.raises(RootMovesError, match="allow move 'fly to the moon'") as caught:
        RootMoves.parse(game, allow=["fly to the moon"])
    assert str(caught.value).count("fly to the moon") == 1  # the move quoted once, not echoed by its reason
    with pytest.raises(RootMovesError, match="avoid move 'nonsense'"):
        RootMoves.parse(game, avoid=["nonsense"])
    with pytest.raises(RootMovesError, match="allow names no move"):
        RootMoves(allow=[])
    assert issubclass(RootMovesError, ValueError)


def test_parse_matches_any_spelling_of_a_legal_move():
    view = hera_view()
    legal = view.legal_moves()
    chosen = RootMoves.parse(view.game, allow=[view.game.move_text(legal[1])])
    assert chosen.select(view) == [legal[1]]
    assert chosen == RootMoves(allow=(legal[1],))  # frozen, comparable
    with pytest.raises(AttributeError):
        chosen.allow = ()


def test_every_tree_of_a_parallel_search_keeps_to_the_allowed_moves():
    view = hera_view()
    allowed = view.legal_moves()[-3:]
    answer = analyze(view, Limits(iterations=600, threads=2), seed=4, root_moves=RootMoves(allow=allowed))
    assert texts(view, [m.move for m in answer.moves]) == texts(view, allowed)
    assert sum(m.visits for m in answer.moves) == 600


def test_a_restriction_comes_before_the_search_runs():
    from hzai.search.ismcts import new_tree

    view = toy_view()
    search = new_tree(view, seed=1)
    search.run(10, -1.0)
    with pytest.raises(RuntimeError, match="restrict the root before the search runs"):
        search.restrict_root([view.game.action_of("call")])
