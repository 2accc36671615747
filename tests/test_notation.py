"""Move notation of docs/notation.md: every form parses, prints back, and bad text is named."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.cards import load_deck
from hzai.games.hera_zeus.rules import CardRef, Move, NotationError, parse_move
from hzai.games.hera_zeus.rules import moves as mv

DECK = load_deck()

EXAMPLES = {
    "setup Hydra Cyclops Satyr": Move(mv.SETUP, setup=(CardRef("Hydra"), CardRef("Cyclops"), CardRef("Satyr"))),
    "setup Hydra - Satyr": Move(mv.SETUP, setup=(CardRef("Hydra"), None, CardRef("Satyr"))),
    "draw": Move(mv.DRAW),
    "play Centaur c2r3": Move(mv.PLAY, card=CardRef("Centaur"), col=2, row=3),
    "play Hydra@zeus c1r1": Move(mv.PLAY, card=CardRef("Hydra", 1), col=1, row=1),
    "challenge c3": Move(mv.CHALLENGE, col=3),
    "pegasus hand": Move(mv.PEGASUS_HAND),
    "pegasus c1": Move(mv.PEGASUS_FRONT, col=1),
    "place c2": Move(mv.PLACE, col=2),
    "pythia spy": Move(mv.PYTHIA_SPY),
    "pythia c3": Move(mv.PYTHIA_TURN, col=3),
    "sirens": Move(mv.SIRENS),
    "hades Pegasus": Move(mv.HADES, card=CardRef("Pegasus")),
    "persephone": Move(mv.PERSEPHONE),
    "dionysus c1r2 c3r1": Move(mv.DIONYSUS, col=1, row=2, to_col=3, to_row=1),
    "god c2": Move(mv.GOD, col=2),
    "recall": Move(mv.RECALL),
    "top Hydra": Move(mv.TOP, card=CardRef("Hydra")),
    "chance Argus": Move(mv.CHANCE, card=CardRef("Argus")),
    "chance Satyr@hera": Move(mv.CHANCE, card=CardRef("Satyr", 0)),
}


@pytest.mark.parametrize("text", sorted(EXAMPLES))
def test_every_move_form_parses_and_prints_back(text):
    move = parse_move(text, DECK)
    assert move == EXAMPLES[text]
    assert str(move) == text


@pytest.mark.parametrize(
    "text, canonical_text",
    [("PLAY hydra C2R3", "play Hydra c2r3"), ("  draw  ", "draw"), ("Pegasus HAND", "pegasus hand"), ("hades hera", "hades Hera")],
)
def test_names_and_keywords_are_case_insensitive(text, canonical_text):
    assert str(parse_move(text, DECK)) == canonical_text


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("fly c1", "unknown move"),
        ("play Unicorn c1r1", "unknown card 'Unicorn'"),
        ("play Hydra c4r1", "expected a slot"),
        ("play Hydra c1r5", "expected a slot"),
        ("challenge c0", "expected a column"),
        ("draw now", "expected 'draw'"),
        ("setup Hydra Hydra", "expected 'setup A B C'"),
        ("play Hydra@poseidon c1r1", "owner must be hera or zeus"),
        ("dionysus c1r1", "expected 'dionysus cXrY cZrW'"),
    ],
)
def test_bad_text_names_what_is_wrong(text, words):
    with pytest.raises(NotationError) as info:
        parse_move(text, DECK)
    assert words in str(info.value)
