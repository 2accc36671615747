"""benchmarks/harness.py's arena and team runs: a pair is one deal played with each bot
first, a game with a budget each is the arena's game, a paired match's interval is
`hzai match`'s, and a team run's figures and its three ways of playing (a process pool,
the native arena alone, run_team) agree."""

from __future__ import annotations

import importlib
from multiprocessing import get_context
from types import SimpleNamespace

import numpy as np
import pytest

from hzai.core import Limits
from hzai.core.bot import wilson_interval
from hzai.learn.match import interval
from hzai.search.arena import run_team

from benchmarks import harness

LEGENDS = {"mission": 1, "heroes": ["Perseus", "Atalanta"]}


def test_a_pair_is_one_deal_with_each_bot_first():
    first, second = harness.play_pair("random", "heuristic", 4100, Limits(iterations=1))
    assert first.seed == second.seed == 4100, "both games deal the same cards"
    assert first.seating == {"hera": "A", "zeus": "B"} and second.seating == {"hera": "B", "zeus": "A"}
    assert harness.play_pair("random", "heuristic", 4100, Limits(iterations=1))[1].moves == second.moves


def test_a_game_with_a_budget_each_is_the_arenas_game_at_equal_budgets():
    """harness.play_game (each bot its own budget) is the arena's loop: at one budget for
    both it plays the arena's game move for move; with two, each bot gets its own."""
    from hzai.search.arena import play_game

    for index in (0, 1):
        ours = harness.play_game("ismcts-v1", "heuristic", index, 4200, Limits(iterations=30), Limits(iterations=30))
        arena = play_game("hera_zeus", None, "ismcts-v1", "heuristic", index, Limits(iterations=30), 4200 - index)
        assert (ours.seating, ours.winner, ours.moves, ours.decisions) == \
            (arena.seating, arena.winner, arena.moves, arena.decisions)
    uneven = harness.play_pair("ismcts-v1", "ismcts-v1", 4200, Limits(iterations=5), limits_b=Limits(iterations=60))
    assert [g.seating["hera"] for g in uneven] == ["A", "B"] and all(g.seed == 4200 for g in uneven)


def test_a_paired_match_scores_every_pair_with_hzai_matchs_interval(capsys):
    jobs = [("random", "heuristic", 5000 + k, k, 1) for k in range(3)]
    # benchmarks.pbi as sys.modules has it now (`python -m benchmarks run` imports a fresh copy): its
    # worker must be the module's own object to reach the spawned processes
    played = harness.paired_match(importlib.import_module("benchmarks.pbi")._pair, jobs, 2)
    assert sorted(played.scores) == [0, 1, 2] and played.games == 6
    for k in range(3):
        alone = harness.play_pair("random", "heuristic", 5000 + k, Limits(iterations=1))
        assert played.scores[k] == sum(r.a_points for r in alone) / 2, "a worker plays the pair as here"
    assert played.interval() == interval(np.asarray(list(played.scores.values())))
    assert played.pair_scores() == [played.scores[k] for k in range(3)]
    assert "6/6 games: A" in capsys.readouterr().err


def test_a_team_tally_counts_wins_turns_and_think_time():
    games = [SimpleNamespace(won=True, moves=10, turns=4, think_seconds=0.5),
             SimpleNamespace(won=False, moves=30, turns=8, think_seconds=1.5)]
    tally = harness.team_tally(games)
    assert tally == {"games": 2, "won": 1, "share": 0.5, "ci95": list(wilson_interval(1, 2)), "mean_turns": 6.0,
                     "ms_per_decision": 50.0}
    assert harness.team_tally([]) == {"games": 0, "won": 0, "share": 0.0, "ci95": list(wilson_interval(0, 0)),
                                      "mean_turns": 0.0, "ms_per_decision": 0.0}


def test_a_paired_difference_is_the_mean_of_the_differences():
    mean, low, high = harness.paired_difference([1, 1, 0, 1], [0, 1, 0, 0])
    assert mean == 0.5 and low < 0.5 < high
    assert (mean, low, high) == harness.mean_interval([1, 0, 0, 1])


def test_the_three_ways_of_a_team_run_play_the_same_games():
    """A pool (the Python loop), the native arena alone and run_team: the same games,
    the same figures as run_team's own (think time aside)."""
    limits = Limits(iterations=20)
    native = harness.team_games("ismcts", 3, limits, 600, LEGENDS, native_only=True)
    with get_context("spawn").Pool(2) as pool:
        pooled = harness.team_games("ismcts", 3, limits, 600, LEGENDS, pool=pool)
    direct = harness.team_games("ismcts", 3, limits, 600, LEGENDS)
    for games in (pooled, direct):
        assert [(g.index, g.won, g.moves, g.turns) for g in games] == [(g.index, g.won, g.moves, g.turns)
                                                                       for g in native]
    result = run_team("ismcts", 3, limits, 600, LEGENDS)
    tally = harness.team_tally(result.results)
    assert (tally["won"], tally["share"], tally["ci95"], tally["mean_turns"]) == \
        (result.won, result.won_share, list(result.won_ci95), result.mean_turns)


def test_a_team_the_native_arena_cannot_play_is_refused_by_name():
    with pytest.raises(SystemExit, match="team heuristic does not play in the native arena"):
        harness.team_games("heuristic", 1, Limits(iterations=1), 0, LEGENDS, native_only=True)
