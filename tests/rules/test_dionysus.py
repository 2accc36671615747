"""R-DIO: moving an own field card, around figures and within a column."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.rules import IllegalMoveError

from .helpers import Side, column, js, moves, pile, position, push, reveals

ZEUS = Side(columns=[["Satyr"]])


def dionysus_moves(state) -> set[str]:
    return {m for m in moves(state) if m.startswith("dionysus")}


def test_R_DIO_1_every_destination_around_a_figure():
    state = position(hera=Side(columns=[["Hydra", "Satyr"], ["figure", "Centaur"], []], hand=["Dionysus"],
                               discard=["Hera"]), zeus=ZEUS)
    # worked out by hand from R-DIO-1: never the figure, never in front of it
    assert dionysus_moves(state) == {
        "dionysus c1r1 c1r2", "dionysus c1r1 c2r2", "dionysus c1r1 c2r3", "dionysus c1r1 c3r1",
        "dionysus c1r2 c1r1", "dionysus c1r2 c2r2", "dionysus c1r2 c2r3", "dionysus c1r2 c3r1",
        "dionysus c2r2 c1r1", "dionysus c2r2 c1r2", "dionysus c2r2 c1r3", "dionysus c2r2 c3r1",
    }


def test_R_DIO_1_not_into_a_full_column_but_within_it():
    state = position(hera=Side(columns=[["Hydra"], ["Satyr", "Hero", "Harpy", "Centaur"]], hand=["Dionysus"]), zeus=ZEUS)
    found = dionysus_moves(state)
    assert not {m for m in found if m.startswith("dionysus c1r1 c2")}
    assert "dionysus c2r4 c2r1" in found and "dionysus c2r1 c2r4" in found and "dionysus c2r2 c1r1" in found


def test_R_DIO_1_within_a_column_the_card_ends_at_the_named_row():
    state = position(hera=Side(columns=[["Hydra", "Satyr*", "Hero"], ["Hydra"]], hand=["Dionysus"]), zeus=ZEUS)
    push(state, "dionysus c1r1 c1r3")
    assert column(state, "hera", 1) == ["Satyr*", "Hero", "Hydra"]
    assert pile(state, "hera") == ["Dionysus"]
    state = position(hera=Side(columns=[["Hydra", "Satyr*", "Hero"], ["Hydra"]], hand=["Dionysus"]), zeus=ZEUS)
    push(state, "dionysus c1r3 c1r1")
    assert column(state, "hera", 1) == ["Hero", "Hydra", "Satyr*"]


def test_R_DIO_1_to_another_column_and_both_close_up():
    state = position(hera=Side(columns=[["Hydra", "Satyr*", "Hero"], ["Centaur", "Harpy"]], hand=["Dionysus"]), zeus=ZEUS)
    n = len(state.events)
    push(state, "dionysus c1r2 c2r2")
    assert column(state, "hera", 1) == ["Hydra", "Hero"]
    assert column(state, "hera", 2) == ["Centaur", "Satyr*", "Harpy"]
    push(state, "draw")
    state = position(hera=Side(columns=[["Hydra", "Satyr", "Hero"], ["Centaur"]], hand=["Dionysus"]), zeus=ZEUS)
    n = len(state.events)
    push(state, "dionysus c1r1 c3r1")
    assert column(state, "hera", 1) == ["Satyr", "Hero"] and column(state, "hera", 3) == ["Hydra"]
    assert reveals(state, n) == []  # a face-down card stays face down


def test_R_DIO_1_same_names_may_trade_places():
    state = position(hera=Side(columns=[["Hydra", "Hydra"], ["Satyr"]], hand=["Dionysus"]), zeus=ZEUS)
    assert {"dionysus c1r1 c1r2", "dionysus c1r2 c1r1"} <= dionysus_moves(state)


def test_R_DIO_1_never_moves_the_figure_nor_puts_a_card_before_it():
    state = position(hera=Side(columns=[["figure", "Hydra"], ["Satyr"]], hand=["Dionysus"], discard=["Hera"]), zeus=ZEUS)
    found = dionysus_moves(state)
    assert not {m for m in found if m.startswith("dionysus c1r1")}
    assert "dionysus c2r1 c1r1" not in found and "dionysus c1r2 c1r1" not in found
    assert "dionysus c2r1 c1r2" in found and "dionysus c2r1 c1r3" in found
    with pytest.raises(IllegalMoveError):
        push(state, "dionysus c2r1 c1r1")
    assert js(state)["sides"]["hera"]["figure"] == "c1"


def test_R_DIO_1_needs_a_card_to_move():
    state = position(hera=Side(columns=[["Hydra"], [], []], hand=["Dionysus"]), zeus=ZEUS)
    assert dionysus_moves(state) == {"dionysus c1r1 c2r1", "dionysus c1r1 c3r1"}
