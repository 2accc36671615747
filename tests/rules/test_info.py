"""R-INFO as far as the engine shows it: the state JSON and the event log.

Player views are built elsewhere from `State.events`; here we check that the log says
who may see what (a reveal to one player or to both) and that the state JSON exposes
only what R-INFO-1 makes public besides the referee's card names.
"""

from __future__ import annotations

from .helpers import HERA, Side, js, moves, pile, position, push, reveals


def test_R_INFO_1_public_facts_are_in_the_state_json():
    state = position(hera=Side(columns=[["figure", "Hydra*"], ["Satyr"]], hand=["Pegasus", "Hero"],
                               discard=["Hera", "Satyr", "Centaur"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Cyclops"], discard=["Medusa"]))
    side = js(state)["sides"]["hera"]
    assert side["figure"] == "c1"
    assert side["discard"] == ["Hera", "Satyr", "Centaur"]  # in full and in order
    assert side["deck_size"] == 43 - 2 - 2 - 3 and len(side["hand"]) == 2
    assert side["columns"][0][1] == {"card": "Hydra", "owner": "hera", "face_up": True}


def test_R_INFO_1_the_card_pegasus_drew_is_shown_to_both():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Sirens", "Hydra"]))
    push(state, "pegasus hand")
    n = len(state.events)
    push(state, "chance Sirens")
    shown = reveals(state, n)
    assert [(state.card(e.card).name, e.to) for e in shown] == [("Sirens", None)]


def test_R_INFO_2_face_down_plays_reveal_nothing_and_deck_order_is_not_shown():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Hydra", "Pythia"]), zeus=Side(columns=[["Satyr"]]))
    n = len(state.events)
    push(state, "play Hydra c1r2")
    assert reveals(state, n) == []
    assert "deck" not in js(state)["sides"]["hera"] and "deck" not in js(state)["sides"]["zeus"]


def test_R_INFO_3_spy_shows_the_hand_only_to_the_spy():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Pythia"]), zeus=Side(columns=[["Satyr"]],
                     hand=["Hydra", "Hero"]))
    n = len(state.events)
    push(state, "pythia spy")
    assert {e.to for e in reveals(state, n)} == {HERA} and len(reveals(state, n)) == 2


def test_R_INFO_3_moved_face_down_card_keeps_its_identity_in_the_log():
    state = position(hera=Side(columns=[["Satyr", "Hydra"], ["Satyr"]], hand=["Dionysus"]), zeus=Side(columns=[["Satyr"]]))
    hydra = state.columns[0][0][1]
    n = len(state.events)
    push(state, "dionysus c1r2 c2r1")
    assert state.columns[0][1][0] == hydra
    moved = [e for e in state.events[n:] if e.kind == "move" and e.card == hydra]
    assert moved[0].src == ("field", 0) and moved[-1].dst == ("field", 0)
    assert reveals(state, n) == []


def test_R_INFO_3_sirens_card_is_logged_from_the_public_pile():
    state = position(hera=Side(columns=[["Satyr"], ["Satyr"]], hand=["Sirens"]), zeus=Side(columns=[["Satyr"]],
                     discard=["Hydra"]))
    taken = state.discards[1][-1]
    n = len(state.events)
    push(state, "sirens")
    assert any(e.kind == "move" and e.card == taken and e.src == ("discard", 1) and e.dst == ("hand", 0)
               for e in state.events[n:])
    assert pile(state, "zeus") == []


def test_R_INFO_4_the_movers_options_do_not_depend_on_hidden_opponent_cards():
    """A bot choosing among legal moves cannot tell apart positions that look the same to it."""
    def build(zeus_front, zeus_hand, zeus_deck):
        return position(hera=Side(columns=[["Hydra"], ["Satyr"]], hand=["Pegasus", "Pythia", "Sirens"]),
                        zeus=Side(columns=[[zeus_front, "Centaur"], ["Satyr"]], hand=zeus_hand, deck=zeus_deck,
                                  discard=["Hero"]))

    a = build("Medusa", ["Argus", "Poseidon"], ["Pandora"])
    b = build("Pandora", ["Hydra", "Sirens"], ["Medusa"])
    assert moves(a) == moves(b)
