"""Why a move is rejected: `why_illegal` names the rule that stops it, in the mover's
words, and never tells the mover anything hidden."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.rules import Game, IllegalMoveError, Record
from hzai.games.hera_zeus.rules.effects import why_illegal
from hzai.games.hera_zeus.rules.moves import parse_move

from .helpers import Side, explicit_setup, position, push


def reason(state, text: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        state.push_text(text)
    return str(caught.value)


BASIC = dict(hera=Side(columns=[["Hydra"], [], ["Satyr"]], hand=["Hydra"]),
             zeus=Side(columns=[["Satyr"], ["Satyr"], []]))


def test_R_ACT_1_draw_empty_deck_or_full_hand():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Io"], deck=[]), zeus=Side(columns=[["Satyr"]]),
                     rest={"hera": "discard", "zeus": "deck"})
    assert reason(state, "draw").endswith("draw: your deck is empty")
    full = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 3
    state = position(hera=Side(columns=[["Satyr"]], hand=full), zeus=Side(columns=[["Satyr"]]))
    assert "your hand is full (12 cards)" in reason(state, "draw")


def test_R_ACT_2_play_full_column_behind_figure_rows_and_myth_cards():
    state = position(hera=Side(columns=[["Satyr"] * 4, ["figure", "Hydra"]], hand=["Hydra", "Sirens"], discard=["Hera"]),
                     zeus=Side(columns=[["Satyr"]]))
    assert "your column c1 is full (4 occupants)" in reason(state, "play Hydra c1r2")
    assert "your figure stands at c2r1: play behind it (r2..r3)" in reason(state, "play Hydra c2r1")
    assert "your column c3 has 0 occupants: play at r1..r1" in reason(state, "play Hydra c3r3")
    assert "Sirens has no strength: myth-only cards are never placed" in reason(state, "play Sirens c3r1")


def test_R_CH_1_R_CH_2_challenge_reasons():
    state = position(**BASIC)
    assert "your column c2 is empty: nothing there to challenge with" in reason(state, "challenge c2")
    assert "Zeus's column c3 is empty" in reason(state, "challenge c3")
    state = position(hera=Side(columns=[["figure", "Hydra"], ["Medusa"], ["Hydra"]], discard=["Hera"]),
                     zeus=Side(columns=[["Satyr"], ["Satyr"], ["figure", "Satyr"]], discard=["Zeus"]))
    assert "your figure stands at c1r1: no challenge through a figure" in reason(state, "challenge c1")
    assert "Zeus's figure stands at c3r1: no challenge through a figure" in reason(state, "challenge c3")
    assert "your Medusa at c2r1 cannot challenge: the hostage, Medusa and Pandora never challenge" \
        in reason(state, "challenge c2")


def test_R_TURN_6_no_challenge_in_the_first_turn():
    state = position(**BASIC, turn=1)
    assert "no challenge in a player's first turn (R-TURN-6)" in reason(state, "challenge c1")


def test_R_PEG_H1_R_PEG_F1_pegasus_reasons():
    state = position(**BASIC)
    assert "you hold no Pegasus" in reason(state, "pegasus hand")
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]), zeus=Side(columns=[["Satyr"]]))
    assert "Zeus's hand is empty" in reason(state, "pegasus hand")
    assert "Zeus's column c2 is empty" in reason(state, "pegasus c2")


def test_R_PEG_H2_place_into_a_full_column_or_before_a_figure():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"] * 4, ["figure", "Satyr"]], hand=["Hydra"], discard=["Zeus"]))
    push(state, "pegasus hand", "chance Hydra")
    assert "Zeus's column c1 is full (4 occupants)" in reason(state, "place c1")
    assert "Zeus's figure stands at c2r1" in reason(state, "place c2")
    assert "hera must first decide 'place'" in reason(state, "draw")


def test_R_PAN_2_top_names_the_lost_cards():
    state = position(hera=Side(columns=[["Hydra", "Satyr"], ["Satyr"]]), zeus=Side(columns=[["Pandora", "Cyclops"], ["Satyr"]]))
    push(state, "challenge c1")
    assert "Hero is not among your lost cards (Cyclops, Pandora)" in reason(state, "top Hero")


def test_R_PYT_pythia_reasons():
    state = position(**BASIC)
    assert "you hold no Pythia" in reason(state, "pythia spy")
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pythia"]), zeus=Side(columns=[["Satyr"]]))
    assert "Zeus's column c3 is empty" in reason(state, "pythia c3")


def test_R_SIR_1_sirens_needs_a_top_card_with_strength():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Sirens"]), zeus=Side(columns=[["Satyr"]]))
    assert "Zeus's discard pile is empty" in reason(state, "sirens")
    state = position(hera=Side(columns=[["Satyr"]], hand=["Sirens"]), zeus=Side(columns=[["Satyr"]], discard=["Pandora"]))
    assert "Sirens: the top of Zeus's discard pile is Pandora (strength 0)" in reason(state, "sirens")
    state = position(hera=Side(columns=[["Satyr"]], hand=["Sirens"]), zeus=Side(columns=[["Satyr"]], discard=["Hades"]))
    assert "is Hades (no strength)" in reason(state, "sirens")


def test_R_HAD_1_R_PER_1_cards_not_held():
    state = position(hera=Side(columns=[["Satyr"]], discard=["Hydra"]), zeus=Side(columns=[["Satyr"]]))
    assert "you hold no Hades" in reason(state, "hades Hydra")
    assert "you hold no Persephone" in reason(state, "persephone")


def test_R_DIO_1_dionysus_reasons():
    state = position(hera=Side(columns=[["figure", "Satyr"], ["Hydra"] * 4, ["Satyr"]], hand=["Dionysus"],
                               discard=["Hera"]), zeus=Side(columns=[["Satyr"]]))
    assert "your c3r2 is empty" in reason(state, "dionysus c3r2 c1r2")
    assert "Dionysus never moves a figure" in reason(state, "dionysus c1r1 c3r1")
    assert "the card already stands at c3r1" in reason(state, "dionysus c3r1 c3r1")
    assert "your column c2 is full (4 occupants)" in reason(state, "dionysus c3r1 c2r1")
    assert "your figure stands at c1r1: no card goes in front of it" in reason(state, "dionysus c3r1 c1r1")
    assert "in your column c1 the card can end at r2..r3" in reason(state, "dionysus c3r1 c1r4")
    state = position(**BASIC)
    assert "you hold no Dionysus" in reason(state, "dionysus c1r1 c2r1")


def test_R_GOD_1_god_card_reasons():
    state = position(hera=Side(columns=[["Satyr"], []], hand=["Hera"]), zeus=Side(columns=[["Satyr"]]))
    assert "your column c2 is empty: the figure goes only into a column with cards" in reason(state, "god c2")
    state = position(hera=Side(columns=[["Satyr"] * 4]), zeus=Side(columns=[["Satyr"]]))
    assert "you do not hold your god card Hera" in reason(state, "god c1")
    state = position(hera=Side(columns=[["Satyr"] * 4], hand=["Hera"]), zeus=Side(columns=[["Satyr"]]))
    assert "your column c1 is full (4 occupants)" in reason(state, "god c1")


def test_R_ACT_5_recall_reasons():
    state = position(**BASIC)
    assert "your figure is not on the field" in reason(state, "recall")
    state = position(hera=Side(columns=[["figure", "Satyr"]], discard=["Hera"]), zeus=Side(columns=[["Satyr"]]),
                     variants={"figure_removal": "pegasus"})
    assert "figure_removal=pegasus" in reason(state, "recall")


def test_R_SETUP_2_setup_reasons():
    game = Game.create()
    hand = ["Hydra", "Cyclops", "Satyr", "Sirens", "Hades", "Persephone", "Dionysus", "Pegasus", "Pythia"]
    state = Record(game, setup=explicit_setup(game, hand, hand[:8] + ["Medusa"])).start()
    assert "you hold no Centaur" in reason(state, "setup Centaur Hydra Satyr")
    assert "Sirens has no strength" in reason(state, "setup Sirens Hydra Satyr")
    assert "you hold 1 Hydra, not 2" in reason(state, "setup Hydra Hydra Satyr")
    assert "every column needs a card while you hold 5 placeable cards (R-SETUP-2)" in reason(state, "setup Hydra - Satyr")


def test_R_INFO_reasons_tell_only_what_the_mover_knows():
    """A challenge into Zeus's face-down card is refused for public reasons only, and a
    reason never names a face-down card of the opponent."""
    state = position(hera=Side(columns=[["Io"], ["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Argus"], ["figure", "Hydra"], ["Cyclops"]], discard=["Zeus"]))
    hidden = {"Argus", "Hydra", "Cyclops"}
    for text in ("challenge c1", "challenge c2", "challenge c3", "pegasus hand", "pythia c1", "sirens", "place c1"):
        why = why_illegal(state, parse_move(text, state.deck))
        assert not any(name in why for name in hidden), (text, why)


def test_a_play_out_of_turn_says_nothing_of_the_turn_players_hand():
    # Zeus must decide 'top' in Hera's turn; his 'play Hydra' is refused the same way
    # whether Hera holds a Hydra or not.
    reasons = set()
    for hand in ([], ["Hydra"]):
        state = position(hera=Side(columns=[["Hydra", "Satyr"], ["Satyr"]], hand=hand),
                         zeus=Side(columns=[["Pandora", "Cyclops"], ["Satyr"]], hand=["Satyr"]))
        push(state, "challenge c1")
        assert state.to_move == 1 and state.turn_player == 0
        reasons.add(reason(state, "play Hydra c2r2"))
    assert reasons == {"play Hydra c2r2: no Hydra in zeus's hand"}
