"""The integer action ids (hzai.games.hera_zeus.rules.actions, docs/actions.md) and the core's notation."""

from __future__ import annotations

import pytest

from hzai.games.hera_zeus.cards import parse_deck
from hzai.games.hera_zeus.native.state import native_game
from hzai.games.hera_zeus.rules import Game, parse_move
from hzai.games.hera_zeus.rules.actions import ActionError, action_space, decode, encode
from hzai.games.hera_zeus.rules.moves import CardRef, Move

from .decks import small_game


@pytest.mark.parametrize("game", [Game.create(), small_game()], ids=["classic", "small"])
def test_every_id_round_trips_and_prints_like_the_reference(game):
    space = action_space(game.deck)
    core = native_game(game)
    assert core.n_actions == space.size
    texts = []
    for a in range(space.size):
        move = space.decode(a)
        assert space.encode(move) == a
        text = core.action_text(a)
        assert text == str(move)
        assert parse_move(text, game.deck) == move
        texts.append(text)
    assert len(set(texts)) == space.size  # one text per id


def test_layout_of_the_classic_deck():
    space = action_space(Game.create().deck)
    assert space.names[:4] == ("Io", "Hera", "Poseidon", "Nemesis")
    assert len(space.names) == 21
    assert space.offsets["draw"] == 0 and space.offsets["play"] == 1
    assert space.size == 1 + 63 * 12 + 3 + 1 + 3 + 3 + 1 + 3 + 1 + 63 + 1 + 144 + 3 + 1 + 21 + 63 + 22**3


def test_examples():
    deck = Game.create().deck
    assert encode(Move("draw"), deck) == 0
    hydra = action_space(deck).names.index("Hydra")
    assert encode(parse_move("play Hydra c2r3", deck), deck) == 1 + (3 * hydra * 3 + 1) * 4 + 2
    assert encode(parse_move("play Hydra@zeus c1r1", deck), deck) == 1 + (3 * hydra + 2) * 3 * 4
    assert decode(encode(parse_move("setup Hydra - Io", deck), deck), deck) == parse_move("setup Hydra - Io", deck)
    assert str(decode(encode(parse_move("dionysus c3r4 c1r1", deck), deck), deck)) == "dionysus c3r4 c1r1"


def test_bad_input_raises_action_error():
    deck = Game.create().deck
    with pytest.raises(ActionError):
        decode(-1, deck)
    with pytest.raises(ActionError):
        decode(action_space(deck).size, deck)
    with pytest.raises(ActionError):
        encode(Move("play", card=CardRef("Unicorn"), col=1, row=1), deck)
    with pytest.raises(ActionError):
        encode(Move("challenge", col=4), deck)
    with pytest.raises(ActionError):
        encode(Move("setup", setup=(CardRef("Hydra", 1), None, None)), deck)
    with pytest.raises(ValueError):
        native_game(Game.create()).action_text(10**6)


def test_deck_decides_the_space():
    text = """
    [[cards]]
    name = { hera = "Io", zeus = "Argus" }
    kind = "hostage"
    count = 1
    [[cards]]
    name = { hera = "Hera", zeus = "Zeus" }
    kind = "god"
    count = 1
    [[cards]]
    name = "Hydra"
    strength = 5
    kind = "plain"
    count = 7
    """
    deck = parse_deck(text)
    space = action_space(deck)
    assert space.names == ("Io", "Hera", "Hydra", "Argus", "Zeus")
    assert native_game(Game(deck)).n_actions == space.size
