"""benchmarks/rating.py: the Bradley-Terry fit finds known ratings, the schedule plays
every pair from both seats, games are reproducible, and a tiny run writes its files."""

from __future__ import annotations

import json
import math

import pytest

from benchmarks import rating
from benchmarks.rating import Game, checks, fit, pair_scores, play, schedule

pytest.importorskip("hzai._native")


def games_between(a: str, b: str, wins: int, losses: int, draws: int = 0) -> list[Game]:
    out = [Game(a, b, i, 1.0, 0) for i in range(wins)] + [Game(b, a, i, 1.0, 0) for i in range(losses)]
    return out + [Game(a, b, i, 0.5, 0) for i in range(draws)]


def test_the_fit_finds_the_elo_of_known_scores():
    # A scores 75% against B, B 75% against random: 400 log10(3) = 191 Elo a step
    games = games_between("A", "B", 600, 200) + games_between("B", "random", 600, 200)
    ratings = fit(["A", "B", "random"], games)
    step = 400 * math.log10(3)
    assert ratings["random"] == 0.0
    assert ratings["B"] == pytest.approx(step, abs=3) and ratings["A"] == pytest.approx(2 * step, abs=6)


def test_draws_count_half_and_a_perfect_score_stays_finite():
    even = fit(["A", "random"], games_between("A", "random", 0, 0, draws=10))
    assert even["A"] == pytest.approx(0.0, abs=1e-6)
    perfect = fit(["A", "random"], games_between("A", "random", 10, 0))
    assert 300 < perfect["A"] < 2000  # the virtual draw keeps it finite


def test_the_schedule_plays_every_pair_from_both_seats_on_the_same_deal():
    names = ["a", "b", rating.OPENSPIEL, "c"]
    plan = schedule(names, rounds=3, openspiel_rounds=1, seed=5)
    assert len(plan) == 3
    for r, games in enumerate(plan):
        pairs = {frozenset((a, b)) for a, b, _ in games}
        with_openspiel = {p for p in pairs if rating.OPENSPIEL in p}
        assert len(with_openspiel) == (3 if r == 0 else 0)
        assert len(pairs) == (6 if r == 0 else 3)
        for a, b, deal in games:
            assert (b, a, deal) in games  # the same deal with the seats swapped


def test_checks_read_the_levels_in_order():
    table = pair_scores(["level 1", "heuristic"], games_between("level 1", "heuristic", 1, 3))
    increasing = checks({"level 1": 10.0, "level 2": 50.0, "heuristic": 30.0}, table)
    assert increasing["levels_strictly_increasing"] and increasing["level_span"] == 40.0
    assert increasing["level1_minus_heuristic"] == -20.0 and increasing["level1_vs_heuristic_score"] == 0.25
    assert not checks({"level 1": 10.0, "level 2": 5.0}, table)["levels_strictly_increasing"]


def test_a_game_is_the_same_every_time_and_scored_for_seat_0():
    first, again = play("heuristic", "random", 17), play("heuristic", "random", 17)
    assert first == again and first.score in (0.0, 0.5, 1.0) and first.moves > 10


def test_a_tiny_run_writes_the_table_and_the_plot(tmp_path):
    assert rating.main(["--players", "level 1", "heuristic", "random", "--rounds", "1", "--bootstrap", "20",
                        "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "rating.json").read_text())
    assert report["games"] == 6 and {p["name"] for p in report["players"]} == {"level 1", "heuristic", "random"}
    assert all(p["ci95"][0] <= p["elo"] <= p["ci95"][1] for p in report["players"])
    text = (tmp_path / "rating.md").read_text()
    assert "| rank | player |" in text and "Level 1 minus heuristic" in text
    if (tmp_path / "rating.png").exists():
        assert (tmp_path / "rating.png").stat().st_size > 1000
    # --refit fits the stored games again, playing nothing: the same list
    assert rating.main(["--refit", "--bootstrap", "20", "--out", str(tmp_path)]) == 0
    again = json.loads((tmp_path / "rating.json").read_text())
    assert again["players"] == report["players"] and again["results"] == report["results"]
