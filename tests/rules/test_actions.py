"""R-ACT: draw, play, challenge cost, myth cards, recall, looking at own cards."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.rules import IllegalMoveError

from .helpers import Side, column, hand, js, kinds, moves, pile, position, push

ZEUS = Side(columns=[["Satyr"], ["Satyr"], ["Satyr"]])


def test_R_ACT_1_draw_takes_the_top_card():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hero"], deck=["Medusa", "Cyclops"]), zeus=ZEUS, ap=1)
    size = js(state)["sides"]["hera"]["deck_size"]
    push(state, "draw")
    assert hand(state, "hera") == ["Hero", "Medusa"]
    assert js(state)["sides"]["hera"]["deck_size"] == size - 1


def test_R_ACT_1_no_draw_from_an_empty_deck():
    state = position(hera=Side(columns=[["Satyr", "Io"]], hand=["Hero"]), zeus=ZEUS, rest={"hera": "discard", "zeus": "deck"})
    assert js(state)["sides"]["hera"]["deck_size"] == 0
    assert "draw" not in moves(state)


def test_R_ACT_1_no_draw_with_12_cards_in_hand():
    twelve = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 3
    state = position(hera=Side(columns=[["Satyr"]], hand=twelve), zeus=ZEUS)
    assert "draw" not in moves(state)
    state = position(hera=Side(columns=[["Satyr"]], hand=twelve[:11]), zeus=ZEUS)
    assert "draw" in moves(state)
    with pytest.raises(IllegalMoveError):
        push(position(hera=Side(columns=[["Satyr"]], hand=twelve), zeus=ZEUS), "draw")


def test_R_ACT_2_play_rows_one_to_length_plus_one_face_down():
    state = position(hera=Side(columns=[["Satyr", "Hero"], [], ["Hydra"] * 4], hand=["Centaur", "Sirens"]), zeus=ZEUS)
    plays = {m for m in moves(state) if m.startswith("play")}
    # c1 holds 2: rows 1..3; c2 empty: row 1 (opens the column); c3 full: none; Sirens is never placed
    assert plays == {"play Centaur c1r1", "play Centaur c1r2", "play Centaur c1r3", "play Centaur c2r1"}
    push(state, "play Centaur c1r2")
    assert column(state, "hera", 1) == ["Satyr", "Centaur", "Hero"]


def test_R_ACT_2_play_at_front_pushes_everything_back_and_opens_columns():
    state = position(hera=Side(columns=[["Satyr*", "Hero"]], hand=["Centaur", "Io"]), zeus=ZEUS, ap=1, ap_spent=0,
                     turn=5)
    push(state, "play Io c2r1")
    assert column(state, "hera", 2) == ["Io"]  # the hostage is placeable
    state = position(hera=Side(columns=[["Satyr*", "Hero"]], hand=["Centaur"]), zeus=ZEUS)
    push(state, "play Centaur c1r1")
    assert column(state, "hera", 1) == ["Centaur", "Satyr*", "Hero"]


def test_R_ACT_2_not_in_front_of_the_figure_and_the_figure_counts():
    state = position(hera=Side(columns=[["figure", "Satyr"], ["Hydra"] * 3 + ["Hero"]], hand=["Centaur"],
                                discard=["Hera"]), zeus=ZEUS)
    plays = {m for m in moves(state) if m.startswith("play")}
    assert plays == {"play Centaur c1r2", "play Centaur c1r3", "play Centaur c3r1"}
    state = position(hera=Side(columns=[["figure", "Satyr", "Hero", "Hydra"]], hand=["Centaur"], discard=["Hera"]),
                     zeus=ZEUS)
    assert not {m for m in moves(state) if m.startswith("play Centaur c1")}


def test_R_ACT_3_a_challenge_costs_one_ap():
    state = position(hera=Side(columns=[["Hydra"], ["Satyr"]]), zeus=ZEUS)
    assert js(state)["ap_left"] == 2
    push(state, "challenge c1")
    assert js(state)["ap_left"] == 1 and js(state)["turn_player"] == "hera"


@pytest.mark.parametrize(
    "card, move",
    [("Pegasus", "pegasus c1"), ("Pythia", "pythia c1"), ("Sirens", "sirens"), ("Hades", "hades Hydra"),
     ("Persephone", "persephone"), ("Dionysus", "dionysus c1r1 c1r2")],
)
def test_R_ACT_4_myth_card_goes_face_up_onto_own_pile(card, move):
    state = position(hera=Side(columns=[["Satyr", "Hero"], ["Hydra"]], hand=[card, "Centaur"], discard=["Hydra"]),
                     zeus=Side(columns=[["Satyr"]], discard=["Harpy"]))
    before = js(state)["ap_left"]
    push(state, move)
    assert pile(state, "hera")[-1] == card
    assert card not in hand(state, "hera")
    assert js(state)["ap_left"] == before - 1


def test_R_ACT_4_medusa_and_pandora_have_no_hand_power():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Medusa", "Pandora"]), zeus=ZEUS)
    assert kinds(state) == {"draw", "play", "challenge"}


def test_R_ACT_5_recall_takes_the_figure_off_and_closes_the_column():
    state = position(hera=Side(columns=[["figure", "Satyr", "Hero"]], discard=["Hera"]), zeus=Side(columns=[["Satyr"]]))
    assert js(state)["ap_left"] == 4
    push(state, "recall")
    j = js(state)
    assert j["sides"]["hera"]["figure"] is None and j["ap_left"] == 3
    assert column(state, "hera", 1) == ["Satyr", "Hero"]
    push(state, "draw", "draw", "draw")
    assert js(state)["turn_player"] == "zeus"
    push(state, "draw")
    assert js(state)["ap_left"] == 1  # back to counting columns


def test_R_ACT_5_no_recall_without_a_figure():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]), zeus=ZEUS)
    assert "recall" not in moves(state)


def test_R_ACT_6_own_face_down_cards_are_known_to_their_owner_at_no_cost():
    state = position(hera=Side(columns=[["Satyr", "Hero"]], hand=["Dionysus"]), zeus=ZEUS)
    n = len(state.events)
    j = js(state)
    assert [c["card"] for c in j["sides"]["hera"]["columns"][0]] == ["Satyr", "Hero"]
    assert not any(c["face_up"] for c in j["sides"]["hera"]["columns"][0])
    # looking is not an action: no move for it, no AP spent, nothing revealed to anyone
    assert j["ap_left"] == 1 and "look" not in kinds(state) and state.events[n:] == []


def test_R_ACT_2_a_plain_name_plays_the_own_copy_with_the_lowest_id():
    """docs/engine-decisions.md 'Which copy': own card first, lowest id; NAME@owner for the other."""
    state = position(hera=Side(columns=[["Satyr"], ["Hero"]], hand=["Hydra@zeus", "Hydra", "Hydra"]), zeus=ZEUS)
    own = sorted(x for x in state.hands[0] if state.card(x).owner == 0)
    assert {m for m in moves(state) if m.startswith("play") and m.endswith("c3r1")} == {
        "play Hydra c3r1", "play Hydra@zeus c3r1"}
    push(state, "play Hydra c3r1")
    assert state.columns[0][2] == [own[0]]
    push(state, "play Hydra@zeus c3r1")
    assert column(state, "hera", 3) == ["Hydra@zeus", "Hydra"]


def test_R_ACT_4_the_own_myth_card_is_used_before_a_sirens_taken_one():
    state = position(hera=Side(columns=[["Satyr"], ["Hero"]], hand=["Pegasus@zeus", "Pegasus"]),
                     zeus=Side(columns=[["Satyr"]]))
    push(state, "pegasus c1")
    assert pile(state, "hera") == ["Pegasus"] and hand(state, "hera") == ["Pegasus@zeus"]
    push(state, "pegasus c1")
    assert pile(state, "hera") == ["Pegasus", "Pegasus@zeus"]
