"""R-PEG: Pegasus from the hand (hand challenge, front challenge) and on the field."""

from __future__ import annotations

import pytest

from .helpers import Side, column, hand, js, kinds, moves, pile, position, push, result, reveals

HERA = Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"])


def test_R_PEG_H1_not_in_the_first_turn_and_needs_an_opponent_hand():
    zeus = Side(columns=[["Satyr"]], hand=["Hydra"])
    assert "pegasus hand" not in moves(position(hera=HERA, zeus=zeus, turn=1))
    assert "pegasus hand" in moves(position(hera=HERA, zeus=zeus, turn=3))
    assert "pegasus hand" not in moves(position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=[]), turn=3))


def test_R_PEG_H1_the_card_is_drawn_uniformly_at_random():
    state = position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=["Hydra", "Hydra", "Sirens", "Cyclops"]))
    push(state, "pegasus hand")
    assert js(state)["to_move"] is None and state.legal_moves() == []
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert outcomes == {"chance Hydra": 0.5, "chance Sirens": 0.25, "chance Cyclops": 0.25}
    assert pile(state, "hera") == ["Pegasus"]  # spent before the draw
    assert js(state)["ap_left"] == 1


def test_R_PEG_H2_drawn_hostage_wins():
    state = position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=["Argus", "Hydra"]))
    push(state, "pegasus hand", "chance Argus")
    assert result(state) == ("hera", "hostage_found")
    assert "Argus" in hand(state, "zeus")  # the game is over; the hostage stays where it was


@pytest.mark.parametrize("myth", ["Pegasus", "Pythia", "Medusa", "Sirens", "Hades", "Persephone", "Dionysus", "Zeus"])
def test_R_PEG_H2_drawn_myth_card_is_discarded(myth):
    state = position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=[myth, "Hydra"]))
    push(state, "pegasus hand", f"chance {myth}")
    assert hand(state, "zeus") == ["Hydra"] and pile(state, "zeus") == [myth]
    assert js(state)["pending"] == [] and js(state)["to_move"] == "hera"


def test_R_PEG_H2_drawn_card_taken_by_sirens_goes_to_the_holders_pile():
    state = position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=["Pegasus@hera"]))
    push(state, "pegasus hand", "chance Pegasus")
    assert pile(state, "zeus") == ["Pegasus@hera"] and pile(state, "hera") == ["Pegasus"]


@pytest.mark.parametrize("card", ["Hero", "Amazon", "Poseidon", "Nemesis", "Satyr", "Cyclops"])
def test_R_PEG_H2_strong_card_is_placed_face_up_at_r1_by_the_pegasus_player(card):
    state = position(hera=HERA, zeus=Side(columns=[["Satyr", "Hydra"], [], ["Centaur"] * 4], hand=[card]))
    n = len(state.events)
    push(state, "pegasus hand", f"chance {card}")
    assert any(e.to is None for e in reveals(state, n))  # the drawn card is shown to both
    j = js(state)
    assert j["to_move"] == "hera" and j["pending"][0]["decision"] == "place"
    # full c3 is not allowed; the empty c2 is
    assert moves(state) == {"place c1", "place c2"}
    push(state, "place c1")
    assert column(state, "zeus", 1) == [f"{card}*", "Satyr", "Hydra"]
    assert hand(state, "zeus") == []


def test_R_PEG_H2_place_is_asked_even_with_one_column_and_never_before_a_figure():
    state = position(hera=HERA, zeus=Side(columns=[["figure", "Satyr"], ["Hydra"] * 4, []], hand=["Hero"],
                                         discard=["Zeus"]))
    push(state, "pegasus hand", "chance Hero")
    assert moves(state) == {"place c3"}
    push(state, "place c3")
    assert column(state, "zeus", 3) == ["Hero*"]


def test_R_PEG_H2_no_legal_column_discards_the_card():
    state = position(hera=HERA, zeus=Side(columns=[["figure", "Satyr"], ["Hydra"] * 4, ["Satyr"] * 4], hand=["Hero"],
                                         discard=["Zeus"]))
    push(state, "pegasus hand", "chance Hero")
    assert js(state)["pending"] == [] and pile(state, "zeus") == ["Zeus", "Hero"]


def test_R_PEG_F1_not_in_the_first_turn():
    zeus = Side(columns=[["Satyr"], [], ["Hydra"]])
    assert not {m for m in moves(position(hera=HERA, zeus=zeus, turn=1)) if m.startswith("pegasus")}
    assert {m for m in moves(position(hera=HERA, zeus=zeus)) if m.startswith("pegasus")} == {"pegasus c1", "pegasus c3"}


def test_R_PEG_F1_own_figure_does_not_block_and_the_opponent_figure_is_a_target():
    state = position(hera=Side(columns=[["figure", "Satyr"], ["Satyr"], ["Satyr"]], hand=["Pegasus"], discard=["Hera"]),
                     zeus=Side(columns=[["Hydra"], ["figure"], []], discard=["Zeus"]))
    assert {m for m in moves(state) if m.startswith("pegasus")} == {"pegasus c1", "pegasus c2"}
    assert "challenge c1" not in moves(state)  # while a field challenge there is blocked (R-CH-2)


def test_R_PEG_F2_figure_is_returned_and_the_column_closes():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"], ["figure", "Hydra", "Hero"]], discard=["Zeus"]))
    push(state, "pegasus c2")
    j = js(state)
    assert j["sides"]["zeus"]["figure"] is None
    assert column(state, "zeus", 2) == ["Hydra", "Hero"]
    assert pile(state, "hera") == ["Pegasus"] and pile(state, "zeus") == ["Zeus"]
    push(state, "draw")
    assert js(state)["ap_left"] == 2  # Zeus's turn: no figure, 2 columns


def test_R_PEG_F2_hostage_wins():
    state = position(hera=HERA, zeus=Side(columns=[["Argus"]]))
    push(state, "pegasus c1")
    assert result(state) == ("hera", "hostage_found")


@pytest.mark.parametrize("weak", ["Pegasus", "Pythia"])
def test_R_PEG_F2_strength_one_is_discarded(weak):
    state = position(hera=HERA, zeus=Side(columns=[[weak, "Hydra"]]))
    push(state, "pegasus c1")
    assert column(state, "zeus", 1) == ["Hydra"] and pile(state, "zeus") == [weak]
    assert pile(state, "hera") == ["Pegasus"]


@pytest.mark.parametrize("strong", ["Amazon", "Satyr", "Hero", "Poseidon"])
def test_R_PEG_F2_strength_two_to_seven_is_turned_face_up_and_stays(strong):
    state = position(hera=HERA, zeus=Side(columns=[[strong, "Hydra"]]))
    push(state, "pegasus c1")
    assert column(state, "zeus", 1) == [f"{strong}*", "Hydra"] and pile(state, "zeus") == []
    assert pile(state, "hera") == ["Pegasus"]


def test_R_PEG_F2_pandora_and_medusa():
    state = position(hera=HERA, zeus=Side(columns=[["Pandora", "Hydra"], ["Satyr"]]))
    push(state, "pegasus c1")
    assert column(state, "zeus", 1) == [] and column(state, "hera", 1) == []  # R-PAN-1
    state = position(hera=HERA, zeus=Side(columns=[["Medusa", "Hydra"]]))
    push(state, "pegasus c1")
    assert column(state, "zeus", 1) == ["Medusa*", "Hydra"]  # R-MED-2


def test_R_PEG_3_pegasus_on_the_field_is_a_plain_strength_one_card():
    state = position(hera=Side(columns=[["Pegasus"], ["Pegasus"], ["Pegasus"]]),
                     zeus=Side(columns=[["Satyr"], ["Pythia"], ["Argus"]]))
    found = moves(state)
    assert {"challenge c1", "challenge c2", "challenge c3"} <= found
    assert not {m for m in found if m.startswith("pegasus")}  # no power from the field
    push(state, "challenge c1")
    assert column(state, "hera", 1) == [] and column(state, "zeus", 1) == ["Satyr*"]
    push(state, "challenge c2")
    assert column(state, "hera", 2) == [] and column(state, "zeus", 2) == []
    push(state, "challenge c3")
    assert result(state) == ("hera", "hostage_found")


def test_R_PEG_H2_sirens_taken_card_in_the_hand_is_named_with_its_owner():
    state = position(hera=HERA, zeus=Side(columns=[["Satyr"]], hand=["Hydra", "Hydra@hera", "Hero"]))
    push(state, "pegasus hand")
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert outcomes == {"chance Hydra": 1 / 3, "chance Hydra@hera": 1 / 3, "chance Hero": 1 / 3}
    push(state, "chance Hydra@hera", "place c1")
    assert column(state, "zeus", 1) == ["Hydra@hera*", "Satyr"] and hand(state, "zeus") == ["Hero", "Hydra"]
