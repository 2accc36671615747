"""R-PYT: spy, turn over, and Pythia against Poseidon and Nemesis (with R-CH-3.4/3.5)."""

from __future__ import annotations

import pytest

from .helpers import HERA, Side, column, hand, js, moves, pile, position, push, reveals

ME = Side(columns=[["Satyr"], ["Satyr"]], hand=["Pythia"])


def test_R_PYT_1_spy_shows_the_hand_to_the_spy_only_and_discards_poseidon_and_nemesis():
    state = position(hera=ME, zeus=Side(columns=[["Satyr"]], hand=["Poseidon", "Hydra", "Nemesis", "Argus"]), turn=1)
    n = len(state.events)
    push(state, "pythia spy")
    shown = reveals(state, n)
    assert {state.card(e.card).name for e in shown} == {"Poseidon", "Hydra", "Nemesis", "Argus"}
    assert all(e.to == HERA for e in shown)
    assert hand(state, "zeus") == ["Argus", "Hydra"]
    assert pile(state, "zeus") == ["Nemesis", "Poseidon"]  # equal strength: A..Z from the bottom
    assert pile(state, "hera") == ["Pythia"]
    assert js(state)["ap_left"] == 1


def test_R_PYT_1_spy_on_an_empty_hand_is_legal():
    state = position(hera=ME, zeus=Side(columns=[["Satyr"]], hand=[]))
    assert "pythia spy" in moves(state)
    push(state, "pythia spy")
    assert pile(state, "zeus") == [] and pile(state, "hera") == ["Pythia"]


def test_R_PYT_1_spy_discards_a_sirens_taken_poseidon_to_its_holder():
    state = position(hera=ME, zeus=Side(columns=[["Satyr"]], hand=["Poseidon@hera", "Hero"]))
    push(state, "pythia spy")
    assert pile(state, "zeus") == ["Poseidon@hera"] and hand(state, "zeus") == ["Hero"]


def test_R_PYT_2_turn_over_shows_a_whole_opponent_column_and_nothing_else():
    state = position(hera=ME, zeus=Side(columns=[["Satyr", "Medusa*", "Hydra"], ["figure"], []], discard=["Zeus"]),
                     turn=1)
    found = {m for m in moves(state) if m.startswith("pythia")}
    assert found == {"pythia spy", "pythia c1", "pythia c2"}  # an empty column cannot be named
    n = len(state.events)
    push(state, "pythia c1")
    assert column(state, "zeus", 1) == ["Satyr*", "Medusa*", "Hydra*"]
    assert len(reveals(state, n)) == 2 and all(e.to is None for e in reveals(state, n))
    assert column(state, "hera", 1) == ["Satyr"] and pile(state, "zeus") == ["Zeus"]


@pytest.mark.parametrize("god", ["Poseidon", "Nemesis"])
def test_R_PYT_3_pythia_challenging_poseidon_or_nemesis_wins(god):
    state = position(hera=Side(columns=[["Pythia"], ["Satyr"]]), zeus=Side(columns=[[god, "Hydra"]]))
    push(state, "challenge c1")
    assert column(state, "hera", 1) == ["Pythia*"]
    assert column(state, "zeus", 1) == ["Hydra"] and pile(state, "zeus") == [god]


@pytest.mark.parametrize("god", ["Poseidon", "Nemesis"])
def test_R_PYT_3_poseidon_or_nemesis_challenging_pythia_wins_by_strength(god):
    state = position(hera=Side(columns=[[god], ["Satyr"]]), zeus=Side(columns=[["Pythia", "Hydra"]]))
    push(state, "challenge c1")
    assert column(state, "hera", 1) == [f"{god}*"]
    assert column(state, "zeus", 1) == ["Hydra"] and pile(state, "zeus") == ["Pythia"]


def test_R_PYT_3_pythia_against_other_cards_is_a_strength_one_card():
    state = position(hera=Side(columns=[["Pythia"], ["Pythia"]]), zeus=Side(columns=[["Satyr"], ["Pegasus"]]))
    push(state, "challenge c1", "challenge c2")
    assert column(state, "zeus", 1) == ["Satyr*"] and column(state, "zeus", 2) == []
    assert pile(state, "hera") == ["Pythia", "Pythia"]


@pytest.mark.parametrize(
    "variant, attacker, hera_left, zeus_left",
    [
        ("normal", "Pegasus", [], []),
        ("always_loses", "Pegasus", ["Pegasus*"], []),
        ("normal", "Pythia", [], []),
        ("always_loses", "Pythia", ["Pythia*"], []),
        ("always_loses", "Satyr", ["Satyr*"], []),
    ],
)
def test_R_PYT_3_pythia_defence_variant(variant, attacker, hera_left, zeus_left):
    """R-CH-3.5 / R-VAR pythia_defence: a challenged Pythia always loses in the variant."""
    state = position(hera=Side(columns=[[attacker], ["Satyr"]]), zeus=Side(columns=[["Pythia"]]),
                     variants={"pythia_defence": variant})
    push(state, "challenge c1")
    assert column(state, "hera", 1) == hera_left and column(state, "zeus", 1) == zeus_left


def test_R_PYT_3_pythia_still_beats_poseidon_under_always_loses():
    state = position(hera=Side(columns=[["Pythia"], ["Satyr"]]), zeus=Side(columns=[["Poseidon"]]),
                     variants={"pythia_defence": "always_loses"})
    push(state, "challenge c1")
    assert column(state, "hera", 1) == ["Pythia*"] and column(state, "zeus", 1) == []
