"""The board drawn for a seat remembers what the seat has learned of the opponent's
hidden cards (its information set): after Hera's Pythia and the challenges that follow
in this game, she knows where Zeus's hostage is not, and her board says so."""

from __future__ import annotations

from hzai.games.hera_zeus.belief import view_of
from hzai.games.hera_zeus.render import render
from hzai.games.hera_zeus.rules import Game, Record, deal
from hzai.rng import SplitMix64

SEED = 1


def after_pythia():
    """Seed 1's deal, random moves until Hera can play Pythia, then the first legal move
    six times more (challenges and a draw): the position of the test."""
    game = Game.create({})
    state = Record(game, setup=deal(game, SEED)).replay()
    rng = SplitMix64(SEED)
    for _ in range(120):
        moves = state.legal_moves()
        pythia = [m for m in moves if str(m).startswith("pythia") and state.to_move == 0]
        state = state.copy()
        state.push(pythia[0] if pythia else moves[rng.below(len(moves))])
        if pythia:
            break
    assert pythia, "no Pythia for Hera in this game any more: pick another seed"
    for _ in range(6):
        state = state.copy()
        state.push(state.legal_moves()[0])
    return state


def test_the_seats_board_says_what_it_knows_of_hidden_cards():
    state = after_pythia()
    zeus = view_of(state, 0).to_json()["sides"]["zeus"]["columns"]
    excluded = sorted(f"c{c + 1}r{r + 1}" for c, column in enumerate(zeus) for r, slot in enumerate(column)
                      if "Argus" in slot.get("excluded", []))
    assert excluded  # the information set holds the knowledge...
    hera = render(state, 0)
    assert f"      you know: no Argus at {', '.join(excluded)}" in hera.splitlines()  # ...and the board shows it
    assert "[Name] hidden but known to you" in hera
    assert "you know" not in render(state, None) and "you know" not in render(state, 1).split("HERA")[0]
