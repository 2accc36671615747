"""R-END: every way the game ends."""

from __future__ import annotations

from .helpers import Side, js, moves, position, push, result


FULL_SIDE = [["Io", "Cyclops", "Cyclops", "Cyclops"], ["Medusa", "Hero", "Hero", "Harpy"],
             ["Pandora", "Harpy", "Harpy", "Amazon"]]


def test_R_END_1_stuck_with_ap_left_loses_mid_turn():
    # full columns, nothing in r1 that may challenge; drawing the 12th card leaves 2 AP unspendable
    hand_11 = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 2
    state = position(hera=Side(columns=FULL_SIDE, hand=hand_11, deck=["Satyr"]), zeus=Side(columns=[["Satyr"]]))
    assert moves(state) == {"draw"}
    push(state, "draw")
    j = js(state)
    assert (j["winner"], j["reason"], j["turn"], j["ap_left"]) == ("zeus", "no_action", 3, 2)


def test_R_END_1_persephone_is_always_an_action():
    hand_11 = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 2
    state = position(hera=Side(columns=FULL_SIDE, hand=hand_11, deck=["Persephone"]), zeus=Side(columns=[["Satyr"]]))
    push(state, "draw")
    assert result(state) == (None, None) and moves(state) == {"persephone"}


def test_R_END_1_stuck_at_the_start_of_the_turn_loses():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Pandora"], ["Argus"]], hand=["Sirens"]),
                     ap=1, rest={"hera": "deck", "zeus": "discard"})
    push(state, "draw")
    j = js(state)
    assert (j["winner"], j["reason"], j["turn"], j["ap_left"]) == ("hera", "no_action", 4, 2)


def test_R_END_2_only_the_figure_left_is_no_card():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["figure"], []], hand=["Hydra"], discard=["Zeus"]),
                     ap=1)
    push(state, "draw")
    assert result(state) == ("hera", "no_cards") and js(state)["turn"] == 4


def test_R_END_2_losing_the_last_card_in_the_own_turn_is_not_yet_a_loss():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Hydra"], ["Satyr"]]), ap=1)
    push(state, "challenge c1")
    assert result(state) == (None, None) and js(state)["turn_player"] == "zeus"
    push(state, "draw", "draw")
    assert result(state) == ("zeus", "no_cards") and js(state)["turn"] == 5


def test_R_END_3_challenging_the_hostage_wins_field_or_pegasus():
    state = position(hera=Side(columns=[["Pegasus"]]), zeus=Side(columns=[["Argus", "Hydra"]]))
    push(state, "challenge c1")
    assert result(state) == ("hera", "hostage_found")
    state = position(hera=Side(columns=[["Io"]]), zeus=Side(columns=[["figure", "Hydra"]], hand=["Pegasus"], discard=["Zeus"]),
                     to_move="zeus")
    push(state, "pegasus c1")  # Zeus's own figure does not block the Pegasus
    assert result(state) == ("zeus", "hostage_found")


def test_R_END_4_pegasus_from_the_hand_finds_the_hostage_or_pandora_with_it():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Io", "Hydra"]), zeus=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     to_move="zeus")
    push(state, "pegasus hand")
    assert {str(m) for m, _ in state.chance_outcomes()} == {"chance Io", "chance Hydra"}
    push(state, "chance Io")
    assert result(state) == ("zeus", "hostage_found")
    state = position(hera=Side(columns=[["Satyr"]], hand=["Io", "Pandora"]), zeus=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     to_move="zeus")
    push(state, "pegasus hand", "chance Pandora")
    assert result(state) == ("zeus", "pandora")


def test_R_END_5_pandora_with_hostages_in_the_column():
    state = position(hera=Side(columns=[["Satyr", "Io"]]), zeus=Side(columns=[["Pandora", "Argus"]]))
    push(state, "challenge c1")
    assert result(state) == ("zeus", "pandora")


def test_R_END_6_turn_limit_draw():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), turn=3, ap=1,
                     variants={"turn_limit": 3})
    push(state, "draw")
    assert result(state) == ("draw", "turn_limit") and state.legal_moves() == []
