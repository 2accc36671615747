"""The toy game through the shared code: hzai.core's registry, the ISMCTS and PIMC bots
(the native generic search calling the Python game back: it has no C++ twin), the
baseline bots and the generic arena."""

from __future__ import annotations

import pytest

from hzai.core import BotError, Limits, make_game
from hzai.search import analyze, make_bot
from hzai.search.arena import run_arena
from tests.toygame import MOVES, ToyGame, ToyState


def after_bet(second_card: int, first_card: int = 2) -> ToyState:
    state = ToyState(make_game("toy_guess"), (first_card, second_card))
    state.apply("bet")
    return state


def test_registered_by_the_conftest_line():
    game = make_game("toy_guess")
    assert isinstance(game, ToyGame) and game.search.native is None and game.num_actions == len(MOVES)


def test_ismcts_calls_with_the_top_card():
    view = after_bet(3).view(1)
    result = make_bot("ismcts").decide(view, Limits(iterations=3000), seed=1)
    assert result.move == "call"
    values = {m.move: m.value for m in result.analysis.moves}
    assert values["call"] == pytest.approx(5 / 6, abs=0.05)  # wins against 1 and 2, draws against 3
    assert values["fold"] == 0.0
    assert sum(m.visits for m in result.analysis.moves) == result.analysis.iterations == 3000


def test_ismcts_guesses_with_the_bottom_card():
    answer = analyze(after_bet(1).view(1), Limits(iterations=3000), seed=2)
    assert answer.best.startswith("guess")
    assert answer.perspective == "second" and set(m.move for m in answer.moves) == {"fold", "call", *MOVES[3:]}


def test_no_peeking_the_other_card_does_not_change_the_answer():
    answers = [analyze(after_bet(3, first).view(1), Limits(iterations=800), seed=5).to_json() for first in (1, 2, 3)]
    for answer in answers:
        answer.pop("millis")
    assert answers[0] == answers[1] == answers[2]


def test_pimc_and_baselines_play_it():
    view = after_bet(3).view(1)
    assert make_bot("pimc:worlds=4").decide(view, Limits(iterations=800), seed=3).move == "call"
    assert make_bot("random").decide(view, seed=4).move in view.legal_moves()
    with pytest.raises(BotError, match="toy_guess has no heuristic"):
        make_bot("heuristic").decide(view, seed=4)


def test_the_native_search_of_a_python_game_runs_on_one_thread():
    with pytest.raises(BotError, match="one thread"):
        make_bot("ismcts").decide(after_bet(3).view(1), Limits(iterations=100, threads=2), seed=1)


def test_the_generic_arena_referees_it():
    result = run_arena("ismcts", "random", 6, Limits(iterations=300), seed=9, jobs=1, game="toy_guess")
    assert result.games == 6 and result.a_wins + result.b_wins + result.draws == 6
    assert [r.seating["first"] for r in result.results] == ["A", "B"] * 3, "seats swap every game"
    assert all(r.moves in (1, 2) for r in result.results)
    assert result.a_score > 0.5
