"""The position builder used by the rule tests: it accounts for every card and checks
its input (not a rule of the game; R-DECK-1 counts and R-TURN-1 parity are what it checks)."""

from __future__ import annotations

from collections import Counter

import pytest

from hzai.games.hera_zeus.rules.position import PositionError

from .helpers import Side, js, position


def test_position_accounts_for_all_86_cards_once():
    state = position(hera=Side(columns=[["figure", "Hydra*"], ["Satyr@zeus"]], hand=["Pegasus", "Hydra@zeus"],
                               deck=["Cyclops"], discard=["Hera", "Medusa"]),
                     zeus=Side(columns=[["Argus"]], hand=["Sirens"], discard=["Zeus"]), to_move="zeus", turn=6, ap=2)
    places = state.hands[0] + state.hands[1] + state.decks[0] + state.decks[1] + state.discards[0] + state.discards[1]
    places += state.side_cards(0) + state.side_cards(1)
    assert Counter(places) == Counter(range(86))
    assert state.decks[0][0] == next(x for x in state.decks[0] if state.card(x).name == "Cyclops")
    j = js(state)
    assert (j["turn"], j["to_move"], j["ap_left"]) == (6, "zeus", 2)


def test_position_rest_to_discard_keeps_the_hostage_in_the_deck():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), rest="discard")
    assert [state.card(x).name for x in state.decks[0]] == ["Io"]
    assert len(state.discards[0]) == 41


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hera=Side(columns=[["Sirens"]])), "never placed"),
        (dict(hera=Side(columns=[["Satyr", "figure"]])), "only stands at r1"),
        (dict(hera=Side(columns=[["figure", "Satyr"]])), "god card"),
        (dict(hera=Side(columns=[["Satyr"] * 5])), "at most 4"),
        (dict(hera=Side(columns=[["Satyr"]], hand=["Pegasus"] * 6)), "too many Pegasus"),
        (dict(hera=Side(columns=[["Satyr"]], hand=["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 4)), "too many|at most 12"),
        (dict(hera=Side(columns=[["Satyr"]], hand=["Argus"])), "not a card of hera"),
        (dict(hera=Side(columns=[["Satyr"]], hand=["Unicorn"])), "unknown card"),
        (dict(hera=Side(columns=[["Satyr"]], deck=["Hydra@zeus"])), "deck"),
        (dict(hera=Side(columns=[["Satyr"]], discard=["Io"])), "hostage"),
        (dict(hera=Side(columns=[["Satyr"]], hand=["Hydra*"])), "face up"),
        (dict(hera=Side(columns=[["Satyr"]]), turn=4), "turn 4"),
        (dict(hera=Side(columns=[["Satyr"]]), ap=5), "ap must be"),
    ],
)
def test_position_rejects_inconsistent_descriptions(kwargs, message):
    kwargs.setdefault("zeus", Side(columns=[["Satyr"]]))
    with pytest.raises(PositionError, match=message):
        position(**kwargs)


def test_position_built_stuck_is_already_lost():
    state = position(hera=Side(columns=[["Medusa", "Io"]]), zeus=Side(columns=[["Satyr"]]),
                     rest={"hera": "discard", "zeus": "deck"})
    assert js(state)["winner"] == "zeus" and js(state)["reason"] == "no_action"
