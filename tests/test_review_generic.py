"""The game review over hzai.core (hzai.search.review): a review equals analysing each
prefix with the same seeds and budgets, it reads only the deciding seat's views, it
streams, stops and names a bad move; on Hera and Zeus and on the toy game."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from hzai.core import Limits, make_game
from hzai.games.hera_zeus.rules import Record
from hzai.search import analyze
from hzai.search import RootMoves
from hzai.search.review import (MIN_VISITS, ReviewError, decision_seed, played_budget, played_seed, resolve_move,
                                review_moves)
from tests.toygame import ToyState

HANDMADE = json.loads((Path(__file__).parent / "data" / "handmade_game.json").read_text())
LIMITS = Limits(iterations=150)


def hera_zeus(moves: int = 12, data: dict | None = None):
    record = Record.from_json({**(data or HANDMADE), "moves": (data or HANDMADE)["moves"][:moves]})
    return record.game, record.start(), record.moves


def toy(cards=(2, 3), moves=("bet", "call")):
    game = make_game("toy_guess")
    return game, ToyState(game, cards), list(moves)


def plain(analysis) -> dict:
    data = analysis.to_json()
    data.pop("millis")
    return data


def rows_json(rows) -> list[dict]:
    return [r.to_json(with_analysis=True) | {"analysis": plain(r.analysis)} for r in rows]


@pytest.mark.parametrize("make", [hera_zeus, toy], ids=["hera_zeus", "toy"])
def test_a_review_equals_analysing_each_prefix(make):
    game, start, moves = make()
    rows = list(review_moves(game, start, moves, LIMITS, seed=11))
    assert rows, "the game has decisions"
    decided = []
    state = start.clone()
    for index, text in enumerate(moves):
        if state.current_seat is not None:
            decided.append(index)
            row = rows[len(decided) - 1]
            alone = analyze(state.view(state.current_seat), LIMITS, decision_seed(11, index))
            assert row.index == index and row.seat == game.seats[state.current_seat]
            assert plain(row.analysis) == plain(alone)
            assert row.best == game.move_text(alone.best) and row.best_value == alone.value
            assert row.pv[0] == row.best
            played = resolve_move(state, text)
            assert row.played == game.move_text(played)
            info = next((m for m in alone.moves if m.move == played and m.visits), None)
            if played != alone.best and (info is None or info.visits < MIN_VISITS):
                # searched too little for a value: the played move's own search gives it
                own = analyze(state.view(state.current_seat), played_budget(LIMITS, alone.moves[0].visits),
                              played_seed(decision_seed(11, index)), root_moves=RootMoves(allow=[played]))
                [info] = own.moves
                assert info.move == played and info.visits >= MIN_VISITS
            assert row.played_value == info.value and row.played_interval == (info.ci_low, info.ci_high)
            assert row.played_visits == info.visits and row.best_visits == alone.moves[0].visits
            assert row.loss == pytest.approx(max(0.0, alone.value - info.value))
        state.apply(resolve_move(state, text))
    assert [r.index for r in rows] == decided
    assert all(r.played_visits >= MIN_VISITS or r.played == r.best for r in rows)


def test_only_the_chosen_seats_are_reviewed():
    game, start, moves = hera_zeus()
    rows = list(review_moves(game, start, moves, LIMITS, seed=1, seats=["zeus"]))
    assert rows and {r.seat for r in rows} == {"zeus"}
    both = list(review_moves(game, start, moves, LIMITS, seed=1))
    assert rows_json(rows) == rows_json([r for r in both if r.seat == "zeus"])


def test_a_seat_is_reviewed_from_its_own_view_only():
    """The toy game: the other seat's card differs, the first seat's rows do not."""
    game, start_a, moves = toy(cards=(2, 1))
    _, start_b, _ = toy(cards=(2, 3))
    a = list(review_moves(game, start_a, moves, LIMITS, seed=5, seats=[0]))
    b = list(review_moves(game, start_b, moves, LIMITS, seed=5, seats=[0]))
    assert len(a) == 1 and rows_json(a) == rows_json(b)
    seconds = [list(review_moves(game, s, moves, LIMITS, seed=5, seats=[1])) for s in (start_a, start_b)]
    assert rows_json(seconds[0]) != rows_json(seconds[1]), "the second seat holds a different card"


def test_hera_zeus_rows_do_not_depend_on_zeus_cards_hera_cannot_see():
    """Two deals that differ only in one card of Zeus's hand, swapped with one of his
    deck: before Hera spies on that hand (move 4) her rows are the same, belief
    included; Zeus, who holds the card, sees a different position."""
    other = copy.deepcopy(HANDMADE)
    zeus = other["setup"]["zeus"]
    k, j = zeus["hand"].index("Medusa"), zeus["deck"].index("Amazon")
    zeus["hand"][k], zeus["deck"][j] = "Amazon", "Medusa"
    assert HANDMADE["moves"][4] == "pythia spy"
    rows = {}
    for seat in ("hera", "zeus"):
        rows[seat] = []
        for data in (HANDMADE, other):
            game, start, moves = hera_zeus(4, data)
            rows[seat].append(rows_json(review_moves(game, start, moves, LIMITS, seed=3, seats=[seat], belief=True)))
    assert len(rows["hera"][0]) == 3 and rows["hera"][0] == rows["hera"][1]
    assert rows["zeus"][0] and rows["zeus"][0] != rows["zeus"][1], "Zeus holds a different card"


def test_the_review_streams_and_a_stop_keeps_what_was_done():
    game, start, moves = hera_zeus()
    full = rows_json(review_moves(game, start, moves, LIMITS, seed=2))
    seen = []

    def stop() -> bool:
        return len(seen) >= 3

    for row in review_moves(game, start, moves, LIMITS, seed=2, stop=stop):
        seen.append(row)
    assert rows_json(seen) == full[:3]


def test_progress_counts_every_move():
    game, start, moves = toy()
    calls = []
    list(review_moves(game, start, moves, LIMITS, progress=lambda done, total: calls.append((done, total))))
    assert calls == [(1, 2), (2, 2)]


def test_a_bad_move_is_named_after_the_rows_before_it():
    game, start, moves = toy(moves=("bet", "bet"))
    rows = []
    with pytest.raises(ReviewError, match=r"move 1 'bet': .*not legal here") as caught:
        for row in review_moves(game, start, moves, LIMITS):
            rows.append(row)
    assert [r.index for r in rows] == [0] and (caught.value.index, caught.value.text) == (1, "bet")
    game, start, moves = hera_zeus(4)
    with pytest.raises(ReviewError, match=r"move 2 'fly': unknown move"):
        list(review_moves(game, start, [*moves[:2], "fly"], LIMITS))


def test_the_belief_hook_gives_the_hostage_location():
    game, start, moves = hera_zeus(8)
    rows = list(review_moves(game, start, moves, LIMITS, seed=1, belief=True))
    for row in rows:
        groups = row.belief["groups"]
        assert set(groups) == {"deck", "hand", "field", "discard"}
        assert sum(groups.values()) == pytest.approx(1.0)
        assert row.belief["card"] in ("Argus", "Io")  # each side's hostage in the classic deck
    assert all(r.belief is None for r in review_moves(*toy(), LIMITS, belief=True)), "the toy game has no hook"
    assert all(r.belief is None for r in review_moves(game, start, moves, LIMITS)), "asked for only"


def test_the_command_line_review_follows_the_seed_rule(tmp_path, capsys):
    """`hzai analyze-game --seed S` row i equals `hzai analyze --upto i --seed S+i`."""
    from hzai.cli import main

    path = tmp_path / "short.json"
    path.write_text(json.dumps({**HANDMADE, "moves": HANDMADE["moves"][:7]}))
    assert main(["analyze-game", str(path), "--budget", "150", "--seed", "20", "--json", "--quiet"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) >= 5
    for row in rows:
        assert main(["analyze", str(path), "--upto", str(row["index"]), "--budget", "150", "--seed",
                     str(20 + row["index"]), "--json"]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert alone["best"] == row["best"] and alone["value"] == row["best_value"]
        assert row["best_visits"] == alone["moves"][0]["visits"]
        visits = {m["move"]: m["visits"] for m in alone["moves"]}
        if row["played"] != row["best"] and visits.get(row["played"], 0) < MIN_VISITS:
            # the played move's own search: `hzai analyze --allow` it, with its budget and seed
            budget = played_budget(Limits(iterations=150), row["best_visits"]).iterations
            assert main(["analyze", str(path), "--upto", str(row["index"]), "--budget", str(budget), "--seed",
                         str(played_seed(20 + row["index"])), "--allow", row["played"], "--json"]) == 0
            alone = json.loads(capsys.readouterr().out)
        mine = next(m for m in alone["moves"] if m["move"] == row["played"])
        assert (mine["value"], mine["visits"]) == (row["played_value"], row["played_visits"])
        assert [mine["ci_low"], mine["ci_high"]] == row["played_interval"]
        assert row["played_visits"] >= MIN_VISITS or row["played"] == row["best"]
