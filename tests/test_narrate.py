"""hzai.games.hera_zeus.narrate: every kind of move told in words from one seat's side, and never a
card that seat cannot see (docs/rules.md R-INFO)."""

from __future__ import annotations

import re

import pytest

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.narrate import narrate
from hzai.rng import SplitMix64
from hzai.games.hera_zeus.rules import Game, Record, deal, parse_move
from tests.rules.helpers import HERA, ZEUS, Side, position

SPECTATOR = None


def told(state, text: str, seat) -> list[str]:
    """Push `text` on `state` and narrate it for `seat`."""
    before = state.copy()
    move = parse_move(text, state.deck)
    state.push(move)
    return narrate(before, move, state, seat)


def both(state, text: str) -> tuple[str, str, str]:
    """The narration of one move for Hera, Zeus and a spectator, each joined in one line."""
    out = []
    for seat in (HERA, ZEUS, SPECTATOR):
        trial = state.copy()
        out.append(" | ".join(told(trial, text, seat)))
    state.push_text(text)
    return tuple(out)


# ----- challenges (R-CH, R-MED, R-PAN, R-PYT-3, R-END-3) --------------------------------
def test_R_CH_3_challenge_shows_both_cards_and_who_lost():
    state = position(hera=Side(columns=[["Hydra"], ["Satyr"]]), zeus=Side(columns=[["Centaur"], ["Satyr"]]))
    hera, zeus, public = both(state, "challenge c1")
    assert "You challenge in c1: your Hydra (5) against Zeus's Centaur (4)." in hera
    assert "Zeus's Centaur is discarded; your Hydra stays face up at c1r1." in hera
    assert "Hera challenges in c1: Hera's Hydra (5) against your Centaur (4)." in zeus
    assert "Your Centaur is discarded" in zeus
    assert "Hera's Hydra (5) against Zeus's Centaur (4)" in public


def test_R_CH_3_equal_strength_discards_both():
    state = position(hera=Side(columns=[["Satyr"], ["Hydra"]]), zeus=Side(columns=[["Satyr"], ["Hydra"]]))
    hera, _, _ = both(state, "challenge c1")
    assert "Equal strength: both Satyr and Satyr are discarded." in hera


def test_R_MED_1_medusa_both_ways():
    state = position(hera=Side(columns=[["Hydra"], ["Hero"]]), zeus=Side(columns=[["Medusa"], ["Satyr"]]))
    hera, _, _ = both(state, "challenge c1")
    assert "Medusa turns your Hydra to stone: it is discarded, Medusa stays face up." in hera
    state = position(hera=Side(columns=[["Hero"]]), zeus=Side(columns=[["Medusa"]]))
    hera, zeus, _ = both(state, "challenge c1")
    assert "Hero slays Medusa: Zeus's Medusa is discarded, your Hero stays face up at c1r1." in hera
    assert "your Medusa is discarded" in zeus


def test_R_PYT_3_pythia_beats_poseidon():
    state = position(hera=Side(columns=[["Pythia"]]), zeus=Side(columns=[["Poseidon"]]))
    hera, _, _ = both(state, "challenge c1")
    assert "your Pythia (1) against Zeus's Poseidon (7)" in hera and "Pythia beats Poseidon" in hera


def test_R_PAN_1_pandora_wipe_lists_every_lost_card_of_both_sides():
    state = position(hera=Side(columns=[["Hydra", "Satyr"], ["Satyr"]]),
                     zeus=Side(columns=[["Pandora", "Cyclops"], ["Satyr"]]))
    hera, zeus, _ = both(state, "challenge c1")
    assert "Pandora's box opens: column c1 is wiped on both sides" in hera
    assert "Zeus lost: Cyclops, Pandora." in hera and "You lost: Hydra, Satyr." in hera
    assert "You lost: Cyclops, Pandora." in zeus and "Hera lost: Hydra, Satyr." in zeus
    assert "You choose which of your lost cards lies on top of your discard pile." in zeus


def test_R_END_3_hostage_found_names_the_hostage_and_the_slot():
    state = position(hera=Side(columns=[["Satyr"], ["Hydra"]]), zeus=Side(columns=[["Centaur"], ["Argus"]]))
    hera, zeus, public = both(state, "challenge c2")
    assert "Game over: You found Zeus's hostage Argus at c2r1. You win!" in hera
    assert "Game over: Hera found your hostage Argus at c2r1. Hera wins." in zeus
    assert "Hera found Zeus's hostage Argus at c2r1. Hera wins." in public


# ----- Pegasus (R-PEG) ------------------------------------------------------------------
def test_R_PEG_H2_hand_draw_placed_or_discarded():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus", "Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Hydra", "Sirens"]), ap=3)
    hera, zeus, _ = both(state, "pegasus hand")
    assert "You play Pegasus against Zeus's hand (2 cards): one is drawn at random." in hera
    hera, zeus, _ = both(state, "chance Hydra")
    assert "Pegasus draws Hydra from Zeus's hand." in hera
    assert "You choose a column of Zeus's side for Hydra: it goes face up at r1." in hera
    assert "Pegasus draws Hydra from your hand." in zeus
    hera, zeus, _ = both(state, "place c2")
    assert "You place Hydra face up at Zeus's c2r1." in hera and "Hera places Hydra face up at your c2r1." in zeus
    both(state, "pegasus hand")
    hera, _, _ = both(state, "chance Sirens")
    assert "Pegasus draws Sirens from Zeus's hand. | Sirens is discarded." in hera


def test_R_PEG_H2_pandora_in_the_hand_empties_it():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Pandora", "Hydra", "Harpy"]))
    both(state, "pegasus hand")
    hera, _, _ = both(state, "chance Pandora")
    assert "Pandora empties Zeus's whole hand onto his discard pile: Hydra, Harpy, Pandora." in hera


def test_R_PEG_H2_hostage_drawn_from_the_hand_ends_the_game():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"]), zeus=Side(columns=[["Satyr"]], hand=["Argus"]))
    both(state, "pegasus hand")
    _, zeus, _ = both(state, "chance Argus")
    assert "Game over: Hera's Pegasus drew your hostage Argus from your hand. Hera wins." in zeus


def test_R_PEG_F2_front_challenge_outcomes():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pegasus"] * 3),
                     zeus=Side(columns=[["figure", "Hydra"], ["Pythia"], ["Hydra"]], discard=["Zeus"]), ap=3)
    hera, zeus, _ = both(state, "pegasus c1")
    assert "Zeus's figure goes back off the field" in hera and "your figure goes back off the field" in zeus
    hera, _, _ = both(state, "pegasus c2")
    assert "it is Pythia (1). | Zeus's Pythia is discarded." in hera
    hera, _, _ = both(state, "pegasus c3")
    assert "it is Hydra (5). | Hydra stays, face up." in hera


# ----- Pythia, Sirens, Hades, Persephone, Dionysus (R-PYT, R-SIR, R-HAD, R-PER, R-DIO) ----
def test_R_PYT_1_spy_sees_the_hand_the_spied_player_is_told_only():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pythia"]),
                     zeus=Side(columns=[["Satyr"]], hand=["Hydra", "Poseidon", "Sirens"]))
    hera, zeus, public = both(state, "pythia spy")
    assert "You play Pythia and see Zeus's hand: Hydra, Poseidon, Sirens." in hera
    assert "Hera plays Pythia and sees your whole hand (3 cards)." in zeus
    assert "Hydra" not in zeus and "Sirens" not in zeus.replace("your", "")
    assert "Hydra" not in public and "Sirens" not in public
    for text in (hera, zeus, public):
        assert "Pythia discards Poseidon" in text  # onto the open discard pile


def test_R_PYT_2_turn_over_names_the_cards_turned():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Pythia"]), zeus=Side(columns=[["Hydra*", "Satyr", "Hero"]]))
    hera, zeus, _ = both(state, "pythia c1")
    assert "turned face up: Satyr at c1r2, Hero at c1r3." in hera and "Hydra at" not in hera
    assert "Hera plays Pythia on your column c1" in zeus


def test_R_SIR_R_HAD_R_PER_cards_back_to_a_hand():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Sirens", "Hades", "Persephone"],
                               discard=["Pegasus", "Hydra", "Pegasus"]),
                     zeus=Side(columns=[["Satyr"]], discard=["Cyclops"]), ap=3)
    hera, zeus, _ = both(state, "sirens")
    assert "You play Sirens and take Cyclops from the top of Zeus's discard pile into your hand." in hera
    assert "from the top of your discard pile into her hand" in zeus
    hera, _, _ = both(state, "hades Hydra")
    assert "You play Hades and take Hydra back from your discard pile." in hera
    hera, zeus, _ = both(state, "persephone")
    assert "You play Persephone and take back 2 Pegasus from your discard pile." in hera


def test_R_DIO_1_the_opponent_sees_a_face_down_card_move_but_not_which():
    state = position(hera=Side(columns=[["Satyr", "Hydra"]], hand=["Dionysus"]), zeus=Side(columns=[["Satyr"]]))
    hera, zeus, _ = both(state, "dionysus c1r2 c2r1")
    assert "You play Dionysus: your Hydra moves from c1r2 to c2r1." in hera
    assert "Hera plays Dionysus: a face-down card moves from c1r2 to c2r1." in zeus


# ----- actions, god card, end (R-ACT, R-GOD, R-END) --------------------------------------
def test_R_ACT_1_draw_the_drawer_sees_the_card_the_other_only_a_draw():
    state = position(hera=Side(columns=[["Satyr"]], deck=["Cyclops"]), zeus=Side(columns=[["Satyr"]]))
    hera, zeus, public = both(state, "draw")
    assert hera.startswith("You draw Cyclops")
    assert zeus.startswith("Hera draws a card (1 in her hand).") and "Cyclops" not in zeus + public


def test_R_ACT_2_play_face_down_hides_the_card_unless_sirens_took_it_from_you():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hydra", "Cyclops@zeus"]), zeus=Side(columns=[["Satyr"]]), ap=2)
    hera, zeus, _ = both(state, "play Hydra c1r2")
    assert "You play Hydra face down at c1r2." in hera and "Hera plays a card face down at c1r2." in zeus
    _, zeus, public = both(state, "play Cyclops c2r1")
    assert "Hera plays your Cyclops face down at c2r1." in zeus and "Cyclops" not in public


def test_R_GOD_and_R_ACT_5_figure_comes_and_goes():
    state = position(hera=Side(columns=[["Satyr"]], hand=["Hera"]), zeus=Side(columns=[["Satyr"]]), ap=1)
    hera, zeus, _ = both(state, "god c1")
    assert "You play the god card Hera (no AP): your figure stands at c1r1; 4 AP left this turn." in hera
    assert "Hera plays the god card Hera (no AP): her figure stands at c1r1" in zeus
    _, zeus, _ = both(state, "recall")
    assert "Hera recalls her figure from c1." in zeus


def test_R_END_2_no_card_left_at_the_start_of_the_turn():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["figure"], []], hand=["Hydra"], discard=["Zeus"]),
                     ap=1)
    _, zeus, _ = both(state, "draw")
    assert "Game over: You had no card left on your side at the start of your turn. Hera wins." in zeus


def test_R_END_1_no_legal_action_with_ap_left():
    full = [["Io", "Cyclops", "Cyclops", "Cyclops"], ["Medusa", "Hero", "Hero", "Harpy"],
            ["Pandora", "Harpy", "Harpy", "Amazon"]]
    hand_11 = ["Hydra"] * 4 + ["Centaur"] * 5 + ["Satyr"] * 2
    state = position(hera=Side(columns=full, hand=hand_11, deck=["Satyr"]), zeus=Side(columns=[["Satyr"]]))
    _, zeus, _ = both(state, "draw")
    assert "Game over: Hera had 2 AP left and no legal action. You win!" in zeus


def test_R_TURN_7_turn_limit_draw_and_the_next_turn_is_announced():
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), ap=1)
    hera, _, _ = both(state, "draw")
    assert hera.endswith("Turn 4: Zeus's turn, 1 AP.")
    state = position(hera=Side(columns=[["Satyr"]]), zeus=Side(columns=[["Satyr"]]), ap=1,
                     variants={"turn_limit": 3})
    hera, _, _ = both(state, "draw")
    assert "Game over: The turn limit (3 turns) was reached. The game is drawn." in hera


def test_R_SETUP_2_setup_hidden_from_the_other_seat():
    game = Game.create()
    state = Record(game, setup=deal(game, 3)).start()
    move = state.legal_moves()[0]
    hera, zeus, _ = both(state, str(move))
    assert hera.startswith("You set up your front row face down: c1 ")
    assert zeus == "Hera sets up 3 face-down cards (c1, c2, c3)."


# ----- the property: no name a seat cannot see ------------------------------------------
NAMES = sorted({c.name for c in Game.create().deck.cards} - {"Hera", "Zeus"})  # also player names
WORD = re.compile(r"\b(" + "|".join(NAMES) + r")\b")


def visible_names(state, seat) -> set[str]:
    """Names whose card the seat may know somewhere: its view's known cards, both
    discard piles, a pending card; for a spectator the face-up and discarded cards."""
    if seat is None:
        names = {state.card(x).name for x in state.face_up}
        return names | {state.card(x).name for pile in state.discards for x in pile}
    view = view_of(state, seat)
    names = {n for pile in view.discards for n, _ in pile}
    for slots in [s for side in view.columns for col in side for s in col] + [s for h in view.hands for s in h]:
        if slots.card is not None:
            names.add(slots.card[0])
    names |= {p["card"]["card"] for p in view.pending if "card" in p}
    names |= {n for g in view.groups for n, k in g.known.items() if k}  # e.g. a spied hand
    return names


def random_games(count: int):
    """(before, move, after) of every move of `count` seeded random games."""
    for seed in range(count):
        game = Game.create()
        state = Record(game, setup=deal(game, 100 + seed)).start()
        rng = SplitMix64(seed)
        while not state.is_over:
            options = [m for m, _ in state.chance_outcomes()] if state.is_chance else state.legal_moves()
            move = options[rng.below(len(options))]
            before = state.copy()
            state.push(move)
            yield before, move, state


@pytest.mark.parametrize("seat", [HERA, ZEUS, SPECTATOR])
def test_R_INFO_narration_never_names_a_card_the_seat_cannot_see(seat):
    checked = 0
    for before, move, after in random_games(12):
        allowed = visible_names(before, seat) | visible_names(after, seat)
        for line in narrate(before, move, after, seat):
            leaked = set(WORD.findall(line)) - allowed
            assert not leaked, (str(move), line, leaked)
            checked += 1
        mover = before.to_move
        if move.kind in ("setup", "play") and mover is not None and mover != seat:
            # the face-down card of the other player is never named (unless it is the seat's own)
            card = None if move.kind == "setup" else before.resolve_ref(move.card, before.hands[mover], mover)
            if card is None or before.card(card).owner != seat:
                assert not WORD.findall(narrate(before, move, after, seat)[0]), str(move)
    assert checked > 1000
