"""Legends through the shared code: the random, heuristic, ISMCTS and PIMC bots decide
from a seat's view (the native search calling the Python game back, 1-5 seats, every
seat scored with the team's result), and hzai.search.arena plays whole games with a team."""

from __future__ import annotations

import pytest

from hzai.core import BotError, Limits, make_game
from hzai.search import analyze, make_bot
from hzai.search.arena import AllSeeingView, play_team_game, run_team

HEROES = ["Perseus", "Atalanta", "Hercules", "Jason", "Achilles"]


def placed(seats: int, seed: int = 3):
    g = make_game("legends", mission=1, heroes=HEROES[:seats])
    s = g.new_state(seed)
    for _ in range(seats):
        s.apply(s.legal_moves()[0])
    return s


@pytest.mark.parametrize("seats", [1, 2, 5])
def test_every_bot_plays_a_legal_move_from_the_seats_view(seats):
    s = placed(seats)
    view = s.view(s.current_seat)
    legal = s.legal_moves()
    for spec, limits in (("random", None), ("heuristic", None), ("ismcts", Limits(iterations=40)),
                         ("pimc:worlds=2", Limits(iterations=40))):
        assert make_bot(spec).decide(view, limits, seed=1).move in legal


def test_ismcts_analysis_of_a_cooperative_game():
    s = placed(3)
    answer = analyze(s.view(0), Limits(iterations=60), seed=2)
    assert answer.perspective == "p1" and sum(m.visits for m in answer.moves) == 60
    assert all(0.0 <= m.value <= 1.0 for m in answer.moves)
    assert {m.move for m in answer.moves} <= set(s.legal_moves())


def test_the_heuristic_prefers_filling_a_missing_symbol():
    s = placed(2)
    moves = s.legal_moves()
    scores = s.game.search.heuristic_scores(s.view(0), moves)
    best = moves[scores.index(max(scores))]
    assert str(best).startswith("fight")


def test_a_team_plays_whole_games_and_shares_the_result():
    params = {"mission": 1, "heroes": HEROES[:3]}
    result = run_team("heuristic", 3, Limits(iterations=1), seed=4, params=params)
    assert result.games == 3 and 0 <= result.won <= 3
    assert all(r.reason in ("final_defeated", "exhausted") and r.turns <= 62 for r in result.results)
    assert "won" in result.summary()
    game = play_team_game("legends", {"mission": 10, "heroes": HEROES[:1]}, "random", 0, Limits(iterations=1), 7)
    assert game.moves > 0 and not game.won


def test_the_all_seeing_team_reads_the_full_state_and_is_not_a_bot():
    s = placed(2)
    view = AllSeeingView(s, 0)
    assert view.sample(1).to_json() == s.to_json()
    assert make_bot("ismcts").decide(view, Limits(iterations=30), seed=1).move in s.legal_moves()
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("all_seeing")  # never a served bot
    game = play_team_game("legends", {"mission": 2, "heroes": HEROES[:2]}, "heuristic", 0, Limits(iterations=1), 5,
                          all_seeing=True)
    assert game.moves > 0


def test_a_team_run_plays_every_game_and_a_sampler_giving_up_ends_it_loudly(monkeypatch):
    """No game is left out of a team run: the sampler finds a world for every view a
    game reaches (tests/native/test_legends_sampler_fitted.py), so its giving up would be
    a bug and ends the run with its message, as any other error does."""
    import hzai.search.arena as arena

    params = {"mission": 2, "heroes": ["Perseus", "Atalanta"]}
    result = run_team("heuristic", 3, Limits(iterations=1), seed=4, params=params, native=False)
    assert [r.index for r in result.results] == [0, 1, 2] and not hasattr(result, "excluded")
    assert result.won_share == result.won / 3 and "3 games" in result.summary()
    real = arena.play_team_game

    def flaky(game, params, spec, index, *args, **kwargs):
        if index == 1:
            raise RuntimeError("no determinization found for p1: no world is consistent with the view")
        return real(game, params, spec, index, *args, **kwargs)

    monkeypatch.setattr(arena, "play_team_game", flaky)
    with pytest.raises(RuntimeError, match="no determinization found for p1"):
        run_team("heuristic", 3, Limits(iterations=1), seed=4, params=params, native=False)
