"""R-SIR, R-HAD, R-PER: taking cards from discard piles, and the hand limit."""

from __future__ import annotations

from .helpers import Side, column, hand, js, moves, pile, position, push, reveals

TWELVE = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 2  # 11 cards, plus the myth card


def me(*hand_cards, discard=(), columns=None):
    return Side(columns=columns or [["Satyr"], ["Hero"]], hand=list(hand_cards), discard=list(discard))


def test_R_SIR_1_takes_the_top_of_the_opponents_pile():
    state = position(hera=me("Sirens"), zeus=Side(columns=[["Satyr"]], discard=["Cyclops", "Hydra"]))
    push(state, "sirens")
    assert hand(state, "hera") == ["Hydra@zeus"]
    assert pile(state, "zeus") == ["Cyclops"] and pile(state, "hera") == ["Sirens"]
    assert js(state)["sides"]["hera"]["hand_cards"] == [{"card": "Hydra", "owner": "zeus"}]


def test_R_SIR_1_only_strength_one_to_seven():
    for top, legal in [("Pegasus", True), ("Poseidon", True), ("Pythia", True), ("Medusa", False),
                       ("Pandora", False), ("Sirens", False), ("Zeus", False), ("Dionysus", False)]:
        state = position(hera=me("Sirens"), zeus=Side(columns=[["Satyr"]], discard=["Hydra", top]))
        assert ("sirens" in moves(state)) == legal, top
    state = position(hera=me("Sirens"), zeus=Side(columns=[["Satyr"]]))
    assert "sirens" not in moves(state)  # empty pile


def test_R_SIR_1_legal_with_a_full_hand():
    state = position(hera=me("Sirens", *TWELVE), zeus=Side(columns=[["Satyr"]], discard=["Hydra"]))
    assert len(hand(state, "hera")) == 12 and "draw" not in moves(state)
    push(state, "sirens")
    assert len(hand(state, "hera")) == 12


def test_R_SIR_1_taken_card_is_played_as_own_and_discarded_to_its_holder():
    state = position(hera=me("Sirens"), zeus=Side(columns=[["Hydra"], ["Hero"]], discard=["Cyclops"]))
    n = len(state.events)
    push(state, "sirens")
    # everybody sees where the card went (it left a public pile)
    moved = [e for e in state.events[n:] if e.kind == "move" and state.card(e.card).name == "Cyclops"]
    assert moved and moved[0].src == ("discard", 1) and moved[0].dst == ("hand", 0)
    push(state, "play Cyclops c1r1")
    assert column(state, "hera", 1) == ["Cyclops@zeus", "Satyr"]
    push(state, "draw", "draw")  # Zeus's turn passes
    push(state, "challenge c1")  # it fights for Hera like her own card
    assert column(state, "hera", 1) == ["Cyclops@zeus*", "Satyr"] and pile(state, "zeus") == ["Hydra"]
    # Zeus's Pegasus strikes the Sirens-taken Pegasus on Hera's side: it lands on Hera's pile
    state = position(hera=Side(columns=[["Pegasus@zeus"], ["Satyr"]]), zeus=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     to_move="zeus")
    push(state, "pegasus c1")
    assert pile(state, "hera") == ["Pegasus@zeus"] and pile(state, "zeus") == ["Pegasus"]


def test_R_SIR_1_taken_card_lost_in_a_challenge_goes_to_the_holders_pile():
    state = position(hera=Side(columns=[["Centaur@zeus"], ["Satyr"]]), zeus=Side(columns=[["Hydra"]]))
    push(state, "challenge c1")
    assert pile(state, "hera") == ["Centaur@zeus"] and pile(state, "zeus") == []


def test_R_HAD_1_takes_any_card_from_the_own_pile():
    state = position(hera=me("Hades", discard=["Hydra", "Pegasus", "Medusa", "Hydra@zeus", "Satyr"]),
                     zeus=Side(columns=[["Satyr"]]))
    assert {m for m in moves(state) if m.startswith("hades")} == {
        "hades Hydra", "hades Hydra@zeus", "hades Pegasus", "hades Medusa", "hades Satyr"}
    push(state, "hades Medusa")
    assert hand(state, "hera") == ["Medusa"]
    assert pile(state, "hera") == ["Hydra", "Pegasus", "Hydra@zeus", "Satyr", "Hades"]


def test_R_HAD_1_the_topmost_copy_is_taken():
    state = position(hera=me("Hades", discard=["Hydra", "Satyr", "Hydra", "Centaur"]), zeus=Side(columns=[["Satyr"]]))
    bottom, top = state.discards[0][0], state.discards[0][2]
    push(state, "hades Hydra")
    assert top in state.hands[0] and bottom == state.discards[0][0]
    assert pile(state, "hera") == ["Hydra", "Satyr", "Centaur", "Hades"]


def test_R_HAD_1_plain_name_means_own_card_then_other_owner():
    state = position(hera=me("Hades", discard=["Hydra@zeus", "Hydra"]), zeus=Side(columns=[["Satyr"]]))
    push(state, "hades Hydra")
    assert hand(state, "hera") == ["Hydra"] and pile(state, "hera") == ["Hydra@zeus", "Hades"]
    state = position(hera=me("Hades", discard=["Hydra@zeus"]), zeus=Side(columns=[["Satyr"]]))
    assert {m for m in moves(state) if m.startswith("hades")} == {"hades Hydra"}


def test_R_HAD_1_needs_a_card_on_the_pile_and_cannot_take_itself():
    state = position(hera=me("Hades"), zeus=Side(columns=[["Satyr"]], discard=["Hydra"]))
    assert not {m for m in moves(state) if m.startswith("hades")}


def test_R_HAD_1_is_public_and_fine_with_a_full_hand():
    state = position(hera=me("Hades", *TWELVE, discard=["Cyclops"]), zeus=Side(columns=[["Satyr"]]))
    n = len(state.events)
    push(state, "hades Cyclops")
    assert len(hand(state, "hera")) == 12 and "Cyclops" in hand(state, "hera")
    moved = [e for e in state.events[n:] if e.kind == "move" and e.src == ("discard", 0)]
    assert [state.card(e.card).name for e in moved] == ["Cyclops"]


def test_R_HAD_1_god_card_back_lets_the_figure_return():
    state = position(hera=me("Hades", discard=["Hera"], columns=[["Satyr"], ["Hero"], ["Hydra"]]),
                     zeus=Side(columns=[["Satyr"]]))
    push(state, "hades Hera")
    assert {"god c1", "god c2", "god c3"} <= moves(state)


def test_R_PER_1_takes_up_to_three_pegasus_topmost_first():
    state = position(hera=me("Persephone", discard=["Pegasus", "Hydra", "Pegasus@zeus", "Pegasus", "Satyr", "Pegasus"]),
                     zeus=Side(columns=[["Satyr"]]))
    lowest = state.discards[0][0]
    push(state, "persephone")
    assert hand(state, "hera") == ["Pegasus", "Pegasus", "Pegasus@zeus"]
    assert state.discards[0][0] == lowest
    assert pile(state, "hera") == ["Pegasus", "Hydra", "Satyr", "Persephone"]


def test_R_PER_1_stops_at_the_hand_limit():
    state = position(hera=me("Persephone", *TWELVE[:10], discard=["Pegasus", "Pegasus", "Pegasus"]),
                     zeus=Side(columns=[["Satyr"]]))
    assert len(hand(state, "hera")) == 11
    push(state, "persephone")  # 10 after Persephone left: room for 2
    assert len(hand(state, "hera")) == 12 and pile(state, "hera") == ["Pegasus", "Persephone"]
    state = position(hera=me("Persephone", *TWELVE, discard=["Pegasus", "Pegasus"]), zeus=Side(columns=[["Satyr"]]))
    push(state, "persephone")  # a full hand: room for the one card Persephone made
    assert len(hand(state, "hera")) == 12 and pile(state, "hera") == ["Pegasus", "Persephone"]


def test_R_PER_1_legal_with_no_pegasus_on_the_pile():
    state = position(hera=me("Persephone", discard=["Hydra"]), zeus=Side(columns=[["Satyr"]]))
    assert "persephone" in moves(state)
    push(state, "persephone")
    assert hand(state, "hera") == [] and pile(state, "hera") == ["Hydra", "Persephone"]
