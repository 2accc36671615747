"""R-CH field challenges and R-MED Medusa."""

from __future__ import annotations

import pytest

from .helpers import Side, column, js, moves, pile, position, push, result, reveals


def challenges(state) -> set[str]:
    return {m for m in moves(state) if m.startswith("challenge")}


def duel(attacker: str, defender: str, variants=None, behind_a=(), behind_d=()):
    """Hera's `attacker` at c1r1 challenges Zeus's `defender` at c1r1; returns the state."""
    state = position(hera=Side(columns=[[attacker, *behind_a], ["Satyr"]]),
                     zeus=Side(columns=[[defender, *behind_d], ["Satyr"]]), variants=variants)
    push(state, "challenge c1")
    return state


def test_R_CH_1_own_r1_against_the_opposite_r1_and_no_diagonals():
    state = position(hera=Side(columns=[["Hydra", "Hero"], [], ["Satyr"]]),
                     zeus=Side(columns=[["Satyr"], ["Centaur"], []]))
    # c1: both non-empty; c2: own column empty; c3: opponent's column empty
    assert challenges(state) == {"challenge c1"}
    push(state, "challenge c1")
    assert column(state, "hera", 1) == ["Hydra*", "Hero"]  # r1 fought, not the card behind
    assert column(state, "zeus", 1) == []


def test_R_CH_2_figures_block_field_challenges_both_ways():
    state = position(hera=Side(columns=[["figure", "Hydra"], ["Hydra"], ["Hydra"]], discard=["Hera"]),
                     zeus=Side(columns=[["Satyr"], ["figure", "Satyr"], ["Satyr"]], discard=["Zeus"]))
    assert challenges(state) == {"challenge c3"}


def test_R_CH_2_hostage_medusa_pandora_never_challenge():
    state = position(hera=Side(columns=[["Io"], ["Medusa"], ["Pandora"]]),
                     zeus=Side(columns=[["Satyr"], ["Satyr"], ["Satyr"]]))
    assert challenges(state) == set()
    state = position(hera=Side(columns=[["Pegasus"], ["Pythia"], ["Amazon"]]),
                     zeus=Side(columns=[["Satyr"], ["Satyr"], ["Satyr"]]))
    assert challenges(state) == {"challenge c1", "challenge c2", "challenge c3"}


def test_R_CH_3_both_cards_turned_face_up_publicly():
    state = position(hera=Side(columns=[["Hydra"], ["Satyr"]]), zeus=Side(columns=[["Hydra", "Satyr"], ["Satyr"]]))
    n = len(state.events)
    push(state, "challenge c2")  # Satyr v Satyr: both go
    push(state, "challenge c1")  # Hydra v Hydra: both go
    shown = reveals(state, n)
    assert len(shown) == 4 and all(e.to is None for e in shown)
    state = position(hera=Side(columns=[["Hydra"], ["Satyr"]]), zeus=Side(columns=[["Satyr"], ["Satyr"]]))
    push(state, "challenge c1")
    assert column(state, "hera", 1) == ["Hydra*"]


def test_R_CH_3_order_hostage_first():
    assert result(duel("Satyr", "Argus")) == ("hera", "hostage_found")


def test_R_CH_3_order_pandora_before_strength():
    state = duel("Cyclops", "Pandora", behind_d=["Hydra"])
    assert column(state, "hera", 1) == [] and column(state, "zeus", 1) == []


def test_R_CH_3_order_medusa_before_pythia_rule():
    state = duel("Pythia", "Medusa")
    assert column(state, "hera", 1) == [] and column(state, "zeus", 1) == ["Medusa*"]


@pytest.mark.parametrize(
    "attacker, defender, hera_left, zeus_left",
    [
        ("Hydra", "Satyr", ["Hydra*"], []),  # lower discarded
        ("Satyr", "Hydra", [], ["Hydra*"]),
        ("Satyr", "Amazon", [], []),  # equal: both
        ("Poseidon", "Nemesis", [], []),
        ("Pegasus", "Pythia", [], []),
        ("Cyclops", "Poseidon", [], ["Poseidon*"]),
        ("Hero", "Harpy", [], []),
    ],
)
def test_R_CH_3_strength_decides_otherwise(attacker, defender, hera_left, zeus_left):
    state = duel(attacker, defender)
    assert column(state, "hera", 1) == hera_left
    assert column(state, "zeus", 1) == zeus_left


def test_R_CH_4_discarded_face_up_to_holder_and_column_closes():
    state = duel("Hydra", "Satyr", behind_d=["Cyclops", "Hero"])
    assert column(state, "zeus", 1) == ["Cyclops", "Hero"]
    assert pile(state, "zeus") == ["Satyr"] and pile(state, "hera") == []
    # a card taken by Sirens is discarded onto the pile of the player holding it
    state = position(hera=Side(columns=[["Satyr@zeus", "Hero"], ["Satyr"]]), zeus=Side(columns=[["Hydra"], ["Satyr"]]))
    push(state, "challenge c1")
    assert pile(state, "hera") == ["Satyr@zeus"] and pile(state, "zeus") == []
    assert column(state, "hera", 1) == ["Hero"]
    assert all(not c.get("face_up", False) for c in js(state)["sides"]["hera"]["columns"][0])


def test_R_CH_4_winner_stays_face_up_and_may_challenge_again():
    state = position(hera=Side(columns=[["Cyclops"], ["Satyr"]]), zeus=Side(columns=[["Satyr", "Hero", "Hydra"], ["Satyr"]]))
    push(state, "challenge c1")
    assert column(state, "hera", 1) == ["Cyclops*"]
    assert "challenge c1" in moves(state)
    push(state, "challenge c1")
    assert column(state, "zeus", 1) == ["Hydra"] and pile(state, "zeus") == ["Satyr", "Hero"]
    assert js(state)["turn_player"] == "zeus"  # two challenges spent the 2 AP


@pytest.mark.parametrize("slayer", ["Hero", "Amazon"])
def test_R_MED_1_hero_and_amazon_slay_medusa(slayer):
    state = duel(slayer, "Medusa", behind_d=["Hydra"])
    assert column(state, "hera", 1) == [f"{slayer}*"]
    assert column(state, "zeus", 1) == ["Hydra"] and pile(state, "zeus") == ["Medusa"]


@pytest.mark.parametrize("other", ["Cyclops", "Poseidon", "Satyr", "Harpy", "Pegasus", "Pythia", "Centaur"])
def test_R_MED_1_any_other_challenger_is_discarded_and_medusa_stays(other):
    state = duel(other, "Medusa")
    assert column(state, "hera", 1) == [] and pile(state, "hera") == [other]
    assert column(state, "zeus", 1) == ["Medusa*"] and pile(state, "zeus") == []


def test_R_MED_2_pegasus_from_hand_leaves_medusa_face_up():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]), zeus=Side(columns=[["Medusa", "Hydra"]]))
    push(state, "pegasus c1")
    assert column(state, "zeus", 1) == ["Medusa*", "Hydra"]
    assert pile(state, "hera") == ["Pegasus"] and pile(state, "zeus") == []
