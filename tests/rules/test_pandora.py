"""R-PAN: the column wipe, hostages in it, and the order of the lost cards."""

from __future__ import annotations

from .helpers import Side, column, hand, js, moves, pile, position, push, result


def open_box(hera_c1, zeus_c1, **kw):
    """Hera's r1 card of c1 challenges Zeus's Pandora at c1r1."""
    state = position(hera=Side(columns=[hera_c1, ["Satyr"]]), zeus=Side(columns=[zeus_c1, ["Satyr"]]), **kw)
    push(state, "challenge c1")
    return state


def test_R_PAN_1_both_columns_are_wiped_other_columns_stay():
    state = open_box(["Hydra", "Hydra@zeus"], ["Pandora", "Centaur", "Hero"])
    assert column(state, "hera", 1) == [] and column(state, "zeus", 1) == []
    assert column(state, "hera", 2) == ["Satyr"] and column(state, "zeus", 2) == ["Satyr"]
    assert sorted(pile(state, "zeus")) == ["Centaur", "Hero", "Pandora"]
    assert sorted(pile(state, "hera")) == ["Hydra", "Hydra@zeus"]  # lost cards go to their holder's pile
    assert result(state) == (None, None)


def test_R_PAN_1_figures_stay():
    # Hera's own figure stands in c1: a Pegasus from the hand may still open the box
    state = position(hera=Side(columns=[["figure", "Hydra", "Satyr"], ["Satyr"]], hand=["Pegasus"], discard=["Hera"]),
                     zeus=Side(columns=[["Pandora", "Hero"], ["Satyr"]]))
    push(state, "pegasus c1")
    assert column(state, "hera", 1) == ["figure"] and column(state, "zeus", 1) == []
    assert js(state)["sides"]["hera"]["figure"] == "c1"


def test_R_PAN_1_hostage_of_the_challenged_player_loses_for_him():
    state = open_box(["Hydra"], ["Pandora", "Argus"])
    assert result(state) == ("hera", "pandora")


def test_R_PAN_1_hostage_of_the_challenger_loses_for_the_challenger():
    state = open_box(["Hydra", "Io"], ["Pandora", "Hero"])
    assert result(state) == ("zeus", "pandora")


def test_R_PAN_1_both_hostages_the_challenger_loses():
    state = open_box(["Hydra", "Io"], ["Pandora", "Argus"])
    assert result(state) == ("zeus", "pandora")
    state = position(hera=Side(columns=[["Pandora", "Io"], ["Satyr"]]),
                     zeus=Side(columns=[["Satyr", "Argus"], ["Satyr"]]), to_move="zeus")
    push(state, "challenge c1")
    assert result(state) == ("hera", "pandora")


def test_R_PAN_1_zeus_challenging_pandora_with_io_behind_it_wins():
    state = position(hera=Side(columns=[["Pandora", "Satyr", "Io"], ["Satyr"]]),
                     zeus=Side(columns=[["Hydra"], ["Satyr"]]), to_move="zeus")
    push(state, "challenge c1")
    assert result(state) == ("zeus", "pandora")


def test_R_PAN_1_pegasus_from_hand_opens_the_box_too():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Pandora", "Argus"], ["Satyr"]]))
    push(state, "pegasus c1")
    assert result(state) == ("hera", "pandora")


def test_R_PAN_2_challenged_player_decides_top_first_then_challenger():
    state = open_box(["Hydra", "Hero", "Harpy"], ["Pandora", "Cyclops", "Satyr"])
    # default order, bottom first: strongest at the bottom, equal strength A..Z upward
    assert pile(state, "zeus") == ["Cyclops", "Satyr", "Pandora"]
    assert pile(state, "hera") == ["Hydra", "Harpy", "Hero"]
    j = js(state)
    assert j["to_move"] == "zeus" and [p["player"] for p in j["pending"]] == ["zeus", "hera"]
    assert moves(state) == {"top Cyclops", "top Satyr", "top Pandora"}
    push(state, "top Satyr")
    assert pile(state, "zeus") == ["Cyclops", "Pandora", "Satyr"]
    assert js(state)["to_move"] == "hera" and moves(state) == {"top Hydra", "top Harpy", "top Hero"}
    push(state, "top Hydra")
    assert pile(state, "hera") == ["Harpy", "Hero", "Hydra"]
    j = js(state)
    assert j["pending"] == [] and j["to_move"] == "hera" and j["ap_left"] == 1


def test_R_PAN_2_only_a_player_with_two_names_decides():
    state = open_box(["Hydra", "Hero"], ["Pandora"])
    j = js(state)
    assert [p["player"] for p in j["pending"]] == ["hera"] and j["to_move"] == "hera"
    assert pile(state, "zeus") == ["Pandora"]


def test_R_PAN_2_names_ignore_the_owner_and_own_cards_lie_below():
    state = open_box(["Hydra@zeus", "Hydra"], ["Pandora"])
    assert js(state)["pending"] == []
    assert pile(state, "hera") == ["Hydra", "Hydra@zeus"]


def test_R_PAN_2_no_decision_when_the_wipe_ends_the_game():
    state = open_box(["Hydra", "Hero"], ["Pandora", "Argus", "Cyclops"])
    assert result(state) == ("hera", "pandora") and js(state)["pending"] == []
    # the hostage has no strength: weakest, on top
    assert pile(state, "zeus") == ["Cyclops", "Pandora", "Argus"]
    assert pile(state, "hera") == ["Hydra", "Hero"]


def test_R_PAN_2_the_pegasus_that_opened_the_box_is_a_lost_card():
    state = position(hera=Side(columns=[["figure", "Hydra"], ["Satyr"]], hand=["Pegasus"], discard=["Hera"]),
                     zeus=Side(columns=[["Pandora"], ["Satyr"]]))
    push(state, "pegasus c1")
    assert pile(state, "hera") == ["Hera", "Hydra", "Pegasus"]
    assert moves(state) == {"top Hydra", "top Pegasus"}
    push(state, "top Hydra")
    assert pile(state, "hera") == ["Hera", "Pegasus", "Hydra"]


def test_R_PAN_2_pandora_from_the_hand_discards_the_hand_and_its_owner_orders_it():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Sirens", "Pandora", "Hydra@hera", "Hydra"]))
    push(state, "pegasus hand", "chance Pandora")
    assert hand(state, "zeus") == []
    assert pile(state, "zeus") == ["Hydra", "Hydra@hera", "Pandora", "Sirens"]
    assert pile(state, "hera") == ["Pegasus"]
    assert js(state)["to_move"] == "zeus" and moves(state) == {"top Hydra", "top Pandora", "top Sirens"}
    push(state, "top Hydra")
    assert pile(state, "zeus") == ["Hydra", "Pandora", "Sirens", "Hydra@hera"]  # the topmost Hydra is lifted


def test_R_PAN_2_a_single_name_needs_no_decision():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Pandora"]))
    push(state, "pegasus hand", "chance Pandora")
    assert js(state)["pending"] == [] and pile(state, "zeus") == ["Pandora"]
    assert js(state)["to_move"] == "hera"


def test_R_PAN_2_pandora_in_a_hand_with_the_hostage_loses():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Pandora", "Argus", "Hydra"]))
    push(state, "pegasus hand", "chance Pandora")
    assert result(state) == ("hera", "pandora") and js(state)["pending"] == []
