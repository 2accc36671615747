"""R-GOD: the god card and the figure."""

from __future__ import annotations

import pytest

from .helpers import Side, column, js, kinds, moves, pile, position, push

ZEUS = Side(columns=[["Satyr"]])


def god_moves(state) -> set[str]:
    return {m for m in moves(state) if m.startswith("god")}


def test_R_GOD_1_needs_a_non_empty_column_with_room_and_costs_nothing():
    state = position(hera=Side(columns=[["Satyr"] * 4, [], ["Hydra", "Hero"]], hand=["Hera"]), zeus=ZEUS)
    assert god_moves(state) == {"god c3"}
    push(state, "god c3")
    assert column(state, "hera", 3) == ["figure", "Hydra", "Hero"]
    assert js(state)["sides"]["hera"]["figure"] == "c3"
    assert pile(state, "hera") == ["Hera"]  # discarded when played (R-GOD-3)


def test_R_GOD_1_not_while_the_figure_is_on_the_field():
    state = position(hera=Side(columns=[["figure", "Satyr"], ["Hydra"]], hand=["Hera"]), zeus=ZEUS)
    assert god_moves(state) == set()
    push(state, "recall")
    assert god_moves(state) == {"god c1", "god c2"}


def test_R_GOD_1_only_while_the_turn_has_ap():
    # the last AP is spent: the turn passes, the god card cannot be played at 0 AP
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hera"]), zeus=ZEUS)
    push(state, "draw")
    assert js(state)["turn_player"] == "zeus"


@pytest.mark.parametrize(
    "columns, spend, expected",
    [
        ([["Satyr"]], [], 4),
        ([["Satyr"], ["Hydra"], ["Hero"]], [], 4),
        ([["Satyr"], ["Hydra"], ["Hero"]], ["draw"], 3),
        ([["Satyr"], ["Hydra"], ["Hero"]], ["draw", "draw"], 2),
        ([["Satyr"], ["Hydra"]], ["draw"], 3),
    ],
)
def test_R_GOD_2_ap_become_four_minus_ap_spent(columns, spend, expected):
    state = position(hera=Side(columns=columns, hand=["Hera"]), zeus=ZEUS)
    push(state, *spend)
    push(state, "god c1")
    assert js(state)["ap_left"] == expected and js(state)["turn_player"] == "hera"


def test_R_GOD_2_counts_every_ap_spent_this_turn_even_with_a_recall():
    # figure at the start (4 AP); recall (1), Hades takes the god card back (2), god again: 4 - 2
    state = position(hera=Side(columns=[["figure", "Satyr"]], hand=["Hades"], discard=["Hera"]), zeus=ZEUS)
    push(state, "recall", "hades Hera", "god c1")
    assert js(state)["ap_left"] == 2


def test_R_GOD_3_figure_gives_4_ap_never_challenges_and_is_never_moved():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hera", "Dionysus"]), zeus=Side(columns=[["Satyr"], ["Satyr"]]))
    push(state, "god c1")
    assert "challenge c1" not in moves(state)
    assert not {m for m in moves(state) if m.startswith("dionysus c1r1")}
    push(state, "draw", "draw", "draw", "draw")
    assert js(state)["turn_player"] == "zeus"
    assert "challenge c1" not in moves(state)  # the figure cannot be challenged either (R-CH-2)
    push(state, "draw", "draw")
    assert js(state)["turn_player"] == "hera" and js(state)["ap_left"] == 4


def test_R_GOD_3_figure_leaves_only_by_recall_or_pegasus_and_returns_only_with_the_god_card():
    state = position(hera=Side(columns=[["figure", "Satyr"], ["Hydra"]], discard=["Hera"]), zeus=ZEUS)
    assert "god" not in kinds(state)
    push(state, "recall")
    assert js(state)["sides"]["hera"]["figure"] is None and "god" not in kinds(state)
