"""R-VAR: first_player, figure_removal, pythia_defence, turn_limit, deck."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.rules import Game, VariantError

from .helpers import Side, column, hand, js, moves, pile, position, push, record, result

HERA_9 = ["Hydra", "Cyclops", "Satyr", "Centaur", "Hero", "Pegasus", "Pythia", "Hades", "Dionysus"]
ZEUS_9 = ["Hydra", "Hydra", "Satyr", "Centaur", "Medusa", "Pegasus", "Sirens", "Persephone", "Dionysus"]


def test_R_VAR_first_player_zeus_hera_still_sets_up_first():
    """R-VAR first_player=zeus (R-TURN-1): Zeus plays turn 1, Hera turn 2; both are first turns."""
    state = record(HERA_9, ZEUS_9, variants={"first_player": "zeus"}).start()
    assert js(state)["to_move"] == "hera"
    push(state, "setup Hydra Cyclops Satyr", "setup Hydra Satyr Centaur")
    j = js(state)
    assert (j["turn"], j["turn_player"], j["ap_left"]) == (1, "zeus", 3)
    assert not {m for m in moves(state) if m.startswith(("challenge", "pegasus"))}
    push(state, "draw", "draw", "draw")
    j = js(state)
    assert (j["turn"], j["turn_player"]) == (2, "hera")
    assert not {m for m in moves(state) if m.startswith(("challenge", "pegasus"))}
    assert "pythia spy" in moves(state)
    push(state, "draw", "draw", "draw")
    assert js(state)["turn_player"] == "zeus" and js(state)["turn"] == 3
    assert {"challenge c1", "pegasus hand", "pegasus c1"} <= moves(state)


def test_R_VAR_first_player_zeus_in_positions():
    with pytest.raises(ValueError, match="turn 3"):
        position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), to_move="hera", turn=3,
                 variants={"first_player": "zeus"})
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), to_move="zeus", turn=3, ap=1,
                     variants={"first_player": "zeus"})
    push(state, "draw")
    assert js(state)["turn_player"] == "hera" and js(state)["turn"] == 4


def test_R_VAR_figure_removal_pegasus_needs_and_spends_a_pegasus():
    """R-VAR figure_removal=pegasus (R-ACT-5)."""
    base = dict(columns=[["figure", "Satyr"], ["Hydra"]], discard=["Hera"])
    state = position(hera=Side(**base, hand=["Hydra"]), zeus=Side(columns=[["Satyr"]]),
                     variants={"figure_removal": "pegasus"})
    assert "recall" not in moves(state)
    state = position(hera=Side(**base, hand=["Pegasus@zeus", "Pegasus"]), zeus=Side(columns=[["Satyr"]]),
                     variants={"figure_removal": "pegasus"})
    assert "recall" in moves(state)
    push(state, "recall")
    j = js(state)
    assert j["sides"]["hera"]["figure"] is None and j["ap_left"] == 3
    assert column(state, "hera", 1) == ["Satyr"]
    assert hand(state, "hera") == ["Pegasus@zeus"]  # the own Pegasus goes first
    assert pile(state, "hera") == ["Hera", "Pegasus"]


def test_R_VAR_figure_removal_action_needs_no_pegasus():
    state = position(hera=Side(columns=[["figure", "Satyr"]], hand=["Pegasus"], discard=["Hera"]),
                     zeus=Side(columns=[["Satyr"]]))
    push(state, "recall")
    assert hand(state, "hera") == ["Pegasus"] and pile(state, "hera") == ["Hera"]


def test_R_VAR_pythia_defence_always_loses():
    """R-VAR pythia_defence (R-CH-3.5): Satyr v Pythia is decided anyway; Pegasus v Pythia is not."""
    for variant, expected in (("normal", []), ("always_loses", ["Pegasus*"])):
        state = position(hera=Side(columns=[["Pegasus"], ["Satyr"]]), zeus=Side(columns=[["Pythia"]]),
                         variants={"pythia_defence": variant})
        push(state, "challenge c1")
        assert column(state, "hera", 1) == expected, variant


def test_R_VAR_turn_limit_in_a_record():
    """R-VAR turn_limit (R-TURN-7)."""
    rec = record(HERA_9, ZEUS_9, ["setup Hydra Cyclops Satyr", "setup Hydra Satyr Centaur",
                                  "draw", "draw", "draw", "draw", "draw", "draw"], variants={"turn_limit": 2})
    state = rec.replay()
    assert result(state) == ("draw", "turn_limit") and js(state)["turn"] == 2


def test_R_VAR_deck_default_is_classic_and_unknown_values_are_rejected():
    """R-VAR deck (see also R-DECK-2 for a deck file) and the value checks."""
    assert Game.create().deck_spec == "classic" and Game.create().variants.to_dict() == {
        "first_player": "hera", "figure_removal": "action", "pythia_defence": "normal", "turn_limit": 200}
    for bad in ({"first_player": "athena"}, {"figure_removal": "never"}, {"pythia_defence": "strong"},
                {"turn_limit": 0}, {"turn_limit": True}, {"colour": "red"}):
        with pytest.raises(VariantError):
            Game.create(bad)
