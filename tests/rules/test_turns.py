"""R-TURN: alternation, AP, spending them all, first-turn bans, the turn limit."""

from __future__ import annotations

from hzai.games.hera_zeus.rules import Game, Record
from hzai.games.hera_zeus.rules.playout import random_step
from hzai.rng import SplitMix64

from .helpers import Side, js, kinds, moves, position, push, result


def test_R_TURN_1_hera_moves_first_and_turns_alternate():
    record = Record(Game.create(), seed=11)
    state = record.start()
    rng = SplitMix64(5)
    seen = {}
    while not state.is_over and state.turn < 12:
        if state.phase == "play":
            seen.setdefault(state.turn, js(state)["turn_player"])
        random_step(state, rng)
    assert seen[1] == "hera"
    for turn, player in seen.items():
        assert player == ("hera" if turn % 2 else "zeus"), turn


def test_R_TURN_2_no_card_on_own_side_at_turn_start_loses():
    # Hera kept only her figure; Zeus ends his turn: Hera loses before acting.
    state = position(
        hera=Side(columns=[["figure"]], hand=["Hydra"], discard=["Hera"]),
        zeus=Side(columns=[["Satyr"]]), to_move="zeus", turn=8, ap=1,
    )
    push(state, "draw")
    assert result(state) == ("zeus", "no_cards")
    assert js(state)["turn"] == 9


def test_R_TURN_2_a_card_anywhere_on_the_side_is_enough():
    state = position(hera=Side(columns=[[], [], ["Satyr"]]), zeus=Side(columns=[["Satyr"]]), to_move="zeus", ap=1)
    push(state, "draw")
    assert result(state) == (None, None) and js(state)["to_move"] == "hera"


def _ap_at_next_turn(hera_columns):
    state = position(hera=Side(columns=hera_columns, discard=["Hera"] if "figure" in str(hera_columns) else []),
                     zeus=Side(columns=[["Satyr"]]), to_move="zeus", ap=1)
    push(state, "draw")
    assert js(state)["to_move"] == "hera"
    return js(state)["ap_left"]


def test_R_TURN_3_ap_is_the_number_of_non_empty_columns_or_4_with_the_figure():
    assert _ap_at_next_turn([["Satyr"]]) == 1
    assert _ap_at_next_turn([["Satyr"], [], ["Hydra", "Hero"]]) == 2
    assert _ap_at_next_turn([["Satyr"], ["Io"], ["Hydra", "Hero"]]) == 3
    assert _ap_at_next_turn([["figure", "Satyr"]]) == 4
    assert _ap_at_next_turn([["figure"], ["Satyr"]]) == 4


def test_R_TURN_4_each_action_costs_one_ap_and_actions_repeat():
    state = position(hera=Side(columns=[["Satyr"], ["Hydra"], ["Hero"]], hand=["Centaur", "Centaur"]),
                     zeus=Side(columns=[["Satyr"], ["Satyr"], ["Satyr"]]))
    assert js(state)["ap_left"] == 3
    push(state, "draw")
    assert js(state)["ap_left"] == 2
    push(state, "draw")  # the same action again
    assert js(state)["ap_left"] == 1
    push(state, "play Centaur c1r2")
    assert js(state)["turn_player"] == "zeus" and js(state)["turn"] == 4  # AP 0: the turn ended


def test_R_TURN_4_the_god_card_costs_nothing():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hera"]), zeus=Side(columns=[["Satyr"]]))
    assert js(state)["ap_left"] == 1
    push(state, "god c1")
    assert js(state)["ap_left"] == 4 and js(state)["turn_player"] == "hera"


def test_R_TURN_5_ap_left_and_no_legal_action_loses_at_once():
    # Hera draws her last card (a Sirens with nothing to take); 1 AP is left and nothing is legal.
    state = position(
        hera=Side(columns=[["Medusa", "Io"], ["Pandora"]], deck=["Sirens"]),
        zeus=Side(columns=[["Satyr"]]), rest={"hera": "discard", "zeus": "deck"},
    )
    assert js(state)["sides"]["zeus"]["discard"] == []
    assert moves(state) == {"draw"}
    push(state, "draw")
    assert result(state) == ("zeus", "no_action")
    assert js(state)["ap_left"] == 1 and js(state)["turn"] == 3


def test_R_TURN_6_no_challenge_in_the_first_turns_but_pythia_is_allowed():
    for turn, player in ((1, "hera"), (2, "zeus")):
        me = Side(columns=[["Hydra"], ["Satyr"]], hand=["Pegasus", "Pythia"])
        other = Side(columns=[["Satyr"], ["Hydra"]], hand=["Centaur"])
        sides = {"hera": me, "zeus": other} if player == "hera" else {"hera": other, "zeus": me}
        state = position(**sides, to_move=player, turn=turn)
        found = moves(state)
        assert not {m for m in found if m.startswith(("challenge", "pegasus"))}, turn
        assert "pythia spy" in found and "pythia c1" in found, turn
        later = position(**sides, to_move=player, turn=turn + 2)
        assert {"challenge c1", "challenge c2", "pegasus hand", "pegasus c1"} <= moves(later), turn


def test_R_TURN_7_the_game_is_drawn_when_the_last_turn_ends():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]),
                     to_move="zeus", turn=10, ap=1, variants={"turn_limit": 10})
    push(state, "draw")
    j = js(state)
    assert (j["winner"], j["reason"], j["turn"], j["to_move"]) == ("draw", "turn_limit", 10, None)


def test_R_TURN_7_a_win_in_the_last_turn_is_a_win():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Hydra"]]),
                     to_move="hera", turn=9, ap=1, variants={"turn_limit": 9})
    push(state, "challenge c1")
    # the challenge lost Hera her last card, but the limit ends the game first as a draw
    assert result(state) == ("draw", "turn_limit")
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Argus"]]),
                     to_move="hera", turn=9, ap=1, variants={"turn_limit": 9})
    push(state, "challenge c1")
    assert result(state) == ("hera", "hostage_found")


def test_R_TURN_7_default_limit_is_200():
    assert Game.create().variants.turn_limit == 200
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), to_move="hera", turn=199, ap=1)
    push(state, "draw")
    assert result(state) == (None, None) and js(state)["turn"] == 200
    push(state, "draw")
    assert result(state) == ("draw", "turn_limit")


def test_R_TURN_8_turn_passes_at_once_when_ap_reach_zero():
    state = position(hera=Side(columns=[["Satyr"], ["Hydra"]]), zeus=Side(columns=[["Satyr"], [], ["Hero"]]), ap=1)
    push(state, "draw")
    j = js(state)
    assert (j["turn"], j["turn_player"], j["to_move"], j["ap_left"]) == (4, "zeus", "zeus", 2)


def test_R_TURN_8_next_player_without_legal_action_loses_at_once():
    # Zeus: deck and hand empty, only Medusa and Argus on the side: nothing he may do.
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Medusa", "Argus"]]), ap=1,
                     rest={"hera": "deck", "zeus": "discard"})
    push(state, "draw")
    j = js(state)
    assert (j["winner"], j["reason"], j["turn"]) == ("hera", "no_action", 4)


def test_R_TURN_8_pending_decision_comes_before_the_turn_passes():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Hydra"]), ap=1)
    push(state, "pegasus hand")
    assert js(state)["to_move"] is None and js(state)["turn"] == 3  # chance first
    push(state, "chance Hydra")
    j = js(state)
    assert (j["turn"], j["to_move"], j["ap_left"]) == (3, "hera", 0)
    assert moves(state) == {"place c1", "place c2", "place c3"}
    push(state, "place c2")
    assert js(state)["turn"] == 4 and js(state)["to_move"] == "zeus"


def test_R_TURN_7_the_limit_is_checked_before_the_next_turn_starts():
    # Hera would lose at the start of turn 11 (no card, R-TURN-2), but turn 10 was the last
    state = position(hera=Side(columns=[["figure"]], discard=["Hera"]), zeus=Side(columns=[["Satyr"]]),
                     to_move="zeus", turn=10, ap=1, variants={"turn_limit": 10})
    push(state, "draw")
    assert result(state) == ("draw", "turn_limit")
    state = position(hera=Side(columns=[["figure"]], discard=["Hera"]), zeus=Side(columns=[["Satyr"]]),
                     to_move="zeus", turn=10, ap=1, variants={"turn_limit": 11})
    push(state, "draw")
    assert result(state) == ("zeus", "no_cards") and js(state)["turn"] == 11
